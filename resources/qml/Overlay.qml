// The floating layer of a dialog, bottom sheet or snackbar: reparented into the screen's overlay
// so it draws above the window, shown while the node is open.
import QtQuick

Item {
    id: o
    property Item ownerDelegate: d
    // Anchored nodes inside the modal are drawn above it, here (AnchoredKid.qml).
    readonly property bool anchorLayer: true
    readonly property bool open: {
        d.n.rev;
        return d.shown && preview.isOpen(d.n);
    }
    parent: overlayLayer
    anchors.fill: parent
    visible: open
}
