// A Material Icons glyph by name, in one of material-icons-extended's styles (PrototypeIcons.kt
// `IconStyle`): filled by default, outlined, rounded, sharp, or twoTone (the outline over the
// filled glyph at 30 %). Tinted like Compose's Icon: one colour over the whole glyph, the
// enclosing component's content colour by default (LocalContentColor = onSurface, TH
// `PrototypeTheme`). An unknown name draws nothing, as `prototypeIcon(...)?.let { Icon(...) }`.
import QtQuick

Item {
    id: icon
    property string name: ""
    property string variant: ""
    property real size: 24
    property color color: preview.colors.onSurface || "#1D1B20"
    readonly property string glyph: preview.glyphOf(name, variant)
    readonly property bool known: glyph !== ""
    implicitWidth: size
    implicitHeight: size
    Text {
        // TwoTone's translucent fill layer (Material Icons TwoTone: the shape's fill at 30 %)
        visible: text !== ""
        anchors.centerIn: parent
        width: icon.size; height: icon.size
        text: icon.variant === "twoTone" ? preview.twoToneFill(icon.name) : ""
        font.family: preview.iconFont
        font.pixelSize: icon.size
        color: icon.color
        opacity: 0.3
        horizontalAlignment: Text.AlignHCenter
        verticalAlignment: Text.AlignVCenter
    }
    Text {
        anchors.centerIn: parent
        width: icon.size; height: icon.size
        text: icon.glyph
        font.family: preview.iconFamily(icon.variant)
        font.pixelSize: icon.size
        color: icon.color
        horizontalAlignment: Text.AlignHCenter
        verticalAlignment: Text.AlignVCenter
    }
}
