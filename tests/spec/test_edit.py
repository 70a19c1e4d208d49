"""Structural edits (studio.spec.edit) as a designer makes them: each is one validated revision
with a readable summary, the spec is valid after it, undo restores the spec before it, and an
edit no spec could hold is refused with one line before anything changes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from studio.document import Document
from studio.spec import catalog, edit, tree, validate
from studio.spec.edit import EditError
from studio.spec.patch import PatchError

SPEC: dict[str, Any] = {
    "id": "form",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"email": "", "agree": False},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Sign in"},
            {
                "type": "column",
                "id": "form",
                "children": [
                    {"type": "textField", "id": "email", "stateKey": "email"},
                    {"type": "checkbox", "stateKey": "agree", "label": "I agree"},
                    {"type": "button", "id": "submit", "label": "Go"},
                ],
            },
            {
                "type": "scroll",
                "id": "list",
                "child": {"type": "column", "id": "rows", "children": [{"type": "divider"}]},
            },
        ],
    },
}
EMPTY: dict[str, Any] = {
    "id": "empty",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {"type": "column", "children": []},
}


def applied(spec: dict[str, Any], made: edit.Edit) -> tuple[Document, dict[str, Any]]:
    """The edit through the document's gate: valid after, and undo gives back `spec`."""
    document = Document(copy.deepcopy(spec), name="t")
    before = document.spec
    document.apply_ops(list(made.ops), summary=made.summary)
    after = document.spec
    assert validate(after).ok
    document.undo()
    assert document.spec == before
    document.redo()
    assert document.spec == after
    return document, after


def types(node: dict[str, Any]) -> list[Any]:
    return [node.get("id") or node["type"], [types(c) for c, _ in tree.children(node)]]


@pytest.mark.parametrize("kind", [k.type for k in catalog.KINDS])
def test_every_palette_type_inserts_a_valid_node_with_its_state(kind: str) -> None:
    made = edit.insert_new(EMPTY, kind, "root")
    assert made.summary == f"Insert {kind} into column"
    _, after = applied(EMPTY, made)
    (path,) = made.select
    node = tree.node_at(after, path)
    assert node["type"] == kind and node["id"] == f"{kind}1"
    for binding_key in ("stateKey", "hourKey", "minuteKey"):
        if isinstance(node.get(binding_key), str):
            assert node[binding_key] in after["state"]
    if "openWhen" in node:
        assert after["state"][node["openWhen"]["key"]] is False


def test_insert_names_the_container_and_places_before_after_and_inside() -> None:
    made = edit.insert_new(SPEC, "button", "root.children[1]")
    assert made.summary == "Insert button into column 'form'"
    assert made.select == ("root.children[1].children[3]",)
    made = edit.insert_new(SPEC, "text", "root.children[1].children[0]", "before")
    assert made.summary == "Insert text before textField 'email'"
    _, after = applied(SPEC, made)
    assert tree.node_at(after, "root.children[1].children[0]")["type"] == "text"
    made = edit.insert_new(SPEC, "text", "root.children[0]", "after")
    assert made.summary == "Insert text after text 'title'"
    made = edit.insert_new(SPEC, "chip", "root.children[1]", "inside", index=1)
    _, after = applied(SPEC, made)
    assert tree.node_at(after, "root.children[1].children[1]")["type"] == "chip"
    # A new text field declares a string key of its own.
    made = edit.insert_new(SPEC, "textField", "root.children[1]")
    _, after = applied(SPEC, made)
    assert after["state"]["textField1"] == "" and after["state"]["email"] == ""


def test_what_no_spec_could_hold_is_refused_with_the_reason() -> None:
    with pytest.raises(EditError, match="scroll 'list' holds exactly one child"):
        edit.insert_new(SPEC, "text", "root.children[2]")
    with pytest.raises(EditError, match="holds exactly one child"):
        edit.insert_new(SPEC, "text", "root.children[2].child", "after")
    with pytest.raises(EditError, match="the root has no siblings"):
        edit.insert_new(SPEC, "text", "root", "before")
    with pytest.raises(EditError, match="cannot hold other nodes"):
        edit.insert_new(SPEC, "text", "root.children[0]", "inside")


def test_default_target_is_the_selected_container_else_after_the_selection() -> None:
    assert edit.default_target(SPEC, "root.children[1]") == ("root.children[1]", "inside")
    assert edit.default_target(SPEC, "root.children[0]") == ("root.children[0]", "after")
    assert edit.default_target(SPEC, "root.children[2]") == ("root.children[2]", "after")
    assert edit.default_target(SPEC, None) == ("root", "inside")


