// A value that moves to `target` as Compose's `spring(dampingRatio = 1f, stiffness)` moves it
// (androidx.compose.animation.core SpringSimulation, critically damped): with displacement x0 and
// velocity v0 when a move starts, x(t) = (x0 + (v0 + w x0) t) e^-wt, w = sqrt(stiffness). A move
// ends on the target once |x| stays under `threshold` (the spring's visibility threshold; null
// in `spring()` means Spring.DefaultDisplacementThreshold, 0.01). A new target midway starts from
// the current value and velocity, as Animatable.animateTo does, so a reversal turns without a
// jump. `enabled: false` (motion off) snaps. Made only where something animates (a press).
//
// t is the move's play time: the real time since it began over the phone's animator duration
// scale, read at every frame (animation-core SuspendAnimation.kt `doAnimationFrameWithScale`:
// `(frameTimeNanos - startTimeNanos) / durationScale`, the `MotionDurationScale` the window's
// recomposer keeps from Settings.Global ANIMATOR_DURATION_SCALE); at scale 0 the move ends at
// once (play time = the animation's duration).
import QtQuick
import "SpringMath.js" as SpringMath

QtObject {
    id: s
    property real stiffness: 1500  // Spring.StiffnessMedium, `spring()`'s default
    property real threshold: 0.01
    property bool enabled: true
    property real durationScale: preview.animatorScale
    property real target: 0
    property real value: 0
    readonly property real omega: Math.sqrt(stiffness)
    property real _x0: 0
    property real _v0: 0
    property real _end: 0
    property real _t: 0  // play seconds into the current move
    property int _length: 0  // the current move's length in play time, ms
    property bool _ready: false
    // the current move's length in play time, ms (0: at rest): at scale 1, its real length
    readonly property int durationMs: clock.running ? _length : 0
    // real ms since the current move began (the frame it last drew), and whether it moves
    property real elapsedMs: 0
    readonly property bool running: clock.running

    function displacement(t) {
        return SpringMath.displacement(_x0, _v0, omega, t);
    }
    function velocity(t) {
        return SpringMath.velocity(_x0, _v0, omega, t);
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
        _t = 0;
        elapsedMs = 0;
        // Up to the last millisecond at which the spring is still `threshold` or more away
        // (critically damped, it crosses the target at most once).
        var length = enabled && durationScale > 0
            ? SpringMath.durationMs(_x0, _v0, omega, threshold, 4000) : 0;
        if (length === 0) {
            value = target;
            return;
        }
        _length = length;
        clock.restart();
    }
    onDurationScaleChanged: if (clock.running && durationScale <= 0) step(0)
    function step(realMs) {
        elapsedMs = realMs;
        var play = durationScale > 0 ? realMs / durationScale : _length;
        if (play >= _length) {
            clock.stop();
            _t = _length / 1000;
            value = _end;
            return;
        }
        _t = play / 1000;
        value = _end + displacement(_t);
    }

    property FrameAnimation clock: FrameAnimation {
        onTriggered: s.step(elapsedTime * 1000)
    }
}
