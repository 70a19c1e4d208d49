// A Text in one Material type role with the theme's family and scale (component labels).
import QtQuick

Text {
    property string role: "labelLarge"
    readonly property var base: {
        preview.themeRev;
        return preview.typeRole(role);
    }
    font.family: preview.fontFamily
    font.pixelSize: base.size
    font.weight: base.weight
    font.letterSpacing: base.letterSpacing
    color: preview.colors.onSurface || "#1D1B20"
    elide: Text.ElideRight
    textFormat: Text.PlainText
    // A direction mark (studio/preview/bidi.py) starts a line on its start side and Qt gives it the
    // letter spacing of a glyph: given back here, so the text sizes and sits as if unmarked.
    leftPadding: text.charCodeAt(0) === 0x200E ? -font.letterSpacing : 0
    rightPadding: text.charCodeAt(0) === 0x200F ? -font.letterSpacing : 0
    verticalAlignment: Text.AlignVCenter
}
