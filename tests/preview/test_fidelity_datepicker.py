"""The date picker as Material 3 draws it (docs/fidelity.md "datePicker · base"): AutoMobile's
`RenderPrototypeDatePicker` (PrototypeMaterialComponents.kt) shows Material 3's `DatePicker`
(androidx compose/material3 DatePicker.kt, tokens/DatePickerModalTokens.kt) in its Picker mode
without the mode toggle. These tests check today's ring, the year menu button and its arrow, the
year list and the months list's drag, left to right and right to left, on a rendered frame; the
OpenGL scene graph draws the same (a child process on a private Xvfb, `datepicker_probe.py`)."""

from __future__ import annotations

from datetime import date
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt

from tests.preview.fidelity import close, hex_rgb, rgb_at, spec_of
from tests.preview.helpers import click_item, find_named, item_rect, pixels, swipe
from tests.preview.probe import opengl_probe

PICKER = {"type": "datePicker", "id": "dp", "stateKey": "d"}
LEFT = Qt.MouseButton.LeftButton


def _spec(picked: str = "2026-02-10") -> dict[str, Any]:
    column = {"type": "column", "style": {"width": "fill"}, "children": [PICKER]}
    return spec_of(column, state={"d": picked})


def _named(scene: Any, name: str) -> Any:
    """The visible item of that objectName in the shown screen (Repeater and view delegates
    too), or None."""
    return find_named(scene.screen_item(), name, visible=True)


def _texts(scene: Any, under: Any) -> dict[str, Any]:
    """The visible texts under `under`, by their text (the last of equal ones)."""
    out: dict[str, Any] = {}
    stack = [under]
    while stack:
        item = stack.pop()
        if item.metaObject().className().startswith("RoleText") and item.isVisible():
            out[str(item.property("text"))] = item
        stack.extend(c for c in item.childItems() if c.isVisible())
    return out


def _colour(scene: Any, role: str) -> tuple[int, int, int]:
    return hex_rgb(str(scene.controller.scheme.colors[role]))


def _ink(scene: Any, image: Any, item: Any) -> np.ndarray:
    """A mask of the pixels in `item` that are not the picker's container colour."""
    r = item_rect(item)
    crop = pixels(image)[round(r.top()) : round(r.bottom()), round(r.left()) : round(r.right())]
    rgb = crop[:, :, 2::-1].astype(int)
    return np.abs(rgb - np.array(_colour(scene, "surfaceContainerHigh"))).max(axis=2) > 40


def _darkest(
    scene: Any, image: Any, item: Any, against: tuple[int, int, int] | None = None
) -> tuple[int, int, int]:
    """The colour of the ink in `item` that differs most from `against` (the container colour by
    default): a glyph's core."""
    r = item_rect(item)
    crop = pixels(image)[round(r.top()) : round(r.bottom()), round(r.left()) : round(r.right())]
    rgb = crop[:, :, 2::-1].astype(int).reshape(-1, 3)
    behind = against or _colour(scene, "surfaceContainerHigh")
    far = np.abs(rgb - np.array(behind)).sum(axis=1)
    return tuple(int(c) for c in rgb[far.argmax()])  # type: ignore[return-value]


def _still(scene: Any) -> bool:
    """The year list fully open or gone, and the months list not moving."""
    clip = _find_any(scene, "yearPickerClip")
    months = _named(scene, "monthsList")
    opened = clip is None or not clip.isVisible() or clip.height() == 336
    moving = any(months.property(p) for p in ("moving", "sliding", "settling"))
    return opened and not moving


def _find_any(scene: Any, name: str) -> Any:
    return find_named(scene.screen_item(), name)


def _month_shown(scene: Any) -> str:
    return str(_named(scene, "datePickerMonthYear").property("text"))


# --- the frame (DatePicker.kt `DateEntryContainer`, `DatePickerHeader`, `DatePickerContent`) ---


