"""Scrolling as on the phone: AutoMobile draws a scroll as `Box(Modifier.verticalScroll(...))` or
`horizontalScroll` and a pager as `HorizontalPager(pager, modifier)` (PrototypeSpecContent.kt
`RenderPrototypeNodeContent` "scroll", `RenderPrototypePager`), with Compose's default overscroll
(the platform's stretch EdgeEffect on Android 12+) and fling (`ScrollableDefaults.flingBehavior()`,
the spline decay). The expected numbers are computed here from the sources' formulas."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QEventPoint, QTouchEvent, QWheelEvent
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from tests.preview.fidelity import spec_of
from tests.preview.helpers import LEFT, NO_MOD, drag, find_items, find_named, pixels
from tests.preview.probe import opengl_probe

ROW = 80  # dp, each row of the test lists
SCREEN_H = 915
RED, BLUE = (255, 0, 0), (0, 0, 255)
TOUCH = QTest.createTouchDevice()


def stretch_of(distance: float) -> float:
    """EdgeEffect.java `dampStretchVector` (Android 13+: LINEAR_STRETCH_INTENSITY and
    EXP_STRETCH_INTENSITY 0.016, SCROLL_DIST_AFFECTED_BY_EXP_STRETCH 0.33) of a pull `distance`
    (`mDistance`, the pull over the container's length)."""
    d = min(1.0, abs(distance))
    return 0.016 * d + 0.016 * (1 - math.exp(-d * math.e / 0.33))


# FlingCalculator.kt: friction ViewConfiguration.getScrollFriction() 0.015, the physical
# coefficient GravityEarth 9.80665 * InchesPerMeter 39.37 * 160 * density * 0.84, DecelerationRate
# ln 0.78 / ln 0.9; AndroidFlingSpline `deceleration` = ln(0.35 |v| / (friction * coefficient)).
# In dp and dp/s the density cancels out.
_FRICTION = 0.015 * 9.80665 * 39.37 * 160 * 0.84
_DECELERATION = math.log(0.78) / math.log(0.9)


def fling_distance(velocity: float) -> float:
    """FlingCalculator `flingDistance`, dp for a release at `velocity` dp/s."""
    spline = math.log(0.35 * abs(velocity) / _FRICTION)
    return _FRICTION * math.exp(_DECELERATION / (_DECELERATION - 1) * spline)


def fling_duration(velocity: float) -> float:
    """FlingCalculator `flingDuration`, ms."""
    return 1000 * math.exp(math.log(0.35 * abs(velocity) / _FRICTION) / (_DECELERATION - 1))


def _rows(count: int, axis: str = "vertical") -> dict[str, Any]:
    """A scroll of `count` full-width 80 dp rows (80 dp wide boxes for a horizontal one),
    alternately red and blue."""
    vertical = axis == "vertical"
    kids = [
        {
            "type": "box",
            "id": f"r{i}",
            "style": {
                "width": "fill" if vertical else {"dp": ROW},
                "height": {"dp": ROW} if vertical else "fill",
                "background": "#FF0000" if i % 2 == 0 else "#0000FF",
            },
            "children": [],
        }
        for i in range(count)
    ]
    child = {"type": "column" if vertical else "row", "style": {"width": "fill"}, "children": kids}
    if not vertical:
        child["style"] = {"height": "fill"}
    scroll: dict[str, Any] = {"type": "scroll", "child": child}
    if not vertical:
        scroll["axis"] = "horizontal"
        scroll["style"] = {"height": {"dp": 200}}
    return scroll


def _flickable(scene: Any) -> QQuickItem:
    (flick,) = [i for i in find_items(scene.screen_item(), "") if i.inherits("QQuickFlickable")]
    return flick


def _fling_of(flick: QQuickItem) -> QObject:
    found = flick.findChild(QObject, "splineFling")
    assert found is not None, "no SplineFling on the scroll"
    return found


def _stretch(flick: QQuickItem) -> QObject:
    found = flick.findChild(QObject, "edgeStretch")
    assert found is not None, "no EdgeStretch on the scroll"
    return found


def _first_change(line: Any, start: int, stop: int) -> float:
    """Where a line of pixels stops being its colour at `start`: the first pixel that differs,
    less the share of it that is still the first colour (the edge's antialiasing)."""
    first = line[start].astype(float)
    for i in range(start + 1, stop):
        if (abs(line[i].astype(float) - first) > 8).any():
            other = line[min(i + 1, stop - 1)].astype(float)
            span = float(abs(other - first).max()) or 1.0
            return i + 1 - float(abs(line[i].astype(float) - first).max()) / span
    return float(stop)


def _row_edge(scene: Any) -> float:
    """Where the first row ends on screen (y, dp), down the middle of the scroll."""
    column = pixels(scene.grab_now())[:, 200, :3][:, ::-1]  # BGR to RGB
    return _first_change(column, 2, 400)


def _column_edge(scene: Any, y: int) -> float:
    """Where the first box of a horizontal scroll ends (x, dp), along screen row `y`."""
    line = pixels(scene.grab_now())[y, :, :3][:, ::-1]
    return _first_change(line, 2, 400)


def _release(scene: Any, at: QPoint, ms: int = 16) -> None:
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, at, ms)


