"""The edit commands on the workspace's selection (studio.workspace.editing): what the window's
actions and keys run, Qt-free. Each is one revision, undoable; a refusal is one line and changes
nothing; copy/paste carries state between two prototypes."""

from __future__ import annotations

import copy

import pytest

from studio.document import Document
from studio.spec.validator import validate
from studio.workspace import Workspace
from studio.workspace import editing as E
from tests.workspace.test_workspace import SPEC

EMPTY = {"id": "empty", "window": {"placement": {"type": "fullscreen"}}, "root": {"type": "column", "children": []}}  # fmt: skip


def open_ws(spec: dict[str, object]) -> Workspace:
    ws = Workspace()
    ws.open(Document(copy.deepcopy(spec), name=str(spec["id"])))
    return ws


def ids(ws: Workspace) -> list[object]:
    return [c.get("id") for c in ws.shown.spec["root"]["children"]]


def test_delete_duplicate_and_move_work_on_the_selection_and_undo() -> None:
    ws = open_ws(SPEC)
    ws.select("title")
    E.duplicate_selected(ws)
    assert ids(ws) == ["title", "title2", "email", "submit", "footer"]
    assert ws.selection.addresses == ("title2",)
    E.move_selected(ws, 1)
    assert ids(ws) == ["title", "email", "title2", "submit", "footer"]
    E.delete_selected(ws)
    assert ids(ws) == ["title", "email", "submit", "footer"]
    assert ws.document is not None
    assert [r.summary for r in ws.document.revisions.applied] == [
        "Duplicate text 'title'",
        "Move text 'title2' down",
        "Delete text 'title2'",
    ]
    for _ in range(3):
        ws.undo()
    assert ws.document.spec == SPEC


def test_a_refusal_is_one_line_and_changes_nothing() -> None:
    ws = open_ws(SPEC)
    ws.select("footer")
    with pytest.raises(E.EditRefused, match="already last"):
        E.move_selected(ws, 1)
    ws.select()
    with pytest.raises(E.EditRefused, match="Delete: select a node first"):
        E.delete_selected(ws)
    ws.select("root")
    with pytest.raises(E.EditRefused, match="the root cannot be deleted"):
        E.delete_selected(ws)
    assert ws.document is not None and not ws.document.revisions.can_undo()


def test_paste_between_two_prototypes_declares_the_state_it_needs_and_renames_ids() -> None:
    source, target = open_ws(SPEC), open_ws(EMPTY)
    source.select("email", "submit")
    clipped = E.copy_selected(source)
    assert clipped.state == {"email": ""}
    target.select("root")
    revision = E.paste_text(target, clipped.rich())
    assert revision.summary == "Paste 2 nodes into column"
    assert ids(target) == ["email", "submit"]
    assert target.shown.spec["state"] == {"email": ""}
    assert validate(target.shown.spec).ok
    # Pasting again renames the colliding ids, and the summary says so.
    again = E.paste_text(target, clipped.rich())
    assert "ids renamed: email → email2, submit → submit2" in again.summary
    assert ids(target) == ["email", "submit", "email2", "submit2"]
    assert target.selection.addresses == ("email2", "submit2")


def test_pasting_text_that_is_not_a_node_is_one_line_and_no_change() -> None:
    ws = open_ws(SPEC)
    with pytest.raises(E.EditRefused, match=r"^Paste: the clipboard's text is not JSON \(line 1"):
        E.paste_text(ws, "hello")
    with pytest.raises(E.EditRefused, match="is not a node"):
        E.paste_text(ws, '{"text": "no type"}')
    with pytest.raises(E.EditRefused, match=r"refused: root\.children\[4\]\.max"):
        E.paste_text(ws, '{"type": "slider", "stateKey": "email", "min": 2, "max": 1}')
    assert ws.document is not None and not ws.document.revisions.can_undo()


def test_cut_is_a_delete_and_the_clip_pastes_back() -> None:
    ws = open_ws(SPEC)
    ws.select("title")
    clipped = E.cut_selected(ws)
    assert ids(ws) == ["email", "submit", "footer"]
    ws.select("footer")
    E.paste_text(ws, clipped.text())
    assert ids(ws) == ["email", "submit", "footer", "title"]


