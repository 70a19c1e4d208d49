"""The workspace: one owner of what is shown, the rule for user edits during a review, rebase,
stale reviews, selection and the property-level diff of a draft (plain Python, no Qt)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from studio.document import Document
from studio.library.revisions import Revision
from studio.spec.patch import PatchError, apply_patch
from studio.workspace import (
    DocumentEdited,
    ReviewChanged,
    ReviewConflict,
    Selection,
    SelectionChanged,
    ShownChanged,
    Workspace,
    WorkspaceEvent,
)

SPEC: dict[str, Any] = {
    "id": "form",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"email": ""},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Sign in"},
            {"type": "textField", "id": "email", "stateKey": "email", "placeholder": "Email"},
            {
                "type": "button",
                "id": "submit",
                "label": "Go",
                "icon": "login",
                "onTap": [{"type": "setState", "key": "email", "value": ""}],
            },
            {"type": "text", "id": "footer", "text": "Help"},
        ],
    },
}
#: The agent replaces the button: a new label, and its icon and onTap dropped.
SUBMIT = {"type": "button", "id": "submit", "label": "Send", "variant": "tonal"}


def draft_revisions(base: dict[str, Any], *op_lists: list[dict[str, Any]]) -> list[Revision]:
    """Revisions as the agent's draft makes them (validated patches over `base`)."""
    out: list[Revision] = []
    spec = base
    for n, ops in enumerate(op_lists):
        result = apply_patch(spec, ops)
        out.append(
            Revision(
                spec=result.spec,
                author="agent",
                summary=f"agent edit {n + 1}",
                ops=[dict(op) for op in result.ops],
                instruction="Make the button say Send",
                changed=result.changed,
            )
        )
        spec = result.spec
    return out


class Owner:
    """A draft owner as the run driver is: it records every rebase the workspace tells it of."""

    def __init__(self) -> None:
        self.rebases: list[tuple[dict[str, Any], tuple[Revision, ...]]] = []

    def rebased(self, base: dict[str, Any], revisions: tuple[Revision, ...]) -> None:
        self.rebases.append((base, revisions))


@pytest.fixture
def ws() -> Workspace:
    workspace = Workspace()
    workspace.open(Document(copy.deepcopy(SPEC), name="form"))
    return workspace


def texts(spec: dict[str, Any]) -> list[Any]:
    return [c.get("text") or c.get("label") for c in spec["root"]["children"]]


def open_review(ws: Workspace, owner: Owner | None = None) -> None:
    assert ws.document is not None
    base = ws.document.spec
    revisions = draft_revisions(base, [{"op": "replaceNode", "id": "submit", "node": SUBMIT}])
    ws.show_draft("run-1", base, revisions, owner=owner)


def record(ws: Workspace) -> list[WorkspaceEvent]:
    seen: list[WorkspaceEvent] = []
    ws.subscribe(seen.append)
    return seen


def test_the_draft_is_shown_while_under_review_and_the_document_is_untouched(ws: Workspace) -> None:
    events = record(ws)
    open_review(ws)
    assert ws.shown.source == "review"
    assert texts(ws.shown.spec) == ["Sign in", None, "Send", "Help"]
    assert ws.shown.highlight == ("submit",) and ws.shown.changed == ("submit",)
    assert ws.document is not None and ws.document.spec == SPEC
    assert [type(e) for e in events] == [ReviewChanged, ShownChanged]
    assert isinstance(events[0], ReviewChanged) and events[0].reason == "opened"