@pytest.fixture
def rows(scene: Any) -> Iterator[Any]:
    scene.show(spec_of(_rows(40)))
    scene.grab()
    yield scene


def test_a_drag_past_the_top_stretches_the_content_and_springs_back_EdgeEffect_onPullDistance(  # noqa: N802
    rows: Any, qtbot: Any
) -> None:
    """Compose's `pullTop` passes the overscrolled drag over the container's height to
    `onPullDistance`; the content is drawn stretched by `dampStretchVector` of it about the top
    (uniform-scale rendering: the first row's end moves down by that share); on release the
    spring (`onRelease`, `updateSpring`) brings it back to rest."""
    scene, flick = rows, _flickable(rows)
    assert _row_edge(scene) == pytest.approx(ROW, abs=0.5)
    drag(scene, QPoint(200, 300), 0, 300)
    scene.grab_now()
    assert flick.property("contentY") == 0  # the content stays at its bound
    pull = -2 * float(flick.property("verticalOvershoot"))  # Qt halves the overdrag
    assert 300 - 2 * 15 <= pull <= 300  # the finger's travel, less the drag threshold
    stretched = _stretch(flick)
    distance = float(stretched.property("distance"))
    assert distance == pytest.approx(pull / SCREEN_H, abs=1e-6)
    expected = ROW * (1 + stretch_of(distance))
    assert expected - ROW > 1.2  # a visible stretch (1.9 % here)
    assert float(stretched.property("yScale")) == pytest.approx(1 + stretch_of(distance), abs=1e-6)
    assert _row_edge(scene) == pytest.approx(expected, abs=0.5)
    _release(scene, QPoint(200, 600))
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=3000)
    assert float(stretched.property("yScale")) == 1
    scene.grab()
    assert _row_edge(scene) == pytest.approx(ROW, abs=0.5)
    assert flick.property("contentY") == 0


def test_a_release_into_the_stretched_top_is_absorbed_at_the_fingers_velocity_applyToFling(  # noqa: N802
    rows: Any, qtbot: Any
) -> None:
    """Pulled past the top and let go still pulling: AndroidOverscroll.kt `applyToFling` gives
    the whole fling to the stretched edge, `onAbsorb(velocity.y)` with the finger's velocity
    (1000 dp/s here), which EdgeEffect starts its spring at 13x (ON_ABSORB_VELOCITY_ADJUSTMENT),
    in px/s; then it springs back to rest and the content does not move."""
    scene, flick = rows, _flickable(rows)
    drag(scene, QPoint(200, 300), 0, 200, steps=20, ms=10)
    stretched = _stretch(flick)
    assert float(stretched.property("distance")) > 0
    _release(scene, QPoint(200, 500), ms=10)
    assert not _fling_of(flick).property("running")
    density = float(scene.controller.density)
    assert float(stretched.property("velocity")) == pytest.approx(1000 * density * 13, rel=1e-6)
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=3000)
    assert flick.property("contentY") == 0


def test_a_drag_past_the_bottom_stretches_about_the_bottom_edge(rows: Any, qtbot: Any) -> None:
    """`pullBottom`: the end edge stretches about the view's bottom, so the last row's top moves
    up by the stretch of what lies above it."""
    scene, flick = rows, _flickable(rows)
    end = 40 * ROW - SCREEN_H
    flick.setProperty("contentY", end)
    scene.grab()
    drag(scene, QPoint(200, 700), 0, -300)
    scene.grab_now()
    stretched = _stretch(flick)
    distance = float(stretched.property("distance"))
    assert distance < 0 and flick.property("contentY") == end
    s = stretch_of(distance)
    # the last row's top, ROW above the bottom, is drawn (1 + s) times as far from it
    column = pixels(scene.grab_now())[:, 200, :3][:, ::-1]
    last_top = SCREEN_H - _first_change(column[::-1], 2, 400)
    assert last_top == pytest.approx(SCREEN_H - ROW * (1 + s), abs=0.5)
    _release(scene, QPoint(200, 400))
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=3000)


