"""One-node patches through `Runtime.replace`: the per-subtree caches (control rules, pager
counts) give exactly what a fresh runtime of the edited spec gives, however the spec was edited."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.runtime import Runtime, StateWriteError
from studio.spec.patch import apply_patch

SPEC: dict[str, Any] = {
    "id": "p",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"volume": 2, "tab": 0, "day": "2024-02-29"},
    "root": {
        "type": "column",
        "children": [
            {"type": "slider", "id": "vol", "stateKey": "volume", "min": 0, "max": 10},
            {"type": "tabBar", "pager": "pages",
             "items": [{"label": "A"}, {"label": "B"}]},
            {"type": "pager", "id": "pages", "children": [
                {"type": "text", "text": "One"},
                {"type": "text", "text": "Two"},
            ]},
            {"type": "row", "children": [{"type": "datePicker", "stateKey": "day"}]},
        ],
    },
}  # fmt: skip


def _refusal(runtime: Runtime, key: str, value: Any) -> str | None:
    try:
        runtime.set_value(key, value)
    except StateWriteError as error:
        return str(error)
    return None


def test_a_replaced_slider_enforces_its_new_range_at_once() -> None:
    runtime = Runtime(SPEC)
    new = {"type": "slider", "id": "vol", "stateKey": "volume", "min": 0, "max": 3, "step": 1}
    edited = apply_patch(SPEC, [{"op": "replaceNode", "id": "vol", "node": new}]).spec
    assert edited["root"]["children"][3] is SPEC["root"]["children"][3]  # the edit shares
    runtime.replace(edited)
    runtime.set_value("volume", 9)  # a slider write clamps to the new max
    assert runtime.value("volume") == 3
    refused = _refusal(runtime, "day", "soon")  # the untouched date picker still claims its key
    assert refused is not None and "datePicker at root.children[3].children[0]" in refused


def test_an_inserted_sibling_moves_the_addresses_the_rules_name() -> None:
    runtime = Runtime(SPEC)
    root = dict(SPEC["root"])
    root["children"] = [{"type": "text", "text": "New"}, *SPEC["root"]["children"]]
    runtime.replace({**SPEC, "root": root})  # every old child object kept, one place later
    refused = _refusal(runtime, "day", "2024-02-30")
    assert refused is not None and "datePicker at root.children[4].children[0]" in refused


def test_a_pager_gaining_a_page_counts_it_and_keeps_the_page() -> None:
    runtime = Runtime(SPEC)
    runtime.set_page("pages", 1)
    pager = dict(SPEC["root"]["children"][2])
    pager["children"] = [*pager["children"], {"type": "text", "text": "Three"}]
    root = dict(SPEC["root"])
    root["children"] = [*root["children"][:2], pager, root["children"][3]]
    runtime.replace({**SPEC, "root": root})
    assert dict(runtime.page_counts) == {"pages": 3}
    assert runtime.pages["pages"] == 1
    runtime.set_page("pages", 9)
    assert runtime.pages["pages"] == 2


def test_a_subtree_moved_from_child_to_children_names_its_new_address() -> None:
    picker = {"type": "datePicker", "stateKey": "day"}
    before = {"id": "m", "state": {}, "root": {"type": "column", "children": [
        {"type": "scroll", "child": picker}]}}  # fmt: skip
    after = {"id": "m", "state": {}, "root": {"type": "column", "children": [
        {"type": "column", "children": [picker]}]}}  # fmt: skip
    runtime = Runtime(before)
    runtime.replace(after)  # the very same picker object, now at children[0]
    refused = _refusal(runtime, "day", True)
    assert refused is not None and "datePicker at root.children[0].children[0]" in refused
    runtime.replace(before)
    refused = _refusal(runtime, "day", True)
    assert refused is not None and "datePicker at root.children[0].child " in refused


# --- the cache against a fresh runtime, over random trees and copy-on-write edits -----------

KEYS = ["k0", "k1", "k_{it.n}"]  # the last one is bound per repeat item (or stays as is)
PROBED = ["k0", "k1", "k_1", "k_2", "k_{it.n}"]
PROBES: list[Any] = [True, False, -1, 0, 2, 2.5, 50, "x", "2020-02-02", "2020-02-31"]


def _leaf() -> st.SearchStrategy[dict[str, Any]]:
    key = st.sampled_from(KEYS)
    return st.one_of(
        st.builds(lambda t: {"type": "text", "text": t}, st.sampled_from(["a", "b"])),
        st.builds(lambda k: {"type": "switch", "stateKey": k}, key),
        st.builds(lambda k: {"type": "textField", "stateKey": k}, key),
        st.builds(lambda k: {"type": "datePicker", "stateKey": k}, key),
        st.builds(lambda k: {"type": "tabBar", "stateKey": k, "items": []}, key),
        st.builds(
            lambda k, hi: {"type": "slider", "stateKey": k, "min": 0, "max": hi, "step": 1},
            key,
            st.integers(1, 60),
        ),
        st.builds(
            lambda k: {
                "type": "listItem",
                "headline": "h",
                "trailing": {"type": "checkbox", "stateKey": k},
            },
            key,
        ),  # fmt: skip
    )


def _container(children: st.SearchStrategy[list[dict[str, Any]]]) -> Any:
    return st.one_of(
        st.builds(lambda c: {"type": "column", "children": c}, children),
        st.builds(lambda c: {"type": "row", "children": c}, children),
        st.builds(
            lambda c, i: {"type": "pager", "id": f"p{i}", "children": c},
            children,
            st.integers(0, 3),
        ),
        st.builds(
            lambda c: {"type": "scroll", "child": c[0]} if c else {"type": "spacer"}, children
        ),
        st.builds(
            lambda c: {
                "type": "box",
                "children": c,
                "repeat": {"as": "it", "items": [{"n": 1}, {"n": 2}]},
            },
            children,
        ),  # fmt: skip
    )


NODES = st.recursive(_leaf(), lambda kids: _container(st.lists(kids, max_size=4)), max_leaves=12)


def _paths(node: dict[str, Any], path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node.get("child"), dict):
        out += _paths(node["child"], (*path, "child"))
    for i, kid in enumerate(node.get("children") or []):
        out += _paths(kid, (*path, "children", i))
    return out


def _edit(node: dict[str, Any], path: tuple[Any, ...], change: Any) -> dict[str, Any]:
    """A copy of `node` with `change(target)` at `path`; every other subtree is shared."""
    if not path:
        result: dict[str, Any] = change(node)
        return result
    copied = dict(node)
    if path[0] == "child":
        copied["child"] = _edit(node["child"], path[1:], change)
    else:
        kids = list(node["children"])
        kids[path[1]] = _edit(kids[path[1]], path[2:], change)
        copied["children"] = kids
    return copied


def _changes(draw: Any, target: dict[str, Any]) -> Any:
    """An edit of `target`: new content, or existing subtrees moved to other addresses."""
    kinds = ["replace", "insert", "remove", "field", "wrap", "unwrap", "rewrap"]
    kind = draw(st.sampled_from(kinds))
    new = draw(NODES)
    if kind == "replace":
        return lambda _node: new
    if kind == "field":
        return lambda node: {**node, "stateKey": draw(st.sampled_from(KEYS))}
    if kind == "wrap":  # the same subtree one level deeper
        return lambda node: {"type": "column", "children": [new, node]}
    single = target.get("child")
    first = single if isinstance(single, dict) else (target.get("children") or [new])[0]
    if kind == "unwrap":  # the first child takes its parent's place
        return lambda _node: first
    if kind == "rewrap":  # the same children under `child` <-> `children`
        if isinstance(single, dict):
            return lambda _node: {"type": "column", "children": [single]}
        return lambda _node: {"type": "scroll", "child": first}
    kids = target.get("children")
    if not isinstance(kids, list):
        return lambda _node: new
    at = draw(st.integers(0, len(kids)))
    if kind == "insert":
        return lambda node: {**node, "children": [*kids[:at], new, *kids[at:]]}
    return lambda node: {**node, "children": [k for i, k in enumerate(kids) if i != at]}


@st.composite
def edit_sequences(draw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    spec = {"id": "h", "state": {}, "root": {"type": "column", "children": draw(
        st.lists(NODES, min_size=1, max_size=4))}}  # fmt: skip
    specs = []
    for _ in range(draw(st.integers(1, 4))):
        root = spec["root"]
        path = draw(st.sampled_from(_paths(root)))
        target = root
        for step in path:
            target = target[step]
        spec = {**spec, "root": _edit(root, path, _changes(draw, target))}
        specs.append(spec)
    return specs[0], specs


def _behaviour(runtime: Runtime) -> tuple[Any, ...]:
    """What a user of the runtime sees of its rules and pagers: page counts, and what each
    probe write to each key does (refusal message or stored value)."""
    outcomes = []
    for key in PROBED:
        for value in PROBES:
            refused = _refusal(runtime, key, value)
            outcomes.append(refused if refused is not None else runtime.value(key))
    return dict(runtime.page_counts), outcomes


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences())
def test_replace_after_shared_edits_behaves_like_a_fresh_runtime(
    case: tuple[dict[str, Any], list[dict[str, Any]]],
) -> None:
    first, specs = case
    live = Runtime(first)
    for spec in specs:
        live.replace(spec)
        assert _behaviour(live) == _behaviour(Runtime(spec))
        live.replace(spec)  # the probes wrote state: back to the spec's own state


def test_unknown_pager_after_removal_is_refused() -> None:
    runtime = Runtime(SPEC)
    root = dict(SPEC["root"])
    root["children"] = [root["children"][0], root["children"][3]]
    runtime.replace({**SPEC, "root": root})
    with pytest.raises(ValueError, match="unknown pager"):
        runtime.set_page("pages", 0)
