"""Window rows of docs/fidelity.md: how AutoMobile's host places a spec's window on the phone
(HO PrototypeHost.kt `PrototypeChrome` / `prototypeHostChrome`, PL PrototypePlacement.kt
`prototypeLayoutParams`, WM PrototypeWindowMapping.kt `prototypeGravity`), checked on rendered
pixels and bounds with the device chrome shown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.preview.fidelity import bounds, box, close, hex_rgb, over, rgb_at, spec_of

W, H = 412, 915
STATUS, NAV, BAR = 24, 24, 24 + 32


@pytest.fixture
def phone(quick: Any) -> Iterator[Any]:
    """A 412x915 scene with the device chrome (status bar, dismiss bar, gesture bar)."""
    from studio.preview.render import HeadlessScene

    made = HeadlessScene(W, H, "light", chrome=True)
    yield made
    made.close()


def _backdrop(phone: Any) -> tuple[int, int, int]:
    return hex_rgb(phone.screen_item().property("color").name())


def test_fullscreen_paints_only_the_spec_over_the_app_behind_HO_PrototypeChrome(  # noqa: N802
    phone: Any,
) -> None:
    root = {"type": "box", "id": "root", "style": {"background": "#FFFFFF", "alignment": "center"},
            "children": [{"type": "text", "text": "Adaptive"}]}  # fmt: skip
    b = bounds(phone, spec_of(root))
    image = phone.grab()
    # The root wraps its text at the top-start of the content area, below the dismiss bar.
    assert (b["root"]["x"], b["root"]["y"]) == (0, BAR) and b["root"]["width"] < 100
    assert rgb_at(image, 1, BAR + 1) == (255, 255, 255)
    # Outside it the window is transparent: the app behind shows, not the theme background.
    assert close(rgb_at(image, W / 2, H / 2), _backdrop(phone))


def test_the_dismiss_bar_is_translucent_surface_container_high_TH_prototypeDismissColors(  # noqa: N802
    phone: Any,
) -> None:
    phone.show(spec_of({"type": "spacer"}))
    image = phone.grab()
    colors = phone.controller.scheme.colors
    expected = over(hex_rgb(colors["surfaceContainerHigh"]), 0.6, _backdrop(phone))
    assert close(rgb_at(image, 40, STATUS + 16), expected)  # in the 32 dp band
    texts = [t for t in _texts(phone) if "Dismiss AutoMobile prototype" in t]
    assert texts


def _texts(phone: Any) -> list[str]:
    from tests.preview.helpers import find_items

    return [str(i.property("text")) for i in find_items(phone.screen_item(), "QQuickText")]


def test_the_fullscreen_scrim_is_behind_the_content_HO_prototypeThemedScrim(phone: Any) -> None:  # noqa: N802
    spec = spec_of(box("b", 50, 50, background="#0000FF"),
                   window={"placement": {"type": "fullscreen", "scrim": "#80FF0000"}})  # fmt: skip
    phone.show(spec)
    image = phone.grab()
    assert rgb_at(image, 10, BAR + 10) == (0, 0, 255)  # content over the scrim
    assert close(rgb_at(image, 200, 400), over((255, 0, 0), 128 / 255, _backdrop(phone)))
    assert not close(rgb_at(image, 200, STATUS + 16), (255, 0, 0), 60)  # never over the bar


def test_a_sheet_adds_no_background_or_shape_HO_PrototypeChrome(phone: Any) -> None:  # noqa: N802
    spec = spec_of(box("b", 60, 60, background="#0000FF"),
                   window={"placement": {"type": "sheet", "edge": "bottom", "height": 300}})  # fmt: skip
    b = bounds(phone, spec)
    image = phone.grab()
    assert (b["b"]["x"], b["b"]["y"]) == (0, H - 300)
    assert close(rgb_at(image, 300, H - 150), _backdrop(phone))  # no sheet surface
    assert close(rgb_at(image, 2, H - 298), (0, 0, 255))  # square corner: no 28 dp rounding


@pytest.mark.parametrize(
    ("gravity", "x", "y"),
    [
        ("topStart", 16, 24),
        ("bottomEnd", W - 16 - 60, H - 24 - 40),  # inward for end and bottom gravity
        ("center", (W - 60) / 2 + 16, (H - 40) / 2 + 24),  # right and down from the centre
    ],
)
def test_floating_offsets_follow_android_gravity_WM_prototypeGravity(  # noqa: N802
    phone: Any, gravity: str, x: float, y: float
) -> None:
    placement = {"type": "floating", "gravity": gravity, "offset": {"x": 16, "y": 24}}
    b = bounds(phone, spec_of(box("b", 60, 40), window={"placement": placement}))
    assert (b["b"]["x"], b["b"]["y"]) == pytest.approx((x, y))


def test_a_floating_window_stays_on_the_screen(phone: Any) -> None:
    placement = {"type": "floating", "gravity": "bottomEnd", "offset": {"x": -500, "y": -900}}
    b = bounds(phone, spec_of(box("b", 60, 40), window={"placement": placement}))
    assert (b["b"]["x"], b["b"]["y"]) == (W - 60, H - 40)


def test_fullscreen_opacity_fades_the_content_not_the_dismiss_bar_HO_prototypeHostChrome(  # noqa: N802
    phone: Any,
) -> None:
    root = box("b", 100, 100, background="#0000FF")
    phone.show(spec_of(root, window={"placement": {"type": "fullscreen"}, "opacity": 50}))
    image = phone.grab()
    assert close(rgb_at(image, 20, BAR + 20), over((0, 0, 255), 0.5, _backdrop(phone)), 4)
    colors = phone.controller.scheme.colors
    bar = over(hex_rgb(colors["surfaceContainerHigh"]), 0.6, _backdrop(phone))
    assert close(rgb_at(image, 40, STATUS + 16), bar)


def test_floating_opacity_fades_the_whole_window_HO_prototypeHostChrome(phone: Any) -> None:  # noqa: N802
    window = {"placement": {"type": "floating", "gravity": "center", "offset": {"x": 0, "y": 0}},
              "opacity": 40}  # fmt: skip
    b = bounds(phone, spec_of(box("b", 100, 100, background="#0000FF"), window=window))
    image = phone.grab()
    centre = rgb_at(image, b["b"]["x"] + 50, b["b"]["y"] + 50)
    assert close(centre, over((0, 0, 255), 0.4, _backdrop(phone)), 4)


def test_safe_area_padding_pads_below_the_bar_by_the_status_bar_inset_SC_windowInsetsPadding(  # noqa: N802
    phone: Any,
) -> None:
    root = {"type": "column", "id": "root", "style": {"width": "fill", "height": "fill"},
            "safeAreaPadding": {"edges": ["top", "bottom"], "types": ["systemBars"]},
            "children": [box("first", 10, 10), {"type": "spacer", "style": {"weight": 1}},
                         box("last", 10, 10)]}  # fmt: skip
    b = bounds(phone, spec_of(root))
    # The dismiss bar consumes no inset: the status-bar gap repeats below it (inferred on
    # the phone: the bar is a sibling of the content, not its ancestor).
    assert b["first"]["y"] == BAR + STATUS
    assert b["last"]["y"] + 10 == pytest.approx(H - NAV)


def test_the_keyboard_shows_while_a_text_field_has_the_focus_and_pads_ime(
    preview: Any, qtbot: Any
) -> None:
    root = {"type": "column", "style": {"width": "fill", "height": "fill"},
            "safeAreaPadding": {"edges": ["bottom"], "types": ["ime"]},
            "children": [{"type": "textField", "id": "field", "stateKey": "q", "placeholder": "Q"},
                         {"type": "spacer", "style": {"weight": 1}}, box("end", 10, 10)]}  # fmt: skip
    preview.set_device_chrome(True)
    preview.set_spec(spec_of(root, state={"q": ""}))
    from PySide6.QtCore import QPoint, Qt

    def end_bottom() -> float:
        entry = next(e for e in preview.visible_summary() if e["address"] == "end")
        return float(entry["bounds"]["y"] + entry["bounds"]["height"])

    assert end_bottom() == pytest.approx(H)
    field = next(e for e in preview.visible_summary() if e["address"] == "field")["bounds"]
    point = QPoint(round(field["x"] + 20), round(field["y"] + field["height"] / 2))
    qtbot.mouseClick(preview.quick_widget, Qt.MouseButton.LeftButton, pos=point)
    keyboard = preview.controller.device.keyboard
    qtbot.waitUntil(lambda: end_bottom() == pytest.approx(H - keyboard))


def _field_spec() -> dict[str, Any]:
    root = {"type": "column", "style": {"width": "fill", "height": "fill"},
            "safeAreaPadding": {"edges": ["bottom"], "types": ["ime"]},
            "children": [{"type": "textField", "id": "field", "stateKey": "q", "placeholder": "Q"},
                         {"type": "spacer", "style": {"weight": 1}}, box("end", 10, 10)]}  # fmt: skip
    return spec_of(root, state={"q": ""})


def _entry(preview: Any, address: str) -> dict[str, Any]:
    return next(e for e in preview.visible_summary() if e["address"] == address)


def _click(preview: Any, qtbot: Any, address: str) -> None:
    from PySide6.QtCore import QPoint, Qt

    b = _entry(preview, address)["bounds"]
    point = QPoint(round(b["x"] + 20), round(b["y"] + b["height"] / 2))
    qtbot.mouseClick(preview.quick_widget, Qt.MouseButton.LeftButton, pos=point)


def test_back_hides_the_keyboard_and_then_dismisses_as_the_user_HO_prototypeBackDecision(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    preview.set_device_chrome(True)
    preview.set_spec(_field_spec())

    def end_bottom() -> float:
        b = _entry(preview, "end")["bounds"]
        return float(b["y"] + b["height"])

    _click(preview, qtbot, "field")
    keyboard = preview.controller.device.keyboard
    qtbot.waitUntil(lambda: end_bottom() == pytest.approx(H - keyboard))
    focused = preview.quick_widget.quickWindow().activeFocusItem()
    # The keyboard takes the first Back (HO `AndroidPrototypeBackRegistrar`): it hides, the
    # content pads no more, and the field keeps the focus.
    assert preview.back() == "keyboard"
    assert end_bottom() == pytest.approx(H)
    assert preview.quick_widget.quickWindow().activeFocusItem() is focused
    assert preview.runtime.active
    # A tap on the focused field shows it again.
    _click(preview, qtbot, "field")
    qtbot.waitUntil(lambda: end_bottom() == pytest.approx(H - keyboard))
    assert preview.back() == "keyboard"
    # With a text field on screen the window has the focus: Back dismisses the prototype on
    # the dismiss bar's path (`dismissFromBack` -> `onHostDismiss`), reason user.
    assert preview.back() == "dismissed"
    assert not preview.runtime.active
    last = preview.runtime.events[-1]
    assert (last.kind, last.payload) == ("dismissed", {"reason": "user"})
    assert preview.controller.property("window")["active"] is False


def test_without_a_text_field_on_screen_back_goes_to_the_app_behind_HO_PrototypeHost(  # noqa: N802
    preview: Any,
) -> None:
    spec = spec_of({"type": "column", "children": [
        {"type": "button", "id": "b", "label": "Go", "onTap": [{"type": "toggle", "key": "f"}]},
        {"type": "textField", "stateKey": "q", "visibleWhen": {"key": "f", "equals": True}}]},
        state={"f": False, "q": ""})  # fmt: skip
    preview.set_spec(spec)
    events = len(preview.runtime.events)
    # The window is not focusable: it never sees Back, and the prototype stays.
    assert preview.back() == "passed"
    assert preview.runtime.active and len(preview.runtime.events) == events
    # Once the field shows (`hasVisibleTextField` follows the state), Back reaches it.
    preview.runtime.set_value("f", True)
    assert preview.back() == "dismissed"


def test_back_in_edit_mode_does_nothing(preview: Any) -> None:
    preview.set_spec(_field_spec())
    preview.set_edit_mode(True)
    assert preview.back() == ""
    assert preview.runtime.active


def test_a_bottom_sheet_rises_above_the_keyboard_PL_prototypeImeShiftPx(phone: Any) -> None:  # noqa: N802
    spec = spec_of(
        box("b", 60, 60), window={"placement": {"type": "sheet", "edge": "bottom", "height": 200}}
    )
    phone.show(spec)
    phone.controller.setKeyboard(True)
    b = bounds(phone)
    assert b["b"]["y"] == pytest.approx(H - 200 - phone.controller.device.keyboard)


def test_a_persistent_floating_window_carries_close_and_fades_only_its_content_HO_prototypeHostChrome(  # noqa: N802, E501
    phone: Any,
) -> None:
    from PySide6.QtQuick import QQuickItem

    window = {"placement": {"type": "floating", "gravity": "center", "offset": {"x": 0, "y": 0}},
              "persistence": "device", "opacity": 40}  # fmt: skip
    b = bounds(phone, spec_of(box("b", 200, 100, background="#0000FF"), window=window))
    close_button = phone.screen_item().findChild(QQuickItem, "closeButton")
    assert close_button is not None and close_button.isVisible()
    rect = close_button.mapRectToItem(phone.screen_item(), close_button.boundingRect())
    assert rect.right() == pytest.approx(b["b"]["x"] + 200) and rect.height() == 48
    image = phone.grab()
    colors = phone.controller.scheme.colors
    assert close(
        rgb_at(image, rect.center().x(), rect.top() + 4), hex_rgb(colors["surfaceContainerHigh"])
    )
    assert close(
        rgb_at(image, b["b"]["x"] + 20, b["b"]["y"] + 90),
        over((0, 0, 255), 0.4, _backdrop(phone)),
        4,
    )


def test_the_dismiss_bar_dismisses_the_prototype_as_the_user(preview: Any, qtbot: Any) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtQuick import QQuickItem

    preview.set_device_chrome(True)
    preview.set_spec(spec_of(box("b", 50, 50, background="#0000FF")))
    bar = preview.screen_item().findChild(QQuickItem, "dismissBar")
    point = bar.mapToScene(bar.boundingRect().bottomRight()) - QPoint(60, 16).toPointF()
    with qtbot.waitSignal(preview.runtimeEvent) as event:
        qtbot.mouseClick(preview.quick_widget, Qt.MouseButton.LeftButton, pos=point.toPoint())
    assert event.args[0].kind == "dismissed" and event.args[0].payload == {"reason": "user"}
    window = preview.screen_item().findChild(QQuickItem, "window")
    qtbot.waitUntil(lambda: not window.isVisible())
    preview.reset_state()
    qtbot.waitUntil(window.isVisible)


# -- in-place edits of the placement (the inspector's window.placement, an agent's edit) --------
FLOATING = {"type": "floating", "gravity": "center"}
FULLSCREEN = {"type": "fullscreen"}
SHEET = {"type": "sheet", "edge": "bottom", "height": 300}
#: Where the window and its 60x40 root are on the 412x915 phone: (x, y, width, height).
WINDOW_AT = {
    "floating": ((W - 60) / 2, (H - 40) / 2, 60, 40),
    "fullscreen": (0, 0, W, H),
    "sheet": (0, H - 300, W, 300),
}
ROOT_AT = {
    "floating": ((W - 60) / 2, (H - 40) / 2, 60, 40),
    "fullscreen": (0, BAR, 60, 40),  # at the content area's top-start, below the dismiss bar
    "sheet": (0, H - 300, 60, 40),
}
#: Two chains that between them make every switch, each way (floating, fullscreen, sheet).
SWITCHES = pytest.mark.parametrize(
    "placements",
    [[FLOATING, FULLSCREEN, SHEET, FLOATING], [FLOATING, SHEET, FULLSCREEN, FLOATING]],
    ids=["floating-fullscreen-sheet-floating", "floating-sheet-fullscreen-floating"],
)
Rect = tuple[float, float, float, float]


def _placed(screen: Any, summary: list[dict[str, Any]]) -> tuple[Rect, Rect]:
    """The window's rectangle and its root's on the screen (dp), as drawn now."""
    from PySide6.QtCore import QRectF
    from PySide6.QtQuick import QQuickItem

    window = screen.findChild(QQuickItem, "window")
    r = window.mapRectToItem(screen, QRectF(0, 0, window.width(), window.height()))
    b = next(e["bounds"] for e in summary if e["address"] == "b")
    return (r.x(), r.y(), r.width(), r.height()), (b["x"], b["y"], b["width"], b["height"])


def _drawn(preview: Any) -> tuple[Rect, Rect]:
    return _placed(preview.screen_item(), preview.visible_summary())


def _scene_placed(scene: Any) -> tuple[Rect, Rect]:
    scene.grab()
    return _placed(scene.screen_item(), scene.visible_summary(on_screen_only=False))


@SWITCHES
def test_a_placement_switched_in_place_places_the_window_as_a_fresh_show_PL_prototypeLayoutParams(  # noqa: N802, E501
    phone: Any, placements: list[dict[str, Any]]
) -> None:
    """The window the designer sees after editing `window.placement` is the one the phone shows
    for the edited spec. A switch from floating once left the root the floating window's height
    (a binding loop through DeviceScreen.qml's `maxH`, which the conftest fails on)."""
    from studio.preview.render import HeadlessScene

    fresh = HeadlessScene(W, H, "light", chrome=True)
    try:
        spec = spec_of(box("b", 60, 40), window={"placement": placements[0]})
        phone.show(spec)
        assert _scene_placed(phone) == (WINDOW_AT["floating"], ROOT_AT["floating"])
        for placement in placements[1:]:
            spec = {**spec, "window": {"placement": placement}}
            phone.controller.apply_change(spec, [])
            kind = placement["type"]
            shown = _scene_placed(phone)
            assert shown == (WINDOW_AT[kind], ROOT_AT[kind]), kind
            fresh.show(spec)
            assert shown == _scene_placed(fresh), kind
    finally:
        fresh.close()


#: Roots whose layout the window's placement feeds back into: one the window wraps, one that
#: fills what it is offered, and one with a bounds anchor (a floating window moves onto it).
ROOTS = {
    "wrapping": box("b", 60, 40),
    "filling": {"type": "column", "id": "b", "style": {"width": "fill", "height": "fill"},
                "children": [box("c", 10, 10)]},
    "anchored": {**box("b", 60, 40), "anchor": {"type": "bounds", "bounds":
                 {"x": 100, "y": 300, "width": 60, "height": 40}}},
}  # fmt: skip
PERSISTENT = {"type": "floating", "gravity": "bottomEnd", "offset": {"x": 10, "y": 10},
              "persistent": True}  # fmt: skip
TOP_SHEET = {"type": "sheet", "edge": "top", "height": 300}


@pytest.mark.parametrize("rtl", [False, True], ids=["ltr", "rtl"])
@pytest.mark.parametrize("root", list(ROOTS))
def test_the_studio_preview_follows_every_placement_switch_and_rotation_as_a_fresh_show(
    preview: Any, qtbot: Any, root: str, rtl: bool
) -> None:
    """The studio's PreviewWidget (the inspector's and the Theme and window panel's edits) through
    every switch each way, the device rotated and back after each, draws the window and root a
    fresh show of the same spec on the same device draws. The switches once re-entered the
    bindings still settling on the new window (loops on the content area's `height`, the root's
    `maxW`/`maxH` and its geometry `g`, which the conftest fails on)."""
    from studio.preview.render import HeadlessScene

    preview.set_device_chrome(True)
    preview.set_rtl(rtl)
    fresh = HeadlessScene(W, H, "light", chrome=True, rtl=rtl)
    try:
        spec = spec_of(ROOTS[root], window={"placement": PERSISTENT})
        preview.set_spec(spec)
        for placement in [FULLSCREEN, TOP_SHEET, PERSISTENT, TOP_SHEET, FULLSCREEN, PERSISTENT]:
            spec = {**spec, "window": {"placement": placement}}
            preview.apply_change(spec, [])
            for size in [(W, H), (H, W), (W, H)]:
                preview.set_device_size(*size)
                fresh.controller.set_device_size(*size)
                fresh.show(spec)
                expected = _scene_placed(fresh)
                qtbot.waitUntil(lambda expected=expected: _drawn(preview) == expected)
    finally:
        fresh.close()


@pytest.mark.parametrize(
    "sizes",
    [[(915, 412), (412, 915)], [(360, 800), (412, 915)]],
    ids=["rotated-and-back", "smaller-and-back"],
)
def test_a_floating_window_stays_centred_as_the_device_rotates_or_resizes_WM_prototypeGravity(  # noqa: N802
    phone: Any, sizes: list[tuple[int, int]]
) -> None:
    phone.show(spec_of(box("b", 60, 40), window={"placement": FLOATING}))
    for width, height in sizes:
        phone.controller.set_device_size(width, height)
        at = ((width - 60) / 2, (height - 40) / 2, 60, 40)
        assert _scene_placed(phone) == (at, at), (width, height)


def test_a_refused_floating_spec_switched_to_fullscreen_in_place_shows_as_a_fresh_show(
    preview: Any, qtbot: Any
) -> None:
    """From a window the phone refuses (an anchor below a floating root: no window drawn) to one
    it shows, by the placement edit the refusal line suggests: drawn as a fresh show."""
    from studio.preview.render import HeadlessScene

    preview.set_device_chrome(True)
    anchored = {**ROOTS["anchored"], "id": "a"}
    spec = spec_of({**box("b", 60, 40), "children": [anchored]}, window={"placement": PERSISTENT})
    preview.set_spec(spec)
    assert preview.show_refusal.startswith("root.children[0].anchor")
    spec = {**spec, "window": {"placement": FULLSCREEN}}
    preview.apply_change(spec, [])
    assert preview.show_refusal == ""
    fresh = HeadlessScene(W, H, "light", chrome=True)
    try:
        fresh.show(spec)
        expected = _scene_placed(fresh)
    finally:
        fresh.close()
    assert expected[1] == ROOT_AT["fullscreen"]
    qtbot.waitUntil(lambda: _drawn(preview) == expected)