def test_no_stretch_in_the_middle_of_the_content(rows: Any) -> None:
    """Away from both bounds a drag only scrolls (the edge effects see no overscroll)."""
    scene, flick = rows, _flickable(rows)
    flick.setProperty("contentY", 1000)
    scene.grab()
    drag(scene, QPoint(200, 300), 0, 200, steps=10, ms=60)  # slowly: no fling after
    assert float(flick.property("contentY")) < 1000 - 150
    stretched = _stretch(flick)
    assert stretched.property("distance") == 0 and stretched.property("yScale") == 1
    _release(scene, QPoint(200, 500), ms=60)
    assert stretched.property("distance") == 0


def test_a_horizontal_scroll_stretches_sideways_about_its_start(scene: Any, qtbot: Any) -> None:
    """`horizontalScroll` has the left and right edge effects (`pullLeft`): a drag right at the
    start stretches the content horizontally about the left edge, over the scroll's width."""
    scene.show(
        spec_of({"type": "column", "style": {"width": "fill"}, "children": [_rows(20, "h")]})
    )
    scene.grab()
    flick = _flickable(scene)
    assert _column_edge(scene, 100) == pytest.approx(ROW, abs=0.5)
    drag(scene, QPoint(60, 100), 300, 0)
    stretched = _stretch(flick)
    distance = float(stretched.property("distance"))
    assert distance == pytest.approx(-2 * float(flick.property("horizontalOvershoot")) / 412)
    assert stretched.property("yScale") == 1
    assert _column_edge(scene, 100) == pytest.approx(ROW * (1 + stretch_of(distance)), abs=0.5)
    _release(scene, QPoint(360, 100))
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=3000)
    assert _column_edge(scene, 100) == pytest.approx(ROW, abs=0.5)


