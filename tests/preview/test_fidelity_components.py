"""The Components rows of docs/fidelity.md: each node type's look as AutoMobile's Compose renderer
draws it (PrototypeMaterialComponents.kt, PrototypeComponents.kt, PrototypeSelectionComponents.kt,
PrototypeSpecContent.kt, PrototypeIcons.kt, PrototypeImages.kt, PrototypeTheme.kt, and the
Material 3 defaults they leave in place), checked on a rendered frame (geometry and pixels).

Every component is drawn with plain Qt Quick items, so the software scene graph these tests use
and OpenGL draw it alike; `test_corpus.py` compares the two backends on every fixture spec,
`tests/fixtures/spec/valid/compose-components.json` included."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.preview.helpers import pixels

W, H = 412, 915


def screen(root: dict[str, Any], state: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    return {"id": "f", "window": {"placement": {"type": "fullscreen"}}, "state": state or {},
            "root": root, **top}  # fmt: skip


def column(*children: dict[str, Any], style: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "column", "style": {"spacing": 0, **(style or {})}, "children": list(children)}


def show(scene: Any, spec: dict[str, Any]) -> np.ndarray:
    scene.show(spec)
    return rgb(scene)


def rgb(scene: Any) -> np.ndarray:
    return pixels(scene.grab())[:, :, 2::-1].astype(int)  # ARGB32 in memory is B, G, R, A


def colour(scene: Any, role: str) -> tuple[int, int, int]:
    value = scene.controller.scheme.colors[role]
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def near(actual: Any, expected: tuple[int, int, int], tolerance: int = 10) -> bool:
    return bool(np.abs(np.asarray(actual)[:3] - np.array(expected)).max() <= tolerance)


def bounds(scene: Any, node_type: str, index: int = 0) -> dict[str, float]:
    entries = [e for e in scene.visible_summary() if e["type"] == node_type]
    return entries[index]["bounds"]


def ink(
    image: np.ndarray, box: tuple[int, int, int, int], background: tuple[int, int, int]
) -> np.ndarray:
    """The pixels of `box` (x, y, w, h) that differ from the background."""
    x, y, w, h = box
    area = image[y : y + h, x : x + w]
    return np.abs(area - np.array(background)).max(axis=2) > 24


# --- icon (PrototypeIcons.kt `prototypeIcon`, IconStyle.fromContract; SC "icon") ---------------


def _icon_ink(scene: Any, **icon: Any) -> tuple[np.ndarray, np.ndarray]:
    image = show(scene, screen({"type": "icon", "name": "home", **icon}))
    # The screen behind the icon: the window paints only what the spec paints (HO PrototypeChrome).
    behind = tuple(int(c) for c in image[400, 300])
    return image, ink(image, (0, 0, 24, 24), behind)  # type: ignore[arg-type]


def test_IconStyle_fromContract_filled_by_default_and_each_variant_its_own_style(
    scene: Any,
) -> None:
    _, filled = _icon_ink(scene)
    counts = {None: int(filled.sum())}
    shapes = {None: filled}
    for variant in ("outlined", "rounded", "sharp", "twoTone"):
        _, mask = _icon_ink(scene, variant=variant)
        counts[variant], shapes[variant] = int(mask.sum()), mask
    # Filled (Icons.Filled.Home) is a solid house; Outlined only its outline
    assert counts["outlined"] < counts[None] * 0.75, counts
    # Rounded and Sharp are filled hearts of their own shape
    assert counts["rounded"] > counts["outlined"] and counts["sharp"] > counts["outlined"]
    assert (shapes["rounded"] != shapes[None]).any()  # Icons.Rounded: round corners
    # TwoTone: the outline over a 30 % fill, so it covers the filled shape, partly translucent
    assert counts["twoTone"] >= counts[None] * 0.9
    image, _ = _icon_ink(scene, variant="twoTone")
    body = image[12:20, 8:16].reshape(-1, 3)
    light, dark = colour(scene, "background"), colour(scene, "onSurface")
    assert any(all(min(a, b) + 20 < c < max(a, b) - 20 for a, b, c in zip(light, dark, px, strict=True))
               for px in body)  # fmt: skip


def test_icon_tint_is_LocalContentColor_onSurface_at_24dp_whatever_textSize(scene: Any) -> None:
    image = show(scene, screen({"type": "icon", "name": "favorite", "style": {"textSize": 40}}))
    assert bounds(scene, "icon") == {"x": 0, "y": 0, "width": 24, "height": 24}
    darkest = image[:24, :24].reshape(-1, 3)[image[:24, :24].reshape(-1, 3).sum(axis=1).argmin()]
    assert near(darkest, colour(scene, "onSurface"), 16)


def test_icon_takes_its_own_style_color(scene: Any) -> None:
    image = show(scene, screen({"type": "icon", "name": "stop", "style": {"color": "#FF0000"}}))
    assert near(image[12, 12], (255, 0, 0), 8)  # the middle of the filled square


def test_prototypeIcon_unknown_glyph_is_a_24dp_surfaceVariant_placeholder(scene: Any) -> None:
    # "whatsapp" is in the contract's names but in no Material Icons font we ship: the phone's
    # null icon draws `Box(defaultMinSize(24.dp, 24.dp).background(surfaceVariant))`
    image = show(scene, screen(column({"type": "icon", "name": "whatsapp"})))
    assert bounds(scene, "icon") == {"x": 0, "y": 0, "width": 24, "height": 24}
    assert near(image[12, 12], colour(scene, "surfaceVariant"), 2)
    assert not near(image[30, 12], colour(scene, "surfaceVariant"), 2)


# --- image (PrototypeImages.kt `PrototypeImageContent`) ---------------------------------------


def test_PrototypeImageContent_missing_asset_is_24dp_surfaceVariant_with_a_glyph(
    scene: Any,
) -> None:
    image = show(scene, screen(column({"type": "image", "asset": "nowhere"})))
    assert bounds(scene, "image") == {"x": 0, "y": 0, "width": 24, "height": 24}
    assert near(image[1, 1], colour(scene, "surfaceVariant"), 2)
    assert ink(image, (0, 0, 24, 24), colour(scene, "surfaceVariant")).sum() > 20  # BrokenImage


# --- button (CO `RenderPrototypeButton`; ButtonDefaults) ---------------------------------------


def test_RenderPrototypeButton_is_a_40dp_pill_in_a_48dp_target_at_least_58dp_wide(
    scene: Any,
) -> None:
    image = show(scene, screen(column({"type": "button", "label": "I"})))
    b = bounds(scene, "button")
    assert b["height"] == 48 and b["width"] == 58  # "I" + 2 x 24 < ButtonDefaults.MinWidth
    primary = colour(scene, "primary")
    assert near(image[24, 10], primary, 4)  # inside the pill, left of the label
    assert not near(image[2, 10], primary, 30) and near(image[6, 20], primary, 4)  # rows 4..43
    assert near(image[42, 20], primary, 4) and not near(image[45, 20], primary, 30)


def test_ButtonDefaults_ContentPadding_24dp_for_every_variant_text_included(scene: Any) -> None:
    show(scene, screen(column({"type": "button", "label": "Long label here"},
                              {"type": "button", "label": "Long label here", "variant": "text"})))  # fmt: skip
    filled, text = bounds(scene, "button", 0), bounds(scene, "button", 1)
    assert filled["width"] == text["width"] > 58  # AutoMobile passes ContentPadding to TextButton


def test_ButtonWithIconContentPadding_and_an_18dp_icon(scene: Any) -> None:
    show(scene, screen(column({"type": "button", "label": "Add"},
                              {"type": "button", "label": "Add", "icon": "add"})))  # fmt: skip
    plain, icon = bounds(scene, "button", 0), bounds(scene, "button", 1)
    assert icon["width"] - plain["width"] == pytest.approx(
        -8 + 18 + 8, abs=1
    )  # 16 start, icon, gap


# --- chip (CO `RenderPrototypeChip`) --------------------------------------------------------


def test_RenderPrototypeChip_assist_32dp_in_48dp_with_16dp_label_padding(scene: Any) -> None:
    image = show(scene, screen(column({"type": "chip", "label": "Snooze"})))
    b = bounds(scene, "chip")
    assert b["height"] == 48
    outline = colour(scene, "outlineVariant")
    column_x = int(b["width"] / 2)
    edge_rows = [y for y in range(48) if near(image[y, column_x], outline, 12)]
    assert edge_rows and edge_rows[0] == 8 and edge_rows[-1] == 39  # a 32 dp chip, centred


def test_RenderPrototypeChip_filter_padding_12dp_and_the_check_when_selected(scene: Any) -> None:
    spec = screen(column({"type": "chip", "label": "Work", "variant": "filter", "stateKey": "a"},
                         {"type": "chip", "label": "Work", "variant": "filter", "stateKey": "b"}),
                  {"a": False, "b": True})  # fmt: skip
    image = show(scene, spec)
    off, on = bounds(scene, "chip", 0), bounds(scene, "chip", 1)
    assert on["width"] - off["width"] == pytest.approx(18 + 8, abs=1)
    assert near(image[int(on["y"]) + 24, 4], colour(scene, "secondaryContainer"), 4)


# --- switch / checkbox (CO `RenderPrototypeToggle`) ------------------------------------------


def test_RenderPrototypeToggle_switch_row_label_then_switch_12dp_apart_48dp_tall(
    scene: Any,
) -> None:
    spec = screen(column({"type": "switch", "stateKey": "on", "label": "Wi-Fi"},
                         {"type": "switch", "stateKey": "on"}), {"on": True})  # fmt: skip
    show(scene, spec)
    labelled, bare = bounds(scene, "switch", 0), bounds(scene, "switch", 1)
    assert labelled["height"] == 48 and bare["height"] == 48 and bare["width"] == 52
    label_width = labelled["width"] - 12 - 52
    assert 35 < label_width < 60  # "Wi-Fi" in bodyLarge


def test_RenderPrototypeToggle_checkbox_row_box_then_label_48dp(scene: Any) -> None:
    image = show(scene, screen(column({"type": "checkbox", "stateKey": "on", "label": "I agree"}),
                               {"on": True}))  # fmt: skip
    b = bounds(scene, "checkbox")
    assert b["height"] == 48
    primary = colour(scene, "primary")
    assert near(image[24, 4], primary, 4) and near(image[16, 19], primary, 4)  # the 18 dp box at 3
    assert not near(image[24, 1], primary, 30)


# --- radioGroup (SE `RenderPrototypeRadioGroup`) ----------------------------------------------


def test_RenderPrototypeRadioGroup_rows_of_48dp(scene: Any) -> None:
    options = [{"value": "a", "label": "One"}, {"value": "b", "label": "Two"}]
    show(
        scene,
        screen(column({"type": "radioGroup", "stateKey": "s", "options": options}), {"s": "a"}),
    )
    assert bounds(scene, "radioGroup")["height"] == 96


# --- listItem (SE `RenderPrototypeListItem`, ListItemDefaults) ----------------------------------


def test_RenderPrototypeListItem_container_surface_and_style_color_tints_every_part(
    scene: Any,
) -> None:
    item = {"type": "listItem", "headline": "Wi-Fi", "supporting": "On", "leadingIcon": "wifi",
            "style": {"color": "#FF0000"}}  # fmt: skip
    image = show(scene, screen(column(item, style={"background": "#000000", "width": "fill"})))
    b = bounds(scene, "listItem")
    assert b["height"] == 72
    assert near(image[2, int(b["width"]) - 2], colour(scene, "surface"), 2)  # container surface
    red = np.abs(image[:72] - np.array([255, 0, 0])).max(axis=2) < 60
    assert red[:, 16:40].any()  # the leading icon
    assert red[36:72, 56:120].any()  # the supporting text, not only the headline


# --- slider (CO `RenderPrototypeSlider`) -----------------------------------------------------


def test_RenderPrototypeSlider_label_in_bodyLarge(scene: Any) -> None:
    spec = screen(column({"type": "slider", "stateKey": "v", "min": 0, "max": 10, "label": "Volume"}),
                  {"v": 5})  # fmt: skip
    show(scene, spec)
    assert bounds(scene, "slider")["height"] == 24 + 48  # bodyLarge line height 24, then the slider


def _slider_row(scene: Any, value: float, **slider: Any) -> tuple[np.ndarray, int]:
    """A full-width slider 0..10 on white at `value`: the frame and the track's centre row."""
    node = {"type": "slider", "stateKey": "v", "min": 0, "max": 10, "style": {"width": "fill"},
            **slider}  # fmt: skip
    page = column(node, style={"width": "fill", "background": "#FFFFFF"})
    image = show(scene, screen(page, {"v": value}))
    b = bounds(scene, "slider")
    assert b["width"] == W and b["height"] == 48  # minimumInteractiveComponentSize
    return image, int(b["y"]) + 24


