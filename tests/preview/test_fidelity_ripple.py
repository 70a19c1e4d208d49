"""Press feedback as on the phone (docs/fidelity.md, Shared fields `onTap` and the component rows):
Material 3's ripple, which MaterialTheme provides as `LocalIndication` (TH `PrototypeTheme` wraps
the content in MaterialTheme) and `clickable` draws over the node (SC `prototypeNodeModifier`).
Each test presses with the mouse on the scene's window (a touch on the phone), checks the frame
while pressed and after the release, pixel by pixel against what the source implies: the content
colour at StateTokens.PressedStateLayerOpacity (0.1) over what is below, inside the node's drawn
bounds (and its rounded shape when it has a cornerRadius), nothing outside."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from tests.preview.fidelity import bounds, close, hex_rgb, over, rgb_at, spec_of
from tests.preview.helpers import find_items, scene_point
from tests.preview.probe import opengl_probe

TAP = [{"type": "emit", "name": "tapped"}]
WHITE = (255, 255, 255)
PRESSED_ALPHA = 0.1  # androidx material3 tokens/StateTokens.kt PressedStateLayerOpacity


def _page(*children: dict[str, Any]) -> dict[str, Any]:
    """A white full-screen column (so every tint is measured over white) holding `children`."""
    return {"type": "column", "style": {"width": "fill", "height": "fill", "background": "#FFFFFF",
            "padding": {"top": 40, "start": 40}}, "children": list(children)}  # fmt: skip


def _ripples(scene: Any) -> list[QQuickItem]:
    screen = scene.screen_item()
    found: list[QQuickItem] = []

    def visit(item: QQuickItem) -> None:
        for child in item.childItems():
            if child.metaObject().className().startswith("PressRipple"):
                found.append(child)
            visit(child)

    visit(screen)
    return found


def _press(scene: Any, x: float, y: float) -> None:
    QTest.mousePress(scene.view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(round(x), round(y)))  # fmt: skip


def _release(scene: Any, x: float, y: float) -> None:
    QTest.mouseRelease(scene.view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       QPoint(round(x), round(y)))  # fmt: skip


def _tapped(scene: Any) -> int:
    return sum(1 for e in scene.controller.runtime.events if e.name == "tapped")


def _color(scene: Any, role: str) -> tuple[int, int, int]:
    return hex_rgb(str(scene.controller.scheme.colors[role]))


def test_a_pressed_box_ripples_in_the_content_colour_SC_prototypeNodeModifier_clickable_LocalIndication(  # noqa: E501, N802
    scene: Any, qtbot: Any
) -> None:
    box = {"type": "box", "id": "b", "onTap": TAP,
           "style": {"width": {"dp": 200}, "height": {"dp": 120}}, "children": []}  # fmt: skip
    b = bounds(scene, spec_of(_page(box)))["b"]
    press = (b["x"] + 150, b["y"] + 30)
    tint = over(_color(scene, "onSurface"), PRESSED_ALPHA, WHITE)
    _press(scene, *press)
    frame = scene.grab()  # still again once grown (225 ms)
    ripples = _ripples(scene)
    assert len(ripples) == 1
    # It starts at the press point, in the node's coordinates (RippleAnimation `origin`).
    origin = ripples[0].mapToScene(
        QPointF(float(ripples[0].property("originX")), float(ripples[0].property("originY")))
    )
    assert (round(origin.x()), round(origin.y())) == (round(press[0]), round(press[1]))
    for x, y in [press, (b["x"] + 3, b["y"] + 3), (b["x"] + 197, b["y"] + 117)]:
        assert close(rgb_at(frame, x, y), tint), (x, y, rgb_at(frame, x, y), tint)
    # Bounded by the drawn node: nothing outside it.
    for x, y in [(b["x"] - 3, b["y"] + 60), (b["x"] + 203, b["y"] + 60), (b["x"] + 100, b["y"] + 123)]:  # fmt: skip
        assert rgb_at(frame, x, y) == WHITE, (x, y)
    assert _tapped(scene) == 0  # a press is not a tap
    _release(scene, *press)
    qtbot.waitUntil(lambda: rgb_at(scene.grab_now(), *press) == WHITE, timeout=3000)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert _tapped(scene) == 1


def test_a_rounded_node_ripples_inside_its_corners_SC_prototypeNodeModifier_clip_shape(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    box = {"type": "box", "id": "b", "onTap": TAP, "children": [],
           "style": {"width": {"dp": 160}, "height": {"dp": 100}, "cornerRadius": 32}}  # fmt: skip
    b = bounds(scene, spec_of(_page(box)))["b"]
    tint = over(_color(scene, "onSurface"), PRESSED_ALPHA, WHITE)
    _press(scene, b["x"] + 80, b["y"] + 50)
    frame = scene.grab()
    assert close(rgb_at(frame, b["x"] + 80, b["y"] + 50), tint)
    assert close(rgb_at(frame, b["x"] + 40, b["y"] + 4), tint)  # on the straight top edge
    # Inside the bounding rectangle, outside the 32 dp corners: untouched.
    for x, y in [(b["x"] + 3, b["y"] + 3), (b["x"] + 157, b["y"] + 3),
                 (b["x"] + 3, b["y"] + 97), (b["x"] + 157, b["y"] + 97)]:  # fmt: skip
        assert rgb_at(frame, x, y) == WHITE, (x, y, rgb_at(frame, x, y))
    _release(scene, b["x"] + 80, b["y"] + 50)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert _tapped(scene) == 1


def test_a_card_without_corner_radius_ripples_square_SC_prototypeNodeModifier_clip_only_with_cornerRadius(  # noqa: E501, N802
    scene: Any, qtbot: Any
) -> None:
    """`clip(shape)` is applied only when the node has a cornerRadius: a tappable card's ripple
    covers its bounding rectangle, past the card's own rounded corners."""
    card = {"type": "card", "id": "c", "onTap": TAP,
            "style": {"width": {"dp": 200}, "height": {"dp": 100}}, "children": []}  # fmt: skip
    b = bounds(scene, spec_of(_page(card)))["c"]
    tint = over(_color(scene, "onSurface"), PRESSED_ALPHA, WHITE)
    _press(scene, b["x"] + 100, b["y"] + 50)
    frame = scene.grab()
    # The card's own corner, outside its rounded shape: tinted too.
    assert close(rgb_at(frame, b["x"] + 1, b["y"] + 1), tint)
    _release(scene, b["x"] + 100, b["y"] + 50)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)


