"""Text rows of docs/fidelity.md, as SC PrototypeSpecContent.kt "text" draws a text node: plain
text 14 sp on the body line height, roles from the theme's Typography, nothing inherited from a
container, overflow clipped unless asked, `typography.scale` on the roles only."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetricsF, QRawFont
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


def _metrics(family: str, px: float = 14, weight: int = 400) -> QFontMetricsF:
    font = QFont(family)
    font.setPixelSize(round(px))
    font.setWeight(QFont.Weight(weight))
    return QFontMetricsF(font)


def _raw_advance(face: str, text: str, px: float = 14) -> float:
    """The advance of `text` read from one Roboto file itself, not through Qt's font database."""
    from studio.preview import fonts

    raw = QRawFont(str(fonts.package_dir() / "files" / face), px)
    glyphs = raw.glyphIndexesForString(text)
    return sum(point.x() for point in raw.advancesForGlyphIndexes(glyphs))


def test_text_is_drawn_and_measured_in_roboto_FontFamily_Default(scene: Any) -> None:  # noqa: N802
    # Compose's FontFamily.Default / SansSerif is the platform's sans-serif, Roboto on the phone.
    words = "Barcelona, the quick brown fox"
    root = {"type": "column", "children": [
        {"type": "text", "id": "t", "text": words, "style": {"letterSpacing": 0}}]}  # fmt: skip
    b = bounds(scene, spec_of(root))["t"]
    font = _label(scene, "t").property("font")
    assert font.family() == "Roboto" and QFontInfo(font).family() == "Roboto"
    roboto, dejavu = _metrics("Roboto").horizontalAdvance(words), _metrics("DejaVu Sans")
    # What the layout measured is Roboto's advance at 14 px (Qt rounds a text's width up)...
    assert b["width"] == pytest.approx(roboto, abs=1)
    assert roboto == pytest.approx(_raw_advance("Roboto-Regular.ttf", words), abs=0.5)
    # ... about 12 % narrower than DejaVu Sans, the desktop's sans-serif it replaced (Debian's
    # fonts-dejavu-core, on every machine of ours; a desktop without it has nothing to compare).
    if "DejaVu Sans" in QFontDatabase.families():
        assert dejavu.horizontalAdvance(words) - b["width"] > 15


def test_roboto_line_metrics_are_the_phones_hhea_ascent_and_descent(scene: Any) -> None:
    # Android lays lines out with hhea (1900 + 500 of 2048 units: the 1.172 em StyledText.qml
    # centres); the faces are loaded so that Qt's ascent and descent are those, not the OS/2
    # Windows ones (2146 + 555) Qt would otherwise take.
    from studio.preview import fonts

    bounds(scene, spec_of({"type": "text", "id": "t", "text": "Hg"}))
    for px in (14, 22, 57):
        m = _metrics("Roboto", px)
        assert (m.ascent() + m.descent()) / px == pytest.approx(fonts.LINE_HEIGHT_EM, abs=0.005)
        assert m.ascent() / px == pytest.approx(1900 / 2048, abs=0.005)
        assert m.leading() == 0


def test_every_roboto_weight_and_italic_is_its_own_face(scene: Any) -> None:
    from studio.preview import fonts

    assert scene.controller.text_family == "Roboto"
    assert set(fonts.STYLES) <= set(QFontDatabase.styles("Roboto"))


def test_a_medium_label_is_drawn_with_the_medium_face_not_a_synthesized_bold(scene: Any) -> None:
    # A button's label is labelLarge, weight 500 (ButtonDefaults): Roboto Medium on the phone.
    bounds(scene, spec_of({"type": "button", "id": "b", "label": "Save changes"}))
    (label,) = [i for i in find_items(scene.screen_item(), "ButtonLabel") if i.property("text")]
    font = label.property("font")
    info = QFontInfo(font)
    assert (info.family(), info.styleName(), info.weight()) == ("Roboto", "Medium", 500)
    # Its width is the Medium file's own advances (+ 0.1 letter spacing a glyph), wider than
    # Regular's (which an emboldened Regular would keep).
    text, spacing = "Save changes", 0.1 * len("Save changes")
    medium = _raw_advance("Roboto-Medium.ttf", text) + spacing
    assert float(label.property("implicitWidth")) == pytest.approx(medium, abs=1)
    assert _raw_advance("Roboto-Regular.ttf", text) + spacing < medium - 0.5


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
    ink_top, ink_end = rows[0] - b["y"], rows[-1] + 1 - b["y"]
    # Compose (LineHeightStyleSpan, Center): Roboto's hhea height (2400 of 2048 units) centred in
    # the 48 dp line, so the baseline is half the rest plus the ascent (1900) below the top,
    # and a capital reaches the cap height (1456) above it.
    baseline = (48 - 14 * 2400 / 2048) / 2 + 14 * 1900 / 2048  # 28.8
    assert abs(ink_end - baseline) < 1 and abs(ink_top - (baseline - 14 * 1456 / 2048)) < 1


def test_a_line_box_shorter_than_the_font_centres_it_too_LineHeightStyleSpan_Fixed(  # noqa: N802
    scene: Any,
) -> None:
    from tests.preview.helpers import pixels

    # 32 px glyphs on the plain text's 24 dp lines: Mode.Fixed splits the (negative) difference
    # as well, so the glyphs start above where a taller line box would put them.
    root = {"type": "column", "style": {"padding": {"top": 40}}, "children": [
        {"type": "text", "id": "t", "text": "HHHH",
         "style": {"textSize": 32, "background": "#FFFFFF"}}]}  # fmt: skip
    b = bounds(scene, spec_of(root))["t"]
    px = pixels(scene.grab())
    rows = [y for y in range(round(b["y"]) - 10, round(b["y"] + b["height"]))
            if (px[y, round(b["x"]) : round(b["x"] + b["width"]), :3] < 128).any()]  # fmt: skip
    baseline = (24 - 32 * 2400 / 2048) / 2 + 32 * 1900 / 2048  # 22.9
    assert abs(rows[-1] + 1 - b["y"] - baseline) < 1