def test_insert_from_the_palette_goes_into_the_selected_container_or_after_the_node() -> None:
    ws = open_ws(EMPTY)
    ws.select("root")
    E.insert_type(ws, "row")
    assert ws.selection.addresses == ("row1",)
    E.insert_type(ws, "checkbox")  # into the selected row
    assert ws.shown.spec["root"]["children"][0]["children"][0]["id"] == "checkbox1"
    assert ws.shown.spec["state"] == {"checkbox1": False}  # declared with the checkbox
    E.insert_type(ws, "button")  # after the selected checkbox
    assert [c["id"] for c in ws.shown.spec["root"]["children"][0]["children"]] == [
        "checkbox1",
        "button1",
    ]
    assert validate(ws.shown.spec).ok


def test_drop_refusal_says_why_before_the_drop_and_a_drop_re_parents() -> None:
    ws = open_ws(SPEC)
    assert E.drop_refusal(ws, "root.children[0]", "inside", type_="button") == (
        "text 'title' cannot hold other nodes: drop before or after it"
    )
    assert E.drop_refusal(ws, "root", "after", paths=["root.children[0]"]) == (
        "the root has no siblings: drop inside it"
    )
    assert E.drop_refusal(ws, "root.children[3]", "after", paths=["root.children[0]"]) is None
    E.drop_nodes(ws, ["root.children[0]"], "root.children[3]", "after")
    assert ids(ws) == ["email", "submit", "footer", "title"]
    assert ws.document is not None and ws.document.revisions.applied[-1].summary == (
        "Move text 'title' after text 'footer'"
    )


def test_state_keys_add_rename_every_use_and_remove_only_when_unused() -> None:
    ws = open_ws(SPEC)
    E.add_state_key(ws, "agreed", False)
    assert ws.shown.spec["state"] == {"email": "", "agreed": False}
    revision = E.rename_state_key(ws, "email", "address")
    assert revision.summary == "Rename state key 'email' to 'address' (2 uses updated)"
    spec = ws.shown.spec
    assert spec["state"] == {"address": "", "agreed": False}
    assert spec["root"]["children"][1]["stateKey"] == "address"
    assert spec["root"]["children"][2]["onTap"][0]["key"] == "address"
    with pytest.raises(
        E.EditRefused, match="^state key 'address' is still used by textField 'email'"
    ):
        E.remove_state_key(ws, "address")
    E.remove_state_key(ws, "agreed")
    assert ws.shown.spec["state"] == {"address": ""}
    with pytest.raises(E.EditRefused, match="is already declared"):
        E.add_state_key(ws, "address")
    with pytest.raises(E.EditRefused, match="not a state key"):
        E.rename_state_key(ws, "address", "9 lives")
    with pytest.raises(E.EditRefused, match=r"refused: root\.children\[1\]\.stateKey: Text field"):
        E.set_state_value(ws, "address", 5)  # a text field binds a string
    for _ in range(3):
        ws.undo()
    assert ws.shown.spec == SPEC


def test_data_is_set_as_one_revision_an_emptied_one_goes_and_a_bad_one_is_refused() -> None:
    ws = open_ws(EMPTY)
    E.set_data(ws, {"user": {"name": "Ada"}}, "Add data.user")
    assert ws.shown.spec["data"] == {"user": {"name": "Ada"}}
    with pytest.raises(E.EditRefused, match=r"^Add data\.user: nothing changes$"):
        E.set_data(ws, {"user": {"name": "Ada"}}, "Add data.user")
    E.set_data(ws, {}, "Remove data.user")
    assert "data" not in ws.shown.spec
    ws.undo()
    assert ws.shown.spec["data"] == {"user": {"name": "Ada"}}


def test_platform_modules_are_added_and_removed_only_when_nothing_calls_them() -> None:
    ws = open_ws(EMPTY)
    with pytest.raises(E.EditRefused, match="is not available in this build"):
        E.add_platform_module(ws, "teleport")
    assert "requires" not in ws.shown.spec
    E.add_platform_module(ws, "calc")
    assert ws.shown.spec["requires"] == {"platform": ["calc"]}
    ws.select("root")
    E.insert_type(ws, "button")
    button = ws.shown.spec["root"]["children"][0]
    calls = {**button, "onTap": [{"type": "platform", "call": "calc.evaluate", "args": {"expression": "1+1"}}]}  # fmt: skip
    ws.edit_node("root.children[0]", calls, summary="Call calc")
    with pytest.raises(E.EditRefused) as refused:
        E.remove_platform_module(ws, "calc")
    assert str(refused.value).startswith("platform module 'calc' is still called by button")
    assert str(refused.value).endswith("(onTap[0]: calc.evaluate): change those first")
    ws.undo()  # the call
    E.remove_platform_module(ws, "calc")
    assert "requires" not in ws.shown.spec
    assert validate(ws.shown.spec).ok
