// A Material Symbols glyph by icon name.
import QtQuick

Text {
    property string name: ""
    property real size: 24
    text: preview.glyph(name)
    font.family: preview.iconFont
    font.pixelSize: size
    color: preview.colors.onSurfaceVariant || "#49454F"
    horizontalAlignment: Text.AlignHCenter
    verticalAlignment: Text.AlignVCenter
}
