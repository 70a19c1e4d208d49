"""Structural edits and live edits through the workspace: one validated revision each, the new
nodes selected, refusals change nothing, the agent's draft is protected (plain Python, no Qt)."""

from __future__ import annotations

import copy

import pytest

from studio.document import Document
from studio.spec import edit, tree
from studio.spec.patch import PatchError
from studio.workspace import ReviewConflict, SelectionChanged, ShownChanged, Workspace
from tests.workspace.test_workspace import SPEC, SUBMIT, draft_revisions, record


@pytest.fixture
def ws() -> Workspace:
    workspace = Workspace()
    workspace.open(Document(copy.deepcopy(SPEC), name="form"))
    return workspace


def ids(ws: Workspace) -> list[str | None]:
    return [c.get("id") for c in ws.shown.spec["root"]["children"]]


def test_an_insert_is_one_revision_with_its_summary_and_selects_the_new_node(
    ws: Workspace,
) -> None:
    events = record(ws)
    revision = ws.apply_edit(edit.insert_new(ws.shown.spec, "button", "root"))
    assert revision.summary == "Insert button into column"
    assert ids(ws) == ["title", "email", "submit", "footer", "button1"]
    assert ws.selection.addresses == ("button1",)
    assert [type(e) for e in events][-1] is SelectionChanged
    ws.undo()
    assert ids(ws) == ["title", "email", "submit", "footer"]
    assert ws.selection.addresses == ()  # the inserted node is gone
    ws.redo()
    assert ids(ws) == ["title", "email", "submit", "footer", "button1"]


def test_multi_selection_deletes_duplicates_and_moves_together(ws: Workspace) -> None:
    ws.select("title", "footer")
    paths = [tree.find_id(ws.shown.spec, a)[0] for a in ws.selection.addresses]
    ws.apply_edit(edit.duplicate(ws.shown.spec, paths))
    assert ids(ws) == ["title", "title2", "email", "submit", "footer", "footer2"]
    assert ws.selection.addresses == ("title2", "footer2")
    ws.apply_edit(edit.move_by(ws.shown.spec, ["root.children[1]", "root.children[5]"], -1))
    assert ids(ws) == ["title2", "title", "email", "submit", "footer2", "footer"]
    ws.apply_edit(edit.delete(ws.shown.spec, ["root.children[0]", "root.children[4]"]))
    assert ids(ws) == ["title", "email", "submit", "footer"]
    assert ws.document is not None and len(ws.document.revisions.applied) == 3


def test_an_invalid_structural_edit_changes_nothing(ws: Workspace) -> None:
    before = ws.shown.spec
    bad = edit.paste(
        before,
        edit.parse_clip('{"type": "slider", "stateKey": "v", "min": 2, "max": 1}'),
        "root",
        "inside",
    )
    with pytest.raises(PatchError) as info:
        ws.apply_edit(bad)
    assert info.value.path == "root.children[4].max"
    assert ws.shown.spec is before
    assert ws.document is not None and not ws.document.revisions.can_undo()


def test_structural_edits_keep_the_agents_draft(ws: Workspace) -> None:
    assert ws.document is not None
    base = ws.document.spec
    ws.show_draft(
        "r", base, draft_revisions(base, [{"op": "replaceNode", "id": "submit", "node": SUBMIT}])
    )
    # Moving the draft's button is refused; deleting the footer (after it) is not.
    with pytest.raises(ReviewConflict):
        ws.apply_edit(edit.move_by(ws.shown.spec, ["root.children[2]"], -1))
    ws.apply_edit(edit.delete(ws.shown.spec, ["root.children[3]"]))
    assert ids(ws) == ["title", "email", "submit"]
    assert ws.shown.source == "review" and ws.shown.spec["root"]["children"][2]["label"] == "Send"
    assert ws.document.spec["root"]["children"][2]["label"] == "Go"


def test_a_live_edit_is_shown_without_a_revision_and_ends_with_a_commit(ws: Workspace) -> None:
    events = record(ws)
    title = {"type": "text", "id": "title", "text": "Welcome"}
    assert ws.preview_node("title", title).ok
    assert ws.shown.pending and ws.shown.spec["root"]["children"][0]["text"] == "Welcome"
    assert ws.shown.changed == ("title",)
    assert ws.document is not None and ws.document.spec == SPEC
    # A half-typed id does not drop the selection.
    ws.select("title")
    assert ws.preview_node("title", {**title, "id": "ti"}).ok
    assert ws.selection.addresses == ("title",)
    # An invalid value is not shown: what was committed is shown again, and the result says why.
    result = ws.preview_node("title", {"type": "text", "id": "title"})
    assert not result.ok and result.path == "root.children[0].text"
    assert not ws.shown.pending and ws.shown.spec is ws.document.spec
    ws.preview_node("title", title)
    ws.edit_node("title", title, summary="Edit title")
    assert not ws.shown.pending and ws.document.spec["root"]["children"][0]["text"] == "Welcome"
    assert [type(e) for e in events].count(ShownChanged) >= 4
    # Any other edit ends a live edit.
    ws.preview_node("footer", {"type": "text", "id": "footer", "text": "?"})
    ws.undo()
    assert not ws.shown.pending and ws.shown.spec["root"]["children"][3]["text"] == "Help"
