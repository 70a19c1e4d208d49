// scroll: a vertical (default) or horizontal scrolling container. Its child is measured without a
// bound on the scrolling axis; the scroll wraps it up to the space available (SC "scroll":
// `Box(modifier.verticalScroll(scroll))`, layout.py `_scroll`). Only the part of the child in view
// (and half a viewport ahead) is instantiated: each move tells the layout where the view is.
//
// It scrolls as the phone's: `verticalScroll` / `horizontalScroll` keep Compose's default
// overscroll and fling (SC "scroll" passes neither). A drag past an edge stretches the content
// (EdgeStretch.qml), and a fling runs Compose's spline decay (`ScrollableDefaults.flingBehavior()`,
// Overscroll.js) in place of Qt's constant deceleration: Qt's flick is cancelled as it starts and
// its release velocity drives the spline, which meets an edge as Compose's does, its velocity left
// over going to the stretch.
import QtQuick
import ".."
import "../Overscroll.js" as Overscroll

Flickable {
    id: f
    readonly property bool horizontal: d.p.axis === "horizontal"
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    contentWidth: d.g.contentW || 0
    contentHeight: d.g.contentH || 0
    clip: true
    flickableDirection: horizontal ? Flickable.HorizontalFlick : Flickable.VerticalFlick
    // Past a bound the content stays (the stretch draws the pull); without the stretch a drag
    // stops at the bound as before.
    boundsBehavior: stretch.on ? Flickable.DragOverBounds : Flickable.StopAtBounds
    boundsMovement: Flickable.StopAtBounds
    contentItem.transform: EdgeStretch {
        id: stretch
        flick: f
        vertical: !f.horizontal
    }
    // Right to left a horizontal scroll starts at its content's right end (horizontalScroll
    // places its content relative to the layout direction), until the designer moves it.
    readonly property bool fromEnd: preview.rtl === 1 && horizontal
    property bool moved: false
    function toStart() {
        if (!moved) contentX = fromEnd ? Math.max(0, contentWidth - width) : 0;
    }
    onFromEndChanged: { moved = false; toStart(); }
    onContentWidthChanged: if (fromEnd) toStart()
    onWidthChanged: if (fromEnd) toStart()
    onMovementStarted: {
        moved = true;
        fling.stop();  // a new drag stops a fling
    }
    Component.onCompleted: if (fromEnd) toStart()
    onContentXChanged: preview.scrolled(d.n, contentX, contentY)
    onContentYChanged: preview.scrolled(d.n, contentX, contentY)
    Kids {}

    // The fling under way: the release velocity (dp/s, > 0 towards the end), where it started,
    // how far and how long it goes (FlingCalculator `flingInfo`) and how long it has run.
    property real flingVelocity: 0
    property real flingFrom: 0
    property real flingDistance: 0
    property real flingDuration: 0
    property real flingElapsed: 0
    readonly property bool flingRunning: fling.running
    // Qt caps the release velocity it reports with this (2500 by default); Compose with
    // ViewConfiguration's maximum fling velocity, 8000 dp/s.
    maximumFlickVelocity: Overscroll.MAX_FLING_VELOCITY
    property FrameAnimation fling: FrameAnimation {
        running: false
        onTriggered: f.flingStep(frameTime)
    }
    // A touch stops a fling (Compose's scrollable cancels it on the next press), here once the
    // press lands, not at the first move of a drag.
    PointHandler {
        enabled: f.flingRunning
        onActiveChanged: if (active) f.fling.stop()
    }
    onFlickStarted: {
        var v = horizontal ? horizontalVelocity : verticalVelocity;
        cancelFlick();
        startFling(v);
    }
    function startFling(v) {
        fling.stop();
        if (stretch.catchFling(v))
            return;
        v = Math.max(-Overscroll.MAX_FLING_VELOCITY, Math.min(Overscroll.MAX_FLING_VELOCITY, v));
        flingVelocity = v;
        flingFrom = horizontal ? contentX : contentY;
        flingDistance = (v < 0 ? -1 : 1) * Overscroll.flingDistance(v);
        flingDuration = Overscroll.flingDuration(v);
        flingElapsed = 0;
        if (flingDuration > 0)
            fling.start();
    }
    // One frame of the spline (FlingCalculator.FlingInfo `position`, `velocity`); at a bound the
    // scroll stops and the velocity it still had goes to the edge (DefaultFlingBehavior
    // `performFling` returns it, `applyToFling` absorbs it).
    function flingStep(dt) {
        flingElapsed += dt * 1000;
        var at = Overscroll.flingPosition(flingElapsed / flingDuration);
        var target = flingFrom + flingDistance * at[0];
        var start = horizontal ? originX : originY;
        var end = start + Math.max(0, horizontal ? contentWidth - width : contentHeight - height);
        var edge = target < start ? start : (target > end ? end : NaN);
        var pos = isNaN(edge) ? target : edge;
        if (horizontal) contentX = pos; else contentY = pos;
        if (!isNaN(edge)) {
            fling.stop();
            stretch.absorb(at[1] * flingDistance / flingDuration * 1000);
        } else if (flingElapsed >= flingDuration) {
            fling.stop();
        }
    }
}
