"""A node shown again by state while the theme follows it (TH `prototypeThemeSpecFor`: the leading
chain's opaque background repaints the surfaces, so hiding and showing a coloured node re-themes
the prototype): the re-themed delegates keep the visibility the layout gave them. It used to stay
invisible after being shown again, because the re-theme reloaded every delegate before the next
layout had evaluated its visibility."""

from __future__ import annotations

from typing import Any

import pytest

from tests.preview.fidelity import spec_of
from tests.preview.helpers import pixels

RED = (255, 0, 0)


def coloured_behind_a_condition(transition: str) -> dict[str, Any]:
    child = {
        "type": "box",
        "id": "child",
        "children": [],
        "style": {"background": "#FF0000", "width": {"dp": 60}, "height": {"dp": 60}},
    }
    return spec_of({"type": "column", "children": [
        {"type": "box", "id": "parent", "transition": transition,
         "visibleWhen": {"key": "show", "equals": True}, "children": [child]}]},
        state={"show": True})  # fmt: skip


def red_pixels(scene: Any) -> int:
    px = pixels(scene.grab())
    return int(((px[:, :, 2] == 255) & (px[:, :, 1] == 0) & (px[:, :, 0] == 0)).sum())


def shown(scene: Any) -> set[str]:
    return {e["address"] for e in scene.visible_summary(on_screen_only=False)}


@pytest.mark.parametrize("transition", ["none", "default"])
def test_a_coloured_node_hidden_and_shown_again_is_drawn_TH_prototypeThemeSpecFor(  # noqa: N802
    scene: Any, qtbot: Any, transition: str
) -> None:
    scene.show(coloured_behind_a_condition(transition))
    drawn = red_pixels(scene)
    assert drawn >= 60 * 60  # the 60 dp square (more at a higher density)
    assert scene.controller.scheme.colors["background"] == "#FF0000"  # the theme follows it
    scene.controller.runtime.set_value("show", False)
    qtbot.waitUntil(lambda: "parent" not in shown(scene) and red_pixels(scene) == 0)
    assert scene.controller.scheme.colors["background"] != "#FF0000"
    scene.controller.runtime.set_value("show", True)
    qtbot.waitUntil(lambda: {"parent", "child"} <= shown(scene) and red_pixels(scene) == drawn)
