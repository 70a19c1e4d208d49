"""Right-to-left rows of docs/fidelity.md: the preview with the device's layout direction set to
right to left (an Arabic or Hebrew locale) against AutoMobile's renderer, which composes under
that `LocalLayoutDirection` and forces no direction of its own (HO `PrototypeChrome`, SC
`PrototypeSpecContent`). Each test names the Kotlin / Compose symbol whose start/end it follows:
relative ones mirror (`PaddingValues` start/end, `Alignment.TopStart`, `Arrangement.Start`,
`Modifier.offset`, `RoundedCornerShape(topStart ...)`, Material's components, `TextAlign.Start`),
absolute ones do not (a gradient's line, the icons, the window's `Gravity.START`, anchor bounds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage

from tests.preview.fidelity import bounds, box, close, hex_rgb, rgb_at, spec_of
from tests.preview.helpers import find_named, item_rect, named, pixels

W, H = 412, 915


def _mirrored(ltr: dict[str, float], width: float = W) -> float:
    """Where a node drawn at `ltr` left to right is drawn right to left: its mirror image."""
    return width - ltr["x"] - ltr["width"]


def test_a_row_starts_at_the_right_AR_prototypeHorizontalArrangement_layoutDirection(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    row = {"type": "row", "id": "r", "style": {"width": "fill", "spacing": 10},
           "children": [box("a", 40, 20), box("b", 60, 20), box("c", 30, 20)]}  # fmt: skip
    ltr, rl = bounds(scene, spec_of(row)), bounds(rtl, spec_of(row))
    assert [rl[k]["x"] for k in "abc"] == [W - 40, W - 40 - 10 - 60, W - 40 - 10 - 60 - 10 - 30]
    for k in "abc":
        assert rl[k]["x"] == pytest.approx(_mirrored(ltr[k]))


@pytest.mark.parametrize("arrangement", ["end", "spaceBetween", "center"])
def test_row_arrangements_mirror_AR_prototypeHorizontalArrangement_Arrangement_End(  # noqa: N802
    scene: Any, rtl: Any, arrangement: str
) -> None:
    row = {"type": "row", "style": {"width": "fill", "spacing": 8, "arrangement": arrangement},
           "children": [box("a", 40, 20), box("b", 60, 20)]}  # fmt: skip
    ltr, rl = bounds(scene, spec_of(row)), bounds(rtl, spec_of(row))
    for k in "ab":
        assert rl[k]["x"] == pytest.approx(_mirrored(ltr[k]))


def test_start_padding_is_on_the_right_SC_prototypeNodeModifier_padding_start(  # noqa: N802
    rtl: Any,
) -> None:
    root = {"type": "box", "id": "p", "style": {"width": "fill", "padding": {"start": 30, "end": 5}},
            "children": [box("kid", 50, 50)]}  # fmt: skip
    b = bounds(rtl, spec_of(root))
    assert b["kid"]["x"] == W - 30 - 50


@pytest.mark.parametrize(("alignment", "x"), [("topStart", W - 60), ("topEnd", 0), ("center", 176)])
def test_box_alignment_start_is_the_right_edge_RM_prototypeAlignment_TopStart(  # noqa: N802
    rtl: Any, alignment: str, x: float
) -> None:
    root = {"type": "box", "style": {"width": "fill", "height": {"dp": 100}, "alignment": alignment},
            "children": [box("kid", 60, 40)]}  # fmt: skip
    assert bounds(rtl, spec_of(root))["kid"]["x"] == x


def test_column_start_alignment_is_the_right_edge_RM_prototypeHorizontalAlignment_Start(  # noqa: N802
    rtl: Any,
) -> None:
    root = {"type": "column", "style": {"width": "fill"},
            "children": [box("a", 60, 20), box("b", 100, 20, alignment="topEnd")]}  # fmt: skip
    b = bounds(rtl, spec_of(root))
    assert (b["a"]["x"], b["b"]["x"]) == (W - 60, W - 100)


def test_the_root_wraps_at_the_top_right_HO_PrototypeChrome_Box_TopStart(  # noqa: N802
    rtl: Any,
) -> None:
    b = bounds(rtl, spec_of(box("root", 120, 80)))
    assert (b["root"]["x"], b["root"]["y"]) == (W - 120, 0)


def test_a_positive_offset_moves_left_SC_Modifier_offset(rtl: Any) -> None:  # noqa: N802
    root = {"type": "column", "style": {"width": "fill"},
            "children": [box("moved", 50, 50, offset={"x": 20, "y": 10})]}  # fmt: skip
    b = bounds(rtl, spec_of(root))
    assert (b["moved"]["x"], b["moved"]["y"]) == (W - 50 - 20, 10)


def test_text_start_is_the_right_RM_mapPrototypeStyle_TextAlign_Start(  # noqa: N802
    rtl: Any,
) -> None:
    root = {"type": "text", "id": "t", "text": "Hello", "style": {"width": "fill", "textSize": 30}}
    rtl.show(spec_of(root))
    ink = _ink_columns(rtl.grab(), 0, 60)
    assert ink and min(ink) > W / 2  # drawn at the right edge, not the left


def test_anchor_start_is_the_bounds_right_edge_prototypeAnchorRect_layoutDirection(  # noqa: N802
    rtl: Any,
) -> None:
    anchored = box("pin", 20, 20)
    anchored["anchor"] = {"type": "bounds", "alignment": "start", "offset": {"x": 5, "y": 0},
                          "bounds": {"x": 100, "y": 200, "width": 80, "height": 40}}  # fmt: skip
    root = {"type": "column", "style": {"width": "fill"}, "children": [box("a", 10, 10), anchored]}
    b = bounds(rtl, spec_of(root))
    # the node's start (right) edge on the bounds' right edge; the offset stays in screen axes
    assert (b["pin"]["x"], b["pin"]["y"]) == (100 + 80 - 20 + 5, 200 + 10)


def test_a_floating_window_keeps_its_side_WindowLayout_computeFrames_Gravity_START(  # noqa: N802
    rtl: Any,
) -> None:
    placement = {"type": "floating", "gravity": "topStart", "offset": {"x": 16, "y": 24}}
    b = bounds(rtl, spec_of(box("b", 60, 40), window={"placement": placement}))
    # The window manager applies Gravity.START without a direction: it stays on the left.
    assert (b["b"]["x"], b["b"]["y"]) == (16, 24)


def test_per_corner_radii_swap_sides_TH_prototypeCornerShape_RoundedCornerShape_topStart(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    root = box("c", 200, 100, background="#0000FF", cornerRadius={"topStart": 40})
    blue = hex_rgb("#0000FF")
    for s, rounded_x, square_x in ((scene, 2, 198), (rtl, W - 2, W - 198)):
        s.show(spec_of(root))
        image = s.grab()
        assert not close(rgb_at(image, rounded_x, 2), blue)  # the rounded top-start corner
        assert close(rgb_at(image, square_x, 2), blue)


def test_a_gradient_is_not_mirrored_SC_prototypeGradientBrush_createShader(  # noqa: N802
    rtl: Any,
) -> None:
    gradient = {"type": "linear", "angle": 0, "stops": [{"color": "#FF0000"}, {"color": "#0000FF"}]}
    rtl.show(spec_of(box("g", W, 40, gradient=gradient)))
    image = rtl.grab()
    left, right = rgb_at(image, 3, 20), rgb_at(image, W - 3, 20)
    assert left[0] > 200 and left[2] < 60  # red on the left in both directions
    assert right[2] > 200 and right[0] < 60


def test_icons_are_not_mirrored_PrototypeIcons_loadStyle_filled_package(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # The phone loads `androidx.compose.material.icons.filled.<Name>Kt`, whose icons are not
    # auto-mirrored (`Icons.AutoMirrored` is another package): an arrow points the same way.
    root = {"type": "icon", "id": "i", "name": "arrow_back", "style": {"width": {"dp": 48}}}
    crops = []
    for s in (scene, rtl):
        s.show(spec_of(root))
        b = bounds(s)["i"]
        crops.append(pixels(s.grab())[: int(b["height"]), int(b["x"]) : int(b["x"] + b["width"])])
    assert (crops[0] == crops[1]).all()


def test_a_switch_and_its_label_mirror_MC_Switch_Row_layoutDirection(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # Label, then the switch, from the start: right to left the label is at the right and the
    # checked thumb at the switch's left end, the mirror image of left to right.
    root = {"type": "switch", "id": "s", "label": "Wi-Fi", "stateKey": "on"}
    track, thumb = [], []
    for s in (scene, rtl):
        s.show(spec_of(root, state={"on": True}))
        image = s.grab()
        colors = s.controller.scheme.colors
        track.append(_columns_of(image, 24, hex_rgb(colors["primary"])))
        thumb.append(_columns_of(image, 24, hex_rgb(colors["onPrimary"]), within=track[-1]))
    assert track[0] and _runs(track[1]) == pytest.approx(_mirror_runs(track[0]), abs=2)
    assert thumb[0] and _runs(thumb[1]) == pytest.approx(_mirror_runs(thumb[0]), abs=2)
    assert max(thumb[1]) < min(track[1]) + 30  # the checked thumb at the switch's left end


def test_a_slider_runs_from_the_right_MC_Slider_layoutDirection(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    root = {"type": "slider", "stateKey": "v", "min": 0, "max": 10, "style": {"width": "fill"}}
    active = []
    for s in (scene, rtl):
        s.show(spec_of(root, state={"v": 2}))
        active.append(_columns_of(s.grab(), 24, hex_rgb(s.controller.scheme.colors["primary"])))
    assert active[0] and _runs(active[1]) == pytest.approx(_mirror_runs(active[0]), abs=2)
    assert sum(x > W / 2 for x in active[1]) > len(active[1]) / 2  # 0..2 of 10 at the right


def test_a_horizontal_scroll_starts_at_its_right_end_SC_horizontalScroll_layoutDirection(  # noqa: N802
    rtl: Any,
) -> None:
    row = {"type": "row", "children": [box(f"k{i}", 100, 40) for i in range(8)]}
    root = {"type": "scroll", "axis": "horizontal", "style": {"width": "fill"}, "child": row}
    b = bounds(rtl, spec_of(root))
    # the first child (the row's start) is at the screen's right edge
    assert b["k0"]["x"] == pytest.approx(W - 100, abs=0.5)
    assert b["k1"]["x"] == pytest.approx(W - 200, abs=0.5)


def test_the_dismiss_label_is_at_the_left_HO_PrototypeChrome_Alignment_CenterEnd(  # noqa: N802
    quick: Any,
) -> None:
    from PySide6.QtQuick import QQuickItem

    from studio.preview.render import HeadlessScene

    phone = HeadlessScene(412, 915, "light", chrome=True, rtl=True)
    try:
        phone.show(spec_of({"type": "spacer"}))
        phone.grab()
        bar = phone.screen_item().findChild(QQuickItem, "dismissBar")
        label = bar.childItems()[0]
        assert label.x() == 12  # Alignment.CenterEnd, right to left, with 12 dp of padding
    finally:
        phone.close()


def test_render_rtl_writes_the_mirrored_png_proto_studio_render(  # noqa: N802
    quick: Any, tmp_path: Path
) -> None:
    from studio.preview.render import render_spec

    out = tmp_path / "rtl.png"
    spec = spec_of(box("b", 100, 100, background="#0000FF"))
    render_spec(spec, out, chrome=False, rtl=True)
    image = QImage(str(out))
    blue = hex_rgb("#0000FF")
    assert close(rgb_at(image, W - 50, 50), blue) and not close(rgb_at(image, 50, 50), blue)


def _columns_of(
    image: QImage, y: int, color: tuple[int, int, int], within: list[int] | None = None
) -> list[int]:
    """The x of every column whose pixel in row `y` is `color` (within the range of `within`,
    when given)."""
    lo, hi = (min(within), max(within)) if within else (0, W - 1)
    return [x for x in range(W) if lo <= x <= hi and close(rgb_at(image, x, y), color, 6)]


def _runs(xs: list[int]) -> list[float]:
    """The runs of consecutive columns, flattened: [start, end, start, end ...] (gaps of one
    antialiased column are bridged)."""
    out: list[float] = []
    for x in sorted(xs):
        if out and x - out[-1] <= 2:
            out[-1] = x
        else:
            out += [x, x]
    return out


def _mirror_runs(xs: list[int]) -> list[float]:
    """`_runs` of the columns' mirror image on the screen."""
    return _runs([W - 1 - x for x in xs])


