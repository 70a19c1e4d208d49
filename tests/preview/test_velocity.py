"""The release velocity as Compose's VelocityTracker.kt computes it (studio/preview/velocity.py).

The fit is checked against numpy's least-squares polyfit; the sample window, the stop rule and
the release rule against the constants and branches of VelocityTracker.kt that they follow."""

from __future__ import annotations

import numpy as np
import pytest

from studio.preview.velocity import (
    PointerVelocity,
    VelocityTracker1D,
    clamp,
    poly_fit_least_squares,
)


def test_the_fit_is_numpys_least_squares_quadratic_polyFitLeastSquares() -> None:  # noqa: N802
    rng = np.random.default_rng(7)
    for _ in range(20):
        x = sorted(-rng.uniform(0, 100, size=12))
        y = list(rng.uniform(-500, 500, size=12))
        ours = poly_fit_least_squares(list(x), y, 2)
        theirs = np.polyfit(x, y, 2)[::-1]  # numpy gives the highest power first
        assert ours == pytest.approx(list(theirs), rel=1e-6, abs=1e-6)


def test_two_points_fit_a_line_and_one_x_repeated_has_no_fit() -> None:
    assert poly_fit_least_squares([0.0, 10.0], [5.0, 25.0], 2) == pytest.approx([5.0, 2.0])
    with pytest.raises(ValueError):
        poly_fit_least_squares([3.0, 3.0, 3.0], [1.0, 2.0, 3.0], 2)


def test_a_steady_move_gives_its_speed_and_a_braking_move_its_speed_at_the_end() -> None:
    steady = VelocityTracker1D()
    for t in range(0, 100, 8):
        steady.add(t, 2.0 * t)  # 2 units/ms
    assert steady.velocity() == pytest.approx(2000.0)
    braking = VelocityTracker1D()
    for t in range(0, 90, 8):
        braking.add(t, 3.0 * t - 0.01 * t * t)  # x' = 3 - 0.02 t
    # Lsq2 fits the quadratic exactly: the slope at the newest sample (t = 88).
    assert braking.velocity() == pytest.approx((3.0 - 0.02 * 88) * 1000.0, rel=1e-6)


def test_only_the_last_100_ms_count_HorizonMilliseconds() -> None:  # noqa: N802
    tracker = VelocityTracker1D()
    for t in range(0, 200, 10):
        tracker.add(t, 0.0 if t < 90 else 5.0 * (t - 90))  # still, then 5 units/ms
    # With the samples older than 100 ms before the newest (t = 190) left out, the fit sees
    # t = 90..190: the still part is one sample (t = 90, on the line), so the slope is 5000.
    assert tracker.velocity() == pytest.approx(5000.0, rel=1e-6)


def test_a_gap_over_40_ms_ends_the_samples_AssumePointerMoveStoppedMilliseconds() -> None:  # noqa: N802
    tracker = VelocityTracker1D()
    for t in (0, 10, 20, 30):
        tracker.add(t, -4.0 * t)
    for t in (75, 85, 95):  # 45 ms after the last: only these three count
        tracker.add(t, 1000.0 + 1.0 * t)
    assert tracker.velocity() == pytest.approx(1000.0, rel=1e-6)
    tracker.add(140, 2000.0)  # 45 ms again: one sample is too few for Lsq2 (minSampleSize 3)
    assert tracker.velocity() == 0.0


def test_the_history_holds_20_samples_HistorySize() -> None:  # noqa: N802
    tracker = VelocityTracker1D()
    for t in range(0, 30):  # 1 ms apart: 30 samples within the horizon
        tracker.add(t, 0.0 if t < 10 else 7.0 * (t - 10))
    # Only the newest 20 (t = 10..29) are held: a line of 7 units/ms.
    assert tracker.velocity() == pytest.approx(7000.0, rel=1e-6)


def test_a_press_resets_and_adds_nothing_addPointerInputChangeWithFix() -> None:  # noqa: N802
    pointer = PointerVelocity()
    pointer.press(0)
    for i, t in enumerate((16, 32, 48, 64)):
        pointer.move(t, 0.0, -30.0 * (i + 1))
    pointer.release(70)
    vx, vy = pointer.velocity()
    assert vx == 0.0 and vy == pytest.approx(-30.0 / 16 * 1000)
    pointer.press(1000)  # the next gesture starts from nothing
    assert pointer.velocity() == (0.0, 0.0)
    pointer.move(1016, 0.0, 10.0)
    pointer.move(1032, 0.0, 20.0)
    assert pointer.velocity() == (0.0, 0.0)  # two moves: under minSampleSize


def test_a_release_over_40_ms_after_the_last_move_flings_with_nothing() -> None:
    pointer = PointerVelocity()
    pointer.press(0)
    for t in (10, 20, 30, 40):
        pointer.move(t, 3.0 * t, 0.0)
    pointer.release(81)  # 41 ms still before lifting
    assert pointer.velocity() == (0.0, 0.0)
    pointer.press(200)
    for t in (210, 220, 230, 240):
        pointer.move(t, 3.0 * t, 0.0)
    pointer.release(280)  # 40 ms: still a fling
    assert pointer.velocity()[0] == pytest.approx(3000.0)


def test_moves_without_a_press_are_hovers_and_clamp_keeps_the_sign() -> None:
    pointer = PointerVelocity()
    for t in (10, 20, 30, 40):
        pointer.move(t, 3.0 * t, 0.0)
    assert pointer.velocity() == (0.0, 0.0)
    assert clamp(-9000.0, 8000.0) == -8000.0
    assert clamp(9000.0, 8000.0) == 8000.0
    assert clamp(-12.5, 8000.0) == -12.5