def test_a_node_without_onTap_shows_nothing_on_press_SC_prototypeNodeModifier_tappable(  # noqa: N802
    scene: Any,
) -> None:
    box = {"type": "box", "id": "b", "children": [],
           "style": {"width": {"dp": 200}, "height": {"dp": 120}}}  # fmt: skip
    b = bounds(scene, spec_of(_page(box)))["b"]
    before = scene.grab()
    _press(scene, b["x"] + 100, b["y"] + 60)
    pressed = scene.grab()
    assert not _ripples(scene)
    assert rgb_at(pressed, b["x"] + 100, b["y"] + 60) == rgb_at(before, b["x"] + 100, b["y"] + 60)
    _release(scene, b["x"] + 100, b["y"] + 60)


def test_press_scale_still_shrinks_the_pressed_node_SC_prototypePressScale(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    box = {"type": "box", "id": "b", "onTap": TAP, "children": [],
           "style": {"width": {"dp": 200}, "height": {"dp": 100}, "pressScale": 0.5,
                     "background": "#1565C0"}}  # fmt: skip
    b = bounds(scene, spec_of(_page(box)))["b"]
    _press(scene, b["x"] + 100, b["y"] + 50)
    frame = scene.grab()
    # Shrunk to half around its centre: its old corner shows the page, its middle the ripple.
    assert rgb_at(frame, b["x"] + 10, b["y"] + 10) == WHITE
    blue = hex_rgb("#1565C0")
    assert close(rgb_at(frame, b["x"] + 100, b["y"] + 50),
                 over(_color(scene, "onSurface"), PRESSED_ALPHA, blue))  # fmt: skip
    _release(scene, b["x"] + 100, b["y"] + 50)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert rgb_at(scene.grab(), b["x"] + 10, b["y"] + 10) == blue
    assert _tapped(scene) == 1


def test_a_pressed_filled_button_ripples_onPrimary_inside_its_pill_Button_Surface_ripple(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    button = {"type": "button", "id": "ok", "label": "OK", "onTap": TAP,
              "style": {"color": "#FF0000"}}  # style.color tints the label, not the ripple  # fmt: skip
    b = bounds(scene, spec_of(_page(button)))["ok"]
    top = b["y"] + (b["height"] - 40) / 2  # the 40 dp pill in its 48 dp target
    idle = scene.grab()
    primary = rgb_at(idle, b["x"] + 8, top + 20)
    assert close(primary, _color(scene, "primary"))
    _press(scene, b["x"] + 10, top + 20)
    frame = scene.grab()
    assert close(rgb_at(frame, b["x"] + 8, top + 20),
                 over(_color(scene, "onPrimary"), PRESSED_ALPHA, primary))  # fmt: skip
    # Outside the pill (its corner, the touch target's margin): untouched; no hover layer.
    assert rgb_at(frame, b["x"] + 1, top + 1) == rgb_at(idle, b["x"] + 1, top + 1)
    assert rgb_at(frame, b["x"] + 20, top - 2) == rgb_at(idle, b["x"] + 20, top - 2)
    _release(scene, b["x"] + 10, top + 20)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert rgb_at(scene.grab(), b["x"] + 8, top + 20) == primary
    assert _tapped(scene) == 1


def test_a_pressed_icon_button_ripples_inside_its_40dp_circle_IconButton_clip_ripple(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    button = {"type": "iconButton", "id": "fav", "icon": "favorite", "onTap": TAP}
    b = bounds(scene, spec_of(_page(button)))["fav"]
    cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    tint = over(_color(scene, "onSurface"), PRESSED_ALPHA, WHITE)
    idle = scene.grab()
    _press(scene, cx + 12, cy + 12)
    frame = scene.grab()
    assert close(rgb_at(frame, cx + 14, cy - 4), tint)  # inside the circle, off the glyph
    # The corner of the circle's square and the 48 dp target's margin: untouched.
    for x, y in [(cx - 18, cy - 18), (cx + 18, cy + 18), (cx + 22, cy)]:
        assert rgb_at(frame, x, y) == rgb_at(idle, x, y), (x, y)
    _release(scene, cx + 12, cy + 12)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert _tapped(scene) == 1


def test_a_pressed_switch_row_ripples_over_the_row_not_the_switch_RenderPrototypeToggle_toggleable(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """The Material Switch is display-only (`onCheckedChange = null`); the row is `toggleable`
    inside its 48 dp target, so the row's 32 dp band ripples, square, in the content colour."""
    switch = {"type": "switch", "id": "s", "stateKey": "on", "label": "Wi-Fi",
              "style": {"width": {"dp": 300}}}  # fmt: skip
    b = bounds(scene, spec_of(_page(switch), state={"on": False}))["s"]
    cy = b["y"] + b["height"] / 2
    tint = over(_color(scene, "onSurface"), PRESSED_ALPHA, WHITE)
    idle = scene.grab()
    _press(scene, b["x"] + 200, cy)
    frame = scene.grab()
    assert close(rgb_at(frame, b["x"] + 1, cy), tint)  # the row's start, past the label
    assert close(rgb_at(frame, b["x"] + 200, cy - 14), tint)  # inside the 32 dp band
    # Above the band, inside the 48 dp target: untouched.
    assert rgb_at(frame, b["x"] + 200, cy - 20) == rgb_at(idle, b["x"] + 200, cy - 20)
    _release(scene, b["x"] + 200, cy)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert scene.controller.runtime.value("on") is True


def test_a_pressed_selected_nav_item_hides_its_ripple_under_the_indicator_NavigationBarItemLayout(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    nav = {"type": "bottomNav", "id": "nav", "stateKey": "tab",
           "items": [{"label": "Home", "icon": "home"}, {"label": "Search", "icon": "search"}]}  # fmt: skip
    b = bounds(scene, spec_of(_page(nav), state={"tab": 0}))["nav"]
    half = b["width"] / 2
    idle = scene.grab()
    points = [(b["x"] + half / 2 - 26, b["y"] + 28), (b["x"] + half * 1.5 - 26, b["y"] + 28)]
    for x, y in points:  # the selected item's pill, then the other one's
        _press(scene, x, y)
        frame = scene.grab()
        if x == points[0][0]:
            assert rgb_at(frame, x, y) == rgb_at(idle, x, y)  # under the opaque indicator
        else:
            tint = over(_color(scene, "onSurface"), PRESSED_ALPHA, rgb_at(idle, x, y))
            assert close(rgb_at(frame, x, y), tint)
            assert rgb_at(frame, x, b["y"] + 8) == rgb_at(idle, x, b["y"] + 8)  # above the pill
        QTest.mouseMove(scene.view, QPoint(round(x), round(y)))
        _release(scene, x, y)
        qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)


@pytest.mark.xvfb
@pytest.mark.timeout(120)
def test_the_ripple_draws_alike_on_opengl_SC_prototypeNodeModifier_clickable_LocalIndication(  # noqa: N802
    tmp_path: Any,
) -> None:
    """The same press on the OpenGL scene graph (xcb on a private Xvfb, a child process): the
    ripple tints the rounded box, not its corners nor outside it, goes after the release, the tap
    runs once, and Qt logs nothing."""
    seen = opengl_probe("tests.preview.ripple_probe")  # on OpenGL, and Qt logs nothing
    tint = over(hex_rgb(seen["onSurface"]), PRESSED_ALPHA, WHITE)
    assert close(tuple(seen["pressed"]), tint) and close(tuple(seen["edge"]), tint), seen
    assert tuple(seen["corner"]) == WHITE and tuple(seen["outside"]) == WHITE, seen
    assert seen["cleared"] and seen["tapped"] == 1, seen


# (node, state, press point and a probe point off the glyphs, as fractions of the node's bounds,
# and the content colour role the phone's ripple takes there).
COMPONENTS = {
    "FloatingActionButton_Surface_ripple_onPrimaryContainer": (
        {"type": "fab", "icon": "add", "onTap": TAP}, {}, (0.5, 0.5), (0.2, 0.5),
        "onPrimaryContainer",
    ),
    "AssistChip_Surface_ripple_onSurface": (
        {"type": "chip", "label": "Help", "onTap": TAP, "style": {"color": "#FF0000"}}, {},
        (0.5, 0.5), (0.06, 0.5), "onSurface",
    ),
    "RenderPrototypeChip_filter_Row_toggleable_square": (
        {"type": "chip", "label": "Fresh", "stateKey": "f"}, {"f": False},
        (0.5, 0.5), (0.01, 0.18), "onSurface",
    ),
    "RenderPrototypeListItem_clickable_onSurface": (
        {"type": "listItem", "headline": "Inbox", "onTap": TAP, "style": {"width": {"dp": 300}}},
        {}, (0.5, 0.5), (0.9, 0.2), "onSurface",
    ),
    "RenderPrototypeRadioGroup_Row_selectable": (
        {"type": "radioGroup", "stateKey": "r", "style": {"width": {"dp": 300}},
         "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]},
        {"r": "a"}, (0.5, 0.75), (0.9, 0.75), "onSurface",
    ),
    "RenderPrototypeToggle_checkbox_Row_toggleable": (
        {"type": "checkbox", "stateKey": "c", "label": "Remember", "style": {"width": {"dp": 300}}},
        {"c": False}, (0.5, 0.5), (0.9, 0.5), "onSurface",
    ),
    "Tab_selectable_ripple_selectedContentColor": (
        {"type": "tabBar", "stateKey": "t", "style": {"width": {"dp": 300}},
         "items": [{"label": "One"}, {"label": "Two"}]},
        {"t": 0}, (0.75, 0.5), (0.95, 0.3), "primary",
    ),
    "SegmentedButton_Surface_shape_ripple": (
        {"type": "segmentedButton", "stateKey": "s", "style": {"width": {"dp": 300}},
         "options": [{"value": "a", "label": "Day"}, {"value": "b", "label": "Week"}]},
        {"s": "a"}, (0.75, 0.5), (0.9, 0.5), "onSurface",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(COMPONENTS))
def test_a_pressed_component_ripples_in_its_source_content_colour(
    scene: Any, qtbot: Any, name: str
) -> None:
    node, state, press, probe, role = COMPONENTS[name]
    b = bounds(scene, spec_of(_page({**node, "id": "n"}), state=state))["n"]
    px, py = b["x"] + b["width"] * press[0], b["y"] + b["height"] * press[1]
    qx, qy = b["x"] + b["width"] * probe[0], b["y"] + b["height"] * probe[1]
    idle = scene.grab()
    _press(scene, px, py)
    frame = scene.grab()
    expected = over(_color(scene, role), PRESSED_ALPHA, rgb_at(idle, qx, qy))
    assert close(rgb_at(frame, qx, qy), expected), (rgb_at(frame, qx, qy), expected)
    _release(scene, px, py)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    if not state:  # (a toggled control redraws itself)
        assert rgb_at(scene.grab(), qx, qy) == rgb_at(idle, qx, qy)


def test_a_pressed_date_ripples_in_its_40dp_circle_DatePicker_Day_Surface(
    scene: Any, qtbot: Any
) -> None:
    picker = {"type": "datePicker", "id": "dp", "stateKey": "d"}
    scene.show(spec_of(_page(picker), state={"d": "2026-02-10"}))
    idle = scene.grab()
    day = next(t for t in find_items(scene.screen_item(), "RoleText") if t.property("text") == "18")
    centre = scene_point(day)
    cx, cy = centre.x(), centre.y()
    _press(scene, cx, cy)
    frame = scene.grab()
    expected = over(_color(scene, "onSurface"), PRESSED_ALPHA, rgb_at(idle, cx + 15, cy))
    assert close(rgb_at(frame, cx + 15, cy), expected)  # inside the circle, off the digits
    assert rgb_at(frame, cx + 17, cy + 17) == rgb_at(idle, cx + 17, cy + 17)  # outside it
    _release(scene, cx, cy)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert scene.controller.runtime.value("d") == "2026-02-18"


def test_the_sheet_scrim_and_body_ripple_as_plain_clickables_RenderPrototypeSheet_clickable(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """SC `RenderPrototypeSheet`: the scrim and the sheet's body are `.clickable {}` with the
    theme's LocalIndication, so each ripples as a whole in onSurface; the scrim's below the sheet."""
    sheet = {"type": "bottomSheet", "id": "sh", "openWhen": {"key": "o", "equals": True},
             "detents": ["half"], "child": {"type": "text", "text": "Body"}}  # fmt: skip
    scene.show(spec_of(_page(sheet), state={"o": True}))
    idle = scene.grab()
    on_surface = _color(scene, "onSurface")
    _press(scene, 380, 880)  # the sheet's body, off its text
    frame = scene.grab()
    assert close(rgb_at(frame, 380, 880), over(on_surface, PRESSED_ALPHA, rgb_at(idle, 380, 880)))
    assert rgb_at(frame, 200, 100) == rgb_at(idle, 200, 100)  # the scrim: not pressed
    _release(scene, 380, 880)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    _press(scene, 200, 100)  # the scrim
    frame = scene.grab()
    assert close(rgb_at(frame, 200, 100), over(on_surface, PRESSED_ALPHA, rgb_at(idle, 200, 100)))
    assert rgb_at(frame, 380, 880) == rgb_at(idle, 380, 880)  # the sheet covers the scrim's ripple
    _release(scene, 200, 100)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
    assert scene.controller.runtime.value("o") is False


def test_a_pressed_time_selector_ripples_in_its_box_TimePicker_TimeSelector_Surface(
    scene: Any, qtbot: Any
) -> None:
    picker = {"type": "timePicker", "id": "tp", "hourKey": "h", "minuteKey": "m", "is24Hour": True}
    scene.show(spec_of(_page(picker), state={"h": 9, "m": 41}))
    idle = scene.grab()
    minute = next(
        t for t in find_items(scene.screen_item(), "RoleText") if t.property("text") == "41"
    )
    box = minute.parentItem()
    px, py = scene_point(box, 10, 10).x(), scene_point(box, 10, 10).y()
    _press(scene, px, py)
    frame = scene.grab()
    expected = over(_color(scene, "onSurface"), PRESSED_ALPHA, rgb_at(idle, px, py))
    assert close(rgb_at(frame, px, py), expected)
    corner = scene_point(box, 1, 1)
    assert rgb_at(frame, corner.x(), corner.y()) == rgb_at(idle, corner.x(), corner.y())
    _release(scene, px, py)
    qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)


def test_the_dismiss_button_ripples_in_its_32dp_pill_HO_PrototypeChrome_TextButton(  # noqa: N802
    quick: Any, qtbot: Any
) -> None:
    from studio.preview.render import HeadlessScene

    scene = HeadlessScene(412, 915, "light", chrome=True)
    try:
        scene.show(spec_of(_page()))
        idle = scene.grab()
        bar = scene.screen_item().findChild(QQuickItem, "dismissBar")
        label = bar.childItems()[0]
        left = scene_point(label, -6, label.height() / 2)  # inside the pill, before the text
        px, py = left.x(), left.y()
        above = scene_point(label, -6, (label.height() - 32) / 2 - 3)  # above the 32 dp pill
        _press(scene, px, py)
        frame = scene.grab()
        expected = over(_color(scene, "onSurface"), PRESSED_ALPHA, rgb_at(idle, px, py))
        assert close(rgb_at(frame, px, py), expected)
        assert rgb_at(frame, above.x(), above.y()) == rgb_at(idle, above.x(), above.y())
        _release(scene, px, py)
        qtbot.waitUntil(lambda: not _ripples(scene), timeout=3000)
        assert [e.to_json()["kind"] for e in scene.controller.runtime.events][-1] == "dismissed"
    finally:
        scene.close()


def _delegate(scene: Any, address: str) -> QQuickItem:
    found: list[QQuickItem] = []

    def visit(item: QQuickItem) -> None:
        for child in item.childItems():
            if child.property("isNodeDelegate") is True and child.property("address") == address:
                found.append(child)
            visit(child)

    visit(scene.screen_item())
    assert len(found) == 1, found
    return found[0]


def _scaled_box(scene: Any, **top: Any) -> tuple[dict[str, float], QQuickItem]:
    box = {"type": "box", "id": "b", "onTap": TAP, "children": [],
           "style": {"width": {"dp": 200}, "height": {"dp": 100}, "pressScale": 0.5,
                     "background": "#1565C0"}}  # fmt: skip
    b = bounds(scene, spec_of(_page(box), **top))["b"]
    return b, _delegate(scene, "b")


def test_press_scale_follows_compose_s_default_spring_MO_prototypePressScale_spring(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    import math

    from PySide6.QtCore import QObject

    # MO `prototypePressScale`: `animateFloatAsState(if (pressed) scale else 1f, spring())`:
    # dampingRatio 1, Spring.StiffnessMedium (1500: w = 38.7 rad/s), the 0.01 displacement
    # threshold; from rest the scale is 0.5 + 0.5 (1 + wt) e^-wt, done once 0.5 (1 + wt) e^-wt
    # < 0.01 (wt = 5.83, 151 ms).
    b, node = _scaled_box(scene)
    assert node.scale() == 1
    _press(scene, b["x"] + 100, b["y"] + 50)
    areas = [
        c for c in node.childItems() if c.metaObject().className().startswith("QQuickMouseArea")
    ]
    assert len(areas) == 1  # one tap area over the 48 dp target
    spring = areas[0].property("spring")
    assert isinstance(spring, QObject)
    w = math.sqrt(1500)
    assert float(spring.property("omega")) == pytest.approx(w)
    ends = float(spring.property("durationMs")) / 1000
    assert 0.5 * (1 + w * ends) * math.exp(-w * ends) < 0.01
    before = ends - 0.002
    assert 0.5 * (1 + w * before) * math.exp(-w * before) >= 0.01
    seen: list[float] = []

    def moved() -> bool:
        seen.append(node.scale())
        return node.scale() == 0.5

    qtbot.waitUntil(moved, timeout=3000)
    assert any(0.5 < s < 1 for s in seen)  # it animated
    assert seen == sorted(seen, reverse=True)  # no bounce: dampingRatio 1
    _release(scene, b["x"] + 100, b["y"] + 50)
    qtbot.waitUntil(lambda: node.scale() == 1, timeout=3000)
    assert _tapped(scene) == 1


def test_a_release_midway_keeps_the_press_scale_s_velocity_Animatable_animateTo(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    b, node = _scaled_box(scene)
    _press(scene, b["x"] + 100, b["y"] + 50)
    qtbot.waitUntil(lambda: 0.55 < node.scale() < 0.9, timeout=3000)
    _release(scene, b["x"] + 100, b["y"] + 50)
    area = next(
        c for c in node.childItems() if c.metaObject().className().startswith("QQuickMouseArea")
    )
    spring = area.property("spring")
    # animateFloatAsState retargets its Animatable from where it is, moving: the shrink's speed
    # carries into the way back (it does not restart from rest), and the scale never jumps.
    assert float(spring.property("_v0")) < -0.5
    at_release = float(spring.property("value"))
    assert at_release == pytest.approx(node.scale(), abs=1e-6)
    qtbot.waitUntil(lambda: node.scale() == 1, timeout=3000)


def test_press_scale_snaps_with_motion_none_MO_prototypePressScale_snap(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    b, node = _scaled_box(scene, motion="none")
    _press(scene, b["x"] + 100, b["y"] + 50)
    assert node.scale() == 0.5  # at once: `snap()`
    _release(scene, b["x"] + 100, b["y"] + 50)
    assert node.scale() == 1
