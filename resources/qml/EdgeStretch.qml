// Android's stretch overscroll on a scrolling container (a scroll node or the pager), as the phone
// draws Compose's default overscroll on Android 12+ (foundation AndroidOverscroll.kt
// `AndroidEdgeEffectOverscrollEffect`, one platform EdgeEffect per edge). A Scale transform of the
// container's content item: `flick.contentItem.transform: EdgeStretch { flick: f }`.
//
// As EdgeEffect.java (TYPE_STRETCH): a drag past an edge pulls `distance` (`mDistance`, the pull
// over the container's length: Compose's `pullTop` passes `delta / containerSize`, to at most 1);
// a release springs it back (`onRelease`, `updateSpring`: natural frequency 24.657, damping 0.98,
// the linear finish near rest); a fling that meets the edge, or one released into a stretched
// edge, is absorbed (`onAbsorb`: the spring starts at 13x the velocity). The drawn stretch is
// `dampStretchVector` of that distance (Overscroll.js). The platform's shader (hwui
// StretchEffect.cpp) weights the stretch towards the pulled edge (a smoothstep of the distance
// from it); this draws hwui's uniform-scale rendering (StretchEffect.h `makeLinearStretch`,
// StretchEffectBehavior UniformScale): a scale by 1 + the stretch about the pulled edge, which
// stays in place as it does under the shader.
//
// The Flickable moves its content only within its bounds (`boundsMovement: StopAtBounds`) and
// reports the rest of a drag as overshoot, which Qt halves past a bound (qquickflickable.cpp
// `QQuickFlickablePrivate::drag`, `newY = minY + (newY - minY) / 2`): the finger's pull is twice
// the overshoot.
//
// The platform, not the spec, switches it: EdgeEffect `getCurrentEdgeEffectBehavior` is TYPE_NONE
// while `ValueAnimator.areAnimatorsEnabled()` is false (the animator duration scale at 0), and
// then neither pulls nor absorbs nor draws; a spec's `motion: "none"` leaves it (Compose's
// overscroll is no prototype animation). Its spring back runs on the real clock (`updateSpring`:
// `AnimationUtils.currentAnimationTimeMillis()`, no duration scale), so another scale leaves it
// as it is. Off in edit mode, as other motion is.
import QtQuick
import "Overscroll.js" as Overscroll

Scale {
    id: s
    objectName: "edgeStretch"
    required property Flickable flick
    property bool vertical: true
    readonly property bool on: preview.animatorScale > 0 && !preview.editMode
    // The pull, > 0 at the start edge (top, left), < 0 at the end edge; 0 at rest.
    property real distance: 0
    // The spring's velocity, px/s, > 0 while the stretch grows (EdgeEffect `mVelocity`).
    property real velocity: 0
    // The stretch a new drag caught while it was springing back (EdgeEffect `onPull`: "catch the
    // current stretch value"); released as the drag moves the content away from that edge.
    property real held: 0
    readonly property real length: vertical ? flick.height : flick.width
    // EdgeEffect counts in the phone's pixels (its thresholds and the absorbed velocity are px).
    readonly property real lengthPx: length * preview.density
    readonly property real amount: Math.abs(Overscroll.stretch(distance))
    readonly property real overshoot: vertical ? flick.verticalOvershoot : flick.horizontalOvershoot
    readonly property real position: vertical ? flick.contentY : flick.contentX
    readonly property bool dragging: flick.dragging
    property real lastPosition: 0
    readonly property bool settling: spring.running

    // About the pulled edge of the view, in content coordinates (the content item sits at
    // -contentX, -contentY).
    origin.x: vertical ? 0 : (distance >= 0 ? flick.contentX : flick.contentX + flick.width)
    origin.y: vertical ? (distance >= 0 ? flick.contentY : flick.contentY + flick.height) : 0
    xScale: vertical ? 1 : 1 + amount
    yScale: vertical ? 1 + amount : 1

    property FrameAnimation spring: FrameAnimation {
        running: false
        onTriggered: s.step(frameTime)
    }

    onOnChanged: if (!on) finish()
    onOvershootChanged: if (dragging) pull()
    onDraggingChanged: {
        lastPosition = position;
        if (dragging) {
            held = distance;  // caught where it is
            velocity = 0;
            spring.stop();
        } else {
            held = 0;
            release();
        }
    }
    onPositionChanged: {
        if (dragging && held !== 0) {
            // the content moving away from the caught edge releases that much of the stretch
            var moved = Math.abs(position - lastPosition) / Math.max(1, length);
            held = held > 0 ? Math.max(0, held - moved) : Math.min(0, held + moved);
            pull();
        }
        lastPosition = position;
    }

    // The drag's pull past an edge (Compose `pullTop` / `pullBottom`, EdgeEffect `onPullDistance`).
    function pull() {
        if (!on || length <= 0)
            return;
        var past = 2 * overshoot / length;  // < 0 past the start, > 0 past the end
        var d = held;
        if (past < 0)
            d = Math.max(0, held) - past;
        else if (past > 0)
            d = Math.min(0, held) - past;
        distance = Math.max(-1, Math.min(1, d));
    }

    // The finger lifted: spring back from where the stretch is (EdgeEffect `onRelease`).
    function release() {
        if (distance !== 0) {
            velocity = 0;
            spring.restart();
        }
    }

    // A fling of `contentVelocity` (dp/s, > 0 towards the end) meets the edge it moves to
    // (EdgeEffect `onAbsorb`, Compose `applyToFling` with the velocity left over).
    function absorb(contentVelocity) {
        if (!on || contentVelocity === 0)
            return;
        var edge = contentVelocity < 0 ? 1 : -1;
        if (distance !== 0 && Math.sign(distance) !== edge)
            distance = 0;
        velocity = Math.abs(contentVelocity) * preview.density * Overscroll.ON_ABSORB_VELOCITY_ADJUSTMENT;
        if (distance === 0)
            distance = edge * 1e-6;  // which edge it grows at
        spring.restart();
    }

    // A fling released while an edge is stretched, towards that edge, is all absorbed there
    // (Compose `applyToFling`: `velocity.y > 0f && topEffect.distance != 0f`, then
    // `onAbsorb(velocity.y)`). `contentVelocity` is the finger's release velocity against the
    // content (ComposeFling.qml, the pager), not the content's: Qt halves that past a bound.
    // Returns whether it was absorbed.
    function catchFling(contentVelocity) {
        if (!on || distance === 0 || contentVelocity === 0)
            return false;
        if ((distance > 0) !== (contentVelocity < 0))
            return false;
        absorb(contentVelocity);
        return true;
    }

    function step(dt) {
        var sign = distance < 0 ? -1 : 1;
        var next = Overscroll.springStep(Math.abs(distance), velocity, lengthPx, dt);
        distance = sign * next[0];
        velocity = next[1];
        if (distance === 0)
            finish();
    }

    function finish() {
        spring.stop();
        distance = 0;
        velocity = 0;
        held = 0;
    }
}