def test_delete_several_and_refusals() -> None:
    made = edit.delete(SPEC, ["root.children[1].children[2]", "root.children[0]"])
    assert made.summary == "Delete 2 nodes"
    _, after = applied(SPEC, made)
    assert tree.find_id(after, "submit") is None and tree.find_id(after, "title") is None
    made = edit.delete(SPEC, ["root.children[1].children[0]"])
    assert made.summary == "Delete textField 'email'"
    # A selected node inside another selected one goes with it.
    made = edit.delete(SPEC, ["root.children[1]", "root.children[1].children[0]"])
    assert made.summary == "Delete column 'form'"
    with pytest.raises(EditError, match="the root cannot be deleted"):
        edit.delete(SPEC, ["root"])
    # The scroll needs its child: the gate refuses with the path and message.
    made = edit.delete(SPEC, ["root.children[2].child"])
    with pytest.raises(PatchError) as info:
        Document(copy.deepcopy(SPEC), name="t").apply_ops(list(made.ops))
    assert info.value.path.startswith("root.children[2]")


def test_duplicate_renames_ids_and_selects_the_copies() -> None:
    made = edit.duplicate(SPEC, ["root.children[1]"])
    assert made.summary == "Duplicate column 'form'"
    assert made.select == ("root.children[2]",)
    _, after = applied(SPEC, made)
    copy_ = tree.node_at(after, "root.children[2]")
    assert copy_["id"] == "form2"
    assert [c.get("id") for c, _ in tree.children(copy_)] == ["email2", None, "submit2"]
    assert ("submit", "submit2") in made.renamed
    made = edit.duplicate(SPEC, ["root.children[0]", "root.children[1].children[2]"])
    _, after = applied(SPEC, made)
    assert tree.node_at(after, "root.children[1]")["id"] == "title2"
    assert tree.node_at(after, "root.children[2].children[3]")["id"] == "submit2"
    assert made.select == ("root.children[1]", "root.children[2].children[3]")


def test_move_up_down_and_edges() -> None:
    made = edit.move_by(SPEC, ["root.children[1].children[2]"], -1)
    assert made.summary == "Move button 'submit' up"
    assert made.select == ("root.children[1].children[1]",)
    _, after = applied(SPEC, made)
    assert [c.get("id") for c, _ in tree.children(tree.node_at(after, "root.children[1]"))] == [
        "email",
        "submit",
        None,
    ]
    made = edit.move_by(SPEC, ["root.children[1].children[0]", "root.children[1].children[1]"], 1)
    _, after = applied(SPEC, made)
    assert tree.node_at(after, "root.children[1].children[0]")["id"] == "submit"
    with pytest.raises(EditError, match="already first"):
        edit.move_by(SPEC, ["root.children[1].children[0]"], -1)
    with pytest.raises(EditError, match="already last"):
        edit.move_by(SPEC, ["root.children[2]"], 1)
    with pytest.raises(EditError, match="no siblings"):
        edit.move_by(SPEC, ["root.children[2].child"], 1)


def test_move_reparents_and_refuses_moving_into_itself() -> None:
    made = edit.move(SPEC, ["root.children[0]"], "root.children[1].children[2]", "before")
    assert made.summary == "Move text 'title' before button 'submit'"
    _, after = applied(SPEC, made)
    assert tree.find_id(after, "title")[0] == "root.children[0].children[2]"
    assert made.select == ("root.children[0].children[2]",)
    made = edit.move(
        SPEC,
        ["root.children[1].children[2]", "root.children[0]"],
        "root.children[2].child",
        "inside",
    )
    _, after = applied(SPEC, made)
    assert [c.get("id") or c["type"] for c, _ in tree.children(tree.find_id(after, "rows")[1])] == [
        "divider",
        "title",
        "submit",
    ]
    with pytest.raises(EditError, match="cannot be moved into itself"):
        edit.move(SPEC, ["root.children[1]"], "root.children[1].children[0]", "after")
    with pytest.raises(EditError, match="already there"):
        edit.move(SPEC, ["root.children[0]"], "root.children[1]", "before")
    with pytest.raises(EditError, match="holds exactly one child"):
        edit.move(SPEC, ["root.children[0]"], "root.children[2]", "inside")


