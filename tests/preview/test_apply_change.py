"""`apply_change`: an edited spec re-shows in place, rebuilding only the replaced node's delegates."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from tests.preview.conftest import load_spec

SPEC: dict[str, Any] = {
    "id": "c",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"count": 0},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "text": "Top {count}"},
            {
                "type": "card",
                "id": "card",
                "children": [
                    {"type": "text", "text": "One"},
                    {"type": "text", "text": "Two"},
                    {"type": "text", "text": "Three"},
                ],
            },
            {"type": "button", "label": "Bottom", "onTap": [{"type": "increment", "key": "count"}]},
        ],
    },
}


def _texts(scene: Any) -> list[str]:
    return [e["text"] for e in scene.visible_summary() if e["text"]]


def _objects(scene: Any) -> dict[str, Any]:
    root = scene.controller.root_node
    return {obj.address: obj for obj in root.walk()}


def test_one_leaf_replace_rebuilds_only_that_delegate(scene: Any) -> None:
    scene.show(copy.deepcopy(SPEC))
    scene.controller.runtime.set_value("count", 4)
    before = scene.controller.delegates_created
    assert before == 7  # every node's content once
    objects = _objects(scene)
    edited = copy.deepcopy(SPEC)
    edited["root"]["children"][1]["children"][1] = {"type": "text", "text": "Two, edited"}
    scene.controller.apply_change(edited, ["root.children[1].children[1]"])
    scene.grab()
    assert scene.controller.delegates_created - before == 1
    # AutoMobile rule on a re-show: the new spec's state wins
    assert _texts(scene) == ["Top 0", "One", "Two, edited", "Three", "Bottom"]
    after = _objects(scene)
    # every other node keeps its object (and so its delegate)
    assert all(after[a] is objects[a] for a in objects)


def test_replacing_a_container_rebuilds_its_subtree_only(scene: Any) -> None:
    scene.show(copy.deepcopy(SPEC))
    before = scene.controller.delegates_created
    edited = copy.deepcopy(SPEC)
    edited["root"]["children"][1] = {
        "type": "card",
        "id": "card",
        "variant": "outlined",
        "children": [{"type": "text", "text": "Only"}, {"type": "icon", "name": "home"}],
    }
    scene.controller.apply_change(edited, ["card"])
    scene.grab()
    assert scene.controller.delegates_created - before == 3  # the card and its two children
    assert _texts(scene) == ["Top 0", "Only", "Bottom"]


def test_unlisted_field_edits_update_in_place_without_rebuilding(scene: Any) -> None:
    scene.show(copy.deepcopy(SPEC))
    before = scene.controller.delegates_created
    edited = copy.deepcopy(SPEC)
    edited["root"]["children"][2]["label"] = "Renamed"
    scene.controller.apply_change(edited, [])
    scene.grab()
    assert scene.controller.delegates_created == before
    assert "Renamed" in _texts(scene)


def test_structural_change_of_a_parent_rebuilds_that_parent(scene: Any) -> None:
    scene.show(copy.deepcopy(SPEC))
    edited = copy.deepcopy(SPEC)
    edited["root"]["children"][1]["children"].insert(0, {"type": "text", "text": "Zero"})
    before = scene.controller.delegates_created
    scene.controller.apply_change(edited, ["card"])
    scene.grab()
    assert scene.controller.delegates_created - before == 5
    assert _texts(scene) == ["Top 0", "Zero", "One", "Two", "Three", "Bottom"]


def test_a_state_change_re_evaluates_only_the_nodes_that_read_it(scene: Any) -> None:
    scene.show(copy.deepcopy(SPEC))
    before = {obj.address: obj.rev for obj in scene.controller.root_node.walk()}
    scene.controller.runtime.set_value("count", 2)
    after = {obj.address: obj.rev for obj in scene.controller.root_node.walk()}
    bumped = sorted(a for a in after if after[a] != before[a])
    assert bumped == ["root.children[0]"]  # only "Top {count}" reads `count`
    scene.grab()
    assert _texts(scene)[0] == "Top 2"


def test_a_new_spec_with_a_root_of_the_same_type_lays_out_as_if_shown_first(
    scene: Any, conformance_dir: Path
) -> None:
    """The same delegate shows the next spec's root; content of the same type must not keep
    the previous spec's layout state (found by the OpenGL batch: this sequence shifted the
    last spec's column by 13 dp)."""
    valid = conformance_dir / "fixtures" / "overlay-spec" / "valid"
    names = ["row-weight-size-bounds", "sheet-bindings", "style-polish"]
    specs = [load_spec(valid / f"{name}.json") for name in names]
    scene.show(copy.deepcopy(specs[-1]))
    scene.grab()
    fresh = [e["bounds"] for e in scene.visible_summary()]
    for spec in specs:
        scene.show(copy.deepcopy(spec))
        scene.grab()
    assert [e["bounds"] for e in scene.visible_summary()] == fresh