def test_Slider_SliderImpl_places_the_handle_over_a_track_4dp_shorter_drawTrack_gaps(  # noqa: N802
    scene: Any,
) -> None:
    # Slider.kt `SliderImpl`: track = W - 4 (the 4 dp handle box), 2 dp in; at a quarter the
    # handle's centre is 2 + 408 * 0.25 = 104. `drawTrack`: active 2..96 (6 dp gap and the
    # handle's half box before it), inactive 112..410, stop dot centred 8 dp inside the track's
    # end (402).
    image, y = _slider_row(scene, 2.5)
    primary, inactive = colour(scene, "primary"), colour(scene, "secondaryContainer")
    white = (255, 255, 255)
    assert near(image[y, 4], primary, 6) and near(image[y, 94], primary, 6)
    assert near(image[y, 98], white, 6) and near(image[y, 100], white, 6)
    assert near(image[y, 102], primary, 6) and near(image[y, 105], primary, 6)  # the handle
    assert near(image[y - 20, 103], primary, 6)  # 44 dp tall
    assert near(image[y, 107], white, 6) and near(image[y, 110], white, 6)
    assert near(image[y, 113], inactive, 6) and near(image[y, 398], inactive, 6)
    assert near(image[y, 401], primary, 40)  # the stop dot
    assert near(image[y, 408], inactive, 6)


