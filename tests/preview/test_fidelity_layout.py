"""Layout and sizing rows of docs/fidelity.md: each test renders a small spec and checks the
geometry Compose's measuring gives it on the phone. Test names carry the AutoMobile symbol
(SC PrototypeSpecContent.kt, AR PrototypeArrangement.kt, PG PrototypePagerSizing.kt, RM
PrototypeRenderModel.kt, CO PrototypeComponents.kt, IM PrototypeImages.kt) or the Compose
measure policy the row follows."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.preview.fidelity import bounds, box, close, hex_rgb, rgb_at, spec_of

TAP = [{"type": "emit", "name": "tapped"}]
SCREEN_W, SCREEN_H = 412, 915


@contextmanager
def photo_scene(tmp_path: Any, width: int, height: int) -> Iterator[Any]:
    """A 412 x 915 scene (light, no chrome) whose assets folder holds `photo`, a `width` x
    `height` px image of green #2E7D32."""
    from PySide6.QtGui import QColor, QImage

    from studio.preview.assets import directory_resolver
    from studio.preview.render import HeadlessScene

    photo = QImage(width, height, QImage.Format.Format_ARGB32)
    photo.fill(QColor("#2E7D32"))
    assert photo.save(str(tmp_path / "photo.png"))
    scene = HeadlessScene(412, 915, "light", directory_resolver(tmp_path), chrome=False)
    try:
        yield scene
    finally:
        scene.close()


def test_box_wraps_its_children_SC_dimensionModifier_wrapContent(scene: Any) -> None:  # noqa: N802
    root = {"type": "box", "id": "b", "children": [box("a", 60, 40), box("c", 20, 20)]}
    b = bounds(scene, spec_of(root))
    assert (b["b"]["width"], b["b"]["height"]) == (60, 40)