def _ink_columns(
    image: QImage, top: int, bottom: int, exclude: list[int] | None = None
) -> list[int]:
    """The x of every column between `top` and `bottom` with dark ink (text) in it."""
    rows = pixels(image)[top:bottom, :, :3].astype(int)
    dark = (rows.sum(axis=2) < 250).any(axis=0)
    skip = set(exclude or ())
    return [x for x in range(min(W, dark.shape[0])) if dark[x] and x not in skip]


def test_the_status_bar_mirrors_with_the_locale_android_SystemUI_layoutDirection(  # noqa: N802
    quick: Any,
) -> None:
    """Not AutoMobile's: the phone's own status bar (Android's SystemUI lays it out in the
    locale's direction), drawn by the preview as device chrome: the clock moves to the right."""
    from PySide6.QtQuick import QQuickItem

    from studio.preview.render import HeadlessScene

    def clock_x(rtl: bool) -> tuple[float, float]:
        scene = HeadlessScene(412, 915, "light", chrome=True, rtl=rtl)
        try:
            scene.show(spec_of(box("a", 40, 20)))
            scene.grab()
            clock = scene.screen_item().findChild(QQuickItem, "statusClock")
            assert clock is not None
            return float(clock.mapToItem(scene.screen_item(), 0, 0).x()), float(clock.width())
        finally:
            scene.close()

    (ltr_x, width), (rtl_x, _) = clock_x(False), clock_x(True)
    assert ltr_x == pytest.approx(16)
    assert rtl_x == pytest.approx(W - 16 - width)


