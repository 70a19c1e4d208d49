// The device screen: backdrop, window placement (fullscreen + scrim, sheet, floating, opacity),
// the root node, the overlay layer for dialogs/sheets/snackbars, and edit-mode picking.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material

Rectangle {
    id: screen
    objectName: "screen"
    width: preview.deviceWidth
    height: preview.deviceHeight
    clip: true
    color: preview.colors.background || "#FFFFFF"

    Material.theme: preview.dark ? Material.Dark : Material.Light
    Material.primary: preview.colors.primary || "#6750A4"
    Material.accent: preview.colors.primary || "#6750A4"
    Material.foreground: preview.colors.onSurface || "#1D1B20"
    Material.background: preview.colors.surface || "#FEF7FF"

    readonly property var placement: preview.window
    readonly property string kind: placement.type || "fullscreen"
    property alias overlayLayer: overlay
    readonly property alias rootDelegate: rootDelegate

    // What sits under a sheet or floating window: a plain "app below" (surface and a few bars).
    Column {
        visible: screen.kind !== "fullscreen"
        x: 24; y: 72; spacing: 16
        Repeater {
            model: 6
            Rectangle {
                required property int index
                width: screen.width - 48 - (index % 3) * 60
                height: 14; radius: 7
                color: preview.colors.surfaceContainerHighest || "#E6E0E9"
            }
        }
    }
    Rectangle {
        anchors.fill: parent
        visible: screen.placement.scrim !== undefined
        color: screen.placement.scrim || "transparent"
    }
    Item {
        id: windowBox
        objectName: "window"
        opacity: screen.placement.opacity === undefined ? 1 : screen.placement.opacity
        readonly property string gravity: screen.placement.gravity || "center"
        readonly property var offset: screen.placement.offset || ({x: 0, y: 0})
        width: screen.kind === "floating" ? Math.min(screen.width, rootDelegate.implicitWidth) : screen.width
        height: screen.kind === "sheet" ? Math.min(screen.height, screen.placement.height || 0)
            : screen.kind === "floating" ? Math.min(screen.height, rootDelegate.implicitHeight)
            : screen.height
        x: {
            if (screen.kind !== "floating") return 0;
            var g = gravity.toLowerCase();
            var base = g.endsWith("start") ? 0 : g.endsWith("end") ? screen.width - width : (screen.width - width) / 2;
            return base + (offset.x || 0);
        }
        y: {
            if (screen.kind === "sheet") return screen.placement.edge === "top" ? 0 : screen.height - height;
            if (screen.kind !== "floating") return 0;
            var g = gravity.toLowerCase();
            var base = g.startsWith("top") ? 0 : g.startsWith("bottom") ? screen.height - height : (screen.height - height) / 2;
            return base + (offset.y || 0);
        }
        Rectangle {
            // A sheet window reads as a Material sheet even when its root draws no background.
            anchors.fill: parent
            visible: screen.kind === "sheet"
            color: preview.colors.surfaceContainerLow || "#F7F2FA"
            topLeftRadius: screen.placement.edge === "top" ? 0 : 28
            topRightRadius: topLeftRadius
            bottomLeftRadius: screen.placement.edge === "top" ? 28 : 0
            bottomRightRadius: bottomLeftRadius
        }
        NodeDelegate {
            id: rootDelegate
            n: preview.root
            inh: ({})
            width: fillW || screen.kind === "floating" ? parent.width : Math.min(parent.width, implicitWidth)
            height: fillH || screen.kind === "floating" ? parent.height : Math.min(parent.height, implicitHeight)
        }
    }
    Item {
        id: overlay
        objectName: "overlay"
        anchors.fill: parent
        z: 10
    }
    MouseArea {
        // Edit mode: a click selects the deepest node under the pointer, running no action.
        anchors.fill: parent
        z: 1000
        enabled: preview.editMode
        visible: enabled
        onClicked: (mouse) => {
            var found = screen.nodeAt(mouse.x, mouse.y);
            if (found) preview.pick(found.address);
        }
    }

    function deepest(item, x, y) {
        var kids = item.children;
        for (var i = kids.length - 1; i >= 0; --i) {
            var c = kids[i];
            if (!c.visible || c.opacity <= 0) continue;
            var pt = item.mapToItem(c, x, y);
            if (pt.x < 0 || pt.y < 0 || pt.x > c.width || pt.y > c.height) continue;
            var hit = deepest(c, pt.x, pt.y);
            if (hit) return hit;
        }
        if (item.isNodeDelegate) return item;
        if (item.ownerDelegate) return item.ownerDelegate;
        return null;
    }
    function nodeAt(x, y) {
        var hit = deepest(overlay, x, y);
        return hit ? hit : deepest(windowBox, mapToItem(windowBox, x, y).x, mapToItem(windowBox, x, y).y);
    }
}
