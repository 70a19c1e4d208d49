// dialog: a Material 3 basic dialog over a scrim (icon, title, text, child, dismiss/confirm),
// open while its openWhen condition holds; the buttons run their actions and close it.
import QtQuick
import ".."

Item {
    implicitWidth: 0
    implicitHeight: 0
    Overlay {
        id: layer
        Rectangle {
            anchors.fill: parent
            color: "#52000000"
            MouseArea { anchors.fill: parent; onClicked: preview.closeOverlay(d.n, "dismiss") }
        }
        Item {
            id: card
            anchors.centerIn: parent
            width: Math.min(560, Math.max(280, layer.width - 48))
            height: Math.min(layer.height - 48, body.implicitHeight + 48)
            Shadow { anchors.fill: parent; elevation: 3; radius: 28 }
            Rectangle {
                anchors.fill: parent
                radius: 28
                color: preview.colors.surfaceContainerHigh
                MouseArea { anchors.fill: parent }
            }
            Column {
                id: body
                x: 24; y: 24
                width: parent.width - 48
                spacing: 16
                MIcon {
                    visible: !!d.p.icon
                    name: d.p.icon || ""
                    color: preview.colors.secondary
                    width: parent.width
                }
                RoleText {
                    visible: !!d.p.title
                    width: parent.width
                    role: "headlineSmall"
                    wrapMode: Text.Wrap
                    horizontalAlignment: d.p.icon ? Text.AlignHCenter : Text.AlignLeft
                    text: { d.n.rev; return d.p.title ? preview.text(d.n, d.p.title) : ""; }
                }
                RoleText {
                    visible: !!d.p.text
                    width: parent.width
                    role: "bodyMedium"
                    wrapMode: Text.Wrap
                    color: preview.colors.onSurfaceVariant
                    text: { d.n.rev; return d.p.text ? preview.text(d.n, d.p.text) : ""; }
                }
                NodeDelegate {
                    visible: d.n.kids.length > 0 && shown
                    n: d.n.kids.length > 0 ? d.n.kids[0] : null
                    inh: d.ts
                    width: fillW ? parent.width : Math.min(implicitWidth, parent.width)
                }
                Row {
                    anchors.right: parent.right
                    spacing: 8
                    MButton {
                        visible: !!d.p.dismiss
                        variant: "text"
                        text: d.p.dismiss ? preview.text(d.n, d.p.dismiss.label) : ""
                        onClicked: preview.closeOverlay(d.n, "dismiss")
                    }
                    MButton {
                        variant: "text"
                        text: d.p.confirm ? preview.text(d.n, d.p.confirm.label) : ""
                        onClicked: preview.closeOverlay(d.n, "confirm")
                    }
                }
            }
        }
    }
}