def test_Slider_a_stepped_value_sits_on_the_track_less_its_corners_SliderImpl_fractionOffset(  # noqa: N802
    scene: Any,
) -> None:
    # 0..10 by 1: steps 9 (CO `prototypeSliderSteps`). Between the ends the handle's centre is
    # 2 + (408 - 16) * 0.2 + 8 = 88.4 (a continuous 0.2 would be at 83.6); ticks at
    # 10 + 392 * i / 10, onPrimary on the active part, onSecondaryContainer after the handle.
    image, y = _slider_row(scene, 2, step=1)
    primary = colour(scene, "primary")
    assert near(image[y, 88], primary, 6) and near(image[y - 20, 88], primary, 6)
    assert near(image[y, 83], (255, 255, 255), 6)  # in the gap before the handle
    assert near(image[y, 10], colour(scene, "onPrimary"), 30)  # the first tick, on the active part
    assert near(image[y, 206], colour(scene, "onSecondaryContainer"), 30)  # i = 5
    # On the last step the handle is at the very end (`isOnFirstOrLastStep`): 2 + 408 = 410;
    # no inactive part, no stop dot.
    image, y = _slider_row(scene, 10, step=1)
    assert near(image[y, 410], primary, 6) and near(image[y - 20, 410], primary, 6)
    assert near(image[y, 405], (255, 255, 255), 6)
    assert near(image[y, 396], primary, 6)


