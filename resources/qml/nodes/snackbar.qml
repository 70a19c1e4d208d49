// snackbar: a short message at the bottom of the window with an optional action, open while its
// openWhen holds (MC `RenderPrototypeSnackbar`: `Snackbar(modifier.padding(12.dp), action)`).
// Not modal: touches outside it reach the screen. inverseSurface with inverseOnSurface bodyMedium
// text, the action a TextButton in inversePrimary, the theme's extraSmall corner, 6 dp shadow,
// 12 dp from the window's edges, at least 48 dp tall. The action closes it, then runs its onTap
// (RT `CloseModal`); `durationMs` closes it after that long (MC `awaitSnackbarTimeout`).
import QtQuick
import ".."
import "../Corners.js" as Corners

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
            anchors.margins: 12
            height: Math.max(48, msg.implicitHeight + 28)
            radius: Corners.of(preview, "extraSmall")
            color: preview.colors.inverseSurface
            Shadow { anchors.fill: parent; elevation: 6; radius: parent.radius; z: -1 }
            RoleText {
                id: msg
                anchors.left: parent.left
                anchors.leftMargin: 16
                anchors.right: action.visible ? action.left : parent.right
                anchors.rightMargin: action.visible ? 8 : 16
                anchors.verticalCenter: parent.verticalCenter
                role: "bodyMedium"
                wrapMode: Text.Wrap
                color: preview.colors.inverseOnSurface
                text: { d.rev; return preview.text(d.n, d.p.text || ""); }
            }
            MButton {
                id: action
                visible: !!d.p.action
                anchors.right: parent.right
                anchors.rightMargin: 8
                anchors.verticalCenter: parent.verticalCenter
                variant: "text"
                padStart: 12; padEnd: 12
                textColor: preview.colors.inversePrimary
                rippleColor: preview.colors.inversePrimary  // SnackbarDefaults.actionColor: its content colour
                text: {
                    preview.rtl;  // read again in the other direction (bidi.py)
                    return d.p.action ? preview.text(d.n, d.p.action.label) : "";
                }
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
