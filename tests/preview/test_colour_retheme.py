"""A re-theme that changes colours only (the device's light/dark switch, a repaint of the surface
the theme is inferred from) measures nothing again: the layout reads no colour. The screen it
draws is the one a fresh show in the new theme draws, pixel for pixel and box for box. What the
theme's sizes decide (`typography.scale`, TH `prototypeTypography`; `shapes.corner`) and an image
whose `{light, dark}` asset pair has two sizes (IM `prototypeImageAsset` picks by
`isSystemInDarkTheme`) are still measured again."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor, QImage

from studio.preview.assets import directory_resolver
from studio.spec import validate
from tests.preview.fidelity import spec_of
from tests.preview.helpers import pixels


def _screen() -> dict[str, Any]:
    rows = [
        {"type": "row", "style": {"spacing": 8, "padding": {"start": 16, "end": 16}},
         "children": [
             {"type": "icon", "name": "star"},
             {"type": "text", "text": f"Item {i} with a longer label that wraps", "style": {"weight": 1}},
             {"type": "button", "label": "Go", "variant": "tonal"},
             {"type": "switch", "stateKey": f"on{i}"},
         ]}
        for i in range(12)
    ]  # fmt: skip
    card = {
        "type": "card",
        "children": [{"type": "text", "text": "Card", "style": {"textStyle": "titleLarge"}}],
    }
    field = {"type": "textField", "stateKey": "name", "placeholder": "Name"}
    banner = {"type": "box", "style": {"background": "primaryContainer", "padding": {"start": 12, "top": 12, "end": 12, "bottom": 12},
              "width": "fill", "border": {"width": 2, "color": "outline"}}, "children": [
        {"type": "text", "text": "Role colours", "style": {"color": "onPrimaryContainer"}}]}  # fmt: skip
    column = {
        "type": "column",
        "style": {"width": "fill"},
        "children": [banner, card, field, *rows],
    }
    return spec_of(
        {"type": "scroll", "child": column},
        state={"name": "", **{f"on{i}": i % 2 == 0 for i in range(12)}},
    )


def _boxes(scene: Any) -> list[tuple[str, tuple[float, float, float, float]]]:
    return [
        (e["address"], tuple(e["bounds"][k] for k in ("x", "y", "width", "height")))
        for e in scene.visible_summary()
    ]


def _settled_grab(scene: Any) -> Any:
    scene.grab()
    return pixels(scene.grab())


def test_a_dark_switch_measures_nothing_and_draws_as_a_fresh_dark_show(
    scene: Any, quick: Any
) -> None:
    from studio.preview.render import HeadlessScene

    spec = _screen()
    assert validate(json.dumps(spec)).ok
    scene.show(copy.deepcopy(spec))
    light = _settled_grab(scene)
    measured = scene.controller.tree.measures
    scene.controller.set_appearance("dark")
    switched = _settled_grab(scene)
    assert scene.controller.scheme.dark
    assert scene.controller.tree.measures == measured  # nothing measured again
    assert (switched != light).any()  # it did re-colour
    fresh = HeadlessScene(412, 915, "dark", chrome=False)
    try:
        fresh.show(copy.deepcopy(spec))
        assert (_settled_grab(fresh) == switched).all()
        assert _boxes(fresh) == _boxes(scene)
    finally:
        fresh.close()
    scene.controller.set_appearance("light")  # and back: the first screen again
    assert (_settled_grab(scene) == light).all()
    assert scene.controller.tree.measures == measured


def test_a_type_scale_edit_still_measures_the_texts_again_TH_prototypeTypography(  # noqa: N802
    scene: Any,
) -> None:
    spec = spec_of({"type": "column", "children": [
        {"type": "text", "id": "t", "text": "Hello", "style": {"textStyle": "bodyLarge"}}]})  # fmt: skip
    scene.show(copy.deepcopy(spec))
    scene.grab()
    before = dict(_boxes(scene))["t"]
    edited = copy.deepcopy(spec)
    edited["theme"] = {"typography": {"scale": 2.0}}
    scene.controller.apply_change(edited, [])
    scene.grab()
    after = dict(_boxes(scene))["t"]
    assert after[3] > 1.8 * before[3] and after[2] > 1.8 * before[2]


def _png(path: Path, width: int, height: int) -> None:
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("#2040C0"))
    assert image.save(str(path))


def test_a_dark_switch_measures_an_image_of_a_light_dark_pair_again(
    quick: Any, tmp_path: Path
) -> None:
    from studio.preview.render import HeadlessScene

    _png(tmp_path / "wide.png", 80, 40)
    _png(tmp_path / "tall.png", 40, 80)
    spec = spec_of({"type": "column", "children": [
        {"type": "image", "id": "art", "asset": {"light": "wide", "dark": "tall"}},
        {"type": "text", "id": "below", "text": "Below"}]})  # fmt: skip
    scene = HeadlessScene(412, 915, "light", directory_resolver(tmp_path), chrome=False)
    try:
        scene.show(copy.deepcopy(spec))
        scene.grab()
        light = dict(_boxes(scene))
        scene.controller.set_appearance("dark")
        scene.grab()
        dark = dict(_boxes(scene))
        lw, lh = light["art"][2:]
        dw, dh = dark["art"][2:]
        assert lw > lh and dh > dw  # the dark asset's own shape
        assert dark["below"][1] > light["below"][1]  # the text moved down
    finally:
        scene.close()
