"""Elevation shadows as the phone draws them (studio/preview/shadow.py, Shadow.qml): Skia's ambient
and spot shadows from hwui's light, smooth, offset by the node's place on the screen, tinted."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from studio.preview.shadow import (
    ambient_ring,
    falloff,
    light_z,
    ring_image,
    shadow_layers,
    spot_ratio,
    spot_ring,
)
from tests.preview.fidelity import bounds, spec_of
from tests.preview.helpers import find_items, pixels

W, H = 160, 100  # the caster, dp
DEVICE = (412.0, 915.0, 2.625)


def _caster_at(scene: Any, top: float, **style: Any) -> tuple[np.ndarray, dict[str, float]]:
    """A white screen with one white 160 x 100 dp box, 12 dp corners, `top` dp down and centred
    (motion off: no container clips the shadow); the grab as an (h, w) darkness array (255 - the
    green channel) and the box's bounds."""
    caster = {"type": "box", "id": "c", "style": {"width": {"dp": W}, "height": {"dp": H},
              "background": "#FFFFFF", "cornerRadius": 12, **style}, "children": []}  # fmt: skip
    root = {"type": "column", "style": {"width": "fill", "height": "fill", "background": "#FFFFFF",
            "padding": {"top": top, "start": (412 - W) / 2}}, "children": [caster]}  # fmt: skip
    b = bounds(scene, spec_of(root, motion="none"))["c"]
    dark = 255 - pixels(scene.grab())[:, :, 1].astype(int)
    return dark, b


def _extent(profile: np.ndarray) -> int:
    """How many pixels from the node's edge the shadow reaches (darkness at least 1)."""
    hits = np.nonzero(profile >= 1)[0]
    return int(hits[-1]) + 1 if len(hits) else 0


def test_falloff_rises_smoothly_to_full_ShadowRRectOp_create_falloff_texture() -> None:  # noqa: N802
    samples = [falloff(i / 100) for i in range(101)]
    assert samples[0] == pytest.approx(0, abs=1e-3)
    assert samples[-1] == pytest.approx(1 - 0.018)
    assert falloff(0.5) == pytest.approx(np.exp(-1) - 0.018)
    assert all(b >= a for a, b in zip(samples, samples[1:], strict=False))
    assert max(b - a for a, b in zip(samples, samples[1:], strict=False)) < 0.03


def test_the_light_and_the_rings_follow_SkDrawShadowInfo_GetSpotParams() -> None:  # noqa: N802
    # ThreadedRenderer `setLightCenter`: 600 dp weighted by min(412, 915) / 450.
    assert light_z(412, 915) == pytest.approx(600 * (412 / 450 + 2) / 3)
    zr = spot_ratio(6, 412, 915)
    assert zr == pytest.approx(6 / (light_z(412, 915) - 6))
    spot = spot_ring(6, 12, 412, 915)
    assert spot.outset == pytest.approx(800 * zr)  # lightRadius * zRatio: about 8.3 dp
    assert spot.blur == pytest.approx(2 * spot.outset)
    assert spot.scale == pytest.approx(1 + zr)
    assert spot.alpha == pytest.approx(48 / 255)  # (uint8_t) (255 * 0.19)
    # AmbientBlurRadius: z / 2 px (3 dp), blurred over that times 1 + z / 128 (z in px).
    ambient = ambient_ring(6, 12, 2.625)
    assert ambient.outset == pytest.approx(3)
    assert ambient.blur == pytest.approx(3 * (1 + 6 * 2.625 / 128))
    assert ambient.radius == pytest.approx(15)
    assert ambient.alpha == pytest.approx(9 / 255)  # (uint8_t) (255 * 0.039)


def test_no_elevation_no_shadow_layers_Modifier_shadow() -> None:  # noqa: N802
    assert shadow_layers(0, 12, W, H, "#000000", 1.0, DEVICE) == {}


def test_one_nine_patch_serves_every_size_of_a_shadow_shadow_layers() -> None:  # noqa: N802
    small = shadow_layers(6, 12, 100, 60, "#000000", 1.0, DEVICE)
    large = shadow_layers(6, 12, 380, 300, "#000000", 1.0, DEVICE)
    for layer in ("ambient", "spot"):
        assert small[layer]["source"] == large[layer]["source"]
        assert small[layer]["border"] > 0
    # a shape smaller than two insets gets an image of its own size
    tiny = shadow_layers(6, 12, 20, 20, "#000000", 1.0, DEVICE)
    assert tiny["spot"]["border"] == 0 and tiny["spot"]["source"] != small["spot"]["source"]