def test_user_edits_in_the_inspector_while_a_draft_is_under_review(ws: Workspace) -> None:
    """The scenario of issue 11: an edit elsewhere lands in the document and the draft is
    rebased on it, so both changes are shown; an edit of the draft's node is refused."""
    owner = Owner()
    open_review(ws, owner)
    events = record(ws)
    title = {"type": "text", "id": "title", "text": "Welcome back"}
    ws.edit_node("title", title, summary="Edit title (form)")

    document = ws.document
    assert document is not None
    # The edit went to the document, which does not have the draft's change.
    assert texts(document.spec) == ["Welcome back", None, "Go", "Help"]
    assert document.revisions.applied[-1].author == "user"
    # What is shown is the draft, rebased on the edit: both changes, and the review says so.
    review = ws.review
    assert review is not None and review.rebased and not review.stale
    assert review.base is document.spec
    assert texts(ws.shown.spec) == ["Welcome back", None, "Send", "Help"]
    assert ws.shown.source == "review" and ws.shown.changed == ("title",)
    assert [type(e) for e in events] == [DocumentEdited, ReviewChanged, ShownChanged]
    assert isinstance(events[1], ReviewChanged) and events[1].reason == "rebased"
    # The draft's owner (the agent's driver) now works on the rebased draft.
    assert owner.rebases and owner.rebases[-1][0] is document.spec
    assert texts(owner.rebases[-1][1][-1].spec) == ["Welcome back", None, "Send", "Help"]

    # The node the draft replaced cannot be edited until the draft is applied or discarded.
    with pytest.raises(ReviewConflict) as refused:
        ws.edit_node("submit", {**SUBMIT, "label": "Mine"}, summary="Edit submit (form)")
    assert str(refused.value) == (
        "'submit' is part of the agent's draft: apply or discard the draft to edit it"
    )
    assert ws.locked("submit") == str(refused.value) and ws.locked("title") is None
    assert texts(document.spec) == ["Welcome back", None, "Go", "Help"]

    # Applying lands both: the user's revision, then the agent's.
    revision = ws.apply_review()
    assert [r.author for r in document.revisions.applied] == ["user", "agent"]
    assert revision.changed == ("submit",)
    assert texts(document.spec) == ["Welcome back", None, "Send", "Help"]
    assert ws.review is None and ws.shown.source == "document" and ws.shown.highlight == ()


def test_an_edit_the_draft_no_longer_applies_to_makes_the_review_stale(ws: Workspace) -> None:
    open_review(ws)
    events = record(ws)
    # The user renames the button's id in the document (by hand, as the JSON tab would): the
    # draft's replaceNode of "submit" has nothing to replace any more.
    ws.apply_ops(
        [
            {
                "op": "replaceNode",
                "id": "submit",
                "node": {"type": "button", "id": "ok", "label": "OK"},
            }
        ],
        summary="rename the button",
    )
    review = ws.review
    assert review is not None and review.stale
    assert review.problem is not None and "submit" in review.problem
    assert "agent edit 1" in review.problem
    # What is shown is the document (with the user's edit), never the stale draft.
    assert ws.shown.source == "document"
    assert texts(ws.shown.spec) == ["Sign in", None, "OK", "Help"]
    assert [e.reason for e in events if isinstance(e, ReviewChanged)] == ["stale"]
    with pytest.raises(RuntimeError, match="no longer applies"):
        ws.apply_review()
    # Undo goes to the document: the draft applies again and is shown again.
    ws.undo()
    review = ws.review
    assert review is not None and not review.stale and review.rebased
    assert texts(ws.shown.spec) == ["Sign in", None, "Send", "Help"]
    ws.discard_review()
    assert ws.review is None and ws.shown.spec == SPEC


def test_an_edit_of_an_ancestor_keeps_the_documents_version_of_the_draft(ws: Workspace) -> None:
    open_review(ws)
    root = copy.deepcopy(ws.shown.spec["root"])
    root["style"] = {"spacing": 8}  # the user edits the column that holds the draft's button
    ws.edit_node("root", root, summary="Space the column")
    document = ws.document
    assert document is not None
    assert document.spec["root"]["style"] == {"spacing": 8}
    # The document keeps its own button; the draft's button stays the draft's.
    assert document.spec["root"]["children"][2]["label"] == "Go"
    assert ws.shown.spec["root"]["children"][2]["label"] == "Send"
    assert ws.shown.spec["root"]["style"] == {"spacing": 8}
    # Changing the draft's button through its ancestor is refused too.
    root = copy.deepcopy(ws.shown.spec["root"])
    root["children"][2]["label"] = "Sneaky"
    with pytest.raises(ReviewConflict, match="would change 'submit'"):
        ws.edit_node("root", root, summary="Edit root")
    assert document.spec["root"]["children"][2]["label"] == "Go"


def test_state_edits_and_redo_go_to_the_document_and_rebase(ws: Workspace) -> None:
    open_review(ws)
    ws.apply_ops([{"op": "add", "path": "/state/remember", "value": True}], summary="state")
    assert ws.shown.spec["state"]["remember"] is True and ws.shown.source == "review"
    ws.undo()
    assert "remember" not in ws.shown.spec["state"] and ws.shown.source == "review"
    ws.redo()
    assert ws.shown.spec["state"]["remember"] is True
    assert ws.review is not None and not ws.review.stale


