"""Incremental revalidation of a one-node replace gives exactly what a full validation gives."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.spec.incremental import CachedValidation, validate_replace
from studio.spec.validator import validate

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "spec"


def _load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _node_paths(node: dict[str, Any], path: str = "root") -> list[str]:
    paths = [path]
    if isinstance(node.get("child"), dict):
        paths += _node_paths(node["child"], f"{path}.child")
    for index, child in enumerate(node.get("children", [])):
        paths += _node_paths(child, f"{path}.children[{index}]")
    return paths


def _patched(spec: dict[str, Any], path: str, node: dict[str, Any]) -> dict[str, Any]:
    patched = copy.deepcopy(spec)
    if path == "root":
        patched["root"] = node
        return patched
    parent = patched["root"]
    steps = (
        path[len("root") :]
        .replace(".children[", " ")
        .replace("]", "")
        .replace(".child", " c")
        .split()
    )
    for step in steps[:-1]:
        parent = parent["child"] if step == "c" else parent["children"][int(step)]
    if steps[-1] == "c":
        parent["child"] = node
    else:
        parent["children"][int(steps[-1])] = node
    return patched


def _replacements() -> list[dict[str, Any]]:
    nodes = [
        _load(f"valid/node-{k}.json")["root"]["children"][0]
        for k in ("switch", "pager", "tabBar", "image", "text", "slider", "dialog")
    ]
    nodes += [
        _load(f"invalid/node-{k}.json")["spec"]["root"]
        for k in ("box", "switch", "slider", "chip", "fab", "tabBar")
    ]
    nodes += [
        {"type": "pager", "id": "p", "children": [{"type": "spacer"}]},  # duplicate pager id
        {
            "type": "bottomNav",
            "pager": "zz",
            "items": [{"label": "a"}, {"label": "b"}],
        },  # unknown pager
        {"type": "column", "children": [{"type": "image", "asset": f"i{i}"} for i in range(40)]},
        {"type": "column", "children": [{"type": "spacer"}] * 1990},
        {"type": "button", "label": "b", "onTap": [{"type": "toggle", "key": "n"}]},
        {"type": "use", "component": "x"},
        {"type": "switch", "stateKey": "on_{item.k}"},
        {"type": "text", "text": "x" * 2000},
    ]
    return nodes


@pytest.mark.parametrize(
    "name",
    [
        "valid/node-bottomNav.json",
        "valid/node-dialog.json",
        "valid/style-all.json",
        "valid/actions-all.json",
    ],
)
def test_replace_matches_full_validation(name: str) -> None:
    spec = _load(name)
    cached = CachedValidation(spec)
    assert cached.result.ok and cached.incremental
    for path in _node_paths(spec["root"]):
        for node in _replacements():
            expected = validate(_patched(spec, path, node))
            assert cached.replace(path, node) == expected, (path, node.get("type"))
    assert spec == _load(name), "the cached spec must not be changed"


def test_replace_near_the_byte_limit_matches_full_validation() -> None:
    spec = _load("valid/node-text.json")
    spec["state"]["s"] = "x" * (1_048_576 - 1200)
    cached = CachedValidation(spec)
    assert cached.result.ok
    small = {"type": "text", "text": "y"}
    large = {"type": "text", "text": "y" * 2000}
    assert cached.replace("root.children[0]", small).ok
    assert cached.replace("root.children[0]", large).message == "Spec byte limit exceeded"


def test_specs_with_repeats_fall_back_to_full_validation() -> None:
    spec = _load("valid/repeat-bound-keys.json")
    cached = CachedValidation(spec)
    assert cached.result.ok and not cached.incremental
    node = {"type": "switch", "stateKey": "on_{item.k}"}
    assert cached.replace("root.children[0]", node) == validate(
        _patched(spec, "root.children[0]", node)
    )


def test_validate_replace_and_bad_addresses() -> None:
    spec = _load("valid/node-switch.json")
    bad = {"type": "switch", "stateKey": "s"}
    result = validate_replace(spec, "root.children[0]", bad)
    assert (result.path, result.message) == (
        "root.children[0].stateKey",
        "Toggle control requires a boolean state key",
    )
    with pytest.raises(ValueError):
        validate_replace(spec, "root.children[x]", bad)
    with pytest.raises(ValueError):
        validate_replace(spec, "root.children[5]", bad)
