"""Containers' animated content size, as AutoMobile's renderer animates it on the phone.

With motion on, AutoMobile gives every box, row and column `prototypeAnimateSize`
(PrototypeMotion.kt, from PrototypeSpecContent.kt `RenderPrototypeNodeContent`), which is
Compose's `animateContentSize()` (androidx compose/animation AnimationModifier.kt
`SizeAnimationModifierNode`): the container measures its content as usual, then reports an
`Animatable<IntSize>` that runs to the measured size on
`spring(stiffness = Spring.StiffnessMediumLow, visibilityThreshold = IntSize.VisibilityThreshold)`
(dampingRatio 1, stiffness 400, done within 1 px on each axis), constrained to the content's
constraints. Its first size is taken as it is; a later change starts from the current animated
size and velocity (`animateTo` on the running Animatable). Its parent lays out with the animated
size, so siblings follow it; the content keeps its full layout at the top-start, clipped
(`clipToBounds()`, NodeDelegate.qml).

The springs run on the phone's animator duration scale as every Compose animation does
(animation-core SuspendAnimation.kt `doAnimationFrameWithScale`): a move's play time is the time
since it began over the scale read at that frame (`MotionDurationScale`), so at 2x a move takes
twice as long, and a scale changed midway takes effect at the next frame. A scale of 0 is motion
off (PrototypeMotion.kt `prototypeMotionEnabled`): no size animation at all (layout.py).

No Qt here: the tree (`studio.preview.tree`) asks for the size at a time (and scale) it passes
and ticks the running springs each frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: Spring.StiffnessMediumLow; dampingRatio 1 (Spring.DampingRatioNoBouncy, `spring()`'s default).
STIFFNESS = 400.0
OMEGA = math.sqrt(STIFFNESS)
#: How long a move may run at most (a guard; a 1 px threshold ends a 2,000 dp move in 0.6 s).
LONGEST = 5.0


@dataclass
class Axis:
    """One axis of the size: critically damped, x(t) = (x0 + (v0 + w x0) t) e^-wt from the
    target, where x0 and v0 are the displacement and velocity when the move began at `start`, and
    t the play time: the time since then over the animator duration `scale` (> 0)."""

    target: float
    x0: float = 0.0
    v0: float = 0.0
    start: float = 0.0

    def play(self, now: float, scale: float = 1.0) -> float:
        return (now - self.start) / scale

    def displacement(self, now: float, scale: float = 1.0) -> float:
        t = self.play(now, scale)
        return (self.x0 + (self.v0 + OMEGA * self.x0) * t) * math.exp(-OMEGA * t)

    def velocity(self, now: float, scale: float = 1.0) -> float:
        """The velocity in play time (what a retarget carries on, as Animatable's is)."""
        t = self.play(now, scale)
        return (self.v0 - OMEGA * (self.v0 + OMEGA * self.x0) * t) * math.exp(-OMEGA * t)

    def value(self, now: float, threshold: float, scale: float = 1.0) -> float:
        if self.done(now, threshold, scale):
            return self.target
        return self.target + self.displacement(now, scale)

    def done(self, now: float, threshold: float, scale: float = 1.0) -> bool:
        if self.x0 == 0 and self.v0 == 0:
            return True
        if self.play(now, scale) >= LONGEST:
            return True
        # Critically damped, the displacement crosses zero at most once: done once under the
        # threshold and slowing (it will not get back over it).
        d = self.displacement(now, scale)
        return abs(d) < threshold and d * self.velocity(now, scale) <= 0

    def retarget(self, target: float, now: float, threshold: float, scale: float = 1.0) -> None:
        """Run to `target` from where the axis is now, with its velocity (`animateTo`)."""
        if target == self.target:
            return
        moving = not self.done(now, threshold, scale)
        current = self.value(now, threshold, scale)
        self.v0 = self.velocity(now, scale) if moving else 0.0
        self.x0 = current - target
        self.target = target
        self.start = now


@dataclass
class ContentSize:
    """A container's animated content size (dp); `threshold`: 1 px in dp. `scale` in each call
    is the animator duration scale at that time (> 0)."""

    w: Axis
    h: Axis
    threshold: float
    pending: tuple[float, float] | None = field(default=None)
    #: Its last size was a partial measurement (a lazy scroll's content so far).
    partial: bool = False

    @classmethod
    def at_rest(cls, w: float, h: float, threshold: float) -> ContentSize:
        return cls(Axis(w), Axis(h), threshold)

    def size(self, now: float, scale: float = 1.0) -> tuple[float, float]:
        return self.w.value(now, self.threshold, scale), self.h.value(now, self.threshold, scale)

    def running(self, now: float, scale: float = 1.0) -> bool:
        return not (
            self.w.done(now, self.threshold, scale) and self.h.done(now, self.threshold, scale)
        )

    def commit(self, now: float, scale: float = 1.0) -> bool:
        """Take the size measured in the last layout as the target; True when it moves."""
        pending, self.pending = self.pending, None
        if pending is None or pending == (self.w.target, self.h.target):
            return False
        self.w.retarget(pending[0], now, self.threshold, scale)
        self.h.retarget(pending[1], now, self.threshold, scale)
        return self.running(now, scale)
