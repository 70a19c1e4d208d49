// A Text in a node's text style over a Material type role. `role: "plain"` is a text node
// without a `textStyle`: 14 sp on the body style's line height (SC "text"). Only the node's own
// style applies; nothing comes from its containers. Lines keep their glyphs centred in the line
// height, as Compose's default LineHeightStyle (Alignment.Center) does.
import QtQuick

Text {
    id: t
    property string role: "bodyLarge"
    property color defaultColor: preview.colors.onSurface || "#1D1B20"
    readonly property var ts: d.ts || ({})
    readonly property var base: {
        preview.themeRev;
        return preview.typeRole(role);
    }
    readonly property real lineBox: ts.lineHeight || base.lineHeight
    // Qt puts a fixed line height's extra leading below the glyphs; Compose centres the font's
    // height in the line box (LineHeightStyle.Alignment.Center, no font padding). The height is
    // Roboto's (ascent + descent = 1.172 em), the phone's font; no per-text font metrics object.
    readonly property real lineShift: Math.max(0, (lineBox - 1.172 * font.pixelSize) / 2)
    // Padding, not a transform: no extra scene-graph node per text.
    topPadding: lineShift
    bottomPadding: -lineShift
    color: ts.color || defaultColor
    font.family: ts.family || preview.fontFamily
    font.pixelSize: ts.size || base.size
    font.weight: ts.weight || base.weight
    font.italic: ts.italic === true
    font.letterSpacing: ts.letterSpacing !== undefined ? ts.letterSpacing : base.letterSpacing
    font.underline: d.st.decoration === "underline" || d.st.decoration === "underlineLineThrough"
    font.strikeout: d.st.decoration === "lineThrough" || d.st.decoration === "underlineLineThrough"
    lineHeightMode: Text.FixedHeight
    lineHeight: lineBox
    wrapMode: Text.Wrap
    maximumLineCount: d.st.maxLines > 0 ? d.st.maxLines : 100000
    // Overflow: clip unless `ellipsis` or `visible` (RM `mapPrototypeStyle`).
    elide: d.st.overflow === "ellipsis" ? Text.ElideRight : Text.ElideNone
    clip: d.st.overflow !== "visible" && elide === Text.ElideNone && (truncated || height + 0.5 < implicitHeight)
    horizontalAlignment: ts.align === "center" ? Text.AlignHCenter : ts.align === "end" ? Text.AlignRight
        : ts.align === "justify" ? Text.AlignJustify : Text.AlignLeft
    verticalAlignment: Text.AlignTop
    textFormat: Text.PlainText
}
