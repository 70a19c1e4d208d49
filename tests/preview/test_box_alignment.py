"""Children of a box: the box's content alignment places them, unless a child's own `alignment`
places it (Compose's Modifier.align); the child's `offset` moves it from there."""

from __future__ import annotations

from typing import Any

import pytest

from tests.preview.conftest import REPO, load_spec

NINE = {
    "topStart": (0.0, 0.0), "topCenter": (0.5, 0.0), "topEnd": (1.0, 0.0),
    "centerStart": (0.0, 0.5), "center": (0.5, 0.5), "centerEnd": (1.0, 0.5),
    "bottomStart": (0.0, 1.0), "bottomCenter": (0.5, 1.0), "bottomEnd": (1.0, 1.0),
}  # fmt: skip


def _bounds(scene: Any, address: str) -> dict[str, float]:
    scene.grab()
    found = [e for e in scene.visible_summary() if e["address"] == address]
    assert found, f"{address} not on screen"
    return dict(found[0]["bounds"])


def _box_spec(children: list[dict[str, Any]], box_alignment: str = "center") -> dict[str, Any]:
    box = {"type": "box", "id": "box", "children": children,
           "style": {"width": {"dp": 300}, "height": {"dp": 200}, "alignment": box_alignment}}  # fmt: skip
    return {"id": "a", "window": {"placement": {"type": "fullscreen"}},
            "root": {"type": "column", "style": {"padding": {"top": 40, "start": 20}},
                     "children": [box]}}  # fmt: skip


@pytest.mark.parametrize("alignment", list(NINE))
def test_a_childs_own_alignment_places_it_in_the_box(scene: Any, alignment: str) -> None:
    child = {"type": "box", "id": "kid",
             "style": {"width": {"dp": 60}, "height": {"dp": 40}, "background": "primary",
                       "alignment": alignment}}  # fmt: skip
    other = {
        "type": "box",
        "id": "other",
        "style": {"width": {"dp": 20}, "height": {"dp": 20}, "background": "error"},
    }
    scene.show(_box_spec([child, other], box_alignment="center"))
    box, kid = _bounds(scene, "box"), _bounds(scene, "kid")
    fx, fy = NINE[alignment]
    assert kid["x"] == pytest.approx(box["x"] + fx * (300 - 60), abs=0.5)
    assert kid["y"] == pytest.approx(box["y"] + fy * (200 - 40), abs=0.5)
    # a child without its own alignment still follows the box's content alignment (center)
    rest = _bounds(scene, "other")
    assert (rest["x"], rest["y"]) == pytest.approx((box["x"] + 140, box["y"] + 90), abs=0.5)


def test_offset_applies_after_the_childs_alignment(scene: Any) -> None:
    child = {"type": "box", "id": "kid",
             "style": {"width": {"dp": 50}, "height": {"dp": 50}, "background": "primary",
                       "alignment": "bottomEnd", "offset": {"x": -16, "y": -8}}}  # fmt: skip
    scene.show(_box_spec([child], box_alignment="topStart"))
    box, kid = _bounds(scene, "box"), _bounds(scene, "kid")
    assert kid["x"] == pytest.approx(box["x"] + 300 - 50 - 16, abs=0.5)
    assert kid["y"] == pytest.approx(box["y"] + 200 - 50 - 8, abs=0.5)


def test_the_feed_templates_fab_sits_at_the_bottom_end_over_the_pager(scene: Any) -> None:
    spec = load_spec(REPO / "resources" / "templates" / "feed.json")
    scene.show(spec)
    scene.grab()
    summary = scene.visible_summary()
    fab = next(e for e in summary if e["type"] == "fab")
    box = next(e for e in summary if e["type"] == "box" and e["bounds"]["height"] > 300)
    fab_style = _fab_style(spec)
    assert fab_style["alignment"] == "bottomEnd"
    right = box["bounds"]["x"] + box["bounds"]["width"] + fab_style["offset"]["x"]
    bottom = box["bounds"]["y"] + box["bounds"]["height"] + fab_style["offset"]["y"]
    b = fab["bounds"]
    assert b["x"] + b["width"] == pytest.approx(right, abs=0.5)
    assert b["y"] + b["height"] == pytest.approx(bottom, abs=0.5)
    assert b["x"] > 412 / 2 and b["y"] > 915 / 2  # far from the top-left corner


def _fab_style(spec: dict[str, Any]) -> dict[str, Any]:
    stack = [spec["root"]]
    while stack:
        node = stack.pop()
        if node.get("type") == "fab":
            style: dict[str, Any] = node["style"]
            return style
        stack.extend(node.get("children") or [])
        if isinstance(node.get("child"), dict):
            stack.append(node["child"])
    raise AssertionError("no fab")