def test_the_review_diff_names_the_dropped_properties(ws: Workspace) -> None:
    open_review(ws)
    review = ws.review
    assert review is not None
    [diff] = review.node_diffs
    assert (diff.address, diff.node_type, diff.kind) == ("submit", "button", "changed")
    assert set(diff.removed) == {"icon", "onTap"}
    assert diff.added == {"variant": "tonal"}
    assert diff.changed == {"label": ("Go", "Send")}
    assert (
        diff.summary() == 'submit (button): label "Go" → "Send"; added variant; removed icon, onTap'
    )


def test_the_diff_of_an_added_child_a_removed_one_and_a_state_change() -> None:
    spec = copy.deepcopy(SPEC)
    spec["root"]["children"] = [
        {"type": "column", "id": "form", "children": copy.deepcopy(SPEC["root"]["children"])}
    ]
    ws = Workspace()
    ws.open(Document(spec, name="nested"))
    form = copy.deepcopy(spec["root"]["children"][0])
    form["children"].insert(1, {"type": "text", "id": "hint", "text": "Use your work email"})
    del form["children"][-1]  # the footer goes
    revisions = draft_revisions(
        spec,
        [{"op": "replaceNode", "id": "form", "node": form}],
        [{"op": "add", "path": "/state/remember", "value": False}],
    )
    ws.show_draft("run-2", spec, revisions)
    review = ws.review
    assert review is not None
    assert review.owned == ("root.children[0]",)  # the column whose children changed
    assert [d.summary() for d in review.node_diffs] == [
        "hint (text): added",
        "footer (text): removed",
    ]
    assert [d.summary() for d in review.value_diffs] == ["state.remember: added false"]
    # Inside the draft's column every node is the draft's; outside it edits are fine.
    assert ws.locked("email") is not None and ws.locked("hint") is not None


def test_selection_is_ordered_with_a_primary_and_follows_the_shown_spec(ws: Workspace) -> None:
    events = record(ws)
    ws.select("title", "email")
    assert ws.selection == Selection(("title", "email"), "email")
    ws.select("title", "email", primary="title")
    assert ws.selection.primary == "title"
    # An edit that renames the selected node's id keeps it selected under its new address.
    ws.select("title")
    ws.edit_node("title", {"type": "text", "id": "heading", "text": "Hi"}, summary="rename")
    assert ws.selection == Selection(("heading",), "heading")
    # A node that disappears from what is shown leaves the selection.
    assert ws.document is not None
    base = ws.document.spec
    column = base["root"]
    revisions = draft_revisions(
        base, [{"op": "replaceNode", "id": "heading", "node": {"type": "text", "text": "x"}}]
    )
    ws.show_draft("run-3", base, revisions)
    assert ws.selection == Selection()
    assert isinstance(events[-1], SelectionChanged) and column is base["root"]


def test_opening_another_document_closes_the_review(ws: Workspace) -> None:
    open_review(ws)
    events = record(ws)
    ws.open(Document(copy.deepcopy(SPEC), name="other"))
    assert ws.review is None and ws.shown.fresh and ws.shown.source == "document"
    assert any(isinstance(e, ReviewChanged) and e.reason == "closed" for e in events)


def test_a_draft_made_on_an_older_document_is_rebased_when_shown(ws: Workspace) -> None:
    document = ws.document
    assert document is not None
    base = document.spec
    ws.edit_node("footer", {"type": "text", "id": "footer", "text": "Need help?"}, summary="f")
    owner = Owner()
    revisions = draft_revisions(base, [{"op": "replaceNode", "id": "submit", "node": SUBMIT}])
    review = ws.show_draft("run-4", base, revisions, owner=owner)
    assert review is not None and review.rebased and review.base is document.spec
    assert texts(ws.shown.spec) == ["Sign in", None, "Send", "Need help?"]
    assert len(owner.rebases) == 1


def test_document_replace_spec_validates_and_refuses_an_invalid_spec() -> None:
    document = Document(copy.deepcopy(SPEC), name="form")
    bad = copy.deepcopy(SPEC)
    bad["root"]["children"][1]["stateKey"] = "missing"
    with pytest.raises(PatchError) as refused:
        document.replace_spec(bad, summary="bad")
    assert refused.value.path.endswith("stateKey") and refused.value.index is None
    assert document.spec == SPEC and not document.revisions.can_undo()
    good = copy.deepcopy(SPEC)
    good["window"] = {"placement": {"type": "sheet", "edge": "bottom", "height": 300}}
    revision = document.replace_spec(good, summary="sheet")
    assert revision.spec == good and revision.spec is not good  # a validated copy
