// Compose's CubicBezierEasing (animation-core Easing.kt): the curve from (0, 0) to (1, 1) through
// the control points (a, b) and (c, d); `transform(fraction)` is the curve's y where its x is the
// fraction. x(t) rises monotonically for these curves, so t is found by bisection to within 1e-7
// (Compose finds the cubic's root exactly; the two agree far below a pixel).
.pragma library

function _at(p1, p2, t) {
    var u = 1 - t;
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t;
}

function cubicBezier(a, b, c, d, fraction) {
    if (fraction <= 0) return 0;
    if (fraction >= 1) return 1;
    var lo = 0, hi = 1;
    for (var i = 0; i < 40 && hi - lo > 1e-7; ++i) {
        var mid = (lo + hi) / 2;
        if (_at(a, c, mid) < fraction) lo = mid; else hi = mid;
    }
    return _at(b, d, (lo + hi) / 2);
}

// FastOutSlowInEasing: CubicBezierEasing(0.4f, 0.0f, 0.2f, 1.0f).
function fastOutSlowIn(fraction) {
    return cubicBezier(0.4, 0, 0.2, 1, fraction);
}
