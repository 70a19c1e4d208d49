// card: filled, elevated or outlined container; its children are laid out as a column.
import QtQuick
import ".."

Item {
    id: card
    readonly property string variant: d.p.variant || "filled"
    readonly property real radius: d.st.hasRadius ? d.st.radius : preview.corners[1]
    implicitWidth: body.item ? body.item.implicitWidth : 0
    implicitHeight: body.item ? body.item.implicitHeight : 0
    Shadow {
        anchors.fill: parent
        visible: card.variant === "elevated" && !(d.st.elevation > 0)
        elevation: 1
        radius: card.radius
    }
    Rectangle {
        anchors.fill: parent
        visible: d.st.bg === "" && !d.st.grad
        radius: card.radius
        color: card.variant === "elevated" ? preview.colors.surfaceContainerLow
            : card.variant === "outlined" ? preview.colors.surface : preview.colors.surfaceContainerHighest
        border.width: card.variant === "outlined" ? 1 : 0
        border.color: preview.colors.outlineVariant
    }
    Loader {
        id: body
        anchors.fill: parent
        source: "column.qml"
    }
}
