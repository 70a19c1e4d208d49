// Compose's default fling on a scrolling Flickable (a scroll node, the scrollable tab row):
// `ScrollableDefaults.flingBehavior()`, a DefaultFlingBehavior over the spline decay
// (FlingCalculator.kt `flingInfo`, Overscroll.js), in place of Qt's constant deceleration.
// ComposeFling.qml cancels Qt's flick as it starts and hands the release velocity to `fling`.
// A fling that meets a bound stops there and gives the velocity it still had to the edge's stretch
// (DefaultFlingBehavior `performFling` returns it, the overscroll's `applyToFling` absorbs it).
import QtQuick
import "Overscroll.js" as Overscroll

FrameAnimation {
    id: a
    objectName: "splineFling"
    required property Flickable flick
    property bool horizontal: false
    property EdgeStretch stretch: null
    // The fling under way: the release velocity (dp/s, > 0 towards the end), where it started,
    // how far and how long it goes and how long it has run (ms, on the animation clock).
    property real velocity: 0
    property real from: 0
    property real distance: 0
    property real duration: 0
    property real elapsed: 0
    running: false
    onTriggered: step(frameTime)

    function fling(v) {
        stop();
        if (stretch && stretch.catchFling(v))
            return;
        v = Math.max(-Overscroll.MAX_FLING_VELOCITY, Math.min(Overscroll.MAX_FLING_VELOCITY, v));
        velocity = v;
        from = horizontal ? flick.contentX : flick.contentY;
        distance = (v < 0 ? -1 : 1) * Overscroll.flingDistance(v);
        duration = Overscroll.flingDuration(v);
        elapsed = 0;
        if (duration > 0)
            start();
    }

    // One frame of the spline (FlingCalculator.FlingInfo `position`, `velocity`).
    function step(dt) {
        elapsed += dt * 1000;
        var at = Overscroll.flingPosition(elapsed / duration);
        var target = from + distance * at[0];
        var f = flick;
        var start = horizontal ? f.originX : f.originY;
        var end = start + Math.max(0, horizontal ? f.contentWidth - f.width : f.contentHeight - f.height);
        var edge = target < start ? start : (target > end ? end : NaN);
        var pos = isNaN(edge) ? target : edge;
        if (horizontal) f.contentX = pos; else f.contentY = pos;
        if (!isNaN(edge)) {
            stop();
            if (stretch)
                stretch.absorb(at[1] * distance / duration * 1000);
        } else if (elapsed >= duration) {
            stop();
        }
    }
}
