// snackbar: a short message at the bottom with an optional action; closes after durationMs.
import QtQuick
import ".."

Item {
    implicitWidth: 0
    implicitHeight: 0
    Overlay {
        id: layer
        Rectangle {
            id: bar
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.bottom: parent.bottom
            anchors.margins: 16
            height: Math.max(48, msg.implicitHeight + 28)
            radius: 4
            color: preview.colors.inverseSurface
            Shadow { anchors.fill: parent; elevation: 3; radius: 4; z: -1 }
            RoleText {
                id: msg
                anchors.left: parent.left
                anchors.leftMargin: 16
                anchors.right: action.visible ? action.left : parent.right
                anchors.rightMargin: 8
                anchors.verticalCenter: parent.verticalCenter
                role: "bodyMedium"
                wrapMode: Text.Wrap
                color: preview.colors.inverseOnSurface
                text: { d.n.rev; return preview.text(d.n, d.p.text || ""); }
            }
            MButton {
                id: action
                visible: !!d.p.action
                anchors.right: parent.right
                anchors.rightMargin: 8
                anchors.verticalCenter: parent.verticalCenter
                variant: "text"
                textColor: preview.colors.inversePrimary
                text: d.p.action ? preview.text(d.n, d.p.action.label) : ""
                onClicked: preview.closeOverlay(d.n, "action")
            }
        }
        Timer {
            interval: d.p.durationMs || 4000
            running: layer.open && !!d.p.durationMs && !preview.editMode
            onTriggered: preview.closeOverlay(d.n, "timeout")
        }
    }
}
