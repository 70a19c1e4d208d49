// An anchored node's delegate, drawn in the window's anchor layer (DeviceScreen.qml
// `anchorLayer`) or above the dialog or sheet it sits in (Overlay.qml), at the place the layout
// gives it there (studio/preview/anchors.py; SC `PrototypeAnchorLayer`). Its authored parent
// (`authored`, that parent's Kids item) makes it and passes its locals (the content colour), so it
// keeps what its authored position provides (SC `CaptureAnchorLocals`): it is shown only while
// its ancestors are, and fades with their visibleWhen transitions (PrototypeAnchorFade.kt), never
// with their alpha, offset or clip. It fills the layer so that edit-mode picking reaches it.
import QtQuick

Item {
    id: w
    property Item authored: null
    property QtObject node: null
    property var locals: ({})
    anchors.fill: parent
    visible: authored !== null && authored.visible
    // The ancestors' transition progress (`LocalPrototypeAnchorFade`), up to the layer's own.
    opacity: {
        var f = 1;
        for (var p = authored; p && p !== w.parent && p.anchorStop !== true; p = p.parent)
            if (p.isNodeDelegate === true && p.reveal !== undefined) f *= p.reveal;
        return f;
    }
    // A node with a visibleWhen animates as in its authored place (MotionDelegate).
    Component {
        id: plain
        NodeDelegate { n: w.node; inh: w.locals }
    }
    Component {
        id: moving
        MotionDelegate { n: w.node; inh: w.locals }
    }
    // Made once: an edit that adds or removes the node's visibleWhen rebuilds its parent.
    Component.onCompleted: (w.node && w.node.conditional === 1 ? moving : plain).createObject(w)
}