def test_the_header_is_120dp_with_its_divider_and_nothing_below_the_weeks_DatePickerHeader(  # noqa: N802
    scene: Any,
) -> None:
    # DatePickerHeader: `defaultMinSize(minHeight = DatePickerModalTokens.HeaderContainerHeight)`
    # (120 dp) around the title and the headline's Row with the HorizontalDivider under it; then
    # MonthsNavigation (MonthYearHeight 56 dp), WeekDays (48 dp) and `Month` (48 dp x 6).
    scene.show(_spec())
    image = scene.grab()
    picker = item_rect(_named(scene, "datePicker"))
    assert picker.height() == 120 + 56 + 48 + 6 * 48
    x, top = picker.left() + 200, picker.top()
    assert close(rgb_at(image, x, top + 119), _colour(scene, "outlineVariant"), 6)
    assert close(rgb_at(image, x, top + 118), _colour(scene, "surfaceContainerHigh"))
    headline = item_rect(_named(scene, "datePickerHeadline"))
    assert headline.bottom() == pytest.approx(top + 119 - 12)  # DatePickerHeadlinePadding bottom
    label = item_rect(_named(scene, "datePickerMonthYear"))
    assert label.center().y() == pytest.approx(top + 120 + 28, abs=1)
    last = item_rect(_named(scene, "monthsList"))
    assert last.bottom() == picker.bottom()


# --- today (DatePicker.kt `Month`: isToday; `Day`: the today BorderStroke; DatePickerColors) ----


def test_today_is_ringed_and_primary_unless_picked_Day_DateTodayContainerOutlineWidth(  # noqa: N802
    scene: Any,
) -> None:
    # `Day`: `border = if (today && !selected) BorderStroke(DateTodayContainerOutlineWidth (1 dp),
    # todayDateBorderColor (DateTodayContainerOutlineColor: primary))`, and `dayContentColor`
    # gives today's number todayContentColor (DateTodayLabelTextColor: primary).
    scene.controller.set_today(date(2026, 2, 18))
    scene.show(_spec("2026-02-10"))
    image = scene.grab()
    ring = _named(scene, "todayRing")
    assert ring is not None
    r = item_rect(ring)
    days = _texts(scene, _named(scene, "monthsList"))
    text = item_rect(days["18"]).center()
    assert (r.width(), r.height()) == (40, 40)  # the 40 dp Day surface, around its number
    cx, cy = r.center().x(), r.center().y()
    assert (text.x(), text.y()) == (pytest.approx(cx, abs=1), pytest.approx(cy, abs=1))
    primary, container = _colour(scene, "primary"), _colour(scene, "surfaceContainerHigh")
    assert close(rgb_at(image, r.left(), cy), primary, 40)  # the 1 dp ring at its edge...
    assert close(rgb_at(image, r.left() + 2, cy), container)  # ...and no wider
    assert close(rgb_at(image, cx, r.top()), primary, 40)
    assert close(rgb_at(image, cx + 21, cy), container)  # nothing outside it
    assert close(_darkest(scene, image, days["18"]), primary, 40)  # today's number in primary
    assert close(_darkest(scene, image, days["17"]), _colour(scene, "onSurface"), 40)
    # Picked, today is drawn as the selected day: the primary disc, onPrimary, no ring.
    scene.show(_spec("2026-02-18"))
    image = scene.grab()
    assert _named(scene, "todayRing") is None and _named(scene, "pickedDay") is not None
    assert close(rgb_at(image, cx - 15, cy), primary)
    assert close(rgb_at(image, cx + 21, cy), container)


def test_today_follows_the_device_date_not_the_picked_month_CalendarModel_today(  # noqa: N802
    scene: Any,
) -> None:
    # HorizontalMonthsList: `todayMillis = calendarModel.today.utcTimeMillis` for every month.
    scene.controller.set_today(date(2026, 3, 5))
    scene.show(_spec("2026-02-10"))
    scene.grab()
    assert _named(scene, "todayRing") is None  # February does not hold it
    scene.controller.set_today(date(2026, 2, 5))
    scene.grab()
    ring, five = _named(scene, "todayRing"), _texts(scene, _named(scene, "monthsList"))["5"]
    assert ring is not None
    a, b = item_rect(ring).center(), item_rect(five).center()
    assert (a.x(), a.y()) == (pytest.approx(b.x(), abs=1), pytest.approx(b.y(), abs=1))