def test_a_ring_image_is_smooth_and_hollow_inside_ring_image(quick: Any) -> None:
    from PySide6.QtGui import QColor

    ring = spot_ring(6, 12, 412, 915)
    size = 2 * int(np.ceil(ring.inset)) + 1
    alpha = pixels(ring_image(ring, size, size, 1.0, QColor("#000000")))[:, :, 3].astype(int)
    middle = alpha[:, size // 2]
    assert middle[0] <= 1 and max(middle) >= 40  # from nothing to about 0.19 of black
    assert np.abs(np.diff(middle[: int(ring.inset)])).max() <= 6  # no band edges in the ring
    assert alpha[size // 2, size // 2] == 0  # the caster covers the middle: nothing drawn there


def test_an_elevation_6_shadow_falls_off_smoothly_below_the_node_Modifier_shadow(  # noqa: N802
    scene: Any,
) -> None:
    dark, b = _caster_at(scene, 300, elevation=6)
    x, bottom = round(b["x"] + W / 2), round(b["y"] + H)
    below = dark[bottom : bottom + 30, x]
    assert below[0] >= 15  # at the edge: about 0.35 of the spot shadow's 0.19, and the ambient
    steps = np.abs(np.diff(below))
    # many small steps (the steepest, at the edge, where both shadows rise: 4 % of black)
    assert steps.max() <= 12 and len(set(below.tolist())) >= 8
    assert all(b2 <= a for a, b2 in zip(below, below[1:], strict=False))


def test_the_shadow_reaches_as_far_as_the_model_says_GetSpotParams(scene: Any) -> None:  # noqa: N802
    top = 300
    dark, b = _caster_at(scene, top, elevation=6)
    cx, cy = b["x"] + W / 2, b["y"] + H / 2
    x, bottom, right = round(cx), round(b["y"] + H), round(b["x"] + W)
    zr = spot_ratio(6, 412, 915)
    spot = spot_ring(6, 12, 412, 915)
    reach_below = spot.outset + (spot.scale - 1) * H / 2 + zr * cy  # outer edge past the bottom
    reach_side = spot.outset + (spot.scale - 1) * W / 2 + zr * abs(cx - 206)
    assert _extent(dark[bottom:, x]) == pytest.approx(reach_below, abs=2.5)
    assert _extent(dark[round(cy), right:]) == pytest.approx(reach_side, abs=2.5)
    # the ambient shadow alone (3 dp, faint) barely darkens past 3 dp above the spot's reach
    assert dark[bottom + round(reach_below) + 3 :, x].max() == 0


def test_the_spot_shadow_is_stronger_below_than_above_SpotShadow(scene: Any) -> None:  # noqa: N802
    dark, b = _caster_at(scene, 300, elevation=6)
    x, top, bottom = round(b["x"] + W / 2), round(b["y"]), round(b["y"] + H)
    above = dark[top - 12 : top, x][::-1]  # from the edge outwards
    below = dark[bottom : bottom + 12, x]
    assert below.sum() > above.sum() * 1.3
    assert _extent(below) > _extent(above)


def test_a_node_lower_on_the_screen_casts_its_shadow_further_down_GetSpotParams(  # noqa: N802
    scene: Any,
) -> None:
    def reach(top: float) -> tuple[int, int]:
        """How far the shadow reaches below and above the node."""
        dark, b = _caster_at(scene, top, elevation=6)
        x, upper, lower = round(b["x"] + W / 2), round(b["y"]), round(b["y"] + H)
        return _extent(dark[lower:, x]), _extent(dark[:upper, x][::-1])

    (below_top, above_top), (below_bottom, above_bottom) = reach(40), reach(760)
    assert abs(below_top - above_top) <= 3  # under the light: about as far above as below
    # 720 dp further down the screen moves the spot shadow zr * 720 = 7.5 dp down
    assert below_bottom - below_top == pytest.approx(spot_ratio(6, 412, 915) * 720, abs=2)
    # above, near the bottom, only the ambient shadow's 3 dp (and its blur) is left
    assert above_bottom < above_top and above_bottom <= 5


def test_shadow_color_tints_both_shadows_Modifier_shadow_ambientColor_spotColor(  # noqa: N802
    scene: Any,
) -> None:
    caster = {"type": "box", "id": "c", "style": {"width": {"dp": W}, "height": {"dp": H},
              "background": "#FFFFFF", "elevation": 6, "shadowColor": "#FF0000"}, "children": []}  # fmt: skip
    root = {"type": "column", "style": {"width": "fill", "height": "fill", "background": "#FFFFFF",
            "padding": {"top": 300, "start": 126}}, "children": [caster]}  # fmt: skip
    b = bounds(scene, spec_of(root, motion="none"))["c"]
    argb = pixels(scene.grab())
    for x, y in ((b["x"] + W / 2, b["y"] + H + 2), (b["x"] + W / 2, b["y"] - 1)):
        blue, green, red = (int(c) for c in argb[round(y), round(x)][:3])
        assert red == 255 and green < 250 and green == blue  # red over white: pink, not grey


def test_elevation_0_draws_no_shadow_Modifier_shadow(scene: Any) -> None:  # noqa: N802
    dark, b = _caster_at(scene, 300, elevation=0)
    x0, y0 = round(b["x"]), round(b["y"])
    around = dark[y0 - 30 : y0 + H + 30, x0 - 30 : x0 + W + 30]
    assert around.max() == 0


def test_an_elevated_card_casts_a_level1_shadow_CardDefaults_elevatedCardElevation(  # noqa: N802
    scene: Any,
) -> None:
    card = {"type": "card", "id": "c", "variant": "elevated", "style": {"width": {"dp": W},
            "height": {"dp": H}}, "children": []}  # fmt: skip
    root = {"type": "column", "style": {"width": "fill", "height": "fill", "background": "#FFFFFF",
            "padding": {"top": 300, "start": 126}}, "children": [card]}  # fmt: skip
    b = bounds(scene, spec_of(root, motion="none"))["c"]
    dark = 255 - pixels(scene.grab())[:, :, 1].astype(int)
    x, bottom = round(b["x"] + W / 2), round(b["y"] + H)
    below = dark[bottom:, x]
    # 1 dp up: a spot shadow of 800 dp * zr = 1.4 dp blur, shifted 0.6 dp down at this height
    assert 1 <= _extent(below) <= 4 and below[0] >= 5


def test_a_scrolled_node_casts_its_shadow_from_where_it_is_now_GetSpotParams(  # noqa: N802
    scene: Any,
) -> None:
    # a caster 760 dp down a long scroll, then scrolled 700 dp up: its shadow is the one a
    # node 60 dp down casts, not the one it cast before the scroll
    caster = {"type": "box", "id": "c", "style": {"width": {"dp": W}, "height": {"dp": H},
              "background": "#FFFFFF", "cornerRadius": 12, "elevation": 6}, "children": []}  # fmt: skip
    column = {"type": "column", "style": {"width": "fill", "background": "#FFFFFF",
              "padding": {"top": 760, "start": (412 - W) / 2, "bottom": 900}},
              "children": [caster]}  # fmt: skip
    spec = spec_of({"type": "scroll", "child": column}, motion="none")
    b = bounds(scene, spec)["c"]
    x = round(b["x"] + W / 2)

    def below(image_dark: np.ndarray, top: float) -> int:
        return _extent(image_dark[round(top + H) :, x])

    before = below(255 - pixels(scene.grab())[:, :, 1].astype(int), b["y"])
    (flick,) = [i for i in find_items(scene.screen_item(), "") if i.inherits("QQuickFlickable")]
    flick.setProperty("contentY", 700.0)
    moved = bounds(scene)["c"]
    assert moved["y"] == pytest.approx(b["y"] - 700, abs=1)
    after = below(255 - pixels(scene.grab())[:, :, 1].astype(int), moved["y"])
    assert before - after == pytest.approx(spot_ratio(6, 412, 915) * 700, abs=2)


def test_shadows_of_dropped_and_remade_rows_come_and_go_quietly(scene: Any) -> None:
    # a long scroll drops the rows it scrolls past and makes them again on the way back: each
    # shadow's links to its ancestors go with it (a Qt warning would fail this test)
    rows = [{"type": "box", "id": f"r{i}", "children": [], "style": {"width": "fill",
             "height": {"dp": 80}, "background": "#FFFFFF", "elevation": 3}}
            for i in range(80)]  # fmt: skip
    column = {"type": "column", "style": {"width": "fill", "spacing": 8}, "children": rows}
    bounds(scene, spec_of({"type": "scroll", "child": column}))
    (flick,) = [i for i in find_items(scene.screen_item(), "") if i.inherits("QQuickFlickable")]
    for y in (3000.0, 6000.0, 0.0):
        flick.setProperty("contentY", y)
        shown = bounds(scene)
        assert ("r0" in shown) == (y == 0)  # dropped while far past it, made again at the top
    assert "r0" in shown and shown["r0"]["y"] < 100
