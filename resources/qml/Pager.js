// The phone's pager motion, as plain functions of numbers (nodes/pager.qml holds the state and
// calls these each frame). AutoMobile draws a pager as `HorizontalPager(pager, modifier)` with
// `rememberPagerState` (PrototypeSpecContent.kt `RenderPrototypePager`), so it keeps Compose's
// defaults: `PagerDefaults.flingBehavior` (foundation pager/Pager.kt: `PagerSnapDistance.atMost(1)`,
// the spline decay, `snapAnimationSpec = spring(stiffness = Spring.StiffnessMediumLow)`,
// `snapPositionalThreshold = 0.5f`) for a released swipe, and `PagerState.animateScrollToPage`
// (its default `spring()`) for a page set from outside while motion is on.
//
// Positions are in pages (a fraction between two pages while moving; page i at i), distances in
// dp, velocities in dp/s towards the higher page, times in ms.
.pragma library
.import "SpringMath.js" as SpringMath

// SnapFlingBehavior.kt `MinFlingVelocityDp`: below it a release goes to the nearer page by the
// positional threshold (`calculateFinalSnappingItem`: ClosestItem), above it one page its way.
var MIN_FLING_VELOCITY = 400;
// PagerState.kt `DefaultPositionThreshold`: a drag this long (or half a page, if less) is a drag
// away from its page (`positionThresholdFraction`).
var POSITION_THRESHOLD = 56;
// `PagerDefaults.flingBehavior(snapPositionalThreshold = 0.5f)`.
var SNAP_POSITIONAL_THRESHOLD = 0.5;
// animation-core Spring.kt: `StiffnessMediumLow` (the fling's snap) and `StiffnessMedium`
// (`spring()`, animateScrollToPage's default); both `DampingRatioNoBouncy`, 1.
var SNAP_STIFFNESS = 400;
var SCROLL_STIFFNESS = 1500;
// Spring.kt `DefaultDisplacementThreshold`, in px: the springs' visibility threshold (null in
// `spring()` means it).
var DISPLACEMENT_THRESHOLD_PX = 0.01;
// PagerState.kt `MaxPagesForAnimateScroll`: farther than this, animateScrollToPage jumps near
// the target first.
var MAX_PAGES_FOR_ANIMATE_SCROLL = 3;

var EPSILON = 1e-4;

// The pages either side of `pos` (PagerSnapLayoutInfoProvider.kt `searchForSnappingBounds`: the
// nearest page at or before the snap position and the nearest at or after it), within the pager.
function bounds(pos, count) {
    var last = Math.max(0, count - 1);
    var p = Math.max(0, Math.min(last, pos));
    var near = Math.round(p);
    if (Math.abs(p - near) < EPSILON)
        return [near, near];
    return [Math.floor(p), Math.ceil(p)];
}

// Where a released swipe settles (PagerSnapLayoutInfoProvider.kt `calculateFinalSnappingBound`):
// `pos` where the finger lifted, `drag` how far the finger went from its press to its lift
// (PagerState `upDownDifference`, in pages, > 0 towards the higher page), `velocity` the release
// velocity. A fling (|velocity| >= 400 dp/s) goes to the page ahead of it in its direction, the
// next bound: never more than one page away. Slower, the drag's part past whole pages decides:
// past half a page (`snapPositionalThreshold`) it goes on to the page ahead, past the positional
// threshold (56 dp) it goes back to the page it left, a shorter drag to the nearer page.
function settleTarget(pos, drag, velocity, count, pageWidth) {
    var b = bounds(pos, count);
    var lower = b[0], upper = b[1];
    if (Math.abs(velocity) >= MIN_FLING_VELOCITY)
        return velocity > 0 ? upper : lower;
    var forward = drag > 0;
    var overflow = drag - (drag < 0 ? Math.ceil(drag) : Math.floor(drag));
    if (Math.abs(overflow) > SNAP_POSITIONAL_THRESHOLD)
        return forward ? upper : lower;
    var threshold = pageWidth > 0 ? Math.min(POSITION_THRESHOLD, pageWidth / 2) / pageWidth : 0;
    if (Math.abs(drag) >= threshold)
        return forward ? lower : upper;
    return Math.abs(pos - lower) < Math.abs(upper - pos) ? lower : upper;
}

// animateScrollToPage's pre-jump (PagerState.kt `LazyLayoutScrollScope.animateScrollToPage`): a
// target outside the pages in view and `MaxPagesForAnimateScroll` or more from the first of them
// is approached from one viewport away (`snapToItem(preJumpPosition, 0)`); -1 when no jump.
function preJump(pos, target) {
    var first = Math.floor(pos + EPSILON);
    var last = Math.ceil(pos - EPSILON);
    var visible = last - first + 1;
    var forward = target > first;
    if (!((forward && target > last) || (!forward && target < first)))
        return -1;
    if (Math.abs(target - first) < MAX_PAGES_FOR_ANIMATE_SCROLL)
        return -1;
    return forward ? Math.max(target - visible, first) : Math.min(target + visible, first);
}

// The snaps' and page moves' spring (SpringMath.js): its displacement `t` s after a start at
// `x0` with velocity `v0`, and how long it runs (ms) to `threshold`.
function springDisplacement(x0, v0, omega, t) {
    return SpringMath.displacement(x0, v0, omega, t);
}

function springDuration(x0, v0, omega, threshold) {
    return SpringMath.durationMs(x0, v0, omega, threshold, 10000);
}

// Where a released drag on a lazy list of snapped items settles: DatePicker.kt's months list
// (`DatePickerDefaults.rememberSnapFlingBehavior`: `SnapLayoutInfoProvider(lazyListState)` with
// `calculateApproachOffset` 0). LazyListSnapLayoutInfoProvider.kt `calculateSnapOffset` takes the
// visible items' distances to the snap position (SnapPosition.Center: for items the viewport's
// width, their start edges), the nearest at or before it and the nearest at or after it, and
// `calculateFinalSnappingItem` picks between them by the velocity alone: at or above
// `MinFlingVelocityDp` the one ahead in the fling's direction (NextItem / PreviousItem), slower
// the closer one (ClosestItem, a tie going to the one after). Unlike the pager's
// `calculateFinalSnappingBound`, neither the drag's length nor its direction counts.
function closestTarget(pos, velocity, count) {
    var b = bounds(pos, count);
    var lower = b[0], upper = b[1];
    if (Math.abs(velocity) >= MIN_FLING_VELOCITY)
        return velocity > 0 ? upper : lower;
    return Math.abs(upper - pos) <= Math.abs(pos - lower) ? upper : lower;
}