# --- the year menu button (DatePicker.kt `YearPickerMenuButton`, `MonthsNavigation`) -----------


def _arrow_points_down(scene: Any, image: Any) -> bool:
    """Whether the drop-down arrow's triangle is widest at its top (Icons.Filled.ArrowDropDown)."""
    mask = _ink(scene, image, _named(scene, "yearMenuArrow"))
    rows = [int(row.sum()) for row in mask if row.any()]
    assert len(rows) >= 4, "no arrow drawn"
    return rows[0] > rows[-1]


def test_the_menu_button_draws_the_drop_down_arrow_after_the_label_YearPickerMenuButton(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # TextButton content: the label (navigationContentColor, onSurfaceVariant), a Spacer of
    # ButtonDefaults.IconSpacing (8 dp), then Icons.Filled.ArrowDropDown (24 dp) in the button's
    # content colour: `textButtonColors(contentColor = LocalContentColor.current)`, onSurface.
    for s in (scene, rtl):
        s.show(_spec())
        image = s.grab()
        label = item_rect(_named(s, "datePickerMonthYear"))
        arrow = item_rect(_named(s, "yearMenuArrow"))
        assert (arrow.width(), arrow.height()) == (24, 24)
        assert arrow.center().y() == pytest.approx(label.center().y(), abs=1)
        if s is rtl:  # the Row mirrors: the arrow at the label's left
            assert arrow.right() == pytest.approx(label.left() - 8)
        else:
            assert arrow.left() == pytest.approx(label.right() + 8)
        assert _arrow_points_down(s, image)
        assert close(_darkest(s, image, _named(s, "yearMenuArrow")), _colour(s, "onSurface"), 12)
        assert close(
            _darkest(s, image, _named(s, "datePickerMonthYear")), _colour(s, "onSurfaceVariant"), 40
        )


# --- the year list (DatePicker.kt `DatePickerContent`, `YearPicker`, `Year`) -------------------


def _open_years(scene: Any, qtbot: Any) -> None:
    click_item(scene, _named(scene, "yearMenuButton"))
    qtbot.waitUntil(lambda: _named(scene, "yearGrid") is not None and _still(scene))


def test_the_menu_button_opens_the_year_list_over_the_month_YearPicker(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.controller.set_today(date(2030, 6, 15))
    scene.show(_spec())
    scene.grab()
    picker = item_rect(_named(scene, "datePicker"))
    _open_years(scene, qtbot)
    image = scene.grab()
    # MonthsNavigation: the arrows go while the year list shows; the arrow turns up
    # (`Modifier.rotate(180f)`).
    assert _named(scene, "previousMonth") is None and _named(scene, "nextMonth") is None
    assert not _arrow_points_down(scene, image)
    # YearPicker: 335 dp high (48 x 7 - the divider), then the 1 dp divider, under the month row.
    grid = item_rect(_named(scene, "yearGrid"))
    assert grid.top() == picker.top() + 120 + 56 and grid.height() == 335
    assert (grid.left(), grid.width()) == (picker.left() + 12, 336)
    # GridCells.Fixed(3) with SpaceEvenly: each 72 x 36 dp year centred in a third; rows 16 dp
    # apart; first the row of `displayedYear - 1900 - YearsInRow` (2023..2025), 2026 below it.
    first, shown = item_rect(_named(scene, "year2023")), item_rect(_named(scene, "year2026"))
    assert (first.width(), first.height()) == (72, 36)
    assert first.top() == grid.top() and shown.top() == grid.top() + 36 + 16
    assert first.center().x() == pytest.approx(grid.left() + 56)
    assert item_rect(_named(scene, "year2025")).center().x() == pytest.approx(grid.left() + 280)
    # `Year`: the displayed year selected (primary, onPrimary); the current year (today's)
    # ringed in primary with a primary label; the others onSurfaceVariant.
    primary = _colour(scene, "primary")
    assert close(rgb_at(image, shown.left() + 10, shown.center().y()), primary)
    label = _texts(scene, _named(scene, "year2026"))["2026"]
    assert close(_darkest(scene, image, label, primary), _colour(scene, "onPrimary"), 40)
    current = item_rect(_named(scene, "year2030"))
    assert close(rgb_at(image, current.center().x(), current.top()), primary, 40)
    assert close(
        rgb_at(image, current.center().x(), current.top() + 3),
        _colour(scene, "surfaceContainerHigh"),
    )
    assert close(_darkest(scene, image, _named(scene, "year2030")), primary, 40)
    assert close(
        _darkest(scene, image, _named(scene, "year2024")), _colour(scene, "onSurfaceVariant"), 40
    )
    # It covers the weekdays and the month: none of February's numbers shows through.
    assert _named(scene, "todayRing") is None
    below = rgb_at(image, grid.left() + 112, grid.top() + 335)  # the divider
    assert close(below, _colour(scene, "outlineVariant"), 6)


def test_a_year_tap_shows_that_years_month_and_writes_nothing_YearPicker_onYearSelected(  # noqa: N802
    scene: Any, rtl: Any, qtbot: Any
) -> None:
    # `onYearSelected`: `yearPickerVisible = !yearPickerVisible` and `scrollToItem((year - 1900)
    # * 12 + displayedMonth.month - 1)`; the selection changes only on a day's onClick.
    for s in (scene, rtl):
        s.show(_spec())
        s.grab()
        click_item(s, _named(s, "nextMonth"))
        qtbot.waitUntil(lambda s=s: _month_shown(s) == "March 2026" and _still(s))
        _open_years(s, qtbot)
        grid = item_rect(_named(s, "yearGrid"))
        year = item_rect(_named(s, "year2027"))  # the second row's second year
        assert year.center().x() == pytest.approx(grid.left() + 168)
        first = item_rect(_named(s, "year2026"))  # the row's first year at its start
        assert first.center().x() == pytest.approx(grid.left() + (280 if s is rtl else 56))
        click_item(s, _named(s, "year2027"))
        qtbot.waitUntil(lambda s=s: _named(s, "yearGrid") is None and _still(s))
        assert _month_shown(s) == "March 2027"
        assert _named(s, "previousMonth") is not None and _arrow_points_down(s, s.grab())
        assert s.controller.runtime.value("d") == "2026-02-10"
        assert [e.name for e in s.controller.runtime.events if e.name != "screenShown"] == []


def test_the_year_list_is_made_only_while_open_DatePickerContent_AnimatedVisibility(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(_spec())
    scene.grab()
    assert _find_any(scene, "yearGrid") is None  # not made with the picker
    _open_years(scene, qtbot)
    click_item(scene, _named(scene, "yearMenuButton"))  # the button closes it again
    qtbot.waitUntil(lambda: _find_any(scene, "yearGrid") is None and _still(scene))
    assert _month_shown(scene) == "February 2026"


# --- month paging (DatePicker.kt `HorizontalMonthsList`: a LazyRow with a snap fling) ----------


@pytest.mark.parametrize("right_to_left", [False, True], ids=["ltr", "rtl"])
def test_a_drag_on_the_month_pages_to_the_next_or_previous_HorizontalMonthsList(  # noqa: N802
    preview: Any, qtbot: Any, right_to_left: bool
) -> None:
    # A LazyRow of months: dragging the content towards the start brings in the next month;
    # right to left the row starts at the right, so a drag to the right shows the next month.
    preview.set_rtl(right_to_left)
    preview.set_spec(_spec())
    qtbot.waitUntil(lambda: _named(preview, "monthsList") is not None)
    preview.grab_image()
    months = _named(preview, "monthsList")
    centre = months.mapToScene(months.boundingRect().center()).toPoint()
    forward = 200 if right_to_left else -200
    widget = preview.quick_widget

    def settled(text: str) -> bool:
        still = not months.property("moving") and not months.property("settling")
        return _month_shown(preview) == text and still

    swipe(qtbot, widget, centre, forward, 0)
    qtbot.waitUntil(lambda: settled("March 2026"))
    shown = _texts(preview, months)
    assert "31" in shown and "29" in shown  # March's own days, one month on screen
    first = item_rect(shown["1"]).center().x()  # March 2026 starts on a Sunday: the row's start
    edge = item_rect(months)
    assert first == pytest.approx(edge.right() - 24 if right_to_left else edge.left() + 24, abs=1)
    swipe(qtbot, widget, centre, -forward, 0)
    qtbot.waitUntil(lambda: settled("February 2026"))
    swipe(qtbot, widget, centre, -forward, 0)
    qtbot.waitUntil(lambda: settled("January 2026"))
    # A day of the month the drag brought in picks that month's date.
    day = _texts(preview, months)["20"]
    at = day.mapToScene(day.boundingRect().center()).toPoint()
    qtbot.mouseClick(widget, LEFT, pos=at)
    qtbot.waitUntil(lambda: preview.runtime.value("d") == "2026-01-20")
    # and that month stays (MC's LaunchedEffect(millis) scrolls to the new date's own month)
    preview.grab_image()
    assert settled("January 2026") and _named(preview, "pickedDay") is not None


# --- the OpenGL scene graph -----------------------------------------------------------------


@pytest.mark.xvfb
@pytest.mark.timeout(120)
def test_the_date_picker_draws_alike_on_opengl_DatePicker(tmp_path: Any) -> None:  # noqa: N802
    """The same picker on the OpenGL scene graph (xcb on a private Xvfb, a child process): the
    today ring, the open year list and a year tap, left to right and right to left, and a
    released drag's snap and a pick's colour fade (`HorizontalMonthsList`'s snap fling,
    DatePickerColors), with no Qt message."""
    seen = opengl_probe("tests.preview.datepicker_probe")  # on OpenGL, and Qt logs nothing
    for direction in ("ltr", "rtl"):
        got = seen[direction]
        primary, container = hex_rgb(got["primary"]), hex_rgb(got["container"])
        assert close(tuple(got["ring"]), primary, 40), got
        assert close(tuple(got["inside_ring"]), container), got
        assert close(tuple(got["selected_year"]), primary), got
        assert got["after_year_tap"] == "February 2028" and got["picked"] == "2026-02-10", got
    # the months' snap and a day's colour fade run on the render loop's frames there too
    # (test_fidelity_datepicker_motion.py checks their curves offscreen)
    motion = seen["motion"]
    assert motion["snapping"] and motion["snap_ended"], motion
    assert motion["month"] == "March 2026" and motion["at_month_start"] == 0, motion
    assert motion["fading"] and motion["fade_ended"], motion
    assert motion["picked"] == "2026-03-20", motion
    assert close(tuple(motion["picked_circle"]), hex_rgb(seen["ltr"]["primary"])), motion


def test_the_month_shown_stays_across_a_direction_switch_HorizontalMonthsList(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    # The preview's direction switch lays the months list out afresh; the month shown is the
    # picker's state (DatePickerState `displayedMonthMillis`, saved across recomposition), not the
    # list's first month.
    scene.show(_spec())
    scene.grab()
    click_item(scene, _named(scene, "nextMonth"))
    qtbot.waitUntil(lambda: _month_shown(scene) == "March 2026" and _still(scene))
    for right_to_left in (True, False):
        scene.controller.set_rtl(right_to_left)
        scene.grab()
        assert _month_shown(scene) == "March 2026"
        assert "31" in _texts(scene, _named(scene, "monthsList"))
