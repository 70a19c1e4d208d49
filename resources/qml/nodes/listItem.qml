// listItem: leading icon, headline, supporting text and a trailing switch, checkbox or icon.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material
import ".."

Item {
    id: li
    property bool defaultFillW: true
    readonly property var trailing: d.p.trailing || null
    readonly property bool toggle: trailing !== null && (trailing.type === "switch" || trailing.type === "checkbox")
    readonly property bool on: {
        d.n.rev;
        return toggle && preview.value(d.n, trailing.stateKey) === true;
    }
    implicitHeight: d.p.supporting ? 72 : 56
    implicitWidth: 16 + (d.p.leadingIcon ? 40 : 0) + Math.max(head.implicitWidth, sup.implicitWidth) + 24 + (trailing ? 52 : 0)
    MouseArea {
        anchors.fill: parent
        onClicked: {
            if (li.toggle && !d.tappable) preview.setValue(d.n, li.trailing.stateKey, !li.on);
            preview.tap(d.n, "");
        }
    }
    MIcon {
        id: lead
        visible: !!d.p.leadingIcon
        name: d.p.leadingIcon || ""
        x: 16
        anchors.verticalCenter: parent.verticalCenter
    }
    Column {
        anchors.left: parent.left
        anchors.leftMargin: d.p.leadingIcon ? 56 : 16
        anchors.right: tail.left
        anchors.rightMargin: 16
        anchors.verticalCenter: parent.verticalCenter
        RoleText {
            id: head
            width: parent.width
            role: "bodyLarge"
            text: {
                d.n.rev;
                return preview.text(d.n, d.p.headline || "");
            }
            color: d.ts.color || preview.colors.onSurface
        }
        RoleText {
            id: sup
            width: parent.width
            visible: !!d.p.supporting
            role: "bodyMedium"
            text: {
                d.n.rev;
                return d.p.supporting ? preview.text(d.n, d.p.supporting) : "";
            }
            color: preview.colors.onSurfaceVariant
        }
    }
    Item {
        id: tail
        anchors.right: parent.right
        anchors.rightMargin: li.trailing ? 24 : 0
        anchors.verticalCenter: parent.verticalCenter
        width: li.trailing ? (li.trailing.type === "switch" ? sw.implicitWidth : li.trailing.type === "checkbox" ? 24 : 24) : 0
        height: 32
        MSwitch {
            id: sw
            visible: li.trailing !== null && li.trailing.type === "switch"
            anchors.centerIn: parent
            checked: li.on
            onToggled: (on) => preview.setValue(d.n, li.trailing.stateKey, on)
        }
        CheckBox {
            visible: li.trailing !== null && li.trailing.type === "checkbox"
            anchors.centerIn: parent
            padding: 0
            checked: li.on
            onToggled: if (!preview.setValue(d.n, li.trailing.stateKey, checked)) checked = Qt.binding(() => li.on)
        }
        MIcon {
            visible: li.trailing !== null && li.trailing.type === "icon"
            anchors.centerIn: parent
            name: li.trailing && li.trailing.type === "icon" ? li.trailing.name : ""
        }
    }
}
