"""What a control shows of its own stays when the preview makes it again. On the phone a
recomposition keeps what is remembered in composition: a scroll's `rememberScrollState`, a date
picker's displayed month and `yearPickerVisible` (DatePickerState, DatePickerContent), a time
picker's `selection` (TimePickerState). AutoMobile's scroll is not lazy (PrototypeSpecContent.kt
"scroll": `Box(verticalScroll)`), so a control scrolled off screen and back is the same one.

The preview remakes controls on a re-theme (Controls Material does not restyle a live control:
the device's light/dark switch, or a page or state change that repaints the screen colour the
theme is inferred from), when an edit replaces a scroll, and as rows scroll out of view and back
(only what is on screen is made). Each of those used to start over: a dark toggle put a scrolled
list back at its top, and with the rows made for the old place left the first screen blank."""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from tests.preview.fidelity import spec_of
from tests.preview.helpers import LEFT, NO_MOD, click_item, drag, find_items, find_named


def _flickables(scene: Any) -> list[QQuickItem]:
    """The scroll nodes' views on screen, outermost first."""
    return [
        i
        for i in find_items(scene.screen_item(), "")
        if i.inherits("QQuickFlickable") and i.objectName() == "" and i.isVisible()
    ]


def _on_screen(scene: Any) -> list[tuple[str, float]]:
    return [(e["address"], e["bounds"]["y"]) for e in scene.visible_summary()]


def _list_spec() -> dict[str, Any]:
    rows = [{"type": "button", "id": f"b{i}", "text": f"Row {i}"} for i in range(40)]
    scroll = {"type": "scroll", "id": "list", "style": {"width": "fill", "height": "fill"},
              "child": {"type": "column", "style": {"width": "fill"}, "children": rows}}  # fmt: skip
    return spec_of({"type": "column", "style": {"width": "fill", "height": "fill"},
                    "children": [scroll]})  # fmt: skip


def _scroll_down(scene: Any, qtbot: Any, dy: int = 600) -> QQuickItem:
    """A finger drags the list up by `dy` and holds still before it lifts (no fling)."""
    (view,) = _flickables(scene)
    drag(scene, QPoint(200, 800), 0, -dy, steps=30, ms=16)
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(200, 800 - dy), 100)
    qtbot.waitUntil(lambda: not view.property("moving"), timeout=3000)
    scene.grab()
    return view


