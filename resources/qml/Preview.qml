// The preview scene: a phone frame around the device screen (or the bare screen for renders).
// The screen is laid out at its own size in dp and drawn scaled by `fit` (a transform only, so
// zoom never changes the layout and every point still maps to the same node).
import QtQuick

Item {
    id: top
    property bool showFrame: true
    // The zoom chosen in the studio (1 = 1 dp per logical pixel); 0: fit the device in the view,
    // never above 100%. The studio makes the view large enough (it scrolls) for a fixed zoom.
    property real zoom: 0
    readonly property alias screen: screen
    // A wheel turn nothing in the prototype used (no list under it to scroll): at a fixed zoom
    // the studio scrolls the view with it.
    signal unusedWheel(real dx, real dy)

    WheelHandler {
        target: null
        enabled: top.showFrame && top.zoom > 0
        onWheel: (event) => top.unusedWheel(event.angleDelta.x, event.angleDelta.y)
    }
    readonly property real fit: !showFrame ? 1 : zoom > 0 ? zoom
        : Math.min(1, (width - 48) / (screen.width + 24), (height - 48) / (screen.height + 24))

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
