"""The inspector: form and JSON edits become validated revisions; invalid ones change nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from studio.document import Document
from studio.ui.inspector import InspectorPanel
from studio.workspace import Workspace

SPEC: dict[str, Any] = {
    "id": "i",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"on": False, "name": ""},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "button", "id": "go", "label": "Go", "variant": "filled"},
            {"type": "switch", "id": "sw", "stateKey": "on"},
        ],
    },
}


@pytest.fixture
def doc() -> Document:
    return Document(copy.deepcopy(SPEC), name="Inspector test")


@pytest.fixture
def ws(doc: Document) -> Workspace:
    workspace = Workspace()
    workspace.open(doc)
    return workspace


@pytest.fixture
def inspector(qtbot: Any) -> InspectorPanel:
    panel = InspectorPanel()
    qtbot.addWidget(panel)
    return panel


def test_nothing_selected_disables_the_form(
    ws: Workspace, inspector: InspectorPanel, doc: Document
) -> None:
    inspector.show_node(ws, None)
    assert inspector.title.text() == "Nothing selected"
    assert not inspector.tabs.isEnabled()
    inspector.show_node(ws, "no-such-node")
    assert not inspector.tabs.isEnabled()


def test_form_shows_the_common_fields(
    ws: Workspace, inspector: InspectorPanel, doc: Document
) -> None:
    inspector.show_node(ws, "go")
    assert inspector.title.text() == "button · go"
    assert inspector.editor("id").text() == "go"  # type: ignore[attr-defined]
    assert inspector.text_edit.text() == "Go"
    assert inspector.editor("variant").currentText() == "filled"  # type: ignore[attr-defined]
    assert "stateKey" not in inspector.field_names()  # a button binds no state
    assert json.loads(inspector.json_edit.toPlainText()) == SPEC["root"]["children"][1]


def test_form_edit_is_one_user_revision(
    ws: Workspace, inspector: InspectorPanel, doc: Document, qtbot: Any
) -> None:
    inspector.show_node(ws, "go")
    inspector.text_edit.setText("Continue")
    inspector.editor("variant").setCurrentText("outlined")  # type: ignore[attr-defined]
    with qtbot.waitSignal(inspector.edited) as blocker:
        inspector.apply_form_button.click()
    assert blocker.args == ["Set properties of button 'go'"]
    node = doc.spec["root"]["children"][1]
    assert node["label"] == "Continue" and node["variant"] == "outlined"
    [revision] = doc.revisions.revisions
    assert revision.author == "user" and revision.summary == "Set properties of button 'go'"
    doc.undo()
    assert doc.spec == SPEC


def test_unchanged_form_makes_no_revision(
    ws: Workspace, inspector: InspectorPanel, doc: Document, qtbot: Any
) -> None:
    inspector.show_node(ws, "title")
    with qtbot.assertNotEmitted(inspector.edited):
        inspector.apply_form()
    assert doc.revisions.revisions == []


def test_json_edit_applies(ws: Workspace, inspector: InspectorPanel, doc: Document) -> None:
    inspector.show_node(ws, "title")
    inspector.json_edit.setPlainText(
        json.dumps(
            {"type": "text", "id": "title", "text": "Hi", "style": {"textStyle": "headlineSmall"}}
        )
    )
    inspector.apply_json_button.click()
    assert doc.spec["root"]["children"][0]["style"] == {"textStyle": "headlineSmall"}
    assert inspector.error_text() == ""


def test_invalid_json_edit_shows_path_and_changes_nothing(
    ws: Workspace, inspector: InspectorPanel, doc: Document, qtbot: Any
) -> None:
    inspector.show_node(ws, "sw")
    inspector.json_edit.setPlainText(json.dumps({"type": "switch", "id": "sw", "stateKey": "name"}))
    with qtbot.assertNotEmitted(inspector.edited):
        inspector.apply_json_button.click()
    assert not inspector.error.isHidden()
    assert "stateKey" in inspector.error_text()
    assert doc.spec == SPEC and doc.revisions.revisions == []


def test_json_syntax_error_names_line_and_column(
    ws: Workspace, inspector: InspectorPanel, doc: Document
) -> None:
    inspector.show_node(ws, "title")
    inspector.json_edit.setPlainText('{"type": "text",\n "text": }')
    inspector.apply_json()
    assert inspector.error_text().startswith("JSON line 2 column")
    assert doc.spec == SPEC


def test_renaming_the_id_follows_the_node(
    ws: Workspace, inspector: InspectorPanel, doc: Document
) -> None:
    inspector.show_node(ws, "title")
    inspector.editor("id").setText("heading")  # type: ignore[attr-defined]
    inspector.apply_form()
    assert doc.spec["root"]["children"][0]["id"] == "heading"
    assert inspector.title.text() == "text · heading"


def test_root_edit_is_a_whole_spec_revision(
    ws: Workspace, inspector: InspectorPanel, doc: Document
) -> None:
    inspector.show_node(ws, "root")
    root = copy.deepcopy(SPEC["root"])
    root["children"] = root["children"][:1]
    inspector.json_edit.setPlainText(json.dumps(root))
    inspector.apply_json()
    assert len(doc.spec["root"]["children"]) == 1
    assert len(doc.revisions.revisions) == 1


def test_a_node_of_the_agents_draft_is_refused_in_one_line(
    ws: Workspace, inspector: InspectorPanel, doc: Document, qtbot: Any
) -> None:
    from studio.library.revisions import Revision
    from studio.spec.patch import apply_patch

    node = {"type": "button", "id": "go", "label": "Send"}
    result = apply_patch(doc.spec, [{"op": "replaceNode", "id": "go", "node": node}])
    draft = Revision(result.spec, "agent", "Send", ops=list(result.ops), changed=result.changed)
    ws.show_draft("run", doc.spec, [draft])
    inspector.show_node(ws, "go")
    assert inspector.text_edit.text() == "Send"  # the inspector shows the draft
    refusal = "'go' is part of the agent's draft: apply or discard the draft to edit it"
    assert inspector.error_text() == refusal  # said before the user types
    inspector.text_edit.setText("Mine")
    with qtbot.assertNotEmitted(inspector.edited):
        inspector.apply_form_button.click()
    assert inspector.error_text() == refusal
    assert doc.spec == SPEC
    # Another node is edited as usual: the edit goes to the document.
    inspector.show_node(ws, "title")
    assert inspector.error_text() == ""
    inspector.text_edit.setText("Welcome")
    inspector.apply_form_button.click()
    assert doc.spec["root"]["children"][0]["text"] == "Welcome"
    assert ws.shown.spec["root"]["children"][1]["label"] == "Send"


def test_tab_leaves_the_json_editor(ws: Workspace, inspector: InspectorPanel) -> None:
    """The walkthrough's keyboard trap (step 10): Tab moves on, it never types a tab."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    inspector.show()
    inspector.show_node(ws, "title")
    inspector.tabs.setCurrentIndex(1)
    inspector.json_edit.setFocus()
    before = inspector.json_edit.toPlainText()
    QTest.keyClick(inspector.json_edit, Qt.Key.Key_Tab)
    assert inspector.json_edit.toPlainText() == before
    assert "\t" not in inspector.json_edit.toPlainText()


def test_selecting_and_clearing_again_and_again_keeps_one_form_per_type(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    """The kept forms (one per node type) do not pile up: a long session of selecting nodes and
    clearing the selection holds as many forms as the types it showed, and each shows its node."""
    inspector.show_node(ws, "title")
    inspector.show_node(ws, None)
    inspector.show_node(ws, "go")
    held = len(inspector.children())
    for _ in range(10):
        for address in ("title", None, "go", "sw", None):
            inspector.show_node(ws, address)
    inspector.show_node(ws, "go")
    assert len(inspector.children()) == held + 1  # the switch's form, made once
    assert inspector.text_edit.text() == "Go"
    inspector.show_node(ws, None)
    assert inspector.title.text() == "Nothing selected" and not inspector.tabs.isEnabled()
