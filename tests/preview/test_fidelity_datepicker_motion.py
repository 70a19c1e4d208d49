"""The date picker's motion as Material 3's (docs/fidelity.md "datePicker · base"): the months
list is DatePicker.kt `HorizontalMonthsList`, a LazyRow with
`DatePickerDefaults.rememberSnapFlingBehavior` (`snapFlingBehavior` over
`SnapLayoutInfoProvider(lazyListState)` with `calculateApproachOffset` 0 and `snapAnimationSpec =
MotionSchemeKeyTokens.DefaultEffects.value()`, the standard scheme's `spring(1, 1600)`), so a
released drag picks its month at once (LazyListSnapLayoutInfoProvider.kt `calculateSnapOffset`,
`calculateFinalSnappingItem`) and springs there from the release velocity, stopping on it
(SnapFlingBehavior.kt `animateWithTarget`, `coerceToTarget`), in real time
(`DefaultScrollMotionDurationScale`). A wider picker spreads its week rows (`WeekDays`, `Month`:
`Arrangement.SpaceEvenly`), and a day's and a year's colours move on `animateColorAsState`
(DatePickerColors, the same DefaultEffects spring, in Oklab: ColorVectorConverter.kt).

The months' geometry is read from the view at each frame, against the snap's own clock, and the
colours against the fade's own clock; the expected curves are computed here from Compose's
formulas."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QTimer
from PySide6.QtGui import QColor
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from tests.preview.fidelity import spec_of
from tests.preview.helpers import LEFT, NO_MOD, click_item, drag, find_named, item_rect
from tests.preview.springs import (
    MIN_FLING_VELOCITY,
    THRESHOLD_PX,
    assert_follows_spring,
    spring_displacement,
    spring_ms,
)

FEBRUARY_2026 = (2026 - 1900) * 12 + 1  # the months list's index of February 2026
DEFAULT_EFFECTS = 1600.0  # MotionSchemeKeyTokens.DefaultEffects, standard: spring(1, 1600)
SNAP_STIFFNESS = DEFAULT_EFFECTS  # DatePickerDefaults.rememberSnapFlingBehavior's snapAnimationSpec
COLOUR_THRESHOLD = 0.01  # Spring.DefaultDisplacementThreshold, per Oklab component


def _spec(picked: str = "2026-02-10", wide: bool = False, **extra: Any) -> dict[str, Any]:
    picker: dict[str, Any] = {"type": "datePicker", "id": "dp", "stateKey": "d"}
    if wide:
        picker["style"] = {"width": "fill"}
    column = {"type": "column", "style": {"width": "fill"}, "children": [picker]}
    return spec_of(column, state={"d": picked}, **extra)


def _named(scene: Any, name: str) -> Any:
    return find_named(scene.screen_item(), name, visible=True)


def _months(scene: Any) -> QQuickItem:
    return _named(scene, "monthsList")


def _x(months: QQuickItem) -> float:
    return float(months.property("contentX"))


def _start_of(months: QQuickItem, i: int) -> float:
    """Month i's contentX: i widths left to right; right to left the list lays leftwards from 0."""
    w = float(months.property("width"))
    return -(i + 1) * w if months.property("rtl") else i * w


def _trace(months: QQuickItem) -> list[tuple[float, float]]:
    """(ms on the snap's clock, contentX) at every move of the list from now on."""
    seen: list[tuple[float, float]] = []
    months.contentXChanged.connect(  # type: ignore[attr-defined]
        lambda: seen.append((float(months.property("elapsed")), _x(months)))
    )
    return seen


def _y(months: QQuickItem) -> int:
    return round(item_rect(months).center().y())


def _release(scene: Any, months: QQuickItem, x: int, ms: int) -> None:
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(x, _y(months)), ms)


