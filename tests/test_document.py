"""The Document: every edit is a validated revision; undo and redo walk them; listeners hear it."""

from __future__ import annotations

import copy

import pytest

from studio.document import Document, DocumentChange

SPEC = {
    "id": "doc",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"dark": False},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "switch", "id": "darkSwitch", "stateKey": "dark", "label": "Dark"},
        ],
    },
}


def test_apply_ops_records_a_user_revision_and_undo_restores_it() -> None:
    doc = Document(copy.deepcopy(SPEC), name="Doc")
    seen: list[DocumentChange] = []
    doc.subscribe(seen.append)
    node = {"type": "text", "id": "title", "text": "Welcome"}
    revision = doc.apply_ops(
        [{"op": "replaceNode", "id": "title", "node": node}], summary="Retitle"
    )
    assert doc.spec["root"]["children"][0]["text"] == "Welcome"
    assert revision.author == "user" and revision.summary == "Retitle"
    assert "title" in revision.changed
    assert [c.kind for c in seen] == ["revision"]
    doc.undo()
    assert doc.spec["root"]["children"][0]["text"] == "Hello"
    doc.redo()
    assert doc.spec["root"]["children"][0]["text"] == "Welcome"
    assert [c.kind for c in seen] == ["revision", "undo", "redo"]


def test_invalid_edit_changes_nothing() -> None:
    from studio.spec.patch import PatchError

    doc = Document(copy.deepcopy(SPEC), name="Doc")
    bad = {"type": "switch", "id": "darkSwitch", "stateKey": "missing"}
    with pytest.raises(PatchError) as info:
        doc.apply_ops([{"op": "replaceNode", "id": "darkSwitch", "node": bad}])
    assert "stateKey" in info.value.path
    assert doc.spec == SPEC
    assert not doc.revisions.can_undo()


def test_whole_spec_revision_for_window_changes() -> None:
    doc = Document(copy.deepcopy(SPEC), name="Doc")
    new = copy.deepcopy(SPEC)
    new["window"] = {"placement": {"type": "sheet", "edge": "bottom", "height": 300}}
    doc.replace_spec(new, summary="Sheet window")
    assert doc.spec["window"]["placement"]["type"] == "sheet"
    doc.undo()
    assert doc.spec["window"]["placement"]["type"] == "fullscreen"
