"""The release velocity of a drag, estimated as Compose estimates it (no Qt here).

A scroll or a pager on the phone flings with the velocity Compose's `VelocityTracker` computes
when the finger lifts (androidx compose/ui/ui/.../input/pointer/util/VelocityTracker.kt). Qt's
Flickable uses its own estimate (a smoothed per-event velocity, averaged over the last few
moves), which differs most when a finger slows down or pauses before it lifts. This module
follows VelocityTracker.kt:

- `VelocityTracker1D` with the default `Strategy.Lsq2`: a circular history of `HistorySize` (20)
  samples; `calculateVelocity` walks back from the newest while a sample is at most
  `HorizonMilliseconds` (100) older than the newest and at most
  `AssumePointerMoveStoppedMilliseconds` (40) from the one after it, needs at least 3 samples,
  and takes the slope at the newest sample of a least-squares quadratic (`polyFitLeastSquares`,
  its Gram-Schmidt QR solve), else 0.
- The points added as `addPointerInputChangeWithFix` adds them (the behaviour Compose ships
  since `VelocityTrackerAddPointsFix` became the default): a press resets the tracker and adds
  nothing; each move adds its position; a release adds nothing and resets the tracker when it
  comes more than 40 ms after the last move, so a finger that stopped before lifting flings with 0.

`PointerVelocity` is the two-axis tracker fed from one pointer's press, moves and release.
"""

from __future__ import annotations

import math

HISTORY_SIZE = 20
HORIZON_MS = 100.0
ASSUME_STOPPED_MS = 40.0
#: Strategy.Lsq2's `minSampleSize`.
MIN_SAMPLES = 3


def poly_fit_least_squares(x: list[float], y: list[float], degree: int) -> list[float]:
    """Coefficients (constant term first) of the least-squares polynomial of `degree` through
    the points (x, y), by VelocityTracker.kt `polyFitLeastSquares`: Gram-Schmidt QR of the
    Vandermonde matrix, degree truncated to len(x) - 1. Raises ValueError where the columns are
    linearly dependent (the Kotlin's IllegalArgumentException), e.g. all x equal."""
    m = len(x)
    if degree < 1:
        raise ValueError("the degree must be a positive integer")
    if m == 0:
        raise ValueError("at least one point must be provided")
    n = min(degree, m - 1) + 1
    a = [[1.0] * m]
    for i in range(1, n):
        a.append([a[i - 1][h] * x[h] for h in range(m)])
    q: list[list[float]] = []
    r: list[list[float]] = []
    for j in range(n):
        w = list(a[j])
        for i in range(j):
            dot = sum(w[h] * q[i][h] for h in range(m))
            w = [w[h] - dot * q[i][h] for h in range(m)]
        norm = math.sqrt(sum(v * v for v in w))
        if norm < 0.000001:
            raise ValueError("vectors are linearly dependent or zero")
        w = [v / norm for v in w]
        q.append(w)
        r.append([0.0 if i < j else sum(w[h] * a[i][h] for h in range(m)) for i in range(n)])
    coefficients = [0.0] * n
    for i in range(n - 1, -1, -1):
        c = sum(q[i][h] * y[h] for h in range(m))
        for j in range(n - 1, i, -1):
            c -= r[i][j] * coefficients[j]
        coefficients[i] = c / r[i][i]
    return coefficients


class VelocityTracker1D:
    """Positions over time on one axis; `velocity()` in units per second (Strategy.Lsq2)."""

    def __init__(self) -> None:
        self._samples: list[tuple[float, float] | None] = [None] * HISTORY_SIZE
        self._index = 0

    def add(self, time_ms: float, position: float) -> None:
        self._index = (self._index + 1) % HISTORY_SIZE
        self._samples[self._index] = (time_ms, position)

    def reset(self) -> None:
        self._samples = [None] * HISTORY_SIZE
        self._index = 0

    def velocity(self) -> float:
        newest = self._samples[self._index]
        if newest is None:
            return 0.0
        times: list[float] = []
        points: list[float] = []
        index = self._index
        previous = newest
        while len(times) < HISTORY_SIZE:
            sample = self._samples[index]
            if sample is None:
                break
            age = newest[0] - sample[0]
            gap = abs(sample[0] - previous[0])
            previous = sample
            if age > HORIZON_MS or gap > ASSUME_STOPPED_MS:
                break
            points.append(sample[1])
            times.append(-age)
            index = (HISTORY_SIZE if index == 0 else index) - 1
        if len(times) < MIN_SAMPLES:
            return 0.0
        try:
            return poly_fit_least_squares(times, points, 2)[1] * 1000.0
        except ValueError:
            return 0.0


def clamp(velocity: float, maximum: float) -> float:
    """VelocityTracker1D.calculateVelocity(maximumVelocity): the sign kept, the size capped."""
    return max(-maximum, min(maximum, velocity))


class PointerVelocity:
    """One pointer's press, moves and release (positions in any one coordinate space, times in
    ms), as `addPointerInputChangeWithFix` feeds a VelocityTracker."""

    def __init__(self) -> None:
        self._x = VelocityTracker1D()
        self._y = VelocityTracker1D()
        self._last_move = 0.0
        self.down = False

    def press(self, time_ms: float) -> None:
        self._last_move = 0.0
        self._x.reset()
        self._y.reset()
        self.down = True

    def move(self, time_ms: float, x: float, y: float) -> None:
        if not self.down:
            return  # a hover, not a drag
        self._last_move = time_ms
        self._x.add(time_ms, x)
        self._y.add(time_ms, y)

    def release(self, time_ms: float) -> None:
        self.down = False
        if time_ms - self._last_move > ASSUME_STOPPED_MS:
            self._x.reset()
            self._y.reset()

    def velocity(self) -> tuple[float, float]:
        """The velocity at the newest move, (x, y) units per second."""
        return self._x.velocity(), self._y.velocity()
