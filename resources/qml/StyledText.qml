// A Text that applies a node's text style over a Material type role (used by most node types).
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
    color: ts.color || defaultColor
    font.family: ts.family || preview.fontFamily
    font.pixelSize: ts.size || base.size
    font.weight: ts.weight || base.weight
    font.italic: ts.italic === true
    font.letterSpacing: ts.letterSpacing !== undefined ? ts.letterSpacing : base.letterSpacing
    font.underline: d.st.decoration === "underline" || d.st.decoration === "underlineLineThrough"
    font.strikeout: d.st.decoration === "lineThrough" || d.st.decoration === "underlineLineThrough"
    lineHeightMode: Text.FixedHeight
    lineHeight: ts.lineHeight || base.lineHeight
    wrapMode: Text.Wrap
    maximumLineCount: d.st.maxLines > 0 ? d.st.maxLines : 100000
    elide: d.st.overflow === "ellipsis" && d.st.maxLines > 0 ? Text.ElideRight : Text.ElideNone
    clip: d.st.overflow === "clip"
    horizontalAlignment: ts.align === "center" ? Text.AlignHCenter : ts.align === "end" ? Text.AlignRight
        : ts.align === "justify" ? Text.AlignJustify : Text.AlignLeft
    verticalAlignment: Text.AlignTop
    textFormat: Text.PlainText
}
