// Compose's critically damped spring (animation-core SpringSimulation, dampingRatio 1) as plain
// functions of numbers, for Spring.qml, the pager's and the date picker's snaps (Pager.js) and
// the colour fades (ColorSpring.js): x(t) = (x0 + (v0 + w x0) t) e^(-w t), w = sqrt(stiffness),
// t in seconds.
.pragma library

function displacement(x0, v0, omega, t) {
    return (x0 + (v0 + omega * x0) * t) * Math.exp(-omega * t);
}

function velocity(x0, v0, omega, t) {
    return (v0 - omega * (v0 + omega * x0) * t) * Math.exp(-omega * t);
}

// How long the spring runs (ms): up to the last millisecond (of at most `capMs`) at which it is
// still `threshold` or more from its target, then it ends on it, as a spring animation ends at
// its estimated duration; 0 when it starts within the threshold at rest.
function durationMs(x0, v0, omega, threshold, capMs) {
    var last = 0;
    for (var ms = 1; ms <= capMs; ++ms)
        if (Math.abs(displacement(x0, v0, omega, ms / 1000)) >= threshold)
            last = ms;
    if (last === 0 && Math.abs(x0) < threshold)
        return 0;
    return last + 1;
}
