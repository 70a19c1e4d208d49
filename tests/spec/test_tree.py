"""The node tree: one rule for child nodes (AutoMobile's `childrenOf`), node paths and lookups,
and every walker in spec and runtime following that one rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from studio.spec import tree
from studio.spec.address import addresses, resolve
from studio.spec.outline import outline
from studio.spec.patch import changed_addresses
from tests.spec.sample_specs import inbox_spec


def _both() -> dict[str, Any]:
    """A spec whose dialog has both `child` and `children` (no node type declares both)."""
    dialog = {
        "type": "dialog",
        "openWhen": {"key": "open"},
        "confirm": {"label": "OK"},
        "child": {"type": "text", "text": "from child"},
        "children": [{"type": "text", "text": "from children"}],
    }
    return {
        "id": "t",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"open": True},
        "root": {"type": "column", "children": [dialog, "not a node", {"type": "spacer"}]},
    }


def test_child_wins_over_children_as_in_automobiles_children_of() -> None:
    spec = _both()
    dialog = spec["root"]["children"][0]
    assert tree.children(dialog, "root.children[0]") == [
        (dialog["child"], "root.children[0].child")
    ]
    assert tree.node_at(spec, "root.children[0].child") is dialog["child"]
    assert tree.node_at(spec, "root.children[0].children[0]") is None


def test_non_object_children_are_skipped_but_keep_their_indices() -> None:
    root = _both()["root"]
    assert [path for _, path in tree.children(root, "root")] == [
        "root.children[0]",
        "root.children[2]",
    ]
    assert tree.node_at(_both(), "root.children[1]") is None


def test_every_walker_sees_the_same_children() -> None:
    from studio.runtime.tree import walk as runtime_walk
    from studio.spec.coderules import layout

    spec = _both()
    expected = ["root", "root.children[0]", "root.children[0].child", "root.children[2]"]
    assert [path for path, _, _, _ in tree.walk(spec)] == expected
    assert list(addresses(spec)) == expected
    assert [entry["path"] for entry in outline(spec)] == expected
    assert [entry["children"] for entry in outline(spec)] == [2, 1, 0, 0]
    assert layout(spec).node_paths == expected
    assert [address for _, address, _ in runtime_walk(spec["root"])] == expected
    changed = copy.deepcopy(spec)
    changed["root"]["children"][0]["children"][0]["text"] = "edited"  # not a child: unseen
    assert changed_addresses(spec, changed) == ()
    changed["root"]["children"][0]["child"]["text"] = "edited"
    assert changed_addresses(spec, changed) == ("root.children[0].child",)


@pytest.mark.parametrize(
    ("path", "steps"),
    [
        ("root", []),
        ("root.child", ["child"]),
        ("root.children[0].child.children[12]", [0, "child", 12]),
    ],
)
def test_path_steps(path: str, steps: list[Any]) -> None:
    assert tree.path_steps(path) == steps
    rebuilt = "root"
    for step in steps:
        rebuilt = tree.child_path(rebuilt, step)
    assert rebuilt == path


@pytest.mark.parametrize(
    "text",
    ["", "root.", "root.children", "root.children[01]", "root.childx", "root.children[-1]", "x"],
)
def test_not_a_path(text: str) -> None:
    assert not tree.is_path(text)
    with pytest.raises(ValueError, match="not a node path"):
        tree.path_steps(text)
    assert tree.node_at(inbox_spec(), text) is None


def test_find_id_is_the_first_in_document_order() -> None:
    spec = inbox_spec()
    found = tree.find_id(spec, "title")
    assert found is not None and found[0] == "root.children[0]"
    assert tree.find_id(spec, "missing") is None
    assert resolve(spec, "title") == found


def test_replace_node_copies_only_the_path() -> None:
    spec = inbox_spec()
    before = copy.deepcopy(spec)
    new = {"type": "spacer"}
    patched, old = tree.replace_node(spec, "root.children[2].child.children[0]", new)
    assert spec == before, "the input is never changed"
    assert old is spec["root"]["children"][2]["child"]["children"][0]
    assert tree.node_at(patched, "root.children[2].child.children[0]") is new
    assert patched["root"]["children"][0] is spec["root"]["children"][0], "siblings are shared"
    assert patched["root"]["children"][2] is not spec["root"]["children"][2]
    root_patched, root_old = tree.replace_node(spec, "root", new)
    assert root_patched["root"] is new and root_old is spec["root"]
    with pytest.raises(ValueError):
        tree.replace_node(spec, "root.children[9]", new)


def test_map_children_follows_the_same_rule() -> None:
    dialog = _both()["root"]["children"][0]
    mapped = tree.map_children(dialog, "d", lambda child, at: {"type": "spacer", "id": at})
    assert mapped["child"] == {"type": "spacer", "id": "d.child"}
    assert mapped["children"] is dialog["children"], "children are not nodes here"
    row = {"type": "row", "children": [{"type": "spacer"}, 3]}
    assert tree.map_children(row, "r", lambda child, at: at)["children"] == ["r.children[0]", 3]


def test_walk_is_iterative() -> None:
    node: dict[str, Any] = {"type": "spacer"}
    for _ in range(5000):  # far deeper than the recursion limit; invalid, but walkable
        node = {"type": "scroll", "child": node}
    spec = {"root": node}
    assert sum(1 for _ in tree.walk(spec)) == 5001
