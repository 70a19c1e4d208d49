// switch: a Material 3 switch (optional label) bound to a boolean state key.
import QtQuick
import ".."

Item {
    readonly property bool on: {
        d.n.rev;
        return preview.value(d.n, d.p.stateKey) === true;
    }
    implicitWidth: (d.p.label ? label.implicitWidth + 16 : 0) + sw.implicitWidth
    implicitHeight: Math.max(sw.implicitHeight, label.implicitHeight)
    StyledText {
        id: label
        visible: !!d.p.label
        role: "bodyLarge"
        anchors.left: parent.left
        anchors.right: sw.left
        anchors.rightMargin: 16
        anchors.verticalCenter: parent.verticalCenter
        wrapMode: Text.NoWrap
        elide: Text.ElideRight
        text: {
            d.n.rev;
            return d.p.label ? preview.text(d.n, d.p.label) : "";
        }
    }
    MSwitch {
        id: sw
        anchors.right: parent.right
        anchors.verticalCenter: parent.verticalCenter
        checked: parent.on
        onToggled: (on) => preview.setValue(d.n, d.p.stateKey, on)
    }
}
