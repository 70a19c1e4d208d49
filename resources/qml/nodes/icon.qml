// icon: a Material icon by name in the node's `variant` style (filled by default), tinted with
// the node's own `style.color` or the content colour onSurface (SC "icon": `tint = style.color
// .takeOrElse { LocalContentColor.current }`). Drawn at 24 dp, or at the authored size keeping
// its square (Compose's Icon paints the 24 dp vector with ContentScale.Fit); `textSize` plays no
// part. An unknown name is a 24 dp placeholder box in surfaceVariant (SC "icon":
// `defaultMinSize(24.dp, 24.dp).background(... ?: prototypePlaceholderColor)`).
import QtQuick
import ".."

Item {
    id: root
    readonly property real side: d.st.w > 0 && d.st.h > 0 ? Math.min(d.st.w, d.st.h)
        : d.st.w > 0 ? d.st.w : d.st.h > 0 ? d.st.h : 24
    implicitWidth: side
    implicitHeight: side
    MIcon {
        id: glyph
        anchors.centerIn: parent
        name: d.p.name || ""
        variant: d.p.variant || ""
        size: Math.min(root.width, root.height)
        color: d.ts.color || preview.colors.onSurface
    }
    Rectangle {
        anchors.fill: parent
        visible: !glyph.known && !d.st.bg && !d.st.grad
        color: preview.colors.surfaceVariant
    }
}
