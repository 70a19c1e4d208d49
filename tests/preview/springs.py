"""Compose's critically damped spring (SpringSimulation, dampingRatio 1), as the motion tests
compute it, and the frame-by-frame check that a move follows it."""

from __future__ import annotations

import math

import pytest

MIN_FLING_VELOCITY = 400  # SnapFlingBehavior.kt MinFlingVelocityDp
THRESHOLD_PX = 0.01  # Spring.DefaultDisplacementThreshold


def spring_displacement(x0: float, v0: float, stiffness: float, t: float) -> float:
    """SpringSimulation, dampingRatio 1: the displacement from the target `t` s after a start
    at `x0` with velocity `v0`."""
    w = math.sqrt(stiffness)
    return (x0 + (v0 + w * x0) * t) * math.exp(-w * t)


def spring_ms(x0: float, v0: float, stiffness: float, threshold: float) -> int:
    """How long that spring runs: up to the last ms it is `threshold` or more off, then it ends
    on the target."""
    last = max(
        (
            ms
            for ms in range(1, 10001)
            if abs(spring_displacement(x0, v0, stiffness, ms / 1000)) >= threshold
        ),
        default=0,
    )
    return last + 1


def assert_follows_spring(
    trace: list[tuple[float, float]], start: float, target: float, v0: float, stiffness: float,
    density: float,
) -> None:  # fmt: skip
    """`trace` is (ms on the move's own clock, position) at every frame. Each frame is the
    spring's position at that time, to 0.001 dp; the move goes one way only (no overshoot) and
    ends exactly on the target once the spring's estimated time is up."""
    assert len(trace) > 5
    x0 = start - target
    for ms, x in trace[:-1]:
        assert x == pytest.approx(
            target + spring_displacement(x0, v0, stiffness, ms / 1000), abs=1e-3
        )
    xs = [start] + [x for _, x in trace]
    steps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    assert all(s * -x0 >= 0 for s in steps)  # towards the target only
    assert trace[-1][1] == target
    assert trace[-1][0] >= spring_ms(x0, v0, stiffness, THRESHOLD_PX / density)