@pytest.mark.parametrize("alignment", ["topStart", "center", "bottomEnd"])
def test_box_places_children_at_its_own_alignment_only_SC_box_contentAlignment(  # noqa: N802
    scene: Any, alignment: str
) -> None:
    kid = box("kid", 60, 40, alignment="topEnd")  # a child's own alignment is not applied
    root = {"type": "box", "id": "b", "style": {"width": {"dp": 300}, "height": {"dp": 200},
            "alignment": alignment}, "children": [kid]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    fx, fy = {"topStart": (0, 0), "center": (0.5, 0.5), "bottomEnd": (1, 1)}[alignment]
    assert b["kid"]["x"] == pytest.approx(b["b"]["x"] + fx * 240, abs=0.5)
    assert b["kid"]["y"] == pytest.approx(b["b"]["y"] + fy * 160, abs=0.5)


def test_a_fill_child_widens_a_wrapping_box_BoxMeasurePolicy(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "children": [
        {"type": "box", "id": "b", "children": [box("fill", 0, 10, width="fill"), box("s", 30, 30)]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["b"]["width"] == SCREEN_W and b["fill"]["width"] == SCREEN_W


def test_box_repeat_renders_every_instance(scene: Any) -> None:
    root = {"type": "column", "id": "list",
            "repeat": {"as": "i", "items": [{"n": "1"}, {"n": "2"}, {"n": "3"}]},
            "children": [{"type": "text", "text": "Item {i.n}"}]}  # fmt: skip
    scene.show(spec_of(root))
    scene.grab()
    texts = [e["text"] for e in scene.visible_summary() if e["type"] == "text"]
    assert texts == ["Item 1", "Item 2", "Item 3"]


def test_a_fill_child_widens_a_wrapping_column_RowColumnMeasurePolicy(scene: Any) -> None:  # noqa: N802
    # compose-renderer.md section 4 item 2: the red box is as wide as the screen on the phone.
    root = {"type": "column", "id": "col", "children": [
        {"type": "box", "id": "red", "style": {"width": "fill", "background": "#E53935"},
         "children": [{"type": "text", "text": "A"}]},
        {"type": "text", "text": "Hello world"}, {"type": "button", "label": "OK"}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["red"]["width"] == SCREEN_W and b["col"]["width"] == SCREEN_W


def test_a_top_app_bar_spans_a_wrapping_column(scene: Any) -> None:
    root = {"type": "column", "id": "col", "children": [
        {"type": "topAppBar", "id": "bar", "title": "Home"},
        {"type": "box", "id": "fill", "style": {"width": "fill", "height": {"dp": 10}}, "children": []}]}  # fmt: skip
    scene.show(spec_of(root))
    scene.controller.set_device_size(673, 841)
    b = bounds(scene)
    assert b["bar"]["width"] == 673 and b["fill"]["width"] == 673


def test_column_spacing_arrangement_and_alignment_AR_prototypeVerticalArrangement(  # noqa: N802
    scene: Any,
) -> None:
    root = {"type": "column", "id": "col", "style": {"width": {"dp": 200}, "height": {"dp": 300},
            "spacing": 10, "arrangement": "center", "alignment": "topEnd"},
            "children": [box("a", 40, 50), box("c", 60, 50)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    # The gaps are reserved first, then the rest is centred: (300 - 10 - 100) / 2 = 95.
    assert b["a"]["y"] == pytest.approx(95) and b["c"]["y"] == pytest.approx(155)
    assert b["a"]["x"] == pytest.approx(160) and b["c"]["x"] == pytest.approx(140)


@pytest.mark.parametrize(
    ("arrangement", "starts"),
    [("start", [0, 60]), ("end", [250, 310]), ("spaceBetween", [0, 310]),
     ("spaceAround", [62.5, 247.5]), ("spaceEvenly", [83.33, 226.67])],
)  # fmt: skip
def test_row_arrangement_AR_prototypeHorizontalArrangement(  # noqa: N802
    scene: Any, arrangement: str, starts: list[float]
) -> None:
    root = {"type": "row", "id": "row", "style": {"width": {"dp": 400}, "spacing": 10,
            "arrangement": arrangement}, "children": [box("a", 50, 20), box("c", 90, 20)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert [b["a"]["x"], b["c"]["x"]] == pytest.approx(starts, abs=0.05)


def test_weighted_children_share_the_column_PrototypeNodeLayoutTest(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "style": {"height": {"dp": 120}}, "children": [
        box("a", 20, 0, weight=1), box("c", 20, 0, weight=2)]}  # fmt: skip
    for node in root["children"]:
        node["style"].pop("height")
    b = bounds(scene, spec_of(root))
    assert b["a"]["height"] == pytest.approx(40) and b["c"]["height"] == pytest.approx(80)


def test_weighted_children_share_the_row_PrototypeNodeLayoutTest(scene: Any) -> None:  # noqa: N802
    root = {"type": "row", "style": {"width": {"dp": 200}}, "children": [
        {"type": "box", "id": "a", "style": {"weight": 1, "height": {"dp": 20}}, "children": []},
        {"type": "box", "id": "c", "style": {"weight": 1, "height": {"dp": 20}}, "children": []}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["a"]["width"] == pytest.approx(100) and b["c"]["x"] == pytest.approx(100)


def test_a_weighted_child_makes_a_bounded_column_take_its_height_RowColumnMeasurePolicy(  # noqa: N802
    scene: Any,
) -> None:
    # The "List and detail" bug: a page column without a height whose scroll has `weight`.
    page = {"type": "column", "id": "page", "children": [
        box("head", 100, 50),
        {"type": "scroll", "id": "list", "style": {"weight": 1}, "child": {"type": "column",
         "children": [box(f"row{i}", 100, 60) for i in range(20)]}}]}  # fmt: skip
    root = {"type": "column", "style": {"width": "fill", "height": "fill"}, "children": [page]}
    b = bounds(scene, spec_of(root))
    assert b["page"]["height"] == SCREEN_H
    assert b["list"]["y"] == pytest.approx(50) and b["list"]["height"] == pytest.approx(
        SCREEN_H - 50
    )


def test_row_children_are_top_aligned_by_default_RM_prototypeVerticalAlignment(  # noqa: N802
    scene: Any,
) -> None:
    root = {"type": "row", "id": "row", "children": [box("big", 56, 56), box("small", 20, 20)]}
    b = bounds(scene, spec_of(root))
    assert b["small"]["y"] == b["big"]["y"] == b["row"]["y"]


def test_a_fill_child_takes_the_rest_of_a_row_and_squeezes_later_ones_RowColumnMeasurePolicy(  # noqa: N802
    scene: Any,
) -> None:
    root = {"type": "row", "id": "row", "children": [box("first", 100, 20),
            box("fill", 0, 20, width="fill"), box("last", 50, 20)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["fill"]["width"] == pytest.approx(SCREEN_W - 100)
    assert b.get("last", {"width": 0})["width"] == 0


def test_min_and_max_bounds_clamp_the_authored_size_PrototypeNodeLayoutTest(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "children": [
        box("maxFill", 0, 10, width="fill", maxWidth=50), box("minDp", 10, 10, minWidth=80),
        box("maxDp", 10, 200, maxHeight=40)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["maxFill"]["width"] == 50 and b["minDp"]["width"] == 80
    assert b["maxDp"]["height"] == 40


def test_a_small_tappable_node_keeps_its_size_inside_a_48_dp_target_SC_minimumInteractiveComponentSize(  # noqa: N802, E501
    scene: Any,
) -> None:
    small = {"width": {"dp": 20}, "height": {"dp": 20}}
    root = {"type": "column", "id": "col", "children": [
        {"type": "box", "id": "small", "onTap": TAP, "style": small, "children": []},
        {"type": "box", "id": "plain", "style": small, "children": []},
        {"type": "box", "id": "after", "style": small, "children": []}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert (b["small"]["width"], b["small"]["height"]) == (20, 20)
    assert b["small"]["y"] - b["col"]["y"] == pytest.approx(14)  # centred in the 48 dp target
    assert b["small"]["x"] - b["col"]["x"] == pytest.approx(14)
    assert b["plain"]["y"] == pytest.approx(b["small"]["y"] + 34)
    assert b["after"]["y"] == pytest.approx(b["plain"]["y"] + 20)  # no reserve without onTap


def test_a_padded_tappable_node_reports_its_padding_inside_its_bounds_PrototypeNodeLayoutTest(  # noqa: N802
    scene: Any,
) -> None:
    root = {"type": "column", "children": [{"type": "box", "id": "done", "onTap": TAP,
            "style": {"padding": {"start": 24, "end": 24, "top": 10, "bottom": 10}},
            "children": [{"type": "text", "id": "label", "text": "Done", "style": {"textSize": 30}}]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["done"]["width"] == pytest.approx(b["label"]["width"] + 48)
    assert b["done"]["height"] == pytest.approx(b["label"]["height"] + 20)
    assert b["label"]["x"] == pytest.approx(b["done"]["x"] + 24)


def test_aspect_ratio_follows_the_available_width_Modifier_aspectRatio(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "children": [
        {"type": "box", "id": "hero", "style": {"width": "fill", "aspectRatio": 2}, "children": []},
        {"type": "box", "id": "wrap", "style": {"aspectRatio": 4}, "children": []}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert (b["hero"]["width"], b["hero"]["height"]) == pytest.approx((SCREEN_W, SCREEN_W / 2))
    # A wrapping node with an aspect ratio takes the maximum width too.
    assert b["wrap"]["width"] == pytest.approx(SCREEN_W)


def test_a_scroll_wraps_its_content_SC_scroll_verticalScroll(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "children": [
        {"type": "scroll", "id": "short", "child": {"type": "column", "children": [box("a", 80, 100)]}},
        box("below", 50, 50)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert (b["short"]["width"], b["short"]["height"]) == (80, 100)
    assert b["below"]["y"] == pytest.approx(b["short"]["y"] + 100)


def test_a_long_scroll_stops_at_the_space_available(scene: Any) -> None:
    root = {"type": "column", "style": {"height": {"dp": 300}}, "children": [
        {"type": "scroll", "id": "long", "child": {"type": "column",
         "children": [box(f"r{i}", 80, 100) for i in range(10)]}}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["long"]["height"] == 300


def test_an_unsized_pager_fills_the_rest_of_the_column_PG_prototypePageFill(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "style": {"width": "fill", "background": "#FFFFFF"}, "children": [
        {"type": "pager", "id": "p", "children": [{"type": "text", "text": "One"},
                                                   {"type": "text", "text": "Two"}]},
        {"type": "button", "id": "next", "label": "Next",
         "onTap": [{"type": "setPage", "pager": "p", "page": "next"}]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["p"]["height"] == SCREEN_H and b["p"]["width"] == SCREEN_W
    assert b.get("next", {"height": 0})["height"] == 0  # no height left for the button


def test_a_wrap_pager_wraps_its_page_PG_prototypePageFill(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "children": [
        {"type": "pager", "id": "p", "style": {"height": "wrap"},
         "children": [box("page", 100, 120)]}, box("after", 10, 10)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["p"]["height"] == 120 and b["after"]["y"] == pytest.approx(120)


def test_a_card_ignores_arrangement_spacing_and_alignment_CO_RenderPrototypeCard(  # noqa: N802
    scene: Any,
) -> None:
    root = {"type": "card", "id": "card", "style": {"width": {"dp": 260}, "height": {"dp": 200},
            "spacing": 16, "arrangement": "center", "alignment": "center"},
            "children": [box("a", 40, 30), box("c", 40, 30)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert (b["a"]["x"], b["a"]["y"]) == (b["card"]["x"], b["card"]["y"])
    assert b["c"]["y"] == pytest.approx(b["a"]["y"] + 30)


@pytest.mark.parametrize(
    ("variant", "role"),
    [("filled", "surfaceContainerHighest"), ("elevated", "surfaceContainerLow"),
     ("outlined", "surface")],
)  # fmt: skip
def test_card_colours_CardDefaults(scene: Any, variant: str, role: str) -> None:  # noqa: N802
    root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
        {"type": "card", "id": "card", "variant": variant, "style": {"width": {"dp": 200},
         "height": {"dp": 100}}, "children": []}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    image = scene.grab()
    colors = scene.controller.scheme.colors
    assert close(rgb_at(image, b["card"]["x"] + 100, b["card"]["y"] + 50), hex_rgb(colors[role]))


@pytest.mark.parametrize(("corner", "radius"), [("medium", 12), ("large", 20), ("none", 0)])
def test_card_corners_follow_the_theme_shapes_CardDefaults_shape(  # noqa: N802
    scene: Any, corner: str, radius: float
) -> None:
    root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
        {"type": "card", "id": "card", "style": {"width": {"dp": 200}, "height": {"dp": 100}},
         "children": []}]}  # fmt: skip
    b = bounds(scene, spec_of(root, theme={"shapes": {"corner": corner}}))
    image = scene.grab()
    card = hex_rgb(scene.controller.scheme.colors["surfaceContainerHighest"])
    # One dp in from the corner: inside a square corner, outside a rounded one.
    corner_px = rgb_at(image, b["card"]["x"] + 1, b["card"]["y"] + 1)
    assert close(corner_px, card, 5) is (radius == 0)
    assert close(rgb_at(image, b["card"]["x"] + radius + 2, b["card"]["y"] + radius + 2), card)


def test_text_in_a_coloured_card_takes_its_content_colour_contentColorFor(scene: Any) -> None:  # noqa: N802
    root = {"type": "card", "style": {"background": "primary", "padding": {"top": 8, "start": 8}},
            "children": [{"type": "text", "id": "t", "text": "MMMMMM", "style": {"textSize": 30}}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    from tests.preview.helpers import pixels

    px = pixels(scene.grab())
    t = b["t"]
    region = px[
        round(t["y"]) : round(t["y"] + t["height"]), round(t["x"]) : round(t["x"] + t["width"])
    ]
    on_primary = hex_rgb(scene.controller.scheme.colors["onPrimary"])
    found = {(int(p[2]), int(p[1]), int(p[0])) for row in region for p in row}
    assert any(close(c, on_primary, 12) for c in found)


def test_a_weighted_spacer_takes_the_rest(scene: Any) -> None:
    root = {"type": "row", "style": {"width": {"dp": 300}}, "children": [
        box("a", 50, 20), {"type": "spacer", "id": "gap", "style": {"weight": 1}}, box("z", 50, 20)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["z"]["x"] == pytest.approx(250)


@pytest.mark.parametrize("orientation", ["horizontal", "vertical"])
def test_divider_fills_its_axis_MC_RenderPrototypeDivider(scene: Any, orientation: str) -> None:  # noqa: N802
    root = {"type": "box", "style": {"width": {"dp": 200}, "height": {"dp": 100}},
            "children": [{"type": "divider", "id": "d", "orientation": orientation}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    size = (b["d"]["width"], b["d"]["height"])
    assert size == ((200, 1) if orientation == "horizontal" else (1, 100))
    image = scene.grab()
    line = hex_rgb(scene.controller.scheme.colors["outlineVariant"])
    assert close(rgb_at(image, b["d"]["x"] + size[0] / 2, b["d"]["y"] + size[1] / 2), line)


def test_a_missing_image_is_a_24_dp_placeholder_IM_defaultMinSize(scene: Any) -> None:  # noqa: N802
    root = {"type": "column", "children": [{"type": "image", "id": "img", "asset": "none"}]}
    b = bounds(scene, spec_of(root))
    assert (b["img"]["width"], b["img"]["height"]) == (24, 24)
    image = scene.grab()
    surface_variant = hex_rgb(scene.controller.scheme.colors["surfaceVariant"])
    assert close(rgb_at(image, b["img"]["x"] + 1, b["img"]["y"] + 1), surface_variant)


def test_an_image_is_its_pixel_size_on_the_screen_density_IM_BitmapPainter(  # noqa: N802
    quick: Any, tmp_path: Any
) -> None:
    with photo_scene(tmp_path, 420, 210) as scene:
        root = {"type": "column", "children": [
            {"type": "image", "id": "natural", "asset": "photo"},
            {"type": "image", "id": "wide", "asset": "photo", "style": {"width": "fill"}}]}  # fmt: skip
        b = bounds(scene, spec_of(root))
        density = scene.controller.device.density  # 2.625 on a 412 dp wide phone
        assert b["natural"]["width"] == pytest.approx(420 / density, abs=0.5)
        assert b["natural"]["height"] == pytest.approx(210 / density, abs=0.5)
        # A filled width keeps the image's shape on the wrapped axis.
        assert (b["wide"]["width"], b["wide"]["height"]) == pytest.approx((412, 206), abs=0.5)


def test_corner_radius_clips_the_content_SC_modifier_clip(scene: Any) -> None:  # noqa: N802
    kid = box("kid", 100, 100, background="#FF0000", offset={"x": 60, "y": 0})
    root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
        {"type": "box", "id": "clip", "style": {"width": {"dp": 100}, "height": {"dp": 100},
         "cornerRadius": 8}, "children": [kid]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    image = scene.grab()
    inside = rgb_at(image, b["clip"]["x"] + 80, b["clip"]["y"] + 50)
    outside = rgb_at(image, b["clip"]["x"] + 130, b["clip"]["y"] + 50)
    assert inside == (255, 0, 0) and outside != (255, 0, 0)


def _offset_in_padded_column(scene: Any, **top: Any) -> tuple[Any, dict[str, float]]:
    # the child is drawn 140..240 dp into the 200 dp column, whose content box is 20..180
    kid = box("kid", 100, 60, background="#FF0000", offset={"x": 120, "y": 0})
    root = {"type": "column", "style": {"width": "fill"}, "children": [
        {"type": "column", "id": "col", "style": {"width": {"dp": 200}, "background": "#FFFFFF",
         "padding": {"start": 20, "end": 20, "top": 20, "bottom": 20}}, "children": [kid]}]}  # fmt: skip
    b = bounds(scene, spec_of(root, **top))
    return scene.grab(), b["col"]


def test_a_column_clips_its_children_to_its_content_box_MO_prototypeAnimateSize_clipToBounds(  # noqa: N802
    scene: Any,
) -> None:
    # SC `RenderPrototypeNodeContent`: box, row and column take `prototypeAnimateSize`, which with
    # motion on is `animateContentSize()` = `clipToBounds()` + the size animation, after the
    # node's padding (innermost in `prototypeNodeModifier`): children are cut at the content box.
    image, col = _offset_in_padded_column(scene)
    y = col["y"] + 50
    assert rgb_at(image, col["x"] + 160, y) == (255, 0, 0)  # inside the content box
    assert rgb_at(image, col["x"] + 190, y) == (255, 255, 255)  # in the padding: cut
    assert rgb_at(image, col["x"] + 220, y) != (255, 0, 0)  # past the column: cut


def test_without_motion_a_column_does_not_clip_MO_prototypeAnimateSize_disabled(  # noqa: N802
    scene: Any,
) -> None:
    # `prototypeAnimateSize(enabled = false)` is the bare modifier: no clip.
    image, col = _offset_in_padded_column(scene, motion="none")
    y = col["y"] + 50
    assert rgb_at(image, col["x"] + 190, y) == (255, 0, 0)
    assert rgb_at(image, col["x"] + 220, y) == (255, 0, 0)


def test_safe_area_padding_pads_by_the_window_insets_SC_windowInsetsPadding(scene: Any) -> None:  # noqa: N802
    inner = {"type": "column", "id": "inner", "safeAreaPadding": {"edges": ["top"], "types": ["systemBars"]},
             "children": [box("b", 10, 10)]}  # fmt: skip
    root = {"type": "column", "id": "outer", "style": {"width": "fill", "height": "fill"},
            "safeAreaPadding": {"edges": ["top", "bottom"], "types": ["systemBars", "cutout"]},
            "children": [box("a", 10, 10), inner]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert b["a"]["y"] == pytest.approx(24)  # the status bar (and cutout) inset
    # An ancestor consumed the top inset: the nested padding adds nothing.
    assert b["b"]["y"] == pytest.approx(b["inner"]["y"])


def test_corner_radius_clips_an_image_to_its_rounded_shape_SC_modifier_clip(  # noqa: N802
    quick: Any, tmp_path: Any
) -> None:
    with photo_scene(tmp_path, 200, 200) as scene:
        root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
            {"type": "image", "id": "img", "asset": "photo", "contentScale": "crop",
             "style": {"width": {"dp": 120}, "height": {"dp": 80}, "cornerRadius": 24}}]}  # fmt: skip
        b = bounds(scene, spec_of(root))["img"]
        image = scene.grab()
        green = (0x2E, 0x7D, 0x32)
        assert close(rgb_at(image, b["x"] + 60, b["y"] + 40), green)
        assert close(rgb_at(image, b["x"] + 24, b["y"] + 1), green)  # along the top edge
        assert not close(rgb_at(image, b["x"] + 2, b["y"] + 2), green, 40)  # the corner is cut


# -- rounded clips of children (studio/preview/clipshape.py) ---------------------------------------
RED = (0xC6, 0x28, 0x28)


def _corner_cut(image: Any, x: float, y: float, inward_x: int, inward_y: int) -> bool:
    """The pixel one dp in from the corner (x, y) is not red, one radius in it is."""
    return not close(rgb_at(image, x + inward_x, y + inward_y), RED, 40)


def test_a_card_cuts_its_header_round_CO_RenderPrototypeCard_Surface_clip(scene: Any) -> None:  # noqa: N802
    # M3 Card -> Surface -> `Modifier.surface(...)`: `clip(shape)`. A header flush with the
    # card's top is cut to the card's medium corners (12 dp), its bottom stays square.
    header = box("header", 0, 60, width="fill", background="#C62828")
    root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
        {"type": "card", "id": "card", "style": {"width": {"dp": 200}},
         "children": [header, {"type": "text", "text": "Body"}]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    image = scene.grab()
    h = b["header"]
    assert (h["x"], h["y"]) == (b["card"]["x"], b["card"]["y"])
    assert _corner_cut(image, h["x"], h["y"], 1, 1)  # top-left
    assert _corner_cut(image, h["x"] + h["width"] - 1, h["y"], -1, 1)  # top-right
    assert close(rgb_at(image, h["x"] + 12, h["y"] + 1), RED, 10)  # along the top edge
    assert close(rgb_at(image, h["x"] + 1, h["y"] + 14), RED, 10)  # down the left edge
    assert close(rgb_at(image, h["x"] + 1, h["y"] + h["height"] - 1), RED, 10)  # square below


def test_a_card_clips_what_overflows_it_CO_RenderPrototypeCard_Surface_clip(scene: Any) -> None:  # noqa: N802
    kid = box("kid", 100, 40, background="#C62828", offset={"x": 150, "y": 0})
    # the column is wider than the card: its own clip (its content box) is not what cuts
    root = {"type": "column", "style": {"width": "fill", "padding": {"top": 20, "start": 20}}, "children": [
        {"type": "card", "id": "card", "style": {"width": {"dp": 200}}, "children": [kid]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    image = scene.grab()
    card = b["card"]
    y = card["y"] + 20
    assert close(rgb_at(image, card["x"] + 190, y), RED, 10)  # inside the card
    assert not close(rgb_at(image, card["x"] + 210, y), RED, 40)  # past it: cut


def test_a_rounded_box_cuts_a_flush_childs_corners_SC_prototypeNodeModifier_clip_shape(  # noqa: N802
    scene: Any,
) -> None:
    # `if (style.cornerRadius != null) modifier = modifier.clip(shape)`, before the padding: the
    # node's outer box. The child fills its bottom: its bottom corners follow the 24 dp shape.
    root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
        {"type": "box", "id": "clip", "style": {"width": {"dp": 200}, "height": {"dp": 120},
         "cornerRadius": 24, "background": "#EEEEEE", "alignment": "bottomStart"},
         "children": [box("kid", 0, 50, width="fill", background="#C62828")]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    image = scene.grab()
    k = b["kid"]
    bottom = k["y"] + k["height"] - 1
    assert _corner_cut(image, k["x"], bottom, 2, -2)
    assert _corner_cut(image, k["x"] + k["width"] - 1, bottom, -2, -2)
    assert close(rgb_at(image, k["x"] + 2, k["y"] + 2), RED, 10)  # its top corners stay square
    assert close(rgb_at(image, k["x"] + 24, bottom), RED, 10)


def test_a_child_inset_from_the_corner_is_cut_less_SC_prototypeNodeModifier_clip_shape(  # noqa: N802
    scene: Any,
) -> None:
    # Inset 4 dp into a 24 dp corner the child's corner point still lies outside the circle;
    # inset 12 dp it lies inside, and nothing of the child is cut.
    def spec(inset: float) -> dict[str, Any]:
        pad = {"top": inset, "start": inset, "end": inset, "bottom": inset}
        return spec_of({"type": "column", "style": {"padding": {"top": 20, "start": 20}},
            "children": [{"type": "box", "id": "clip", "style": {"width": {"dp": 200},
            "height": {"dp": 120}, "cornerRadius": 24, "padding": pad},
            "children": [box("kid", 0, 40, width="fill", background="#C62828")]}]})  # fmt: skip

    b = bounds(scene, spec(4))
    k = b["kid"]
    assert _corner_cut(scene.grab(), k["x"], k["y"], 1, 1)
    b = bounds(scene, spec(12))
    k = b["kid"]
    assert close(rgb_at(scene.grab(), k["x"] + 1, k["y"] + 1), RED, 10)


def test_the_inset_corner_radius_meets_the_clip_where_the_corners_meet() -> None:
    from studio.preview.clipshape import inset_corner

    assert inset_corner(24, 0, 0) == pytest.approx(24)
    # the corner point lies on the clip's circle: nothing to cut
    on_circle = 24 * (1 - 1 / 2**0.5)
    assert inset_corner(24, on_circle, on_circle) == pytest.approx(0, abs=1e-9)
    radii = [inset_corner(24, d, d) for d in (0, 1, 2, 4, 8)]
    assert radii == sorted(radii, reverse=True) and radii[-1] == 0
    assert inset_corner(24, -1, 0) == 0  # a corner outside the clip's box is not ours to round


def test_a_cards_hero_image_is_cut_round_CO_RenderPrototypeCard_Surface_clip(  # noqa: N802
    quick: Any, tmp_path: Any
) -> None:
    with photo_scene(tmp_path, 200, 100) as scene:
        root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
            {"type": "card", "style": {"width": {"dp": 240}}, "children": [
                {"type": "image", "id": "img", "asset": "photo", "contentScale": "crop",
                 "style": {"width": "fill", "height": {"dp": 100}}},
                {"type": "text", "text": "Caption"}]}]}  # fmt: skip
        b = bounds(scene, spec_of(root))["img"]
        image = scene.grab()
        green = (0x2E, 0x7D, 0x32)
        assert close(rgb_at(image, b["x"] + 120, b["y"] + 50), green)
        assert not close(rgb_at(image, b["x"] + 1, b["y"] + 1), green, 40)  # the card's corner
        assert not close(rgb_at(image, b["x"] + b["width"] - 2, b["y"] + 1), green, 40)
        assert close(rgb_at(image, b["x"] + 2, b["y"] + b["height"] - 2), green)  # square below


def test_right_to_left_a_top_start_clip_cuts_the_top_right_SC_prototypeCornerShape_topStart(  # noqa: N802
    rtl: Any,
) -> None:
    root = {"type": "column", "style": {"padding": {"top": 20, "start": 20}}, "children": [
        {"type": "box", "style": {"width": {"dp": 200}, "height": {"dp": 100},
         "cornerRadius": {"topStart": 24, "topEnd": 0, "bottomEnd": 0, "bottomStart": 0}},
         "children": [box("kid", 0, 40, width="fill", background="#C62828")]}]}  # fmt: skip
    k = bounds(rtl, spec_of(root))["kid"]
    image = rtl.grab()
    assert _corner_cut(image, k["x"] + k["width"] - 1, k["y"], -1, 1)  # start is the right
    assert close(rgb_at(image, k["x"] + 1, k["y"] + 1), RED, 10)
