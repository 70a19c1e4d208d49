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
    verticalAlignment: Text.AlignVCenter
}
