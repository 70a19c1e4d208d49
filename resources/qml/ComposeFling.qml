// How a Compose scrollable behaves when the finger lifts and when it comes back, for a Flickable
// that scrolls as the phone's (a scroll node; the date picker's year list):
//     ComposeFling { flick: f; horizontal: ...; stretch: edges }
// - The fling: on every release Scrollable `onDragStopped` hands the finger's velocity to the
//   default fling behaviour, the spline decay (SplineFling.qml), also one too slow for Qt to
//   flick (that one ends the movement with no flick). The velocity is the finger's as Compose's
//   VelocityTracker estimates it (`preview.releaseVelocity`, studio/preview/fingers.py), not
//   Qt's; the content moves against the finger. Qt's flick is cancelled as it starts.
// - A new drag stops the fling; so does a press (Compose's scrollable cancels it on the next
//   press), here once the press lands, not at the first move.
// - That press is the scroll's, not the content's: on a scroll in progress Scrollable starts its
//   drag at the press (`startDragImmediately`) and consumes it, so a clickable under the finger
//   sees its gesture consumed and does not click. Over the viewport while a fling runs, `catcher`
//   takes the press from the content and keeps it until the release; a drag from it is the
//   Flickable's, which steals a child's press once the finger moves.
import QtQuick

Item {
    id: cf
    required property Flickable flick
    property bool horizontal: false
    property EdgeStretch stretch: null
    // Another animation of the scroll's own runs (a tab row centring its tab): a press stops it
    // and is consumed as one during a fling (`caught`).
    property bool busy: false
    signal caught()
    readonly property SplineFling flinger: spline
    parent: flick
    anchors.fill: parent
    z: 1

    function releaseVelocity() {
        var r = preview.releaseVelocity(flick);
        return -(horizontal ? r.x : r.y);
    }

    SplineFling {
        id: spline
        flick: cf.flick
        horizontal: cf.horizontal
        stretch: cf.stretch
    }

    property bool released: false
    Connections {
        target: cf.flick
        function onDraggingChanged() {
            cf.released = !cf.flick.dragging;
        }
        function onMovementStarted() {
            spline.stop();
        }
        function onFlickStarted() {
            cf.released = false;
            cf.flick.cancelFlick();
            spline.fling(cf.releaseVelocity());
        }
        function onMovementEnded() {
            if (cf.released) {
                cf.released = false;
                spline.fling(cf.releaseVelocity());
            }
        }
    }

    MouseArea {
        id: catcher
        objectName: "flingCatcher"
        anchors.fill: parent
        property bool holding: false
        enabled: spline.running || cf.busy || holding
        onPressed: {
            holding = true;
            spline.stop();
            cf.caught();
        }
        onReleased: holding = false
        onCanceled: holding = false
    }
}
