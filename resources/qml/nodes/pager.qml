// pager: horizontally swiped pages; the current page lives in the runtime (tab bars, bottom
// navs and setPage actions move it). The pager takes the width available and each page fills
// it; an unsized pager's pages also fill the height left, unless the pager is explicitly `wrap`
// (PG `prototypePageFill`, layout.py `_pager`), so an unsized pager takes the rest of a column.
// Only the pages the view shows have delegates (the current one; neighbours while swiping), and
// the layout measures just those.
//
// It moves as the phone's (SC `RenderPrototypePager`: `HorizontalPager(pager, modifier)` on
// `rememberPagerState`, Compose's defaults; the rules and numbers are in Pager.js):
// - a released swipe settles as `PagerDefaults.flingBehavior` does: the page is chosen by the
//   release velocity and the drag (`calculateFinalSnappingBound`, at most one page away), then
//   the pages spring there from the release velocity on `spring(StiffnessMediumLow)`, stopping
//   on the page (SnapFlingBehavior `animateWithTarget`, `coerceToTarget`). With at most one page
//   to go there is no decay approach (`calculateApproachOffset` is 0). The runtime hears of the
//   page once it has settled: SC sends `PagerMotion` of `settledPage` when the scroll stops, and
//   RT `handle` sets the page only then (`if (!interaction.scrolling)`). Qt's own flick and snap
//   are not used: Qt's flick is cancelled as it starts and its velocity taken.
// - a page set from outside (a tab or nav `Select`, a `setPage` action) animates while motion is
//   on: SC `LaunchedEffect(node.page, animate)` calls `pager.animateScrollToPage(node.page)`,
//   `spring()` from rest, after a jump to one page away from a target three or more pages off
//   (PagerState `MaxPagesForAnimateScroll`); with motion off (`motion: "none"`, or edit mode) it
//   calls `scrollToPage`, a jump.
//
// `HorizontalPager(pager, modifier)` keeps Compose's default overscroll: a swipe past the first or
// the last page stretches them (EdgeStretch.qml).
import QtQuick
import ".."
import "../Overscroll.js" as Overscroll
import "../Pager.js" as Pager

