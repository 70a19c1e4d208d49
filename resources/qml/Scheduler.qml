// Deferred re-measuring of one layout container: the children's size changes of one event-loop
// pass are measured once (Qt.callLater), and the controller counts what is still queued so a
// render waits until the layout has settled.
import QtQuick

QtObject {
    id: s
    property var run: null
    property bool pending: false
    property bool measuring: false
    function schedule() {
        if (pending || measuring) return;
        pending = true;
        preview.layoutQueued(1);
        Qt.callLater(s.flush);
    }
    function flush() {
        if (!pending) return;
        pending = false;
        preview.layoutQueued(-1);
        if (run) run();
    }
    Component.onDestruction: {
        if (pending) {
            pending = false;
            preview.layoutQueued(-1);
        }
    }
}
