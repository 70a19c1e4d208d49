// A value that moves to `target` as Compose's `spring(dampingRatio = 1f, stiffness)` moves it
// (androidx.compose.animation.core SpringSimulation, critically damped): with displacement x0 and
// velocity v0 when a move starts, x(t) = (x0 + (v0 + w x0) t) e^-wt, w = sqrt(stiffness). A move
// ends on the target once |x| stays under `threshold` (the spring's visibility threshold; null
// in `spring()` means Spring.DefaultDisplacementThreshold, 0.01). A new target midway starts from
// the current value and velocity, as Animatable.animateTo does, so a reversal turns without a
// jump. `enabled: false` (motion off) snaps. Made only where something animates (a press).
import QtQuick

QtObject {
    id: s
    property real stiffness: 1500  // Spring.StiffnessMedium, `spring()`'s default
    property real threshold: 0.01
    property bool enabled: true
    property real target: 0
    property real value: 0
    readonly property real omega: Math.sqrt(stiffness)
    property real _x0: 0
    property real _v0: 0
    property real _end: 0
    property real _t: 0  // seconds into the current move
    property bool _ready: false
    // the current move's length in ms (0: at rest)
    readonly property int durationMs: clock.running ? clock.duration : 0

    function displacement(t) {
        return (_x0 + (_v0 + omega * _x0) * t) * Math.exp(-omega * t);
    }
    function velocity(t) {
        return (_v0 - omega * (_v0 + omega * _x0) * t) * Math.exp(-omega * t);
    }
    Component.onCompleted: {
        value = target;
        _ready = true;
    }
    onTargetChanged: {
        if (!_ready) return;
        var moving = clock.running;
        var v = moving ? velocity(_t) : 0;
        clock.stop();
        _x0 = value - target;
        _v0 = v;
        _end = target;
        // The last millisecond at which the spring is still `threshold` or more away (critically
        // damped, it crosses the target at most once).
        var last = 0;
        if (enabled)
            for (var ms = 1; ms <= 4000; ++ms)
                if (Math.abs(displacement(ms / 1000)) >= threshold) last = ms;
        if (last === 0) {
            value = target;
            return;
        }
        clock.to = (last + 1) / 1000;
        clock.duration = last + 1;
        clock.restart();
    }
    on_TChanged: if (clock.running) value = _end + displacement(_t)

    property NumberAnimation clock: NumberAnimation {
        target: s
        property: "_t"
        from: 0
        onFinished: s.value = s._end
    }
}
