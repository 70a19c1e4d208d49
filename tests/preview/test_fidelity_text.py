"""Text rows of docs/fidelity.md, as SC PrototypeSpecContent.kt "text" draws a text node: plain
text 14 sp on the body line height, roles from the theme's Typography, nothing inherited from a
container, overflow clipped unless asked, `typography.scale` on the roles only."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtQuick import QQuickItem

from tests.preview.fidelity import bounds, spec_of
from tests.preview.helpers import find_items


def _label(scene: Any, address: str) -> QQuickItem:
    """The Text item drawn for the text node at `address`."""
    for item in find_items(scene.screen_item(), "StyledText"):
        owner = item.parentItem()
        while owner is not None and owner.property("isNodeDelegate") is not True:
            owner = owner.parentItem()
        if owner is not None and owner.property("address") == address:
            return item
    raise AssertionError(f"no text for {address}")


def _font(scene: Any, address: str) -> tuple[float, float, int]:
    item = _label(scene, address)
    font = item.property("font")
    return font.pixelSize(), float(item.property("lineHeight")), font.weight()


def test_plain_text_is_14_sp_on_the_body_line_height_SC_text_fontSize(scene: Any) -> None:  # noqa: N802
    # compose-renderer.md section 4 item 4: lines 1 and 3 are 14 sp on the phone.
    root = {"type": "column", "children": [
        {"type": "text", "id": "plain", "text": "Plain"},
        {"type": "text", "id": "body", "text": "Body", "style": {"textStyle": "bodyLarge"}},
        {"type": "text", "id": "fourteen", "text": "Fourteen", "style": {"textSize": 14}}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert _font(scene, "plain") == (14, 24, 400)
    assert _font(scene, "body") == (16, 24, 400)
    assert _font(scene, "fourteen")[0] == 14
    assert b["plain"]["height"] == 24 and b["body"]["height"] == 24


def test_a_container_passes_no_text_style_down_SC_text_LocalTextStyle(scene: Any) -> None:  # noqa: N802
    # compose-renderer.md section 4 item 8.
    root = {"type": "column", "style": {"color": "#C62828", "textSize": 22, "fontWeight": 700},
            "children": [{"type": "text", "id": "child", "text": "Child"}]}  # fmt: skip
    bounds(scene, spec_of(root))
    label = _label(scene, "child")
    assert _font(scene, "child") == (14, 24, 400)
    on_surface = scene.controller.scheme.colors["onSurface"]
    assert label.property("color").name().upper() == "#" + on_surface[-6:]


def test_a_role_text_without_colour_is_on_surface_SC_text_textColor(scene: Any) -> None:  # noqa: N802
    root = {"type": "text", "id": "t", "text": "Title", "style": {"textStyle": "titleLarge"}}
    bounds(scene, spec_of(root))
    assert _font(scene, "t") == (22, 28, 400)
    on_surface = scene.controller.scheme.colors["onSurface"]
    assert _label(scene, "t").property("color").name().upper() == "#" + on_surface[-6:]


@pytest.mark.parametrize(
    ("overflow", "elided"), [(None, False), ("ellipsis", True), ("clip", False)]
)
def test_overflow_clips_unless_asked_RM_mapPrototypeStyle(  # noqa: N802
    scene: Any, overflow: str | None, elided: bool
) -> None:
    style: dict[str, Any] = {"maxLines": 1, "width": {"dp": 120}}
    if overflow:
        style["overflow"] = overflow
    root = {"type": "column", "children": [{"type": "text", "id": "t", "style": style,
            "text": "A sentence far too long for one short line"}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    label = _label(scene, "t")
    assert b["t"]["height"] == 24  # one line
    assert label.property("truncated") is True
    assert label.parentItem().property("eliding") is elided  # text.qml: elide != ElideNone
    assert label.property("clip") is (not elided)


def test_typography_scale_scales_roles_not_explicit_sizes_TH_prototypeTypography(
    scene: Any,
) -> None:  # noqa: N802
    root = {"type": "column", "children": [
        {"type": "text", "id": "plain", "text": "Plain"},
        {"type": "text", "id": "sized", "text": "Sized", "style": {"textSize": 20}},
        {"type": "text", "id": "role", "text": "Role", "style": {"textStyle": "bodyLarge"}}]}  # fmt: skip
    bounds(scene, spec_of(root, theme={"typography": {"scale": 1.5}}))
    assert _font(scene, "plain")[:2] == (14, 36)
    assert _font(scene, "sized")[0] == 20
    assert _font(scene, "role")[:2] == (24, 36)


def test_plain_text_takes_the_theme_font_family_PrototypeNodeLayoutTest(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "children": [
        {"type": "text", "id": "plain", "text": "Plain"},
        {"type": "text", "id": "mono", "text": "Mono", "style": {"fontFamily": "monospace"}}]}  # fmt: skip
    bounds(scene, spec_of(root, theme={"typography": {"fontFamily": "serif"}}))
    assert _label(scene, "plain").property("font").family() == "serif"
    assert _label(scene, "mono").property("font").family() == "monospace"


def test_text_wraps_at_the_width_available(scene: Any) -> None:
    words = "one two three four five six seven eight nine ten eleven twelve"
    root = {"type": "column", "style": {"width": {"dp": 120}},
            "children": [{"type": "text", "id": "t", "text": words}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["t"]["width"] <= 120 and b["t"]["height"] > 24 and b["t"]["height"] % 24 == 0


def test_glyphs_sit_in_the_middle_of_the_line_box_LineHeightStyle_Center(scene: Any) -> None:  # noqa: N802
    from tests.preview.helpers import pixels

    root = {"type": "column", "children": [{"type": "text", "id": "t", "text": "HHHH",
            "style": {"lineHeight": 48, "background": "#FFFFFF"}}]}  # fmt: skip
    b = bounds(scene, spec_of(root))["t"]
    px = pixels(scene.grab())
    rows = [y for y in range(round(b["y"]), round(b["y"] + b["height"]))
            if (px[y, round(b["x"]) : round(b["x"] + b["width"]), :3] < 128).any()]  # fmt: skip
    ink_top, ink_bottom = rows[0] - b["y"], b["y"] + b["height"] - 1 - rows[-1]
    # Capitals (no descenders): the gap below is the gap above plus the descent.
    assert ink_top > 12 and abs(ink_top - ink_bottom) < 8
