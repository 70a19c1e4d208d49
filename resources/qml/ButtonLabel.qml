// A common button's label: labelLarge as ButtonDefaults draws it (14 sp scaled, weight 500,
// 0.1 letter spacing). MButton draws it; the layout measures it (Measure.qml).
import QtQuick

Text {
    font.family: preview.fontFamily
    font.pixelSize: 14 * preview.typeScale
    font.weight: 500
    font.letterSpacing: 0.1
    elide: Text.ElideRight
    // A direction mark (studio/preview/bidi.py) starts a line on its start side and Qt gives it the
    // letter spacing of a glyph: given back here, so the text sizes and sits as if unmarked.
    leftPadding: text.charCodeAt(0) === 0x200E ? -font.letterSpacing : 0
    rightPadding: text.charCodeAt(0) === 0x200F ? -font.letterSpacing : 0
}
