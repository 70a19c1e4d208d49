"""Patching: JSON-Patch under /state and /data, replaceNode, atomic and validated as a whole."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from studio.spec.patch import PatchError, PatchResult, apply_patch, replace_spec
from tests.spec.sample_specs import inbox_spec


def _patch(spec: dict[str, Any], ops: list[Any]) -> PatchResult:
    before = copy.deepcopy(spec)
    try:
        return apply_patch(spec, ops)
    finally:
        assert spec == before, "the input spec was changed"


def _refused(spec: dict[str, Any], ops: list[Any]) -> PatchError:
    before = copy.deepcopy(spec)
    with pytest.raises(PatchError) as raised:
        apply_patch(spec, ops)
    assert spec == before, "a refused patch changed the spec"
    assert isinstance(raised.value, ValueError)
    return raised.value


def test_state_ops_add_replace_remove_test() -> None:
    spec = inbox_spec()
    result = _patch(
        spec,
        [
            {"op": "test", "path": "/state/dark", "value": False},
            {"op": "add", "path": "/state/extra", "value": "x"},
            {"op": "replace", "path": "/state/count", "value": 5},
            {"op": "remove", "path": "/state/extra"},
        ],
    )
    assert result.spec is not spec
    assert result.spec["state"] == {"dark": False, "count": 5, "name": "Ann", "open": False}
    assert result.changed == ("title",), "the node showing {count} is highlighted"
    assert [op["op"] for op in result.ops] == ["test", "add", "replace", "remove"]


def test_data_ops_follow_rfc_6902() -> None:
    spec = inbox_spec()
    spec["data"] = {"rates": [1, 2]}
    result = _patch(
        spec,
        [
            {"op": "add", "path": "/data/rates/-", "value": 3},
            {"op": "add", "path": "/data/rates/0", "value": 0},
            {"op": "remove", "path": "/data/rates/1"},
            {"op": "add", "path": "/data/meta", "value": {"a/b": True}},
            {"op": "test", "path": "/data/meta/a~1b", "value": True},
        ],
    )
    assert result.spec["data"] == {"rates": [0, 2, 3], "meta": {"a/b": True}}
    assert result.changed == ()
    assert spec["data"] == {"rates": [1, 2]}


def test_adding_state_to_a_spec_without_it() -> None:
    spec = inbox_spec()
    del spec["state"]
    spec["root"] = {"type": "text", "text": "plain"}
    error = _refused(spec, [{"op": "add", "path": "/state/x", "value": 1}])
    assert (error.index, error.path, error.message) == (0, "state", "Path does not exist")
    result = _patch(spec, [{"op": "add", "path": "/state", "value": {"x": 1}}])
    assert result.spec["state"] == {"x": 1}


def test_test_op_tells_true_from_one() -> None:
    error = _refused(inbox_spec(), [{"op": "test", "path": "/state/dark", "value": 0}])
    assert str(error) == "op 0: state.dark: Test failed: the value differs"


def test_replace_node_by_id_reports_the_changed_address() -> None:
    spec = inbox_spec()
    node = {"type": "text", "id": "title", "text": "Mail"}
    result = _patch(spec, [{"op": "replaceNode", "id": "title", "node": node}])
    assert result.spec["root"]["children"][0] == node
    assert result.changed == ("title",)
    node["text"] = "changed later"
    assert result.spec["root"]["children"][0]["text"] == "Mail", "the op's node was not copied"


def test_replace_node_by_address_for_a_node_without_id() -> None:
    spec = inbox_spec()
    new = {"type": "row", "children": [{"type": "text", "text": "A"}, {"type": "spacer"}]}
    result = _patch(spec, [{"op": "replaceNode", "address": "root.children[4].child", "node": new}])
    assert result.spec["root"]["children"][4]["child"] == new
    assert result.changed == (
        "root.children[4].child",
        "root.children[4].child.children[0]",
        "root.children[4].child.children[1]",
    )
    # Untouched subtrees are shared, not copied, and equal to the input.
    assert result.spec["root"]["children"][2] is spec["root"]["children"][2]


def test_replace_node_cannot_replace_root() -> None:
    error = _refused(
        inbox_spec(), [{"op": "replaceNode", "address": "root", "node": {"type": "spacer"}}]
    )
    assert error.index == 0 and error.path == "ops[0]"
    assert "whole spec" in error.message and "replace_spec" in error.message


@pytest.mark.parametrize(
    "pointer", ["/root", "/window/placement", "/theme", "/id", "", "/components"]
)
def test_ops_outside_state_and_data_are_whole_spec_revisions(pointer: str) -> None:
    error = _refused(inbox_spec(), [{"op": "add", "path": pointer, "value": {}}])
    assert (error.index, error.path) == (0, "ops[0]")
    assert "whole-spec revision" in error.message


@pytest.mark.parametrize(
    ("op", "message"),
    [
        ("nope", "Expected an op object"),
        ({"op": "move", "from": "/state/a", "path": "/state/b"}, 'Unknown op "move"'),
        ({"path": "/state/a", "value": 1}, "Unknown op missing"),
        ({"op": "add", "value": 1}, 'add needs "path"'),
        ({"op": "replace", "path": "/state/count"}, 'replace needs "value"'),
        ({"op": "replaceNode", "id": "title"}, 'replaceNode needs "node"'),
        ({"op": "replaceNode", "node": {"type": "spacer"}}, 'exactly one of "id" or "address"'),
        ({"op": "add", "path": "state/x", "value": 1}, "must start with /"),
    ],
)
def test_malformed_ops_name_their_index(op: Any, message: str) -> None:
    ops = [{"op": "test", "path": "/state/dark", "value": False}, op]
    error = _refused(inbox_spec(), ops)
    assert (error.index, error.path) == (1, "ops[1]")
    assert message in error.message
    assert str(error).startswith("op 1: ops[1]: ")


def test_unknown_node_address_names_the_op() -> None:
    error = _refused(
        inbox_spec(), [{"op": "replaceNode", "id": "ghost", "node": {"type": "spacer"}}]
    )
    assert error.index == 0 and 'Unknown node address "ghost"' in error.message


def test_a_failing_op_3_leaves_the_spec_unchanged_and_names_it() -> None:
    spec = inbox_spec()
    ops = [
        {"op": "replace", "path": "/state/name", "value": "Bo"},
        {"op": "add", "path": "/state/n", "value": 1},
        {"op": "replaceNode", "id": "title", "node": {"type": "text", "text": "T"}},
        {
            "op": "replaceNode",
            "id": "darkSwitch",
            "node": {"type": "switch", "stateKey": "count"},
        },
    ]
    error = _refused(spec, ops)
    assert (
        str(error) == "op 3: root.children[1].stateKey: Toggle control requires a boolean state key"
    )
    assert (error.index, error.path) == (3, "root.children[1].stateKey")


def test_an_application_failure_at_op_3_names_it() -> None:
    ops: list[Any] = [{"op": "add", "path": f"/state/k{i}", "value": i} for i in range(3)]
    ops.append({"op": "remove", "path": "/state/missing"})
    error = _refused(inbox_spec(), ops)
    assert str(error) == "op 3: state.missing: Path does not exist"


def test_the_op_that_broke_the_spec_is_blamed_not_the_last() -> None:
    ops = [
        {"op": "replace", "path": "/state/dark", "value": 1},
        {"op": "replace", "path": "/state/name", "value": "Bo"},
    ]
    error = _refused(inbox_spec(), ops)
    assert error.index == 0
    assert error.message == "Toggle control requires a boolean state key"


def test_replace_spec_validates_the_whole_new_spec() -> None:
    spec = inbox_spec()
    new = inbox_spec()
    new["window"] = {"placement": {"type": "sheet", "edge": "bottom", "height": 0.5}}
    new["root"]["children"][1]["label"] = "Night"
    result = replace_spec(spec, new)
    assert result.spec == new and result.spec is not new
    assert result.changed == ("darkSwitch",)
    broken = inbox_spec()
    broken["window"] = {"placement": {"type": "nowhere"}}
    with pytest.raises(PatchError) as raised:
        replace_spec(spec, broken)
    assert raised.value.index is None
    assert raised.value.path == "window.placement.type"


def test_single_replace_node_uses_the_incremental_validator_with_the_same_verdict() -> None:
    from studio.spec import validator
    from studio.spec.incremental import validate_replace

    spec = inbox_spec()
    candidates = [
        ("root.children[1]", {"type": "switch", "stateKey": "count"}),
        ("root.children[1]", {"type": "switch", "stateKey": "dark", "label": ""}),
        ("root.children[1]", {"type": "checkbox", "stateKey": "dark"}),
        ("root.children[4].child", {"type": "button", "label": "Go", "onTap": [{"type": "x"}]}),
        ("root.children[2].child", {"type": "pager", "children": [{"type": "spacer"}]}),
        ("root.children[0]", {"type": "text", "id": "title", "text": "ok"}),
    ]
    for path, node in candidates:
        full = inbox_spec()
        parent_path, _, last = path.rpartition(".")
        from studio.spec.address import node_at

        parent = node_at(full, parent_path)
        if last == "child":
            parent["child"] = node
        else:
            parent["children"][int(last[len("children[") : -1])] = node
        whole = validator.validate(full)
        part = validate_replace(spec, path, node)
        assert (part.ok, part.path, part.message) == (whole.ok, whole.path, whole.message), path


def test_requires_can_be_patched_so_a_module_is_declared_before_a_call_uses_it() -> None:
    """Studio extension: an agent composing a surface declares `requires.platform` by patch."""
    from studio.spec import apply_patch

    spec = {
        "id": "calc",
        "window": {"placement": {"type": "fullscreen"}},
        "root": {"type": "column", "children": [{"type": "text", "id": "t", "text": "hi"}]},
    }
    button = {
        "type": "button",
        "id": "t",
        "label": "Echo",
        "onTap": [{"type": "platform", "call": "test.echo", "args": {"text": "hi"}}],
    }
    with pytest.raises(PatchError) as refused:
        apply_patch(spec, [{"op": "replaceNode", "id": "t", "node": button}])
    assert "requires.platform" in refused.value.message
    result = apply_patch(
        spec,
        [
            {"op": "add", "path": "/requires", "value": {"platform": ["test"]}},
            {"op": "replaceNode", "id": "t", "node": button},
        ],
    )
    assert result.spec["requires"] == {"platform": ["test"]}
    assert "requires" not in spec
    with pytest.raises(PatchError) as bad:
        apply_patch(result.spec, [{"op": "add", "path": "/requires/platform/-", "value": "nope"}])
    assert bad.value.index == 0 and bad.value.path.startswith("requires.platform")


def test_revise_spec_replaces_whole_members_and_reapply_rebases_it() -> None:
    from studio.spec.patch import PatchError, reapply, revise_spec

    base = {
        "id": "p",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"n": 1},
        "root": {"type": "text", "id": "t", "text": "Hi {n}"},
    }
    result = revise_spec(base, {"theme": {"mode": "dark"}})
    assert result.spec["theme"] == {"mode": "dark"} and result.spec["state"] == {"n": 1}
    assert "theme" not in base  # the input is never changed
    assert list(result.ops) == [{"op": "reviseSpec", "members": {"theme": {"mode": "dark"}}}]
    # Rebased on an edited document: the members again, the document's other edits kept.
    edited = {**base, "state": {"n": 2}}
    again = reapply(edited, list(result.ops))
    assert again.spec["state"] == {"n": 2} and again.spec["theme"] == {"mode": "dark"}
    with pytest.raises(PatchError, match="replaces only root, window, theme"):
        revise_spec(base, {"state": {}})
    with pytest.raises(PatchError, match="root is required"):
        revise_spec(base, {"root": None})
    with pytest.raises(PatchError, match="a reviseSpec op is a revision of its own"):
        reapply(base, [*result.ops, {"op": "add", "path": "/state/m", "value": 1}])