# --- the pickers (MC `RenderPrototypeTimePicker` / `RenderPrototypeDatePicker`: Material 3's
# TimePicker.kt and DatePicker.kt, androidx compose/material3/material3/src/commonMain) ----------

TIME = {"type": "timePicker", "hourKey": "h", "minuteKey": "m", "is24Hour": False}
DATE = {"type": "datePicker", "stateKey": "d"}


def _picker_spec(picker: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    return spec_of(
        {"type": "column", "style": {"width": "fill"}, "children": [picker]}, state=state
    )


def _find_named(scene: Any, name: str) -> Any:
    """The item of that objectName in the shown screen's item tree (Repeater delegates too), or
    None."""
    return find_named(scene.screen_item(), name)


def _named(scene: Any, name: str) -> Any:
    """The item of that objectName on the shown screen."""
    return named(scene.screen_item(), name)


def _texts_in(item: Any) -> dict[str, Any]:
    """text -> RoleText item, for the visible texts under `item`."""
    from tests.preview.helpers import find_items

    return {str(t.property("text")): t for t in find_items(item, "RoleText")}


def _kind(item: Any) -> str:
    """The item's QML type, without the per-engine suffix (`RoleText_QMLTYPE_59` is `RoleText`)."""
    return str(item.metaObject().className()).split("_QML")[0]


def _x_span(item: Any) -> tuple[float, float]:
    """The item's left and right edges on the screen."""

    r = item_rect(item)
    return r.left(), r.right()


def test_hour_minute_stay_left_to_right_the_toggle_moves_left_TimePicker_ClockDisplayNumbers_Ltr(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # `ClockDisplayNumbers` provides LayoutDirection.Ltr: hour, ":", minute in both directions;
    # `VerticalClockDisplay`'s Row (numbers, then the toggle behind padding(start = 12 dp))
    # follows the device: the AM/PM toggle goes to the numbers' left under Rtl.
    spans = []
    for s in (scene, rtl):
        s.show(_picker_spec(TIME, {"h": 9, "m": 41}))
        s.grab()
        numbers = _named(s, "clockDisplayNumbers")
        texts = _texts_in(numbers)
        hour, colon, minute = (_x_span(texts[t])[0] for t in ("09", ":", "41"))
        assert hour < colon < minute  # left to right, in both directions
        toggle = _texts_in(_named(s, "timePicker"))
        assert item_rect(toggle["AM"]).top() < item_rect(toggle["PM"]).top()  # AM above PM
        spans.append((_x_span(numbers), _x_span(_texts_in(_named(s, "timePicker"))["AM"].parent())))
    (ltr_numbers, ltr_toggle), (rtl_numbers, rtl_toggle) = spans
    assert ltr_toggle[0] == pytest.approx(ltr_numbers[1] + 12)  # 12 dp right of the numbers
    assert rtl_toggle[1] == pytest.approx(rtl_numbers[0] - 12)  # 12 dp left of them
    for ltr, rl in ((ltr_numbers, rtl_numbers), (ltr_toggle, rtl_toggle)):  # the Row mirrors
        assert rl == pytest.approx((W - ltr[1], W - ltr[0]))


def test_the_clock_face_is_not_mirrored_TimePicker_CircularLayout_place(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # `CircularLayout` places its numbers with `place` (not `placeRelative`) at cos/sin of their
    # angle, and `drawSelector` and `ClockDialNode`'s taps use the same absolute angles: 3 is at
    # the right, 9 at the left, the handle where it is, in both directions.
    faces = []
    for s in (scene, rtl):
        s.show(_picker_spec(TIME, {"h": 10, "m": 41}))
        s.grab()
        dial = _named(s, "dial")
        faces.append([(_kind(c), c.x(), c.y(), c.rotation()) for c in dial.childItems()])
        texts = _texts_in(dial)
        assert texts["3"].x() > texts["9"].x()
    assert faces[0] == faces[1]


def test_a_tap_on_the_mirrored_time_picker_writes_what_it_shows_TimePicker_ClockDialNode(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    preview.set_rtl(True)
    preview.set_spec(_picker_spec({**TIME, "hourKey": "hour", "minuteKey": "minute"},
                                  {"hour": 9, "minute": 41}))  # fmt: skip
    runtime = preview.runtime
    qtbot.waitUntil(lambda: _find_named(preview, "dial") is not None)
    preview.grab_image()
    dial = _named(preview, "dial")
    centre = dial.mapToScene(dial.boundingRect().center())

    def click(x: float, y: float) -> None:
        preview.grab_image()
        qtbot.mouseClick(
            preview.quick_widget, Qt.MouseButton.LeftButton, pos=QPoint(round(x), round(y))
        )

    click(centre.x() + 101, centre.y())  # 3 o'clock is at the right: hour 3, then minutes
    qtbot.waitUntil(lambda: runtime.value("hour") == 3)
    picker = _named(preview, "timePicker")  # `onTap`: the dial turns to minutes once settled
    qtbot.waitUntil(lambda: picker.property("selection") == "minute")
    click(centre.x() - 101, centre.y())  # 9 o'clock, at the left, on the minutes dial: :45
    qtbot.waitUntil(lambda: runtime.value("minute") == 45)
    pm = _texts_in(_named(preview, "timePicker"))["PM"]
    at = pm.mapToScene(pm.boundingRect().center())
    assert at.x() < centre.x()  # the toggle drawn at the left of the numbers
    click(at.x(), at.y())
    qtbot.waitUntil(lambda: runtime.value("hour") == 15)
    assert runtime.value("minute") == 45


def test_the_header_lines_start_24dp_from_the_right_DatePicker_DatePickerHeadlinePadding_start(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # DatePickerTitlePadding / DatePickerHeadlinePadding (start = 24 dp) and the year menu
    # button's label in MonthsNavigation (12 dp padding + the TextButton's 12 dp) are relative.
    names = ("datePickerTitle", "datePickerHeadline", "datePickerMonthYear")
    for s, right_to_left in ((scene, False), (rtl, True)):
        s.show(_picker_spec(DATE, {"d": "2026-02-10"}))
        s.grab()
        left, right = _x_span(_named(s, "datePicker"))
        for name in names:
            start, end = _x_span(_named(s, name))
            if right_to_left:
                assert end == pytest.approx(right - 24), name
            else:
                assert start == pytest.approx(left + 24), name


def test_the_week_starts_at_the_right_DatePicker_Month_WeekDays_Row_SpaceEvenly(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # `WeekDays` and each week of `Month` are Rows: the first day of the week at the start.
    from tests.preview.helpers import find_items

    orders, centres = [], []
    for s in (scene, rtl):
        s.show(_picker_spec(DATE, {"d": "2026-02-10"}))
        s.grab()
        picker = _named(s, "datePicker")
        left, _ = _x_span(picker)
        texts = [t for t in find_items(picker, "RoleText") if len(str(t.property("text"))) == 1]
        initials = sorted((t for t in texts if str(t.property("text")).isalpha()),
                          key=lambda t: _x_span(t)[0])  # fmt: skip
        orders.append("".join(str(t.property("text")) for t in initials))
        days = _texts_in(picker)
        centres.append({d: sum(_x_span(days[d])) / 2 - left for d in ("1", "4", "7")})
    assert orders == ["SMTWTFS", "SFTWTMS"]  # Sunday (en_US's first) at the right
    for day in ("1", "4", "7"):  # the day grid is the mirror image within the 360 dp picker
        assert centres[1][day] == pytest.approx(360 - centres[0][day], abs=1)


def test_the_month_arrows_swap_and_flip_DatePicker_MonthsNavigation_Icons_AutoMirrored(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # MonthsNavigation: the arrows' Row (previous, next) at the end: the left under Rtl, next at
    # its left; `Icons.AutoMirrored.Filled.KeyboardArrowLeft` / `...Right` flip under Rtl, so
    # the left one points left (next) and the right one points right (previous).
    points = []
    for s in (scene, rtl):
        s.show(_picker_spec(DATE, {"d": "2026-02-10"}))
        image = s.grab()
        left, right = _x_span(_named(s, "datePicker"))
        prev, nxt = _x_span(_named(s, "previousMonth")), _x_span(_named(s, "nextMonth"))
        if s is rtl:
            assert nxt[1] == pytest.approx(prev[0]) and nxt[0] == pytest.approx(left + 12)
        else:
            assert prev[1] == pytest.approx(nxt[0]) and nxt[1] == pytest.approx(right - 12)
        points.append([_points_left(image, _named(s, n)) for n in ("previousMonth", "nextMonth")])
    assert points == [[True, False], [False, True]]


def test_a_tap_on_a_mirrored_day_or_arrow_does_what_it_shows_DatePicker_Day_onClick(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # `Day`'s Surface(onClick = { onDateSelectionChange(dateInMillis) }): a cell picks the date
    # it draws, wherever the Row put it; the arrows run their own month change.
    preview.set_rtl(True)
    preview.set_spec(_picker_spec({**DATE, "stateKey": "date"}, {"date": "2026-02-10"}))
    runtime = preview.runtime
    qtbot.waitUntil(lambda: _find_named(preview, "nextMonth") is not None)

    def click(item: Any) -> None:
        preview.grab_image()
        at = item.mapToScene(item.boundingRect().center()).toPoint()
        qtbot.mouseClick(preview.quick_widget, Qt.MouseButton.LeftButton, pos=at)

    def month_shown() -> str:
        return str(_named(preview, "datePickerMonthYear").property("text"))

    def still() -> bool:  # the arrows' slide over (`animateScrollToItem`)
        return not _named(preview, "monthsList").property("sliding")

    click(_named(preview, "nextMonth"))  # the left arrow
    qtbot.waitUntil(lambda: month_shown() == "March 2026" and still())
    click(_named(preview, "previousMonth"))
    qtbot.waitUntil(lambda: month_shown() == "February 2026" and still())
    day = _texts_in(_named(preview, "datePicker"))["21"]  # a Saturday: the week's left end
    assert _x_span(day)[0] < _x_span(_texts_in(_named(preview, "datePicker"))["15"])[0]
    click(day)
    qtbot.waitUntil(lambda: runtime.value("date") == "2026-02-21")


def _points_left(image: QImage, item: Any) -> bool:
    """Whether the chevron drawn in `item` points left: the ink of its middle rows (the tip) is
    left of the ink of its top rows."""

    r = item_rect(item)
    crop = pixels(image)[int(r.top()) : int(r.bottom()), int(r.left()) : int(r.right()), :3]
    dark = crop.astype(int).sum(axis=2) < 400
    rows = dark.any(axis=1).nonzero()[0]
    assert len(rows) > 4, "no chevron drawn"
    top, bottom = int(rows[0]), int(rows[-1]) + 1
    quarter = max(1, (bottom - top) // 4)
    tip = dark[(top + bottom) // 2 - 1 : (top + bottom) // 2 + 1].nonzero()[1].mean()
    arm = dark[top : top + quarter].nonzero()[1].mean()
    return bool(tip < arm)


# -- text direction: Compose resolves an unset one from the layout direction --------------------
# androidx ui-text TextStyle.kt `resolveTextDirection(layoutDirection, textDirection)`: unset
# (null, later TextDirection.Unspecified) is TextDirection.Rtl under LayoutDirection.Rtl and Ltr
# under Ltr, whatever the text; AutoMobile sets no textDirection (RM `mapPrototypeStyle`, SC
# "text"). Each check compares the glyphs' columns with a reference text laid out the other way.

HEBREW = "\u05e9\u05dc\u05d5\u05dd"  # shalom: DejaVu Sans has the glyphs


def _glyph_runs(
    image: QImage, top: float, bottom: float, left: float = 0, right: float = W
) -> list[tuple[int, int]]:
    """The runs of columns with dark ink between `top` and `bottom` (a glyph, or glyphs that
    touch), left to right, as (first, last) columns."""
    rows = pixels(image)[round(top) : round(bottom), round(left) : round(right), :3].astype(int)
    dark = (rows.sum(axis=2) < 400).any(axis=0)
    runs: list[tuple[int, int]] = []
    for x in (int(v) + round(left) for v in dark.nonzero()[0]):
        if runs and x == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], x)
        else:
            runs.append((x, x))
    return runs


def _shape(runs: list[tuple[int, int]]) -> list[int]:
    """The runs' columns counted from the first one (where on the screen does not matter)."""
    return [c - runs[0][0] for run in runs for c in run]


def _text(text: str, **style: Any) -> dict[str, Any]:
    return {"type": "text", "id": "t", "text": text, "style": {"textSize": 30, **style}}


def _line_runs(scene: Any, root: dict[str, Any], address: str = "t") -> list[tuple[int, int]]:
    b = bounds(scene, spec_of(root))[address]
    return _glyph_runs(scene.grab(), b["y"], b["y"] + b["height"], b["x"], b["x"] + b["width"])


def test_under_rtl_a_latin_line_is_a_right_to_left_paragraph_TextStyle_resolveTextDirection(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # "Hello, world!" under Rtl reads "!Hello, world" from the right edge: the trailing "!" is a
    # neutral at the paragraph's end, which is its left.
    drawn = _line_runs(rtl, _text("Hello, world!"))
    assert drawn[0][0] > W / 2  # at the right edge
    assert _shape(drawn) == pytest.approx(_shape(_line_runs(scene, _text("!Hello, world"))), abs=1)
    assert _shape(drawn) != pytest.approx(_shape(_line_runs(scene, _text("Hello, world!"))), abs=1)


def test_under_ltr_a_hebrew_line_is_a_left_to_right_paragraph_TextStyle_resolveTextDirection(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # Under Ltr the Hebrew word keeps its own order but the "!" ends the paragraph at the right;
    # the reference is the mirror case: "!" first in a right-to-left paragraph.
    drawn = _line_runs(scene, _text(HEBREW + "!"))
    assert drawn[0][0] < W / 2  # at the left edge (TextAlign.Start under Ltr)
    assert _shape(drawn) == pytest.approx(_shape(_line_runs(rtl, _text("!" + HEBREW))), abs=1)
    assert _shape(drawn) != pytest.approx(_shape(_line_runs(rtl, _text(HEBREW + "!"))), abs=1)


def test_each_line_of_a_multiline_text_takes_the_direction_android_Layout_paragraphs(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # Android lays out each "\n"-separated paragraph in the resolved direction: "Two\nlines!"
    # under Rtl is "Two" over "!lines", both from the right edge.
    b = bounds(rtl, spec_of(_text("Two\nlines!")))["t"]
    image = rtl.grab()
    middle = b["y"] + b["height"] / 2
    second = _glyph_runs(image, middle, b["y"] + b["height"], b["x"], W)
    assert second[-1][1] >= W - 6  # the second line ends at the right edge too
    ref = bounds(scene, spec_of(_text("Two\n!lines")))["t"]
    reference = _glyph_runs(scene.grab(), ref["y"] + ref["height"] / 2, ref["y"] + ref["height"])
    assert _shape(second) == pytest.approx(_shape(reference), abs=1)


def test_a_button_label_and_a_list_items_text_follow_the_direction_MC_Button_SE_ListItem(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # Material's labels are Compose Texts too (LocalTextStyle, no textDirection): "Go!" reads
    # "!Go", a headline "Headline!" reads "!Headline", under Rtl.
    def root(label: str, headline: str) -> dict[str, Any]:
        return {"type": "column", "style": {"width": "fill"}, "children": [
            {"type": "button", "id": "b", "label": label, "variant": "text",
             "style": {"color": "#000000"}},
            {"type": "listItem", "id": "li", "headline": headline}]}  # fmt: skip

    for address in ("b", "li"):
        drawn = _line_runs(rtl, root("Go!", "Headline!"), address)
        reference = _line_runs(scene, root("!Go", "!Headline"), address)
        assert drawn and _shape(drawn) == pytest.approx(_shape(reference), abs=1)


def test_an_ellipsis_ends_a_latin_line_at_its_left_under_rtl_TextOverflow_Ellipsis(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # The ellipsis replaces the paragraph's end, which right to left is the left (StaticLayout's
    # END ellipsizing of a right-to-left paragraph).
    root = _text("Hello, world! A line far too long for the screen", width="fill",
                 maxLines=1, overflow="ellipsis")  # fmt: skip

    def dots(runs: list[tuple[int, int]]) -> bool:
        return len(runs) >= 3 and all(last - first <= 5 for first, last in runs)

    for s, end in ((scene, -1), (rtl, 0)):
        b = bounds(s, spec_of(root))["t"]
        image = s.grab()
        upper = _glyph_runs(image, b["y"], b["y"] + b["height"] / 2)
        runs = _glyph_runs(image, b["y"], b["y"] + b["height"])
        ellipsis = runs[-3:] if end == -1 else runs[:3]
        other_end = runs[:3] if end == -1 else runs[-3:]
        # three small dots on the baseline, no ink above the line's middle
        assert dots(ellipsis) and not any(r[0] <= ellipsis[1][0] <= r[1] for r in upper)
        assert not dots(other_end)


def test_switching_the_direction_draws_and_measures_every_text_again_resolveTextDirection(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # The same spec, shown left to right and then switched, is drawn as a scene made right to
    # left: each text was read again (tab labels too) and measured again, not taken from a
    # measure made in the other direction.
    root = {"type": "column", "style": {"width": "fill"}, "children": [
        _text("Hello, world!"), {"type": "button", "label": "Go!"},
        {"type": "chip", "label": "Chip!"},
        {"type": "tabBar", "items": [{"label": "One!"}, {"label": "Two!"}]},
        {"type": "textField", "stateKey": "v", "placeholder": "Search…"}]}  # fmt: skip
    spec = spec_of(root, state={"v": ""})
    fresh = bounds(rtl, spec)
    expected = pixels(rtl.grab())
    bounds(scene, spec)
    scene.controller.set_rtl(True)
    assert bounds(scene) == fresh
    assert (pixels(scene.grab()) == expected).all()


def test_the_screen_summary_reads_each_text_as_authored_without_direction_marks(rtl: Any) -> None:
    # What is on screen (observe, edit-mode picking) is the authored text: the direction's
    # zero-width marks are the preview's way of drawing it, not part of it.
    rtl.show(spec_of(_text("Two\nlines!")))
    rtl.grab()
    (entry,) = [e for e in rtl.visible_summary(on_screen_only=False) if e["address"] == "t"]
    assert entry["text"] == "Two\nlines!"


def test_a_text_fields_value_starts_at_the_right_under_rtl_BasicTextField_TextAlign_Start(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # BasicTextField aligns its value at the start of the direction resolved from the layout's:
    # the right under Rtl, and the left for a Hebrew value under Ltr. (The editable value keeps
    # Qt's order from its first strong character: a mark in it would end up in the state.)
    def ink(s: Any, value: str) -> list[tuple[int, int]]:
        root = {"type": "textField", "id": "f", "stateKey": "v"}
        b = bounds(s, spec_of(root, state={"v": value}))["f"]
        return _glyph_runs(s.grab(), b["y"], b["y"] + b["height"] - 3, b["x"], b["x"] + b["width"])

    right_to_left, hebrew = ink(rtl, "Hello"), ink(scene, HEBREW)
    assert right_to_left[-1][1] >= W - 16 - 3 and right_to_left[0][0] > W - 280 / 2
    assert hebrew[0][0] <= 16 + 3 and hebrew[-1][1] < 280 / 2


def test_a_text_in_the_other_direction_keeps_its_size_TextStyle_resolveTextDirection(  # noqa: N802
    scene: Any, rtl: Any
) -> None:
    # The direction changes the order of a line's runs, not its size: a letter-spaced role, a
    # button and a chip measure as left to right (the mark's letter spacing is given back), and
    # the rows holding them mirror exactly.
    root = {"type": "column", "style": {"width": "fill"}, "children": [
        {"type": "text", "id": "t", "text": "Letter spaced", "style": {"textStyle": "bodyLarge"}},
        {"type": "text", "id": "two", "text": "Two\nlines", "style": {"textStyle": "labelSmall"}},
        {"type": "button", "id": "b", "label": "Save changes"},
        {"type": "chip", "id": "c", "label": "Filter"}]}  # fmt: skip
    ltr, rl = bounds(scene, spec_of(root)), bounds(rtl, spec_of(root))
    for k in ("t", "two", "b", "c"):
        assert rl[k]["width"] == ltr[k]["width"]
        assert rl[k]["x"] == pytest.approx(_mirrored(ltr[k]))