def test_Slider_a_press_narrows_the_handle_ThumbContent_and_lands_over_the_track(  # noqa: N802
    scene: Any,
) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    image, y = _slider_row(scene, 0)
    primary = colour(scene, "primary")
    # `dispatchRawDeltaInternal`: x = 2 + 408 * 0.75 is 7.5; the handle moves there (centre 308)
    # and, pressed, its drawn bar is 2 dp wide in its 4 dp box (ThumbContent `size / 2`).
    at = QPoint(308, y)
    QTest.mousePress(scene.view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    pressed = rgb(scene)
    assert scene.controller.runtime.value("v") == 7.5
    assert near(pressed[y - 20, 307], primary, 6) and near(pressed[y - 20, 308], primary, 6)
    assert near(pressed[y - 20, 306], (255, 255, 255), 6)
    assert near(pressed[y - 20, 309], (255, 255, 255), 6)
    QTest.mouseRelease(scene.view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    released = rgb(scene)
    assert all(near(released[y - 20, x], primary, 6) for x in (306, 307, 308, 309))


def test_Slider_a_tap_snaps_to_the_nearest_tick_then_to_the_step_snapValueToTick_snapPrototypeSlider(  # noqa: E501, N802
    scene: Any,
) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    # 0..10 by 3: steps round(10 / 3) - 1 = 2 (CO `prototypeSliderSteps`), ticks at 0, 3.33, 6.67,
    # 10. A tap at 0.46 of the track is nearest 3.33 (`snapValueToTick`), which the step makes 3
    # (CO `snapPrototypeSlider`); rounding 4.6 to the step directly would give 6.
    _, y = _slider_row(scene, 0, step=3)
    at = QPoint(round(2 + 408 * 0.46), y)
    QTest.mouseClick(scene.view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    assert scene.controller.runtime.value("v") == 3


# --- iconButton (MC `RenderPrototypeIconButton`) ----------------------------------------------


def test_RenderPrototypeIconButton_tint_onSurface_and_style_color_ignored(scene: Any) -> None:
    image = show(
        scene, screen(column({"type": "iconButton", "icon": "stop", "style": {"color": "#FF0000"}}))
    )
    assert bounds(scene, "iconButton")["width"] == 48
    assert near(image[24, 24], colour(scene, "onSurface"), 8)


# --- fab (MC `RenderPrototypeFab`) -------------------------------------------------------------


def test_RenderPrototypeFab_keeps_primaryContainer_and_paints_the_background_behind(
    scene: Any,
) -> None:
    fab = {"type": "fab", "icon": "add", "style": {"background": "#00FF00", "color": "#FF0000"}}
    image = show(scene, screen(column(fab)))
    b = bounds(scene, "fab")
    assert b["width"] == 56 and b["height"] == 56
    assert near(image[28, 6], colour(scene, "primaryContainer"), 6)
    assert near(image[1, 1], (0, 255, 0), 6)  # the authored background, square, behind the FAB
    assert not (np.abs(image[:56, :56] - np.array([255, 0, 0])).max(axis=2) < 40).any()


# --- topAppBar (MC `RenderPrototypeTopAppBar`) ------------------------------------------------


def test_RenderPrototypeTopAppBar_title_ignores_style_color(scene: Any) -> None:
    image = show(
        scene, screen({"type": "topAppBar", "title": "Inbox", "style": {"color": "#FF0000"}})
    )
    assert not (np.abs(image[:64] - np.array([255, 0, 0])).max(axis=2) < 60).any()


# --- progress (MC `RenderPrototypeProgress`, ProgressIndicatorDefaults) ------------------------


def test_RenderPrototypeProgress_linear_240dp_circular_40dp(scene: Any) -> None:
    spec = screen(column({"type": "progress", "stateKey": "p", "max": 1},
                         {"type": "progress", "variant": "circular", "stateKey": "p"},
                         style={"width": "fill"}), {"p": 0.5})  # fmt: skip
    show(scene, spec)
    assert (
        bounds(scene, "progress", 0)["width"] == 240 and bounds(scene, "progress", 0)["height"] == 4
    )
    assert bounds(scene, "progress", 1)["width"] == 40


# --- dialog / snackbar (MC `RenderPrototypeDialog`, `RenderPrototypeSnackbar`) ------------------


def test_RenderPrototypeDialog_title_starts_at_the_padding_even_with_an_icon(scene: Any) -> None:
    from tests.preview.helpers import find_items, item_rect

    dialog = {"type": "dialog", "openWhen": {"key": "o", "equals": True}, "icon": "delete",
              "title": "Delete?", "text": "This cannot be undone, not ever.",
              "confirm": {"label": "OK"}}  # fmt: skip
    image = show(scene, screen(column(dialog), {"o": True}))
    (title,) = [
        i for i in find_items(scene.screen_item(), "RoleText") if i.property("text") == "Delete?"
    ]
    rect = item_rect(title)
    x, y, w, h = int(rect.x()), int(rect.y()), int(rect.width()), int(rect.height())
    drawn = ink(image, (x, y, w, h), colour(scene, "surfaceContainerHigh"))
    assert w > 200 and np.where(drawn)[1].min() <= 2  # no textAlign: from the start edge


def test_RenderPrototypeSnackbar_12dp_from_the_window_edges(scene: Any) -> None:
    bar = {"type": "snackbar", "openWhen": {"key": "o", "equals": True}, "text": "Saved"}
    image = show(scene, screen(column(bar), {"o": True}))
    inverse = colour(scene, "inverseSurface")
    mask = np.abs(image - np.array(inverse)).max(axis=2) < 3
    ys, xs = np.where(mask)
    assert xs.min() == 12 and xs.max() == W - 13 and ys.max() == H - 13


# --- textField (SC `RenderPrototypeTextField`; FilledTextFieldTokens) --------------------------


def test_RenderPrototypeTextField_filled_container_and_bottom_indicator(scene: Any) -> None:
    image = show(scene, screen(column({"type": "textField", "stateKey": "t", "placeholder": "Name"}),
                               {"t": ""}))  # fmt: skip
    b = bounds(scene, "textField")
    assert (b["width"], b["height"]) == (280, 56)
    assert near(image[28, 140], colour(scene, "surfaceContainerHighest"), 2)
    assert near(image[55, 140], colour(scene, "onSurfaceVariant"), 2)  # the 1 dp line


# --- timePicker (MC `RenderPrototypeTimePicker`; TimePicker.kt) --------------------------------


def test_RenderPrototypeTimePicker_is_the_clock_dial_and_follows_the_device_24h_setting(
    scene: Any,
) -> None:
    picker = {"type": "timePicker", "hourKey": "h", "minuteKey": "m"}
    image = show(scene, screen(column(picker), {"h": 7, "m": 30}))
    b = bounds(scene, "timePicker")
    assert (b["width"], b["height"]) == (280, 80 + 36 + 256 + 24)  # 12 h: display with AM/PM
    # the 256 dp dial 36 dp below the display, surfaceContainerHighest
    assert near(image[80 + 36 + 128 + 40, 140], colour(scene, "surfaceContainerHighest"), 2)
    scene.controller.set_clock24(True)  # the device's DateFormat.is24HourFormat
    scene.grab()
    assert bounds(scene, "timePicker")["width"] == 256  # no AM/PM toggle: the dial is widest
    explicit = {**picker, "is24Hour": False}
    show(scene, screen(column(explicit), {"h": 19, "m": 5}))
    assert bounds(scene, "timePicker")["width"] == 280  # is24Hour wins over the device
    # TimePicker.kt `TimeSelector`: `toLocalString(minDigits = 2)`, the 12-hour hour too
    assert {"07", "05", "AM", "PM"} <= set(_texts(scene))


def _texts(scene: Any) -> list[str]:
    from tests.preview.helpers import find_items

    return [str(i.property("text")) for i in find_items(scene.screen_item(), "RoleText")]


def test_the_date_pickers_headline_is_the_year_abbr_month_day_DatePickerDefaults_dateFormatter(  # noqa: N802, E501
    scene: Any,
) -> None:
    # DatePickerDefaults.dateFormatter: selectedDateSkeleton = YearAbbrMonthDaySkeleton ("yMMMd"),
    # en_US "Feb 10, 2026"; "Select date" above it (DatePickerDefaults.DatePickerTitle).
    show(scene, screen(column({"type": "datePicker", "stateKey": "d"}), {"d": "2026-02-10"}))
    assert {"Select date", "Feb 10, 2026"} <= set(_texts(scene))


# --- datePicker (MC `RenderPrototypeDatePicker`) -----------------------------------------------


def test_RenderPrototypeDatePicker_360dp_without_neighbouring_days(scene: Any) -> None:
    from tests.preview.helpers import find_items

    show(scene, screen(column({"type": "datePicker", "stateKey": "d"}), {"d": "2026-02-10"}))
    assert bounds(scene, "datePicker")["width"] == 360
    texts = [i.property("text") for i in find_items(scene.screen_item(), "RoleText")]
    days = [t for t in texts if isinstance(t, str) and t.isdigit()]
    assert days == [str(n) for n in range(1, 29)]  # February 2026 only


@pytest.mark.parametrize(("date", "column_of_1st"), [("2026-02-10", 0), ("2026-10-08", 4)])
def test_Month_first_row_starts_at_daysFromStartOfWeekToFirstOfMonth(  # noqa: N802
    scene: Any, date: str, column_of_1st: int
) -> None:
    # DatePicker.kt `Month` fills cell `daysFromStartOfWeekToFirstOfMonth` (CalendarModelImpl
    # `getMonth`: the 1st's weekday less the week's first day, mod 7) onwards from the first row:
    # February 2026 starts on a Sunday, so its 1st is the first row's first cell (Qt's MonthGrid
    # put a blank week first); October 2026's Thursday 1st is the fifth cell.
    from tests.preview.helpers import find_items, item_rect

    show(scene, screen(column({"type": "datePicker", "stateKey": "d"}), {"d": date}))
    picker = bounds(scene, "datePicker")
    texts = {
        str(i.property("text")): item_rect(i) for i in find_items(scene.screen_item(), "RoleText")
    }
    weekday_row = 120 + 56  # the header with its divider (HeaderContainerHeight), the month row
    first = texts["1"]
    assert first.center().y() - picker["y"] == pytest.approx(weekday_row + 48 + 24, abs=1)
    assert first.center().x() - picker["x"] == pytest.approx(12 + 48 * column_of_1st + 24, abs=1)


# --- tabBar (SC `RenderPrototypeNavigation`: TabRow / ScrollableTabRow) -------------------------


def test_TabRow_full_width_3dp_indicator_and_every_label_primary(scene: Any) -> None:
    tabs = {"type": "tabBar", "stateKey": "t", "items": [{"label": "One"}, {"label": "Two"}],
            "style": {"width": "fill"}}  # fmt: skip
    image = show(scene, screen(column(tabs, style={"width": "fill"}), {"t": 0}))
    b = bounds(scene, "tabBar")
    assert b["height"] == 48
    primary = colour(scene, "primary")
    assert near(image[46, 2], primary, 4) and near(image[46, W // 2 - 2], primary, 4)
    assert near(image[44, 2], colour(scene, "surface"), 4)  # 3 dp: rows 45..47
    assert not near(image[46, W // 2 + 2], primary, 30)
    second = ink(image, (W // 2, 0, W // 2, 40), colour(scene, "surface"))
    ys, xs = np.where(second)
    tone = image[ys, xs + W // 2]
    darkest = tone[tone.sum(axis=1).argmin()]
    assert near(darkest, primary, 24)  # the unselected label is primary too


def test_TabRow_icon_tabs_72dp_and_ScrollableTabRow_edge_padding_52dp(scene: Any) -> None:
    tall = {"type": "tabBar", "stateKey": "t", "items": [{"label": "A", "icon": "home"}]}
    show(scene, screen(column(tall), {"t": 0}))
    assert bounds(scene, "tabBar")["height"] == 72
    wide = {"type": "tabBar", "stateKey": "t", "scrollable": True,
            "items": [{"label": "A"}, {"label": "B"}]}  # fmt: skip
    show(scene, screen(column(wide), {"t": 0}))
    # ScrollableTabRow's layout is fillMaxWidth (its tabs start after the 52 dp edge padding).
    assert bounds(scene, "tabBar")["width"] == 412


# --- bottomSheet (SC `RenderPrototypeSheet`; TH sheet scrim and handle) -------------------------


def _sheet(**fields: Any) -> dict[str, Any]:
    sheet = {"type": "bottomSheet", "openWhen": {"key": "o", "equals": True},
             "child": {"type": "text", "text": "Body"}, **fields}  # fmt: skip
    return screen(column(sheet, style={"width": "fill", "height": "fill", "background": "#FFFFFF"}),
                  {"o": True})  # fmt: skip


def test_RenderPrototypeSheet_square_surface_opaque_handle_and_scrim_0_4(scene: Any) -> None:
    image = show(scene, _sheet(detents=["half"]))
    top = H - H // 2
    surface = colour(scene, "surface")
    assert near(image[top + 2, 1], surface, 2) and near(image[top + 2, W - 2], surface, 2)  # square
    assert near(image[top + 9, W // 2], colour(scene, "onSurfaceVariant"), 3)  # 4 dp at y 8..11
    assert near(image[top + 6, W // 2], surface, 3) and near(image[top + 13, W // 2], surface, 3)
    # scrim: the scheme's scrim (#000000) at 0.4 over white
    assert near(image[100, 100], (153, 153, 153), 3)


def test_prototypeSheetHeights_full_is_the_window_height(scene: Any) -> None:
    image = show(scene, _sheet(detents=["full"]))
    assert near(image[1, 100], colour(scene, "surface"), 2)


# --- segmentedButton (MC `RenderPrototypeSegmentedButton`) ---------------------------------------


def test_SingleChoiceSegmentedButtonRow_equal_40dp_segments_in_a_48dp_target(scene: Any) -> None:
    options = [{"value": "a", "label": "Day"}, {"value": "b", "label": "Fortnight"}]
    image = show(scene, screen(column({"type": "segmentedButton", "stateKey": "s", "options": options}),
                               {"s": "a"}))  # fmt: skip
    b = bounds(scene, "segmentedButton")
    assert b["height"] == 48
    half = int(b["width"] / 2)
    selected = colour(scene, "secondaryContainer")
    assert near(image[24, 8], selected, 4) and near(image[24, half - 4], selected, 4)
    assert not near(image[24, half + 8], selected, 6)
    outline = colour(scene, "outline")
    assert near(image[4, half // 2], outline, 30) and near(image[43, half // 2], outline, 30)
