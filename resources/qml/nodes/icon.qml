// icon: a Material icon by name in the node's `variant` style (filled by default), tinted with
// the node's own `style.color` or the content colour onSurface (SC "icon": `tint = style.color
// .takeOrElse { LocalContentColor.current }`). Drawn at 24 dp, or at the authored size keeping
// its square (Compose's Icon paints the 24 dp vector with ContentScale.Fit); `textSize` plays no
// part. An unknown name is a 24 dp placeholder box in surfaceVariant (SC "icon":
// `defaultMinSize(24.dp, 24.dp).background(... ?: prototypePlaceholderColor)`). twoTone has no
// font: the Outlined glyph over the Filled one at 30 % (Material Icons TwoTone's fill layer).
import QtQuick
import ".."

Rectangle {
    id: root
    readonly property real side: d.st.w > 0 && d.st.h > 0 ? Math.min(d.st.w, d.st.h)
        : d.st.w > 0 ? d.st.w : d.st.h > 0 ? d.st.h : 24
    readonly property color tint: d.ts.color || preview.colors.onSurface
    implicitWidth: side
    implicitHeight: side
    color: glyph.known || d.st.bg || d.st.grad ? "transparent" : preview.colors.surfaceVariant
    Loader {
        anchors.fill: glyph
        active: d.p.variant === "twoTone"
        sourceComponent: Text {
            text: preview.twoToneFill(d.p.name || "")
            font.family: preview.iconFont
            font.pixelSize: glyph.size
            color: root.tint
            opacity: 0.3
            horizontalAlignment: Text.AlignHCenter
            verticalAlignment: Text.AlignVCenter
        }
    }
    MIcon {
        id: glyph
        anchors.centerIn: parent
        name: d.p.name || ""
        variant: d.p.variant || ""
        size: Math.min(root.width, root.height)
        color: root.tint
    }
}