def test_a_dark_toggle_keeps_a_scrolled_list_where_it_was_rememberScrollState(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(_list_spec())
    scene.grab()
    view = _scroll_down(scene, qtbot)
    at = float(view.property("contentY"))
    shown = _on_screen(scene)
    assert at > 300 and shown[2][0] != "b0"
    scene.controller.set_appearance("dark")
    scene.grab()
    assert scene.controller.scheme.dark
    (remade,) = _flickables(scene)
    assert remade is not view  # made again for the new theme
    assert float(remade.property("contentY")) == at
    assert _on_screen(scene) == shown  # the same rows in the same places, none missing


def test_an_edit_of_the_scroll_itself_keeps_its_place(scene: Any, qtbot: Any) -> None:
    """An edit that replaces the scroll node (here its background) remakes its view: it shows
    the rows the designer was looking at, as the layout (which keeps the offset) places them."""
    spec = _list_spec()
    scene.show(spec)
    scene.grab()
    view = _scroll_down(scene, qtbot)
    at = float(view.property("contentY"))
    edited = copy.deepcopy(spec)
    edited["root"]["children"][0]["style"]["background"] = "#FFEEEE"
    scene.controller.apply_change(edited, ["list"])
    scene.grab()
    (remade,) = _flickables(scene)
    assert remade is not view
    assert float(remade.property("contentY")) == at
    rows = [y for address, y in _on_screen(scene) if address.startswith("b")]
    assert rows and rows[0] <= 0 < rows[0] + 48  # the first row on screen covers the top


def test_a_strip_scrolled_off_screen_and_back_keeps_its_place_verticalScroll(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """A horizontal scroll at the top of a long list, moved sideways, then scrolled out of view
    and back: on the phone it is the same composable all along; here it is made again where it
    was left."""
    chips = [{"type": "chip", "label": f"Chip {i}"} for i in range(20)]
    strip = {"type": "scroll", "id": "strip", "axis": "horizontal", "style": {"width": "fill"},
             "child": {"type": "row", "children": chips}}  # fmt: skip
    rows = [{"type": "box", "style": {"width": "fill", "height": {"dp": 120}}, "children": []}
            for _ in range(30)]  # fmt: skip
    page = {"type": "scroll", "id": "page", "style": {"width": "fill", "height": "fill"},
            "child": {"type": "column", "style": {"width": "fill"}, "children": [strip, *rows]}}  # fmt: skip
    scene.show(spec_of(page))
    scene.grab()
    outer, inner = _flickables(scene)
    y = round(inner.mapToScene(inner.boundingRect().center()).y())
    drag(scene, QPoint(380, y), -300, 0, steps=30, ms=16)
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(80, y), 100)
    qtbot.waitUntil(lambda: not inner.property("moving"), timeout=3000)
    sideways = float(inner.property("contentX"))
    assert sideways > 150
    outer.setProperty("contentY", 2400.0)  # the strip leaves the screen (and is dropped)
    scene.grab()
    assert [v for v in _flickables(scene) if v is not outer] == []
    outer.setProperty("contentY", 0.0)
    scene.grab()
    (back,) = [v for v in _flickables(scene) if v is not outer]
    assert float(back.property("contentX")) == sideways


def _picker_spec() -> dict[str, Any]:
    picker = {"type": "datePicker", "id": "dp", "stateKey": "d"}
    column = {"type": "column", "style": {"width": "fill"}, "children": [picker]}
    return spec_of(column, state={"d": "2026-02-10"})


def _named(scene: Any, name: str) -> Any:
    return find_named(scene.screen_item(), name, visible=True)


def test_a_dark_toggle_keeps_the_date_pickers_month_and_year_list_DatePickerState(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(_picker_spec())
    scene.grab()
    months = _named(scene, "monthsList")
    click_item(scene, _named(scene, "nextMonth"))
    qtbot.waitUntil(lambda: not months.property("sliding"), timeout=3000)
    click_item(scene, _named(scene, "yearMenuButton"))
    qtbot.waitUntil(lambda: _named(scene, "yearGrid") is not None)
    clip = _named(scene, "yearPickerClip")
    qtbot.waitUntil(lambda: clip.height() == 336, timeout=3000)
    label = str(_named(scene, "datePickerMonthYear").property("text"))
    assert label == "March 2026"
    scene.controller.set_appearance("dark")
    scene.grab()
    assert _named(scene, "monthsList") is not months  # made again for the new theme
    assert str(_named(scene, "datePickerMonthYear").property("text")) == label
    # the year list is open at once, not opening again
    assert _named(scene, "yearGrid") is not None
    assert _named(scene, "yearPickerClip").height() == 336
    assert scene.controller.runtime.value("d") == "2026-02-10"  # and nothing was picked


def test_a_dark_toggle_keeps_the_year_lists_offset_rememberLazyGridState(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """YearPicker's grid state is remembered while the open list stays composed: a re-theme
    leaves it where the designer scrolled it; closed and opened again, it starts at the shown
    year's row once more."""
    scene.show(_picker_spec())
    scene.grab()
    click_item(scene, _named(scene, "yearMenuButton"))
    qtbot.waitUntil(lambda: _named(scene, "yearGrid") is not None)
    clip = _named(scene, "yearPickerClip")
    qtbot.waitUntil(lambda: clip.height() == 336, timeout=3000)
    grid = _named(scene, "yearGrid")
    start = float(grid.property("contentY"))
    drag(scene, QPoint(200, 400), 0, -150, steps=15, ms=16)  # up the list, towards later years
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(200, 250), 100)
    qtbot.waitUntil(lambda: not grid.property("moving"), timeout=3000)
    moved = float(grid.property("contentY"))
    assert moved > start + 100
    scene.controller.set_appearance("dark")
    scene.grab()
    remade = _named(scene, "yearGrid")
    assert remade is not None and remade is not grid  # made again for the new theme
    assert float(remade.property("contentY")) == moved
    click_item(scene, _named(scene, "yearMenuButton"))  # closed ...
    qtbot.waitUntil(lambda: _named(scene, "yearGrid") is None, timeout=3000)
    click_item(scene, _named(scene, "yearMenuButton"))  # ... and opened again
    qtbot.waitUntil(lambda: _named(scene, "yearGrid") is not None)
    assert float(_named(scene, "yearGrid").property("contentY")) == start


def test_a_dark_toggle_keeps_the_time_pickers_minute_dial_TimePickerState_selection(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    picker = {"type": "timePicker", "hourKey": "h", "minuteKey": "m", "is24Hour": True}
    scene.show(spec_of({"type": "column", "style": {"width": "fill"}, "children": [picker]},
                       state={"h": 9, "m": 40}))  # fmt: skip
    scene.grab()
    numbers = _named(scene, "clockDisplayNumbers")
    box = numbers.mapToScene(numbers.boundingRect().center())
    QTest.mouseClick(scene.view, LEFT, NO_MOD, QPoint(round(box.x() + 60), round(box.y())))
    before = _named(scene, "timePicker")
    qtbot.waitUntil(lambda: before.property("selection") == "minute")
    spring = _named(scene, "selectorSpring")
    qtbot.waitUntil(lambda: spring.property("running") is False, timeout=3000)
    angle = float(_named(scene, "dial").property("selectorAngle"))
    scene.controller.set_appearance("dark")
    scene.grab()
    after = _named(scene, "timePicker")
    assert after is not before
    assert after.property("selection") == "minute"
    assert _named(scene, "hourFace") is None and _named(scene, "minuteFace").opacity() == 1
    assert _named(scene, "selectorSpring").property("running") is False  # no move to play
    assert float(_named(scene, "dial").property("selectorAngle")) == angle


def test_a_date_picker_remade_for_another_date_shows_that_dates_month_LaunchedEffect(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """The kept month is the month shown for the bound date: a remade picker whose date was set
    meanwhile shows the new date's month (SC's LaunchedEffect(millis) runs for the new date)."""
    picker = {"type": "datePicker", "id": "dp", "stateKey": "d"}
    rows = [{"type": "box", "style": {"width": "fill", "height": {"dp": 120}}, "children": []}
            for _ in range(20)]  # fmt: skip
    page = {"type": "scroll", "id": "page", "style": {"width": "fill", "height": "fill"},
            "child": {"type": "column", "style": {"width": "fill"}, "children": [picker, *rows]}}  # fmt: skip
    scene.show(spec_of(page, state={"d": "2026-02-10"}))
    scene.grab()
    months = _named(scene, "monthsList")
    click_item(scene, _named(scene, "nextMonth"))
    qtbot.waitUntil(lambda: not months.property("sliding"), timeout=3000)
    (outer,) = _flickables(scene)
    outer.setProperty("contentY", 2000.0)  # the picker leaves the screen (and is dropped)
    scene.grab()
    assert _named(scene, "monthsList") is None
    outer.setProperty("contentY", 0.0)
    scene.grab()
    assert str(_named(scene, "datePickerMonthYear").property("text")) == "March 2026"  # kept
    outer.setProperty("contentY", 2000.0)
    scene.grab()
    scene.controller.runtime.set_value("d", "2027-07-04")
    scene.grab()
    outer.setProperty("contentY", 0.0)
    scene.grab()
    assert str(_named(scene, "datePickerMonthYear").property("text")) == "July 2027"


def test_an_edit_that_shortens_the_list_shows_its_end_not_a_blank(scene: Any, qtbot: Any) -> None:
    """Replaced with fewer rows than the old offset reached, the scroll rests at its new end, and
    the rows there are made: the layout hears the clamped offset, also when the new list fits
    the screen and the view stays at 0 (no move to report)."""
    spec = _list_spec()
    scene.show(spec)
    scene.grab()
    _scroll_down(scene, qtbot, dy=700)
    for rows, last in ((25, "b24"), (10, "b9")):  # 1200 dp, then 480 dp: less than a screen
        edited = copy.deepcopy(spec)
        scroll = edited["root"]["children"][0]
        scroll["style"]["background"] = "#FFEEEE"
        scroll["child"]["children"] = scroll["child"]["children"][:rows]
        scene.controller.apply_change(edited, ["list"])
        scene.grab()
        (remade,) = _flickables(scene)
        end = max(0.0, float(remade.property("contentHeight")) - remade.height())
        assert float(remade.property("contentY")) == end
        made = [(a, y) for a, y in _on_screen(scene) if a.startswith("b")]
        assert made[-1][0] == last and made[0][1] <= 0  # to the last row, none missing
        spec = edited
    assert made[0] == ("b0", 0)


def test_right_to_left_an_edited_strip_the_designer_moved_keeps_its_place(
    rtl: Any, qtbot: Any
) -> None:
    """Right to left a horizontal scroll starts at its right end until it is moved; an edit that
    replaces it keeps the place it was moved to, not its start."""
    chips = [{"type": "chip", "label": f"Chip {i}"} for i in range(20)]
    strip = {"type": "scroll", "id": "strip", "axis": "horizontal", "style": {"width": "fill"},
             "child": {"type": "row", "children": chips}}  # fmt: skip
    spec = spec_of({"type": "column", "style": {"width": "fill"}, "children": [strip]})
    rtl.show(spec)
    rtl.grab()
    (view,) = _flickables(rtl)
    start = float(view.property("contentX"))
    assert start > 0  # the right end
    y = round(view.mapToScene(view.boundingRect().center()).y())
    drag(rtl, QPoint(80, y), 300, 0, steps=30, ms=16)
    QTest.mouseRelease(rtl.view, LEFT, NO_MOD, QPoint(380, y), 100)
    qtbot.waitUntil(lambda: not view.property("moving"), timeout=3000)
    moved = float(view.property("contentX"))
    assert moved < start - 150
    edited = copy.deepcopy(spec)
    edited["root"]["children"][0]["style"]["background"] = "#FFEEEE"
    rtl.controller.apply_change(edited, ["strip"])
    rtl.grab()
    (remade,) = _flickables(rtl)
    assert remade is not view
    assert float(remade.property("contentX")) == moved
