// A colour moved as Compose's `animateColorAsState` moves it on a critically damped spring from
// rest (animation-core SpringSimulation, dampingRatio 1): the colour is animated as a vector of
// (alpha, L, a, b) in Oklab (animation ColorVectorConverter.kt `ColorToVector`:
// `color.convert(ColorSpaces.Oklab)`), each component x(t) = to + (from - to)(1 + wt)e^-wt, and
// the move ends once every component is within the spring's visibility threshold of its target
// (`spring()`'s null threshold: Spring.DefaultDisplacementThreshold, 0.01). Times in ms of play
// time (the caller divides real time by the animator duration scale).
.pragma library
.import "SpringMath.js" as SpringMath

var THRESHOLD = 0.01;

function linear(c) {
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}
function gamma(c) {
    return c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
}

// A colour given as a QML color or a colour string ("#6750A4"), as a QML color.
function rgba(c) {
    return typeof c === "string" ? Qt.lighter(c, 1.0) : c;
}

// [alpha, L, a, b] of a QML colour (sRGB), Oklab's published linear-sRGB matrices.
function toOklab(c) {
    c = rgba(c);
    var r = linear(c.r), g = linear(c.g), b = linear(c.b);
    var l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    var m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    var s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    return [c.a,
            0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s];
}

function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }

// The QML colour of an [alpha, L, a, b] vector (clamped as `convertFromVector` clamps it).
function fromOklab(v) {
    var L = clamp(v[1], 0, 1), A = clamp(v[2], -0.5, 0.5), B = clamp(v[3], -0.5, 0.5);
    var l = Math.pow(L + 0.3963377774 * A + 0.2158037573 * B, 3);
    var m = Math.pow(L - 0.1055613458 * A - 0.0638541728 * B, 3);
    var s = Math.pow(L - 0.0894841775 * A - 1.2914855480 * B, 3);
    var r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
    var g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
    var b = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
    return Qt.rgba(clamp(gamma(r), 0, 1), clamp(gamma(g), 0, 1), clamp(gamma(b), 0, 1),
                   clamp(v[0], 0, 1));
}

// The part of the way still to go at play time t ms, from rest: (1 + wt)e^-wt.
function remaining(omega, ms) {
    return SpringMath.displacement(1, 0, omega, ms / 1000);
}

// How long the move from `from` to `to` runs (ms): up to the last millisecond at which some
// component is still THRESHOLD or more off, then it ends on the target.
function duration(from, to, omega) {
    var a = toOklab(from), b = toOklab(to);
    var far = 0;
    for (var i = 0; i < 4; ++i) far = Math.max(far, Math.abs(a[i] - b[i]));
    if (far < THRESHOLD) return 0;
    var ms = 1;
    while (ms < 10000 && far * remaining(omega, ms) >= THRESHOLD) ++ms;
    return ms;
}

// The colour `ms` of play time into the move from `from` to `to`.
function at(from, to, omega, ms) {
    var a = toOklab(from), b = toOklab(to), k = remaining(omega, ms);
    var far = 0;
    for (var i = 0; i < 4; ++i) far = Math.max(far, Math.abs(a[i] - b[i]));
    if (far * k < THRESHOLD) return to;  // past the move's end (`duration`): on the target
    return fromOklab([b[0] + (a[0] - b[0]) * k, b[1] + (a[1] - b[1]) * k,
                      b[2] + (a[2] - b[2]) * k, b[3] + (a[3] - b[3]) * k]);
}
