// The phone's scroll physics, as plain functions of numbers: Android's stretch overscroll (the
// platform EdgeEffect of Android 13+, which Compose's default overscroll drives on Android 12+:
// foundation AndroidOverscroll.kt `AndroidEdgeEffectOverscrollEffect`) and Compose's default fling
// (`ScrollableDefaults.flingBehavior()`: the spline decay of animation FlingCalculator.kt and
// foundation AndroidFlingSpline.kt, ported from android.widget.Scroller). EdgeStretch.qml and
// nodes/scroll.qml hold the state and call these each frame.
.pragma library

// ---- EdgeEffect (core/java/android/widget/EdgeEffect.java), distances in px, times in s ----

var LINEAR_STRETCH_INTENSITY = 0.016;
var EXP_STRETCH_INTENSITY = 0.016;
var SCROLL_DIST_AFFECTED_BY_EXP_STRETCH = 0.33;
var NATURAL_FREQUENCY = 24.657;
var DAMPING_RATIO = 0.98;
var LINEAR_VELOCITY_TAKE_OVER = 200;  // px/s
var LINEAR_DISTANCE_TAKE_OVER = 8;  // px
var VALUE_THRESHOLD = 0.001;  // px
var VELOCITY_THRESHOLD = 0.01;  // px/s
var ON_ABSORB_VELOCITY_ADJUSTMENT = 13;

// The stretch drawn for a pull `distance` (EdgeEffect `mDistance`, the pull as a fraction of the
// container's length, 0..1): `dampStretchVector` of the drag vector over the node's length, the
// RenderNode's stretch intensity. The uniform-scale rendering (hwui StretchEffect.h
// `makeLinearStretch`) scales the content by 1 + this about the pulled edge.
function stretch(distance) {
    var overscroll = Math.min(1, Math.abs(distance));
    var scalar = Math.E / SCROLL_DIST_AFFECTED_BY_EXP_STRETCH;
    var intensity = LINEAR_STRETCH_INTENSITY * overscroll
        + EXP_STRETCH_INTENSITY * (1 - Math.exp(-overscroll * scalar));
    return distance < 0 ? -intensity : intensity;
}

// One step of the release spring (EdgeEffect `updateSpring`): the stretch's `distance` (a fraction
// of `length` px) and `velocity` (px/s, + stretching) after `dt` seconds. Returns [distance,
// velocity]; both are 0 once at rest (`isAtEquilibrium`: never stretched the other way).
function springStep(distance, velocity, length, dt) {
    if (dt < 0.001 || length <= 0)
        return [distance, velocity];
    var x = distance * length;
    // Near the rest position the spring's speed drops exponentially; the platform finishes
    // linearly at 200 px/s instead.
    if (Math.abs(velocity) <= LINEAR_VELOCITY_TAKE_OVER && Math.abs(x) < LINEAR_DISTANCE_TAKE_OVER
            && Math.sign(velocity) === -Math.sign(distance)) {
        var v = Math.sign(velocity) * LINEAR_VELOCITY_TAKE_OVER;
        var target = distance + v * dt / length;
        if (Math.sign(target) !== Math.sign(distance))
            return [0, 0];
        return [target, v];
    }
    var w = NATURAL_FREQUENCY, z = DAMPING_RATIO;
    var wd = w * Math.sqrt(1 - z * z);
    var cosC = x;
    var sinC = (z * w * x + velocity) / wd;
    var decay = Math.exp(-z * w * dt);
    var nx = decay * (cosC * Math.cos(wd * dt) + sinC * Math.sin(wd * dt));
    var nv = nx * -w * z + decay * (-wd * cosC * Math.sin(wd * dt) + wd * sinC * Math.cos(wd * dt));
    var nd = nx / length;
    if (nd > 1) {
        nd = 1;
        nv = 0;
    }
    if (nx < 0 || (Math.abs(nv) < VELOCITY_THRESHOLD && nx < VALUE_THRESHOLD))
        return [0, 0];
    return [nd, nv];
}

// ---- the spline decay (FlingCalculator.kt), distances in dp ----
// In px the fling's distance is friction * c * density * e^(D/(D-1) * ln(0.35 * v / (friction *
// c * density))) for v px/s, c = 9.80665 * 39.37 * 160 * 0.84 (`computeDeceleration`), friction
// = ViewConfiguration.getScrollFriction() 0.015 and D = ln 0.78 / ln 0.9; the density cancels out
// in dp and dp/s, which are the preview's units.

var INFLECTION = 0.35;
var DECELERATION_RATE = Math.log(0.78) / Math.log(0.9);
var FRICTION_DP = 0.015 * 9.80665 * 39.37 * 160 * 0.84;
// ViewConfiguration MAXIMUM_FLING_VELOCITY: Compose's scrollable caps a fling's velocity with it.
var MAX_FLING_VELOCITY = 8000;

function splineDeceleration(velocity) {
    return Math.log(INFLECTION * Math.abs(velocity) / FRICTION_DP);
}

// How far a fling released at `velocity` dp/s travels, dp (`flingDistance`).
function flingDistance(velocity) {
    if (velocity === 0)
        return 0;
    var l = splineDeceleration(velocity);
    return FRICTION_DP * Math.exp(DECELERATION_RATE / (DECELERATION_RATE - 1) * l);
}

// How long it runs, ms (`flingDuration`).
function flingDuration(velocity) {
    if (velocity === 0)
        return 0;
    return 1000 * Math.exp(splineDeceleration(velocity) / (DECELERATION_RATE - 1));
}

// The spline itself (AndroidFlingSpline `computeSplineInfo`): a cubic Bezier from (0, 0) to (1, 1)
// with control points (P1, START_TENSION) and (P2, 1) in (time, distance). The platform samples
// it at 100 points and interpolates linearly; this solves it exactly.
var START_TENSION = 0.5;
var P1 = START_TENSION * INFLECTION;
var P2 = 1 - 1.0 * (1 - INFLECTION);

function bezier(a, b, x) {
    return 3 * x * (1 - x) * ((1 - x) * a + x * b) + x * x * x;
}

// [distance fraction, velocity coefficient] at `t` (0..1) of the fling's duration; the velocity
// is `coefficient * distance / duration` (`flingPosition`).
function flingPosition(t) {
    if (t >= 1)
        return [1, 0];
    if (t <= 0)
        t = 0;
    var lo = 0, hi = 1, x = t;
    for (var i = 0; i < 40; ++i) {
        x = (lo + hi) / 2;
        if (bezier(P1, P2, x) > t) hi = x; else lo = x;
    }
    var dtime = slope(P1, P2, x), ddist = slope(START_TENSION, 1, x);
    return [bezier(START_TENSION, 1, x), dtime > 0 ? ddist / dtime : 0];
}

// d/dx of `bezier(a, b, x)`.
function slope(a, b, x) {
    return 3 * (1 - x) * (1 - x) * a + 6 * x * (1 - x) * (b - a) + 3 * x * x * (1 - b);
}
