// The preview scene: a phone frame around the device screen (or the bare screen for renders).
import QtQuick

Item {
    id: top
    property bool showFrame: true
    readonly property alias screen: screen
    readonly property real fit: showFrame
        ? Math.min(1, (width - 48) / (screen.width + 24), (height - 48) / (screen.height + 24)) : 1

    Rectangle {
        anchors.fill: parent
        visible: top.showFrame
        color: preview.dark ? "#1B1B1F" : "#ECEDF1"
    }
    Rectangle {
        id: bezel
        visible: top.showFrame
        anchors.centerIn: screen
        width: screen.width * top.fit + 24
        height: screen.height * top.fit + 24
        radius: 36
        color: "#202124"
    }
    DeviceScreen {
        id: screen
        x: top.showFrame ? (top.width - width) / 2 : 0
        y: top.showFrame ? (top.height - height) / 2 : 0
        scale: top.fit
    }
}
