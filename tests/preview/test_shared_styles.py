"""Nodes with equal styles share one resolved style (the controller's `resolved_style`, whose
JavaScript object Styles.js converts once for all their delegates). Sharing must never let one
node's change reach another: an edit, a `styleWhen` and a theme change each repaint exactly the
nodes they concern."""

from __future__ import annotations

import copy
from typing import Any

from tests.preview.fidelity import box, spec_of
from tests.preview.helpers import pixels

RED, BLUE = (255, 0, 0), (0, 0, 255)


def count(scene: Any, rgb: tuple[int, int, int]) -> int:
    px = pixels(scene.grab())  # BGRA
    r, g, b = rgb
    return int(((px[:, :, 2] == r) & (px[:, :, 1] == g) & (px[:, :, 0] == b)).sum())


def two_squares(**extra: Any) -> dict[str, Any]:
    return spec_of(
        {"type": "column", "children": [box("a", 40, 40, background="#FF0000"),
                                        box("b", 40, 40, background="#FF0000")]},
        **extra,
    )  # fmt: skip


def test_equal_styles_share_one_resolved_style(scene: Any) -> None:
    scene.show(two_squares())
    a, b = scene.controller.root_node.kids
    assert a.styleKey == b.styleKey != 0


def test_an_edit_of_one_of_two_equal_styles_repaints_only_that_node(scene: Any) -> None:
    spec = two_squares()
    scene.show(copy.deepcopy(spec))
    one = count(scene, RED)
    assert one > 0 and one % 2 == 0 and count(scene, BLUE) == 0
    edited = copy.deepcopy(spec)
    edited["root"]["children"][1]["style"]["background"] = "#0000FF"
    scene.controller.apply_change(edited, ["b"])
    scene.grab()
    assert count(scene, RED) == one // 2
    assert count(scene, BLUE) == one // 2


def test_a_style_when_restyles_nodes_that_shared_a_style(scene: Any, qtbot: Any) -> None:
    spec = two_squares(state={"blue": False})
    spec["root"]["children"][0]["styleWhen"] = [
        {"when": {"key": "blue", "equals": True}, "style": {"background": "#0000FF"}}
    ]
    scene.show(spec)
    both = count(scene, RED)
    assert both > 0 and count(scene, BLUE) == 0
    scene.controller.runtime.set_value("blue", True)
    qtbot.waitUntil(lambda: count(scene, BLUE) == both // 2 and count(scene, RED) == both // 2)
    scene.controller.runtime.set_value("blue", False)
    qtbot.waitUntil(lambda: count(scene, RED) == both and count(scene, BLUE) == 0)


def rgb_of(color: str) -> tuple[int, int, int]:
    value = int(color[-6:], 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def test_a_theme_change_repaints_every_node_of_a_shared_style(scene: Any, qtbot: Any) -> None:
    # a colour role resolves against the scheme: light and dark differ, so both squares change
    spec = spec_of(
        {"type": "column", "children": [box("a", 40, 40, background="primary"),
                                        box("b", 40, 40, background="primary")]},
        theme={"mode": "system"},
    )  # fmt: skip
    scene.show(spec)
    light = rgb_of(scene.controller.scheme.colors["primary"])
    both = count(scene, light)
    assert both > 0
    scene.controller.set_appearance("dark")
    dark = rgb_of(scene.controller.scheme.colors["primary"])
    assert dark != light
    qtbot.waitUntil(lambda: count(scene, dark) == both and count(scene, light) == 0)
