// A Material Icons glyph by name, in one of material-icons-extended's styles (PrototypeIcons.kt
// `IconStyle`): filled by default, outlined, rounded or sharp (twoTone: see nodes/icon.qml).
// Tinted like Compose's Icon: one colour over the whole glyph, the enclosing component's content
// colour by default (LocalContentColor = onSurface, TH `PrototypeTheme`). An unknown name draws
// nothing, as `prototypeIcon(...)?.let { Icon(...) }` does. One Text: a 2,000-node spec has
// hundreds of these.
import QtQuick

Text {
    property string name: ""
    property string variant: ""
    property real size: 24
    readonly property bool known: text !== ""
    text: variant ? preview.glyphOf(name, variant) : preview.glyph(name)
    font.family: !variant || variant === "filled" ? preview.iconFont : preview.iconFamily(variant)
    font.pixelSize: size
    width: size
    height: size
    color: preview.colors.onSurface || "#1D1B20"
    horizontalAlignment: Text.AlignHCenter
    verticalAlignment: Text.AlignVCenter
}
