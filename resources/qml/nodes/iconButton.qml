// iconButton: an icon-only Material button, standard (default), filled, tonal or outlined (MC
// `RenderPrototypeIconButton`). A 40 dp circle in a 48 dp target; the 24 dp icon takes the
// button's content colour: LocalContentColor (onSurface) for standard and outlined, onPrimary on
// filled primary, onSecondaryContainer on tonal secondaryContainer; outlined has a 1 dp
// outlineVariant ring (IconButtonDefaults). `style.color` plays no part: the phone draws
// `Icon(it, contentDescription = null)` with the button's colour.
import QtQuick
import ".."

Item {
    id: root
    readonly property string variant: d.p.variant || "standard"
    implicitWidth: 48
    implicitHeight: 48
    readonly property color ink: variant === "filled" ? preview.colors.onPrimary
        : variant === "tonal" ? preview.colors.onSecondaryContainer : preview.colors.onSurface
    Rectangle {
        anchors.centerIn: parent
        width: 40; height: 40; radius: 20
        color: root.variant === "filled" ? preview.colors.primary
            : root.variant === "tonal" ? preview.colors.secondaryContainer : "transparent"
        border.width: root.variant === "outlined" ? 1 : 0
        border.color: preview.colors.outlineVariant
        MIcon {
            anchors.centerIn: parent
            name: d.p.icon || ""
            color: root.ink
        }
        Rectangle {
            anchors.fill: parent; radius: 20
            color: root.ink
            opacity: mouse.pressed ? 0.1 : 0
        }
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        onClicked: preview.tap(d.n, "")
    }
}