def _fling(scene: Any, flick: QQuickItem, dy: int, step: int = 20) -> tuple[float, float]:
    """A quick drag of `dy` (`step` px every 10 ms) released while moving: returns the content's
    position at the release and the release velocity the scroll took (dp/s)."""
    start = QPoint(200, 600 if dy < 0 else 300)
    drag(scene, start, 0, dy, steps=abs(dy) // step, ms=10)
    _release(scene, QPoint(200, start.y() + dy), ms=10)
    return float(flick.property("contentY")), float(_fling_of(flick).property("velocity"))


def test_a_fling_travels_as_far_and_as_long_as_the_spline_decay_FlingCalculator(  # noqa: N802
    rows: Any, qtbot: Any
) -> None:
    """Compose's `DefaultFlingBehavior(splineBasedDecay)`: a fling released at v dp/s travels
    `flingDistance(v)` in `flingDuration(v)` (FlingCalculator.kt) along AndroidFlingSpline's
    curve. The distance is met to 0.1 % (the spline ends exactly at its distance; Qt's own
    flick, a constant 1500 dp/s² deceleration, would go v² / 3000: twice as far at 2000 dp/s)."""
    scene, flick = rows, _flickable(rows)
    flick.setProperty("contentY", 600)
    scene.grab()
    released_at, velocity = _fling(scene, flick, -200)
    assert 1500 < velocity < 2500  # the finger moved 2000 dp/s
    assert _fling_of(flick).property("running")
    qtbot.waitUntil(lambda: not _fling_of(flick).property("running"), timeout=5000)
    travel = float(flick.property("contentY")) - released_at
    expected = fling_distance(velocity)
    assert travel == pytest.approx(expected, rel=1e-3)
    assert travel < velocity**2 / 3000 * 0.6
    assert float(_fling_of(flick).property("duration")) == pytest.approx(fling_duration(velocity))
    assert float(_fling_of(flick).property("elapsed")) >= fling_duration(velocity)


def test_a_fling_takes_the_velocity_of_the_last_100_ms_by_least_squares_VelocityTracker_Lsq2(  # noqa: N802
    rows: Any, qtbot: Any
) -> None:
    """A finger that brakes before it lifts: Compose flings with the slope, at the last move, of
    the least-squares quadratic through the moves of the last 100 ms (VelocityTracker.kt
    `HorizonMilliseconds`, Strategy.Lsq2; the press itself is not a sample). Computed here with
    numpy's polyfit over the moves as sent."""
    scene, flick = rows, _flickable(rows)
    flick.setProperty("contentY", 900)
    scene.grab()
    start = QPoint(200, 700)
    QTest.mousePress(scene.view, LEFT, NO_MOD, start)
    moves: list[tuple[int, int]] = []  # (ms after the press, y)
    y, t = start.y(), 0
    for step in (40, 40, 36, 32, 28, 24, 20, 16, 12, 8):  # 10 ms apart, slowing down
        y, t = y - step, t + 10
        QTest.mouseMove(scene.view, QPoint(200, y), 10)
        moves.append((t, y))
    _release(scene, QPoint(200, y), ms=10)
    recent = [(tm, ym) for tm, ym in moves if t - tm <= 100]
    times = np.array([tm - t for tm, _ in recent], dtype=float)
    slope = np.polyfit(times, np.array([ym for _, ym in recent], dtype=float), 2)[1] * 1000
    velocity = float(_fling_of(flick).property("velocity"))
    assert velocity == pytest.approx(-slope, rel=1e-4)  # the content moves against the finger
    mean = (moves[-1][1] - moves[-4][1]) / 30 * -1000  # the last three moves' mean speed
    assert velocity < mean  # braking: the fit's end slope is below the recent average
    released_at = float(flick.property("contentY"))
    qtbot.waitUntil(lambda: not _fling_of(flick).property("running"), timeout=5000)
    travel = float(flick.property("contentY")) - released_at
    assert travel == pytest.approx(fling_distance(velocity), rel=1e-3)


def test_a_finger_still_for_45_ms_before_it_lifts_flings_nothing_AssumePointerMoveStoppedMilliseconds(  # noqa: N802, E501
    rows: Any,
) -> None:
    """A quick drag, then the finger rests 45 ms and lifts: VelocityTracker.kt resets on a
    release more than 40 ms after the last move (`addPointerInputChangeWithFix`), so Compose
    does not fling and the content stays where the finger left it."""
    scene, flick = rows, _flickable(rows)
    flick.setProperty("contentY", 600)
    scene.grab()
    drag(scene, QPoint(200, 600), 0, -200, steps=10, ms=10)
    released_at = float(flick.property("contentY"))
    _release(scene, QPoint(200, 400), ms=45)
    assert not _fling_of(flick).property("running")
    assert float(flick.property("contentY")) == released_at


def test_a_release_too_slow_for_a_qt_flick_still_flings_Scrollable_onDragStopped(  # noqa: N802
    rows: Any, qtbot: Any
) -> None:
    """Compose flings on every release (Scrollable `onDragStopped` hands the tracked velocity to
    the fling behaviour), also at 62.5 dp/s, under the 75 px/s Qt's Flickable needs to flick
    (qquickflickable.cpp `MinimumFlickVelocity`): the content goes on by the spline's distance."""
    scene, flick = rows, _flickable(rows)
    flick.setProperty("contentY", 600)
    scene.grab()
    drag(scene, QPoint(200, 600), 0, -60, steps=60, ms=16)  # 1 dp every 16 ms
    released_at = float(flick.property("contentY"))
    _release(scene, QPoint(200, 540), ms=16)
    assert float(_fling_of(flick).property("velocity")) == pytest.approx(62.5, rel=1e-6)
    qtbot.waitUntil(lambda: not _fling_of(flick).property("running"), timeout=5000)
    travel = float(flick.property("contentY")) - released_at
    assert travel == pytest.approx(fling_distance(62.5), rel=1e-3)
    assert travel > 1  # about 1.5 dp


def test_in_the_studio_widget_the_fling_takes_the_fingers_velocity(preview: Any) -> None:
    """The studio's QQuickWidget hands its mouse events on to the preview's window, where the
    velocity is tracked (studio/preview/fingers.py): the same fling as in the scene."""
    preview.set_spec(spec_of(_rows(40)))
    preview.grab_image()
    (flick,) = [i for i in find_items(preview.screen_item(), "") if i.inherits("QQuickFlickable")]
    widget = preview.quick_widget
    QTest.mousePress(widget, LEFT, NO_MOD, QPoint(200, 600))
    for i in range(1, 11):
        QTest.mouseMove(widget, QPoint(200, 600 - 20 * i), 10)
    QTest.mouseRelease(widget, LEFT, NO_MOD, QPoint(200, 400), 10)
    assert _fling_of(flick).property("running")
    assert float(_fling_of(flick).property("velocity")) == pytest.approx(2000, rel=1e-6)


def test_at_half_zoom_the_fling_is_in_the_phones_dp(quick: Any, qtbot: Any) -> None:
    """The studio draws the device at any zoom, the layout in dp: a finger moving 1000 logical
    pixels a second over a device drawn at 50 % moves 2000 dp/s on the phone, and the fling
    takes that."""
    from studio.preview.widget import PreviewWidget

    preview = PreviewWidget(show_frame=True)
    qtbot.addWidget(preview)
    preview.set_device_chrome(False)
    preview.resize(600, 900)
    preview.show()
    qtbot.waitExposed(preview)
    preview.set_spec(spec_of(_rows(40)))
    preview.set_zoom(0.5)
    preview.grab_image()
    assert preview.shown_zoom() == 0.5
    (flick,) = [i for i in find_items(preview.screen_item(), "") if i.inherits("QQuickFlickable")]
    widget = preview.quick_widget
    centre = flick.mapToScene(flick.boundingRect().center()).toPoint()
    QTest.mousePress(widget, LEFT, NO_MOD, centre)
    for i in range(1, 11):
        QTest.mouseMove(widget, QPoint(centre.x(), centre.y() - 10 * i), 10)
    QTest.mouseRelease(widget, LEFT, NO_MOD, QPoint(centre.x(), centre.y() - 100), 10)
    assert float(_fling_of(flick).property("velocity")) == pytest.approx(2000, rel=1e-6)


def _touch(window: Any, kind: QEvent.Type, state: QEventPoint.State, y: float, ms: int) -> None:
    point = QEventPoint(1, state, QPointF(200, y), QPointF(200, y))
    event = QTouchEvent(kind, TOUCH, NO_MOD, [point])
    event.setTimestamp(ms)
    QCoreApplication.sendEvent(window, event)


def test_a_finger_on_a_touch_screen_is_tracked_as_the_mouse_is(rows: Any) -> None:
    """Touch events carry their own timestamps and points: the first finger is tracked, and a
    mouse event Qt makes from it does not restart the gesture."""
    scene, flick = rows, _flickable(rows)
    window = scene.view
    _touch(window, QEvent.Type.TouchBegin, QEventPoint.State.Pressed, 600, 5000)
    for i in range(1, 11):
        _touch(
            window, QEvent.Type.TouchUpdate, QEventPoint.State.Updated, 600 - 20 * i, 5000 + 10 * i
        )
        if i == 5:
            QTest.mousePress(window, LEFT, NO_MOD, QPoint(200, 500))  # as a synthesised press
    _touch(window, QEvent.Type.TouchEnd, QEventPoint.State.Released, 400, 5110)
    velocity = scene.controller.releaseVelocity(flick)
    assert velocity.x() == pytest.approx(0, abs=1e-6)
    assert velocity.y() == pytest.approx(-2000, rel=1e-6)  # the finger moved up
    QTest.mouseRelease(window, LEFT, NO_MOD, QPoint(200, 500))
    _touch(window, QEvent.Type.TouchBegin, QEventPoint.State.Pressed, 600, 6000)
    for i in range(1, 6):
        _touch(
            window, QEvent.Type.TouchUpdate, QEventPoint.State.Updated, 600 - 20 * i, 6000 + 10 * i
        )
    _touch(window, QEvent.Type.TouchEnd, QEventPoint.State.Released, 500, 6095)  # 45 ms still
    assert scene.controller.releaseVelocity(flick).y() == 0


def test_a_press_after_a_lost_release_tracks_a_new_gesture(rows: Any) -> None:
    """A release the window never saw (the button let go outside it) leaves the tracker down:
    the next press of that button starts a new gesture all the same."""
    scene, flick = rows, _flickable(rows)
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(200, 600))
    for i in range(1, 6):
        QTest.mouseMove(scene.view, QPoint(200, 600 - 40 * i), 10)  # 4000 dp/s up, never released
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(200, 300))
    for i in range(1, 6):
        QTest.mouseMove(scene.view, QPoint(200, 300 + 10 * i), 10)  # 1000 dp/s down
    _release(scene, QPoint(200, 350), ms=10)
    assert scene.controller.releaseVelocity(flick).y() == pytest.approx(1000, rel=1e-6)


