// A common button's label: labelLarge as ButtonDefaults draws it (14 sp scaled, weight 500,
// 0.1 letter spacing). MButton draws it; the layout measures it (Measure.qml).
import QtQuick

Text {
    font.family: preview.fontFamily
    font.pixelSize: 14 * preview.typeScale
    font.weight: 500
    font.letterSpacing: 0.1
    elide: Text.ElideRight
}
