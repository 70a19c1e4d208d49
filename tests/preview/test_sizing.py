"""studio.preview.sizing: a container's animated content size follows Compose's
`animateContentSize()` spring (AnimationModifier.kt `SizeAnimationModifierNode`:
`spring(stiffness = Spring.StiffnessMediumLow, visibilityThreshold = IntSize.VisibilityThreshold)`,
dampingRatio 1), computed here from the critically damped solution."""

from __future__ import annotations

import math

import pytest

from studio.preview.sizing import OMEGA, ContentSize

PX = 1 / 2.625  # IntSize.VisibilityThreshold: 1 px, in dp on a 2.625 density phone


def test_the_first_size_is_taken_as_it_is_SizeAnimationModifierNode_animateTo() -> None:  # noqa: N802
    size = ContentSize.at_rest(100, 40, PX)
    assert size.size(0.0) == (100, 40)
    assert not size.running(0.0)
    size.pending = (100, 40)
    assert not size.commit(0.0)  # the same size: nothing to run


def test_a_new_size_runs_on_the_medium_low_spring_from_the_old_one() -> None:
    size = ContentSize.at_rest(100, 40, PX)
    size.pending = (200, 40)
    assert size.commit(1.0)
    assert math.isclose(OMEGA, 20.0)  # stiffness 400
    for t in (0.0, 0.05, 0.1, 0.2):
        w, h = size.size(1.0 + t)
        assert w == pytest.approx(200 - 100 * (1 + 20 * t) * math.exp(-20 * t))
        assert h == 40
    # done once within a pixel: 100 (1 + wt) e^-wt < 0.38 dp, at t = 0.39 s
    assert size.running(1.35)
    assert not size.running(1.45) and size.size(1.45) == (200, 40)


def test_a_change_midway_keeps_the_current_size_and_velocity_Animatable_animateTo() -> None:  # noqa: N802
    size = ContentSize.at_rest(100, 40, PX)
    size.pending = (200, 40)
    size.commit(0.0)
    mid, _ = size.size(0.05)
    size.pending = (100, 40)  # back before it got there
    size.commit(0.05)
    assert size.size(0.05)[0] == pytest.approx(mid)  # no jump
    assert size.size(0.06)[0] > mid  # still moving on its way out first: its velocity carried
    assert size.size(2.0) == (100, 40)


def test_play_time_is_time_over_the_scale_SuspendAnimation_doAnimationFrameWithScale() -> None:  # noqa: N802, E501
    """`playTimeNanos = (frameTimeNanos - startTimeNanos) / durationScale`, read at each frame:
    at 2x a size is at 2t where 1x has it at t, and it runs twice as long; a scale changed midway
    takes effect at once (the elapsed time over the new scale)."""
    once, twice = ContentSize.at_rest(100, 40, PX), ContentSize.at_rest(100, 40, PX)
    once.pending = twice.pending = (200, 40)
    assert once.commit(1.0) and twice.commit(1.0, 2.0)
    for t in (0.02, 0.05, 0.1, 0.2, 0.3):
        assert twice.size(1.0 + 2 * t, 2.0) == pytest.approx(once.size(1.0 + t))
    assert not once.running(1.45) and twice.running(1.45, 2.0)
    assert twice.running(1.0 + 2 * 0.35, 2.0) and not twice.running(1.0 + 2 * 0.45, 2.0)
    assert twice.size(1.3, 1.0) == pytest.approx(once.size(1.3))  # back at 1x: 0.3 s of play