def test_a_fling_into_the_top_ends_in_a_stretch_EdgeEffect_onAbsorb(  # noqa: N802
    rows: Any, qtbot: Any
) -> None:
    """A fling that meets the top stops there and its velocity left over is absorbed by the top
    edge (`applyToFling` -> `onAbsorb`): the content stretches, then springs back to rest."""
    scene, flick = rows, _flickable(rows)
    flick.setProperty("contentY", 300)
    scene.grab()
    stretched = _stretch(flick)
    peak: list[float] = [0.0]

    def seen() -> None:
        peak[0] = max(peak[0], float(stretched.property("distance")))

    stretched.distanceChanged.connect(seen)  # type: ignore[attr-defined]
    _, velocity = _fling(scene, flick, 200)
    assert velocity < 0 and fling_distance(velocity) > 300
    qtbot.waitUntil(lambda: peak[0] > 0.01, timeout=5000)
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=5000)
    assert flick.property("contentY") == 0


def test_lazy_children_appear_as_a_fling_moves_the_scroll(scene: Any, qtbot: Any) -> None:
    """The fling moves the scroll position the layout follows: the rows it brings into view
    are made (studio/preview/tree.py instantiates what the view shows)."""
    scene.show(spec_of(_rows(120)))
    scene.grab()
    flick = _flickable(scene)
    before = {e["address"] for e in scene.visible_summary()}
    assert "r25" not in before
    _fling(scene, flick, -400, step=40)  # 4000 dp/s: about 2,150 dp
    qtbot.waitUntil(lambda: not _fling_of(flick).property("running"), timeout=5000)
    y = float(flick.property("contentY"))
    assert y > 25 * ROW
    scene.grab()
    shown = {e["address"] for e in scene.visible_summary()}
    first = int(y // ROW)
    assert {f"r{i}" for i in range(first + 1, first + SCREEN_H // ROW)} <= shown


PAGER = {
    "type": "pager",
    "id": "pages",
    "style": {"width": "fill", "height": "fill"},
    "children": [
        {"type": "box", "style": {"width": "fill", "height": "fill", "background": "#FF0000"},
         "children": [{"type": "box", "style": {"width": {"dp": ROW}, "height": {"dp": ROW},
                                                 "background": "#0000FF"}, "children": []}]},
        {"type": "box", "style": {"width": "fill", "height": "fill", "background": "#00FF00"},
         "children": []},
    ],
}  # fmt: skip


def test_the_pager_stretches_past_its_first_page_HorizontalPager_overscrollEffect(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """`HorizontalPager(pager, modifier)` keeps the default overscroll: a swipe right on the
    first page stretches it about the left edge and springs back; the page stays."""
    scene.show(spec_of(PAGER))
    scene.grab()
    pager = _flickable(scene)
    assert _column_edge(scene, 40) == pytest.approx(ROW, abs=0.5)
    drag(scene, QPoint(60, 400), 300, 0)
    stretched = _stretch(pager)
    distance = float(stretched.property("distance"))
    assert distance > 0.2
    assert _column_edge(scene, 40) == pytest.approx(ROW * (1 + stretch_of(distance)), abs=0.5)
    _release(scene, QPoint(360, 400))
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=3000)
    assert scene.controller.runtime.pages.get("pages", 0) == 0
    assert _column_edge(scene, 40) == pytest.approx(ROW, abs=0.5)


@pytest.mark.parametrize("switch", ["animator_scale_0", "edit_mode"])
def test_no_stretch_with_animators_off_or_in_edit_mode_EdgeEffect_getCurrentEdgeEffectBehavior(  # noqa: N802, E501
    scene: Any, switch: str
) -> None:
    """EdgeEffect `getCurrentEdgeEffectBehavior` is TYPE_NONE while animators are off (the
    animator duration scale at 0, `ValueAnimator.areAnimatorsEnabled()` false): no pull, no
    stretch, the drag stops at the bound; edit mode stops the preview's motion too."""
    scene.show(spec_of(_rows(40)))
    if switch == "edit_mode":
        scene.controller.set_edit_mode(True)
    else:
        scene.controller.set_animator_scale(0)
    scene.grab()
    flick = _flickable(scene)
    drag(scene, QPoint(200, 300), 0, 300)
    stretched = _stretch(flick)
    assert stretched.property("distance") == 0 and stretched.property("yScale") == 1
    assert flick.property("verticalOvershoot") == 0
    assert _row_edge(scene) == pytest.approx(ROW, abs=0.5)
    _release(scene, QPoint(200, 600))


def test_motion_none_keeps_the_stretch_EdgeEffect_getCurrentEdgeEffectBehavior(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """The stretch is the platform's EdgeEffect, which reads the animator scale, not the spec:
    `motion: "none"` (`prototypeMotionEnabled`, AutoMobile's own transitions) leaves it, as does
    any scale above 0; it still stretches and springs back."""
    scene.show(spec_of(_rows(40), motion="none"))
    scene.controller.set_animator_scale(2)
    scene.grab()
    flick = _flickable(scene)
    drag(scene, QPoint(200, 300), 0, 300)
    scene.grab_now()
    stretched = _stretch(flick)
    distance = float(stretched.property("distance"))
    assert distance > 0.2
    assert _row_edge(scene) == pytest.approx(ROW * (1 + stretch_of(distance)), abs=0.5)
    _release(scene, QPoint(200, 600))
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=3000)


@pytest.mark.xvfb
@pytest.mark.timeout(120)
def test_the_stretch_draws_alike_on_opengl_EdgeEffect(tmp_path: Any) -> None:  # noqa: N802
    """The same drag on the OpenGL scene graph (xcb on a private Xvfb, a child process): the
    first row's end moves down by the stretch, back after the release, and Qt logs nothing."""
    seen = opengl_probe("tests.preview.stretch_probe")  # on OpenGL, and Qt logs nothing
    assert seen["rest"] == pytest.approx(ROW, abs=0.5)
    assert seen["stretched"] == pytest.approx(ROW * (1 + stretch_of(seen["distance"])), abs=0.6)
    assert seen["stretched"] - ROW > 1.2
    assert seen["settled"] and seen["after"] == pytest.approx(ROW, abs=0.5)


def _fling_under_way(scene: Any, flick: QQuickItem, qtbot: Any) -> tuple[float, float]:
    """A fling up from near the top, waited on until it has carried the content 100 dp: the
    content's position at the release and the release velocity, as `_fling`."""
    flick.setProperty("contentY", 100)
    scene.grab()
    released_at, velocity = _fling(scene, flick, -200)
    qtbot.waitUntil(lambda: float(flick.property("contentY")) > released_at + 100, timeout=3000)
    return released_at, velocity


def test_a_touch_stops_a_fling(rows: Any, qtbot: Any) -> None:
    """A press during a fling stops the scroll where it is, as on the phone."""
    scene, flick = rows, _flickable(rows)
    released_at, velocity = _fling_under_way(scene, flick, qtbot)
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(200, 500))
    assert not _fling_of(flick).property("running")
    stopped = float(flick.property("contentY"))
    assert stopped < released_at + fling_distance(velocity) - 100
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(200, 500))
    scene.grab()
    assert float(flick.property("contentY")) == pytest.approx(stopped, abs=1)  # Qt rounds it


def test_the_press_that_stops_a_fling_taps_nothing_Scrollable_startDragImmediately(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """On a scroll in progress Compose's Scrollable takes the press for a drag at once and
    consumes it, so the button under the finger does not click (its gesture is cancelled). The
    same tap once the scroll is at rest runs the button's onTap."""
    tap = [{"type": "increment", "key": "taps"}]
    buttons = [
        {"type": "button", "id": f"b{i}", "label": f"Button {i}", "onTap": tap,
         "style": {"width": "fill", "height": {"dp": ROW}}}
        for i in range(40)
    ]  # fmt: skip
    scroll = {"type": "scroll", "child": {"type": "column", "style": {"width": "fill"},
                                          "children": buttons}}  # fmt: skip
    scene.show(spec_of(scroll, state={"taps": 0}))
    scene.grab()
    flick = _flickable(scene)
    released_at, _ = _fling_under_way(scene, flick, qtbot)
    QTest.mouseClick(scene.view, LEFT, NO_MOD, QPoint(200, 500))
    assert not _fling_of(flick).property("running")
    assert scene.controller.runtime.value("taps") == 0
    scene.grab()
    QTest.mouseClick(scene.view, LEFT, NO_MOD, QPoint(200, 500))
    qtbot.waitUntil(lambda: scene.controller.runtime.value("taps") == 1, timeout=2000)


def test_a_drag_from_the_press_that_stops_a_fling_scrolls_on(rows: Any, qtbot: Any) -> None:
    """The press that caught the fling starts a drag (`startDragImmediately`): moving on, the
    finger moves the content again."""
    scene, flick = rows, _flickable(rows)
    released_at, _ = _fling_under_way(scene, flick, qtbot)
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(200, 500))
    caught = float(flick.property("contentY"))
    for i in range(1, 21):
        QTest.mouseMove(scene.view, QPoint(200, 500 - 10 * i), 16)
    assert flick.property("dragging")
    moved = float(flick.property("contentY")) - caught
    assert 150 < moved <= 200  # with the finger, less Qt's drag threshold
    _release(scene, QPoint(200, 300), ms=200)  # held still: no fling after it
    assert not _fling_of(flick).property("running")


def test_a_mouse_wheel_still_scrolls_without_a_fling_or_a_stretch(rows: Any, qtbot: Any) -> None:
    """The desktop's wheel is no touch: it scrolls by Qt's wheel steps as before (it starts no
    flick to replace) and a wheel past the top stretches nothing."""
    scene, flick = rows, _flickable(rows)
    at = QPointF(200, 400)

    def notch(dy: int) -> None:
        event = QWheelEvent(
            at, at, QPoint(), QPoint(0, dy), Qt.MouseButton.NoButton, NO_MOD,
            Qt.ScrollPhase.NoScrollPhase, False,
        )  # fmt: skip
        QCoreApplication.sendEvent(scene.view, event)

    for _ in range(3):
        notch(-120)
    qtbot.waitUntil(lambda: float(flick.property("contentY")) > 40, timeout=3000)
    assert not _fling_of(flick).property("running")
    flick.setProperty("contentY", 0)
    for _ in range(3):
        notch(120)
    scene.grab()
    assert flick.property("contentY") == 0 and _stretch(flick).property("distance") == 0


def test_in_the_studios_preview_widget_the_stretch_and_the_fling_run(
    preview: Any, qtbot: Any
) -> None:
    """The studio shows the preview in a QQuickWidget, whose frames drive the stretch's spring
    and the fling as the scene's window does."""
    preview.set_spec(spec_of(_rows(40)))
    preview.grab_image()
    (flick,) = [i for i in find_items(preview.screen_item(), "") if i.inherits("QQuickFlickable")]
    stretched, widget = _stretch(flick), preview.quick_widget
    qtbot.mousePress(widget, LEFT, pos=QPoint(200, 300))
    for i in range(1, 21):
        qtbot.mouseMove(widget, QPoint(200, 300 + 15 * i), delay=16)
    assert float(stretched.property("distance")) > 0.2
    qtbot.mouseRelease(widget, LEFT, pos=QPoint(200, 600), delay=16)
    qtbot.waitUntil(lambda: float(stretched.property("distance")) == 0, timeout=3000)
    qtbot.mousePress(widget, LEFT, pos=QPoint(200, 600))
    for i in range(1, 11):
        qtbot.mouseMove(widget, QPoint(200, 600 - 20 * i), delay=10)
    released_at = float(flick.property("contentY"))
    qtbot.mouseRelease(widget, LEFT, pos=QPoint(200, 400), delay=10)
    fling = _fling_of(flick)
    velocity = float(fling.property("velocity"))
    assert velocity > 1000
    qtbot.waitUntil(lambda: not fling.property("running"), timeout=5000)
    travel = float(flick.property("contentY")) - released_at
    assert travel == pytest.approx(fling_distance(velocity), rel=1e-3)


# --- the other scrolling rows of Compose: the date picker's year list, the scrollable tab row --


def _quick_fling(scene: Any, start: QPoint, dx: int, dy: int) -> None:
    """Ten moves of (dx, dy) / 10, 10 ms apart, released 10 ms after the last."""
    QTest.mousePress(scene.view, LEFT, NO_MOD, start)
    for i in range(1, 11):
        QTest.mouseMove(scene.view, QPoint(start.x() + dx * i // 10, start.y() + dy * i // 10), 10)
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(start.x() + dx, start.y() + dy), 10)


def test_the_year_list_flings_as_a_scroll_LazyVerticalGrid_flingBehavior(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """DatePicker.kt `YearPicker` is a LazyVerticalGrid: the default fling (the spline decay)
    from the tracked velocity, and a tap on the moving list picks no year."""
    from tests.preview.test_fidelity_datepicker import _named, _open_years, _spec

    scene.show(_spec())
    scene.grab()
    _open_years(scene, qtbot)
    grid = _named(scene, "yearGrid")
    fling = _fling_of(grid)
    centre = grid.mapToScene(grid.boundingRect().center()).toPoint()
    start_y = float(grid.property("contentY"))
    _quick_fling(scene, QPoint(centre.x(), centre.y() + 60), 0, -120)  # 1200 dp/s up
    released_at = float(grid.property("contentY"))
    assert fling.property("running")
    assert float(fling.property("velocity")) == pytest.approx(1200, rel=1e-6)
    QTest.mouseClick(scene.view, LEFT, NO_MOD, centre)  # catches the fling, picks nothing
    assert not fling.property("running")
    picker = find_named(scene.screen_item(), "datePicker")
    assert picker is not None and picker.property("yearsOpen")  # a year's tap would close it
    assert float(grid.property("contentY")) > start_y
    # Let the next one run out: the spline's distance, not Qt's constant deceleration.
    _quick_fling(scene, QPoint(centre.x(), centre.y() + 60), 0, -120)
    released_at = float(grid.property("contentY"))
    qtbot.waitUntil(lambda: not fling.property("running"), timeout=5000)
    travel = float(grid.property("contentY")) - released_at
    assert travel == pytest.approx(fling_distance(1200), rel=1e-3)


def test_a_scrollable_tab_row_flings_as_a_scroll_ScrollableTabRow_horizontalScroll(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """M3 ScrollableTabRow scrolls its tabs with `horizontalScroll`: the spline decay from the
    tracked velocity, as a horizontal scroll node."""
    tabs = {"type": "tabBar", "stateKey": "t", "scrollable": True,
            "items": [{"label": f"Tab number {i}"} for i in range(30)]}  # fmt: skip
    scene.show(spec_of({"type": "column", "style": {"width": "fill"}, "children": [tabs]},
                       state={"t": 0}))  # fmt: skip
    scene.grab()
    strip = find_named(scene.screen_item(), "tabStrip")
    assert strip is not None
    fling = _fling_of(strip)
    y = int(strip.mapToScene(strip.boundingRect().center()).y())
    _quick_fling(scene, QPoint(350, y), -150, 0)  # 1500 dp/s to the left
    released_at = float(strip.property("contentX"))
    assert float(fling.property("velocity")) == pytest.approx(1500, rel=1e-6)
    qtbot.waitUntil(lambda: not fling.property("running"), timeout=5000)
    travel = float(strip.property("contentX")) - released_at
    assert travel == pytest.approx(fling_distance(1500), rel=1e-3)
    assert scene.controller.runtime.value("t") == 0  # a swipe selects no tab