def _assert_follows_spring(
    trace: list[tuple[float, float]], start: float, target: float, v0: float, density: float
) -> None:
    """Each frame is `DefaultEffects' spring(1, 1600)`'s position at that time to 0.001 dp, one way
    only, ending exactly on the month once the spring's estimated time is up."""
    assert_follows_spring(trace, start, target, v0, SNAP_STIFFNESS, density)


def _picker(scene: Any) -> QQuickItem:
    return _named(scene, "datePicker")


def _after_each_step(signal: Any, read: Any) -> None:
    """Call `read` once the fade's step has been drawn into every binding (the signal comes
    before the colours' bindings have caught up; the next turn of the event loop, before the
    next frame, sees them all)."""
    signal.connect(lambda: QTimer.singleShot(0, read))


def _month_shown(scene: Any) -> str:
    return str(_named(scene, "datePickerMonthYear").property("text"))


@pytest.fixture
def picker(scene: Any) -> Any:
    scene.show(_spec())
    scene.grab()
    return scene


# --- the months list's snap ------------------------------------------------------------------


def test_a_slow_release_short_of_half_a_month_springs_back_calculateSnapOffset_ClosestItem(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """Dragged 40 % of a month and held still: below `MinFlingVelocityDp` the closer of the two
    months either side is picked (`FinalSnappingItem.ClosestItem`), February again, and the list
    springs back from rest on `DefaultEffects' spring(1, 1600)`, the curve of SpringSimulation to
    0.001 dp, not Qt's snap; the label never left February's month for good."""
    scene, months = picker, _months(picker)
    w = float(months.property("width"))
    left = round(item_rect(months).left())
    drag(scene, QPoint(left + 300, _y(months)), -150, 0, steps=10, ms=40)
    start = _x(months)
    assert 0.3 < (start - _start_of(months, FEBRUARY_2026)) / w < 0.5
    trace = _trace(months)
    _release(scene, months, left + 150, ms=300)  # held still first: no velocity left
    assert months.property("settling") and float(months.property("v0")) == 0
    assert months.property("targetMonth") == FEBRUARY_2026
    qtbot.waitUntil(lambda: not months.property("settling"), timeout=3000)
    target = _start_of(months, FEBRUARY_2026)
    _assert_follows_spring(trace, start, target, 0, scene.controller.density)
    assert _month_shown(scene) == "February 2026"


def test_a_slow_drag_past_half_a_month_goes_on_calculateSnapOffset_ClosestItem(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """Dragged 60 % and held still: March is the closer month, so the list goes on to it on the
    spring, from rest; the picked date stays (only a day tap picks)."""
    scene, months = picker, _months(picker)
    w = float(months.property("width"))
    left = round(item_rect(months).left())
    drag(scene, QPoint(left + 320, _y(months)), -250, 0, steps=10, ms=40)
    start = _x(months)
    assert 0.5 < (start - _start_of(months, FEBRUARY_2026)) / w < 0.7
    trace = _trace(months)
    _release(scene, months, left + 70, ms=300)
    assert float(months.property("v0")) == 0
    qtbot.waitUntil(lambda: not months.property("settling"), timeout=3000)
    target = _start_of(months, FEBRUARY_2026 + 1)
    _assert_follows_spring(trace, start, target, 0, scene.controller.density)
    assert _month_shown(scene) == "March 2026"
    assert scene.controller.runtime.value("d") == "2026-02-10"


def test_a_quick_short_flick_goes_one_month_calculateFinalSnappingItem_NextItem(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """A flick of a fifth of a month at about 2000 dp/s: at or above `MinFlingVelocityDp` (400
    dp/s) the month ahead in the fling's direction is picked (`NextItem`, the upper bound), though
    the drag is short of half; the spring starts with the release velocity (no decay approach:
    `calculateApproachOffset` is 0)."""
    scene, months = picker, _months(picker)
    left = round(item_rect(months).left())
    drag(scene, QPoint(left + 250, _y(months)), -70, 0, steps=7, ms=5)
    start = _x(months)
    assert 0.1 < (start - _start_of(months, FEBRUARY_2026)) / float(months.property("width")) < 0.3
    trace = _trace(months)
    _release(scene, months, left + 180, ms=5)
    velocity = float(months.property("v0"))
    assert velocity >= MIN_FLING_VELOCITY and months.property("targetMonth") == FEBRUARY_2026 + 1
    qtbot.waitUntil(lambda: not months.property("settling"), timeout=3000)
    target = _start_of(months, FEBRUARY_2026 + 1)
    _assert_follows_spring(trace, start, target, velocity, scene.controller.density)
    assert _month_shown(scene) == "March 2026"


def test_a_quick_flick_back_goes_one_month_back_calculateFinalSnappingItem_PreviousItem(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """The same flick the other way (`PreviousItem`, the lower bound): January."""
    scene, months = picker, _months(picker)
    left = round(item_rect(months).left())
    drag(scene, QPoint(left + 80, _y(months)), 70, 0, steps=7, ms=5)
    _release(scene, months, left + 150, ms=5)
    assert float(months.property("v0")) <= -MIN_FLING_VELOCITY
    qtbot.waitUntil(lambda: not months.property("settling"), timeout=3000)
    assert _x(months) == _start_of(months, FEBRUARY_2026 - 1)
    assert _month_shown(scene) == "January 2026"


def test_a_fling_of_huge_velocity_goes_exactly_one_month_animateWithTarget_coerceToTarget(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """A flick far above 8000 dp/s (capped there, ViewConfiguration's maximum fling velocity):
    a decay would carry the list months on, but with no approach the target is the next month,
    and the spring, which this fast would overshoot it, stops on it (`coerceToTarget`): never
    more than one month, never past it, before its own time is up."""
    scene, months = picker, _months(picker)
    left = round(item_rect(months).left())
    drag(scene, QPoint(left + 320, _y(months)), -240, 0, steps=12, ms=2)  # 10,000 dp/s
    start = _x(months)
    trace = _trace(months)
    _release(scene, months, left + 80, ms=2)
    velocity = float(months.property("v0"))
    assert velocity == 8000
    target = _start_of(months, FEBRUARY_2026 + 1)
    x0 = start - target
    assert velocity > math.sqrt(SNAP_STIFFNESS) * -x0  # a spring that would cross it
    qtbot.waitUntil(lambda: not months.property("settling"), timeout=3000)
    assert max(x for _, x in trace) == target and trace[-1][1] == target
    for ms, x in trace[:-1]:
        expected = target + spring_displacement(x0, velocity, SNAP_STIFFNESS, ms / 1000)
        assert x == pytest.approx(expected, abs=1e-3)
    assert trace[-1][0] < spring_ms(x0, velocity, SNAP_STIFFNESS, THRESHOLD_PX)
    assert _month_shown(scene) == "March 2026"


def test_right_to_left_a_slow_drag_right_past_half_goes_to_the_next_month_HorizontalMonthsList(  # noqa: N802
    rtl: Any, qtbot: Any
) -> None:
    """Right to left the next month lies to the left: a slow drag to the right past half a
    month settles on March, on the same spring."""
    scene = rtl
    scene.show(_spec())
    scene.grab()
    months = _months(scene)
    assert _x(months) == _start_of(months, FEBRUARY_2026)
    left = round(item_rect(months).left())
    drag(scene, QPoint(left + 20, _y(months)), 250, 0, steps=10, ms=40)
    start = _x(months)
    w = float(months.property("width"))
    assert 0.5 < (_start_of(months, FEBRUARY_2026) - start) / w < 0.7
    trace = _trace(months)
    _release(scene, months, left + 270, ms=300)
    qtbot.waitUntil(lambda: not months.property("settling"), timeout=3000)
    target = _start_of(months, FEBRUARY_2026 + 1)
    _assert_follows_spring(trace, start, target, 0, scene.controller.density)
    assert _month_shown(scene) == "March 2026"


def test_the_snap_plays_in_real_time_at_any_animator_scale_DefaultScrollMotionDurationScale(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """At the device's animator duration scale 2 the snap is not stretched: SnapFlingBehavior
    runs under `motionScaleDuration = DefaultScrollMotionDurationScale` (1); its play time is the
    real time, frame by frame."""
    scene.controller.set_animator_scale(2.0)
    scene.show(_spec())
    scene.grab()
    months = _months(scene)
    left = round(item_rect(months).left())
    clocks: list[tuple[float, float]] = []
    drag(scene, QPoint(left + 320, _y(months)), -250, 0, steps=10, ms=40)
    months.contentXChanged.connect(  # type: ignore[attr-defined]
        lambda: clocks.append(
            (float(months.property("realElapsed")), float(months.property("elapsed")))
        )
    )
    _release(scene, months, left + 70, ms=300)
    qtbot.waitUntil(lambda: not months.property("settling"), timeout=5000)
    assert len(clocks) > 5
    for real, play in clocks:
        assert play == pytest.approx(real, abs=1e-6)
    assert _month_shown(scene) == "March 2026"


def test_a_touch_stops_the_snap_and_a_lift_snaps_from_there_Scrollable_startDragImmediately(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """A press while the months snap stops them where they are (Scrollable starts its drag at
    once on a scroll in progress, which cancels the fling); lifted without a drag, they snap
    from there with no velocity, to the closer month; the held press picks no day."""
    scene, months = picker, _months(picker)
    left = round(item_rect(months).left())
    drag(scene, QPoint(left + 320, _y(months)), -250, 0, steps=10, ms=40)
    _release(scene, months, left + 70, ms=300)
    w = float(months.property("width"))
    march = _start_of(months, FEBRUARY_2026 + 1)
    qtbot.waitUntil(lambda: _x(months) > march - 0.2 * w, timeout=3000)
    at = QPoint(left + 150, _y(months) - 60)
    QTest.mousePress(scene.view, LEFT, NO_MOD, at)
    assert not months.property("settling")
    held = _x(months)
    assert held < march
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, at, 600)
    qtbot.waitUntil(lambda: not months.property("settling") and _x(months) == march, timeout=3000)
    assert float(months.property("v0")) == 0
    assert _month_shown(scene) == "March 2026"
    assert scene.controller.runtime.value("d") == "2026-02-10"  # the press picked nothing
    # at rest, a tap on a day picks it again
    click_item(scene, _text_of(months, "20"))
    assert scene.controller.runtime.value("d") == "2026-03-20"
    assert _month_shown(scene) == "March 2026" and _x(months) == march


def test_the_arrows_keep_their_own_slide_animateScrollToItem(picker: Any, qtbot: Any) -> None:  # noqa: N802
    """The next arrow is `animateScrollToItem`, not a fling: its slide runs (and no snap)."""
    scene, months = picker, _months(picker)
    click_item(scene, _named(scene, "nextMonth"))
    assert months.property("sliding") and not months.property("settling")
    qtbot.waitUntil(lambda: not months.property("sliding"), timeout=3000)
    assert _x(months) == _start_of(months, FEBRUARY_2026 + 1)
    assert not months.property("settling")


# --- a wide picker (`Arrangement.SpaceEvenly`) -----------------------------------------------


def _centres(row: QQuickItem) -> list[float]:
    """The x centres, in the scene, of the row's visible children from the left."""
    kids = [k for k in row.childItems() if k.isVisible() and k.width() > 0]
    return sorted(item_rect(k).center().x() for k in kids)


@pytest.mark.parametrize("right_to_left", [False, True], ids=["ltr", "rtl"])
def test_a_wide_pickers_cells_spread_evenly_WeekDays_Month_Arrangement_SpaceEvenly(  # noqa: N802
    scene: Any, rtl: Any, right_to_left: bool
) -> None:
    """A 412 dp picker: its rows are 388 dp (12 dp in at each side,
    `DatePickerHorizontalPadding`), and `Arrangement.SpaceEvenly` puts the seven 48 dp cells of
    the weekday row and of every week with the same gap, (388 - 7 x 48) / 8 = 6.5 dp, before,
    between and after them; the days sit under their weekdays. At 360 dp there is no gap."""
    at = rtl if right_to_left else scene
    at.show(_spec(wide=True))
    at.grab()
    picker = _named(at, "datePicker")
    assert picker.width() == 412
    gap = (412 - 24 - 7 * 48) / 8
    left = item_rect(picker).left() + 12
    expected = [left + gap + 24 + i * (48 + gap) for i in range(7)]
    weekdays = _centres(_named(at, "weekDays"))
    assert weekdays == pytest.approx(expected, abs=0.01)
    grid = _named(at, "monthDays")
    cells = [k for k in grid.childItems() if k.width() == 48]
    assert len(cells) == 42
    for row in range(6):
        xs = sorted(item_rect(k).center().x() for k in cells[row * 7 : row * 7 + 7])
        assert xs == pytest.approx(expected, abs=0.01)
    # the first of February 2026 (a Sunday) starts the week: leftmost, or rightmost under Rtl
    first = next(k for k in cells if k.property("day") == 1)
    assert item_rect(first).center().x() == pytest.approx(
        expected[-1] if right_to_left else expected[0], abs=0.01
    )


def test_a_360dp_picker_keeps_its_cells_edge_to_edge_Arrangement_SpaceEvenly(  # noqa: N802
    picker: Any,
) -> None:
    """At the minimum width the row is exactly seven cells: no gap."""
    picker_item = _named(picker, "datePicker")
    left = item_rect(picker_item).left() + 12
    weekdays = _centres(_named(picker, "weekDays"))
    assert weekdays == pytest.approx([left + 24 + 48 * i for i in range(7)], abs=0.01)


# --- colour moves (`animateColorAsState` on DefaultEffects) ----------------------------------


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _oklab(c: QColor) -> tuple[float, float, float, float]:
    """(alpha, L, a, b): ColorVectorConverter's vector (Oklab, Ottosson's matrices)."""
    r, g, b = (_linear(v) for v in (c.redF(), c.greenF(), c.blueF()))
    lc = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    mc = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    sc = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (
        c.alphaF(),
        0.2104542553 * lc + 0.7936177850 * mc - 0.0040720468 * sc,
        1.9779984951 * lc - 2.4285922050 * mc + 0.4505937099 * sc,
        0.0259040371 * lc + 0.7827717662 * mc - 0.8086757660 * sc,
    )


def _from_oklab(v: tuple[float, ...]) -> tuple[float, float, float, float]:
    """(r, g, b, alpha) in 0..1."""
    alpha, big_l, big_a, big_b = v
    lc = (big_l + 0.3963377774 * big_a + 0.2158037573 * big_b) ** 3
    mc = (big_l - 0.1055613458 * big_a - 0.0638541728 * big_b) ** 3
    sc = (big_l - 0.0894841775 * big_a - 1.2914855480 * big_b) ** 3
    r = 4.0767416621 * lc - 3.3077115913 * mc + 0.2309699292 * sc
    g = -1.2684380046 * lc + 2.6097574011 * mc - 0.3413193965 * sc
    b = -0.0041960863 * lc - 0.7034186147 * mc + 1.7076147010 * sc
    return tuple(min(1.0, max(0.0, _gamma(x))) for x in (r, g, b)) + (alpha,)  # type: ignore[return-value]


def _spring_colour(start: QColor, end: QColor, ms: float) -> tuple[float, float, float, float]:
    """The colour `ms` into a move from rest on spring(1, 1600), per Oklab component."""
    w, t = math.sqrt(DEFAULT_EFFECTS), ms / 1000
    k = (1 + w * t) * math.exp(-w * t)
    a, b = _oklab(start), _oklab(end)
    return _from_oklab(tuple(y + (x - y) * k for x, y in zip(a, b, strict=True)))


def _rgba(c: Any) -> tuple[float, float, float, float]:
    c = QColor(c)
    return (c.redF(), c.greenF(), c.blueF(), c.alphaF())


def _role(scene: Any, name: str) -> QColor:
    return QColor(str(scene.controller.scheme.colors[name]))


def _text_of(under: QQuickItem, text: str) -> QQuickItem:
    stack = [under]
    while stack:
        item = stack.pop()
        is_text = item.metaObject().className().startswith("RoleText")
        if is_text and item.property("text") == text and item.isVisible():
            return item
        stack.extend(item.childItems())
    raise AssertionError(text)


def _between(mid: tuple[float, ...], a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Strictly between, in some channel, and not outside in any (a little slack for Oklab)."""
    inside = all(
        min(x, y) - 0.02 <= m <= max(x, y) + 0.02 for m, x, y in zip(mid, a, b, strict=True)
    )
    strictly = any(
        min(x, y) + 0.05 < m < max(x, y) - 0.05 for m, x, y in zip(mid, a, b, strict=True)
    )
    return inside and strictly


def test_a_picked_day_fades_in_DatePickerColors_dayContainerColor_dayContentColor_DefaultEffects(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """Tapping the 20th: its circle fades from transparent to primary and its number from
    onSurface to onPrimary on `spring(1, 1600)` in Oklab (`animateColorAsState`, the container
    only for the day being picked: `animateChecked = startDateSelected`); the 10th loses its circle
    at once and its number fades from onPrimary back to onSurface. Read at the fade's own play
    time, mid-way, each colour is the spring's."""
    scene = picker
    months = _months(scene)
    dp = _picker(scene)
    primary, on_primary, on_surface = (
        _role(scene, r) for r in ("primary", "onPrimary", "onSurface")
    )
    clear = QColor(0, 0, 0, 0)
    seen: list[tuple[float, Any, Any, Any]] = []

    def frame() -> None:
        circle = _named(scene, "pickedDay")
        twenty, ten = _text_of(months, "20"), _text_of(months, "10")
        seen.append(
            (
                float(dp.property("dayFadePlay")),
                circle.property("color"),
                twenty.property("color"),
                ten.property("color"),
            )
        )

    _after_each_step(dp.dayFadePlayChanged, frame)  # type: ignore[attr-defined]
    click_item(scene, _text_of(months, "20"))
    assert scene.controller.runtime.value("d") == "2026-02-20"
    assert dp.property("dayFading")
    # the 10th's circle is gone at once (`rememberUpdatedState`, not animated)
    circle = _named(scene, "pickedDay")
    centre, twenty_at = item_rect(circle).center(), item_rect(_text_of(months, "20")).center()
    assert abs(centre.x() - twenty_at.x()) < 1 and abs(centre.y() - twenty_at.y()) < 1
    qtbot.waitUntil(lambda: not dp.property("dayFading"), timeout=3000)
    mids = [s for s in seen if 30 < s[0] < 90]
    assert mids, seen
    for ms, container, twenty, ten in mids:
        assert _rgba(container) == pytest.approx(_spring_colour(clear, primary, ms), abs=2 / 255)
        assert _rgba(twenty) == pytest.approx(
            _spring_colour(on_surface, on_primary, ms), abs=2 / 255
        )
        assert _rgba(ten) == pytest.approx(_spring_colour(on_primary, on_surface, ms), abs=2 / 255)
        assert _between(_rgba(twenty), _rgba(on_surface), _rgba(on_primary))
        assert _between(_rgba(container), _rgba(clear), _rgba(primary))
    # at rest: the targets exactly
    assert QColor(_named(scene, "pickedDay").property("color")) == primary
    assert QColor(_text_of(months, "20").property("color")) == on_primary
    assert QColor(_text_of(months, "10").property("color")) == on_surface


def test_the_day_fade_plays_on_the_animator_scale_doAnimationFrameWithScale(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """A Compose animation: at the device's animator duration scale 2 the fade's play time is
    half the real time (SuspendAnimation.kt `doAnimationFrameWithScale`); at 0 it does not run
    (the colours are the targets at once)."""
    scene.controller.set_animator_scale(2.0)
    scene.show(_spec())
    scene.grab()
    dp = _picker(scene)
    clocks: list[tuple[float, float]] = []
    dp.dayFadePlayChanged.connect(  # type: ignore[attr-defined]
        lambda: clocks.append(
            (float(dp.property("dayFadeReal")), float(dp.property("dayFadePlay")))
        )
    )
    click_item(scene, _text_of(_months(scene), "20"))
    qtbot.waitUntil(lambda: not dp.property("dayFading"), timeout=5000)
    assert len(clocks) > 5
    for real, play in clocks[1:-1]:
        assert play == pytest.approx(real / 2, abs=1e-6)
    scene.controller.set_animator_scale(0.0)
    click_item(scene, _text_of(_months(scene), "21"))
    assert not _picker(scene).property("dayFading")
    assert QColor(_named(scene, "pickedDay").property("color")) == _role(scene, "primary")
    assert QColor(_text_of(_months(scene), "20").property("color")) == _role(scene, "onSurface")


def test_without_motion_a_pick_changes_colour_at_once_prototypeMotionEnabled(  # noqa: N802
    scene: Any,
) -> None:
    """`motion: "none"`: no fade, the picked day is primary the moment it is tapped."""
    scene.show(_spec(motion="none"))
    scene.grab()
    click_item(scene, _text_of(_months(scene), "20"))
    assert not _picker(scene).property("dayFading")
    assert QColor(_named(scene, "pickedDay").property("color")) == _role(scene, "primary")


def test_a_tapped_year_fades_in_as_the_list_closes_DatePickerColors_yearContainerColor(  # noqa: N802
    picker: Any, qtbot: Any
) -> None:
    """A year tap: the year list closes (fading out) while the tapped year's pill fades from
    transparent to primary and its label from onSurfaceVariant to onPrimary, and 2026's pill
    from primary to transparent (`yearContainerColor` and `yearContentColor` both animate),
    on the same spring."""
    scene = picker
    click_item(scene, _named(scene, "yearMenuButton"))
    qtbot.waitUntil(
        lambda: (
            _named(scene, "yearPickerClip") is not None
            and _named(scene, "yearPickerClip").height() == 336
        ),
        timeout=3000,
    )
    dp = _picker(scene)
    primary, on_primary, variant = (
        _role(scene, r) for r in ("primary", "onPrimary", "onSurfaceVariant")
    )
    clear = QColor(0, 0, 0, 0)
    seen: list[tuple[float, Any, Any, Any]] = []

    def frame() -> None:
        new = find_named(scene.screen_item(), "year2028")
        old = find_named(scene.screen_item(), "year2026")
        if new is None or old is None:
            return
        seen.append(
            (
                float(dp.property("yearFadePlay")),
                new.property("color"),
                _text_of(new, "2028").property("color"),
                old.property("color"),
            )
        )

    _after_each_step(dp.yearFadePlayChanged, frame)  # type: ignore[attr-defined]
    click_item(scene, _named(scene, "year2028"))
    assert dp.property("yearFading")
    qtbot.waitUntil(lambda: not dp.property("yearFading"), timeout=3000)
    mids = [s for s in seen if 20 < s[0] < 90]
    assert mids, seen
    for ms, pill, label, old in mids:
        assert _rgba(pill) == pytest.approx(_spring_colour(clear, primary, ms), abs=2 / 255)
        assert _rgba(label) == pytest.approx(_spring_colour(variant, on_primary, ms), abs=2 / 255)
        assert _rgba(old) == pytest.approx(_spring_colour(primary, clear, ms), abs=2 / 255)
        assert _between(_rgba(pill), _rgba(clear), _rgba(primary))
    assert _month_shown(scene) == "February 2028"