def test_wrap_and_unwrap() -> None:
    made = edit.wrap(SPEC, ["root.children[1].children[1]", "root.children[1].children[2]"], "row")
    assert made.summary == "Wrap 2 nodes in row"
    _, after = applied(SPEC, made)
    row = tree.node_at(after, "root.children[1].children[1]")
    assert row["type"] == "row" and [c.get("id") for c, _ in tree.children(row)] == [None, "submit"]
    assert made.select == ("root.children[1].children[1]",)
    made = edit.wrap(SPEC, ["root"], "box")
    _, after = applied(SPEC, made)
    assert after["root"]["type"] == "box" and after["root"]["children"][0]["type"] == "column"
    made = edit.wrap(SPEC, ["root.children[2].child"], "card")
    _, after = applied(SPEC, made)
    assert tree.node_at(after, "root.children[2].child")["type"] == "card"
    with pytest.raises(EditError, match="select siblings"):
        edit.wrap(SPEC, ["root.children[0]", "root.children[1].children[0]"], "row")
    made = edit.unwrap(SPEC, "root.children[1]")
    assert made.summary == "Unwrap column 'form'"
    _, after = applied(SPEC, made)
    assert [c.get("id") or c["type"] for c, _ in tree.children(after["root"])] == [
        "title", "email", "checkbox", "submit", "list",
    ]  # fmt: skip
    assert made.select == ("root.children[1]", "root.children[2]", "root.children[3]")
    with pytest.raises(EditError, match="exactly one"):
        edit.unwrap(SPEC, "root")
    with pytest.raises(EditError, match="holds no nodes"):
        edit.unwrap(SPEC, "root.children[0]")


def test_copy_and_paste_between_two_prototypes() -> None:
    copied = edit.clip(SPEC, ["root.children[1]"])
    assert copied.state == {"email": "", "agree": False}
    # The plain text is the node's JSON (for a text editor); the rich form keeps the state.
    assert json.loads(copied.text())["id"] == "form"
    for text in (copied.rich(), copied.text()):
        pasted = edit.parse_clip(text)
        made = edit.paste(EMPTY, pasted, "root", "inside")
        assert made.summary == "Paste column 'form' into column"
        _, after = applied(EMPTY, made)
        assert after["state"] == {"email": "", "agree": False}
    # Pasted back into its own prototype: ids collide, are renamed, and the summary says so.
    made = edit.paste(SPEC, edit.parse_clip(copied.rich()), "root.children[0]", "after")
    assert made.summary == (
        "Paste column 'form2' after text 'title' (ids renamed: form → form2, email → email2, "
        "submit → submit2)"
    )
    _, after = applied(SPEC, made)
    assert tree.node_at(after, "root.children[1]")["id"] == "form2"


def test_paste_of_bad_text_is_one_line_and_an_invalid_node_is_refused_at_its_path() -> None:
    with pytest.raises(EditError, match=r"^Paste: the clipboard's text is not JSON \(line 1"):
        edit.parse_clip("hello there")
    with pytest.raises(EditError, match="is not a node"):
        edit.parse_clip('{"text": "no type"}')
    with pytest.raises(EditError, match="item 2 of the clipboard's list is not a node"):
        edit.parse_clip('[{"type": "text", "text": "a"}, 3]')
    with pytest.raises(EditError, match="empty"):
        edit.parse_clip("  ")
    made = edit.paste(EMPTY, edit.parse_clip('{"type": "button"}'), "root", "inside")
    with pytest.raises(PatchError) as info:
        Document(copy.deepcopy(EMPTY), name="t").apply_ops(list(made.ops))
    assert info.value.path == "root.children[0].label"


def test_paste_renames_a_pager_and_the_references_inside_the_paste() -> None:
    spec = copy.deepcopy(EMPTY)
    spec["state"] = {}
    spec["root"]["children"] = [
        {"type": "pager", "id": "pages", "children": [{"type": "text", "text": "A"}]},
        {"type": "tabBar", "pager": "pages", "items": [{"label": "A"}]},
    ]
    copied = edit.clip(spec, ["root"])
    made = edit.paste(spec, copied, "root", "inside")
    _, after = applied(spec, made)
    pasted = tree.node_at(after, "root.children[2]")
    assert pasted["children"][0]["id"] == "pages2"
    assert pasted["children"][1]["pager"] == "pages2"
