// iconButton: standard, filled, tonal or outlined 40dp icon button.
import QtQuick
import ".."

Item {
    readonly property string variant: d.p.variant || "standard"
    implicitWidth: 48
    implicitHeight: 48
    Rectangle {
        id: bgr
        anchors.centerIn: parent
        width: 40; height: 40; radius: 20
        color: parent.variant === "filled" ? preview.colors.primary
            : parent.variant === "tonal" ? preview.colors.secondaryContainer : "transparent"
        border.width: parent.variant === "outlined" ? 1 : 0
        border.color: preview.colors.outlineVariant
        MIcon {
            anchors.centerIn: parent
            name: d.p.icon || ""
            color: d.ts.color || (parent.parent.variant === "filled" ? preview.colors.onPrimary
                : parent.parent.variant === "tonal" ? preview.colors.onSecondaryContainer
                : preview.colors.onSurfaceVariant)
        }
        Rectangle {
            anchors.fill: parent; radius: 20
            color: preview.colors.onSurfaceVariant
            opacity: mouse.pressed ? 0.12 : 0
        }
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        onClicked: preview.tap(d.n, "")
    }
}