ListView {
    id: pv
    objectName: "pager"
    readonly property string pagerId: d.p.id || ""
    readonly property int page: { d.rev; return preview.page(pagerId); }
    readonly property real pageW: d.g.pageW || 0
    readonly property bool rtl: effectiveLayoutDirection === Qt.RightToLeft
    readonly property bool animated: preview.motion === 1 && !preview.editMode
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    orientation: ListView.Horizontal
    snapMode: ListView.NoSnap
    highlightRangeMode: ListView.NoHighlightRange
    // No current item: the view's position alone says which pages are made.
    currentIndex: -1
    // Qt caps the release velocity it reports with this (2500 by default); Compose's with
    // ViewConfiguration's maximum fling velocity, 8000 dp/s.
    maximumFlickVelocity: Overscroll.MAX_FLING_VELOCITY
    boundsBehavior: stretch.on ? Flickable.DragOverBounds : Flickable.StopAtBounds
    boundsMovement: Flickable.StopAtBounds
    contentItem.transform: EdgeStretch {
        id: stretch
        flick: pv
        vertical: false
    }
    clip: true
    interactive: !preview.editMode
    cacheBuffer: 0
    // Not the page whose edge only touches the view's (a ListView fills up to and including its
    // edges): the phone's `HorizontalPager(pager, modifier)` keeps Compose's default
    // beyondViewportPageCount, 0, so only the page on screen is composed until a swipe moves.
    displayMarginBeginning: -1
    displayMarginEnd: -1
    model: d.kids
    delegate: Item {
        id: wrapper
        required property var modelData
        required property int index
        width: pv.pageW
        height: pv.height
        MotionDelegate {
            n: wrapper.modelData
            inh: d.locals
        }
        Component.onCompleted: preview.pageMounted(d.n, index, true)
        Component.onDestruction: if (d.n) preview.pageMounted(d.n, index, false)
    }

    // Page i's contentX, and the page position a contentX shows. The ListView keeps its pages
    // where it first made them and moves its origin instead (page 0 is at originX left to right,
    // the last page there right to left); every page is pageW wide.
    function pageX(i) {
        return originX + (rtl ? count - 1 - i : i) * pageW;
    }
    function position() {
        if (pageW <= 0) return page;
        var p = (contentX - originX) / pageW;
        return rtl ? count - 1 - p : p;
    }
    // dp/s of contentX as dp/s towards the higher page
    function towardsHigher(v) {
        return rtl ? -v : v;
    }

    // -- the spring that moves the pages (a settle or a programmatic move) ---------------------
    // Where it goes (a page), from where (its displacement from there, dp, and velocity, dp/s, at
    // the start) on which stiffness; `coerce`: it stops once it reaches the page (the fling's
    // snap, `coerceToTarget`), not past it. Elapsed and duration in ms.
    property int targetPage: -1
    property real targetX: 0
    property real x0: 0
    property real v0: 0
    property real stiffness: Pager.SNAP_STIFFNESS
    property bool coerce: false
    property real elapsed: 0
    // real ms since the move began (`elapsed` is its play time)
    property real realElapsed: 0
    property real duration: 0
    // "settle" (a released swipe) or "scroll" (animateScrollToPage), "" at rest
    property string moveKind: ""
    readonly property bool settling: spring.running
    property FrameAnimation spring: FrameAnimation {
        running: false
        onTriggered: pv.step(frameTime)
    }

    function springTo(i, velocity, k, stopOnPage, kind) {
        spring.stop();
        targetPage = i;
        targetX = pageX(i);
        x0 = contentX - targetX;
        v0 = velocity;
        stiffness = k;
        coerce = stopOnPage;
        moveKind = kind;
        elapsed = 0;
        realElapsed = 0;
        // the visibility threshold is 0.01 px on the phone; the view counts in dp
        duration = Pager.springDuration(x0, v0, Math.sqrt(k),
                                        Pager.DISPLACEMENT_THRESHOLD_PX / Math.max(1, preview.density));
        // Already on the page, the fling's snap has nowhere to go (`coerceToTarget` of 0 is 0).
        if (duration <= 0 || (coerce && Math.abs(x0) < Pager.EPSILON)) {
            arrive();
            return;
        }
        spring.start();
    }

    function step(dt) {
        // A page move (`animateScrollToPage`) runs in the composition's coroutine scope, whose
        // MotionDurationScale is the device's animator duration scale (animation-core
        // SuspendAnimation.kt `doAnimationFrameWithScale`: play time = real time / scale; at 0
        // it ends at once). A released swipe's settle runs inside the scroll, under Scrollable's
        // fixed `DefaultScrollMotionDurationScale` of 1: real time.
        var scale = moveKind === "scroll" ? preview.animatorScale : 1;
        realElapsed += dt * 1000;
        elapsed = scale > 0 ? elapsed + dt * 1000 / scale : duration;
        if (elapsed >= duration) {
            arrive();
            return;
        }
        var x = Pager.springDisplacement(x0, v0, Math.sqrt(stiffness), elapsed / 1000);
        if (coerce && (x === 0 || (x < 0) !== (x0 < 0))) {
            arrive();
            return;
        }
        contentX = pageX(targetPage) + x;  // the origin may move as pages are made
    }

    function arrive() {
        spring.stop();
        targetPage = Math.max(0, Math.min(count - 1, targetPage));  // pages may have gone
        contentX = pageX(targetPage);
        var i = targetPage;
        moveKind = "";
        settled(i);
    }

    // The pages came to rest on page i: the runtime hears of it if it moved (SC `PagerMotion`
    // of `settledPage`, RT `setPage`: a `page_changed` event).
    function settled(i) {
        if (i >= 0 && i !== page)
            preview.setPage(pagerId, i);
    }

    // -- a swipe --------------------------------------------------------------------------------
    property bool released: false
    onDraggingChanged: {
        if (dragging) {
            spring.stop();
            moveKind = "";
            released = false;
        } else {
            released = true;  // a flick starts next, or the movement ends
        }
    }
    // The finger lifted moving: Qt's flick gives way to the pager's snap (a flick released into
    // a stretched end is absorbed there, Compose `applyToFling`).
    // The velocity is the finger's as Compose's VelocityTracker estimates it
    // (`preview.releaseVelocity`, studio/preview/fingers.py), not Qt's; the pages move against
    // the finger. A release too slow for Qt to flick still settles with it (`onDragStopped`).
    // How far the drag went is the finger's way from its press to its lift (PagerState
    // `upDownDifference`, `dragGestureDelta`), in pages towards the higher page: the pages moved
    // less by the drag threshold Qt waits for before they follow.
    function releaseVelocity() {
        return -preview.releaseVelocity(pv).x;
    }
    function fingerDrag() {
        return pageW > 0 ? towardsHigher(-preview.releaseTravel(pv).x) / pageW : 0;
    }
    onFlickStarted: {
        var v = releaseVelocity();
        released = false;
        cancelFlick();
        release(stretch.catchFling(v) ? 0 : v, fingerDrag());
    }
    onMovementEnded: {
        if (released) {
            released = false;
            var v = releaseVelocity();
            release(stretch.catchFling(v) ? 0 : v, fingerDrag());
        }
    }
    function release(v, drag) {
        var at = position();
        var target = Pager.settleTarget(at, drag, towardsHigher(v), count, pageW);
        springTo(target, v, Pager.SNAP_STIFFNESS, true, "settle");
    }
    // A touch stops the pages where they are: on a scroll in progress Compose's scrollable starts
    // its drag at the press (Scrollable.kt `startDragImmediately = shouldScrollImmediately()`),
    // which cancels the running animation, and its end flings from there (`onDragStopped`): lifted
    // without a move, the pages settle from where they stopped with no velocity. The scroll
    // consumes that press, so a clickable on the page under the finger does not click: over the
    // pages while they move, this takes the press from them and keeps it until the release (a drag
    // from it is the view's, which steals a child's press once the finger moves).
    MouseArea {
        id: touch
        objectName: "settleCatcher"
        parent: pv
        anchors.fill: parent
        z: 1
        property bool holding: false
        enabled: pv.interactive && (pv.settling || holding)
        onPressed: {
            holding = true;
            pv.spring.stop();
            pv.moveKind = "";
        }
        onReleased: lifted()
        onCanceled: lifted()
        function lifted() {
            holding = false;
            Qt.callLater(pv.resume);
        }
    }
    function resume() {
        if (!dragging && !flicking && !settling) {
            release(0, 0);
        }
    }

    // -- a page set from outside ----------------------------------------------------------------
    onPageChanged: moveTo(page)
    function moveTo(i) {
        if (pageW <= 0 || count === 0)
            return;
        if (dragging)
            return;  // the drag holds the pages; its settle reports where they end
        if (settling && targetPage === i)
            return;
        if (!settling && Math.abs(position() - i) < Pager.EPSILON) {
            contentX = pageX(i);
            return;
        }
        if (!animated) {
            spring.stop();
            moveKind = "";
            jump(i);  // `scrollToPage`
            return;
        }
        var near = Pager.preJump(position(), i);
        if (near >= 0) {
            spring.stop();
            jump(near);
        }
        springTo(i, 0, Pager.SCROLL_STIFFNESS, false, "scroll");
    }
    // Motion switched off mid-move: the pages snap to the page (SC keys the effect on motion).
    onAnimatedChanged: if (!animated && settling && moveKind === "scroll") arrive()

    // At rest the view shows the runtime's page, whatever resizes or refills it; a move under way
    // ends on its page at once.
    function place() {
        if (pageW <= 0 || dragging || flicking)
            return;
        if (settling) {
            arrive();
            return;
        }
        moveKind = "";
        jump(page);
    }
    // Straight to page i (`scrollToPage`). Through the ListView, which then makes the page's
    // delegate even before its first layout (a contentX set then is not refilled).
    function jump(i) {
        positionViewAtIndex(i, ListView.Beginning);
    }
    onPageWChanged: place()
    onCountChanged: place()
    onRtlChanged: place()
    onModelChanged: place()
    Component.onCompleted: {
        place();
        resumeKept();
    }

    // -- a re-theme under way -------------------------------------------------------------------
    // On the phone a theme change recomposes the pages and the move goes on (the
    // `animateScrollToPage` of SC's `LaunchedEffect(node.page, animate)` or the swipe's snap is
    // not keyed on the theme). Here a re-theme remakes the pager (controller `keepingViews`), so
    // a move under way is kept with the node and goes on in the new pager on the same spring,
    // from the same point of its clock.
    Connections {
        target: preview
        function onKeepingViews() {
            preview.keepView(d.n, "move", !pv.settling ? null : {
                targetPage: pv.targetPage, x0: pv.x0, v0: pv.v0, stiffness: pv.stiffness,
                coerce: pv.coerce, moveKind: pv.moveKind, elapsed: pv.elapsed,
                realElapsed: pv.realElapsed, duration: pv.duration
            });
        }
    }
    function resumeKept() {
        var m = preview.keptView(d.n, "move");
        if (!m)
            return;
        preview.keepView(d.n, "move", null);
        // A page move goes to the runtime's page; a settle to where the finger sent it.
        if (pageW <= 0 || count === 0 || (m.moveKind === "scroll" && m.targetPage !== page))
            return;
        targetPage = m.targetPage;
        targetX = pageX(targetPage);
        x0 = m.x0;
        v0 = m.v0;
        stiffness = m.stiffness;
        coerce = m.coerce;
        moveKind = m.moveKind;
        elapsed = m.elapsed;
        realElapsed = m.realElapsed;
        duration = m.duration;
        spring.start();
        step(0);
    }
}
