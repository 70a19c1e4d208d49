// A Text in a node's text style over a Material type role. `role: "plain"` is a text node
// without a `textStyle`: 14 sp on the body style's line height (SC "text"). Only the node's own
// style applies (`ts`: its text style, `nodeStyle`: its maxLines, overflow and decoration);
// nothing comes from its containers. Lines keep their glyphs centred in the line height, as
// Compose's default LineHeightStyle (Alignment.Center) does. The layout measures text with
// instances of this same item (Measure.qml), so what it measures is what is drawn.
import QtQuick

Text {
    id: t
    property string role: "bodyLarge"
    property color defaultColor: preview.colors.onSurface || "#1D1B20"
    property var ts: ({})
    property var nodeStyle: ({})
    readonly property var base: {
        preview.themeRev;
        return preview.typeRole(role);
    }
    readonly property real lineBox: ts.lineHeight || base.lineHeight
    // Qt puts a fixed line height's extra leading below the glyphs; Compose centres the font's
    // height in the line box (LineHeightStyle.Alignment.Center, no font padding), a line box
    // shorter than the font too (LineHeightStyleSpan, Mode.Fixed: half the difference above).
    // The height is Roboto's as the phone lays it out (hhea ascent + descent = 1.172 em), which
    // Qt's metrics of the loaded faces are (studio/preview/fonts.py); no per-text metrics object.
    readonly property real lineShift: (lineBox - 1.172 * font.pixelSize) / 2
    // Padding, not a transform: no extra scene-graph node per text.
    topPadding: lineShift
    bottomPadding: -lineShift
    // A direction mark (studio/preview/bidi.py) starts a line on its start side and Qt gives it the
    // letter spacing of a glyph: given back here, so the text sizes and sits as if unmarked.
    leftPadding: text.charCodeAt(0) === 0x200E ? -font.letterSpacing : 0
    rightPadding: text.charCodeAt(0) === 0x200F ? -font.letterSpacing : 0
    color: ts.color || defaultColor
    font.family: ts.family || preview.fontFamily
    font.pixelSize: ts.size || base.size
    font.weight: ts.weight || base.weight
    font.italic: ts.italic === true
    font.letterSpacing: ts.letterSpacing !== undefined ? ts.letterSpacing : base.letterSpacing
    font.underline: nodeStyle.decoration === "underline" || nodeStyle.decoration === "underlineLineThrough"
    font.strikeout: nodeStyle.decoration === "lineThrough" || nodeStyle.decoration === "underlineLineThrough"
    lineHeightMode: Text.FixedHeight
    lineHeight: lineBox
    wrapMode: Text.Wrap
    maximumLineCount: nodeStyle.maxLines > 0 ? nodeStyle.maxLines : 100000
    // Overflow: clip unless `ellipsis` or `visible` (RM `mapPrototypeStyle`).
    elide: nodeStyle.overflow === "ellipsis" ? Text.ElideRight : Text.ElideNone
    clip: nodeStyle.overflow !== "visible" && elide === Text.ElideNone && (truncated || height + 0.5 < implicitHeight)
    horizontalAlignment: ts.align === "center" ? Text.AlignHCenter : ts.align === "end" ? Text.AlignRight
        : ts.align === "justify" ? Text.AlignJustify : Text.AlignLeft
    verticalAlignment: Text.AlignTop
    textFormat: Text.PlainText
}
