"""The revision list: newest first with author, summary and time; undo/redo buttons."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from studio.document import Document
from studio.ui.revisions_panel import RevisionsPanel

SPEC: dict[str, Any] = {
    "id": "r",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {"type": "column", "children": [{"type": "text", "id": "title", "text": "A"}]},
}


def edit(doc: Document, text: str, author: Any = "user") -> None:
    node = {"type": "text", "id": "title", "text": text}
    doc.apply_ops(
        [{"op": "replaceNode", "address": "title", "node": node}],
        author=author,
        summary=f"Say {text}",
    )


@pytest.fixture
def panel(qtbot: Any) -> RevisionsPanel:
    panel = RevisionsPanel()
    qtbot.addWidget(panel)
    return panel


def test_lists_revisions_newest_first_with_author(panel: RevisionsPanel) -> None:
    doc = Document(copy.deepcopy(SPEC), name="r")
    edit(doc, "B")
    edit(doc, "C", author="agent")
    panel.show_log(doc.revisions)
    assert panel.entries() == ["Say C", "Say B", "Opened"]
    second_line = panel.list.item(0).text().split("\n")[1]
    assert second_line.startswith("agent · ")
    assert panel.undo_button.isEnabled() and not panel.redo_button.isEnabled()


def test_undone_revisions_stay_listed_and_redo_enables(panel: RevisionsPanel) -> None:
    doc = Document(copy.deepcopy(SPEC), name="r")
    edit(doc, "B")
    doc.undo()
    panel.show_log(doc.revisions)
    assert panel.entries() == ["Say B", "Opened"]
    assert panel.list.item(0).foreground().color().getRgb()[:3] == (128, 128, 128)
    assert not panel.undo_button.isEnabled() and panel.redo_button.isEnabled()


def test_buttons_request_undo_and_redo(panel: RevisionsPanel, qtbot: Any) -> None:
    doc = Document(copy.deepcopy(SPEC), name="r")
    edit(doc, "B")
    doc.undo()
    edit(doc, "C")
    panel.show_log(doc.revisions)
    with qtbot.waitSignal(panel.undoRequested):
        panel.undo_button.click()
    panel.show_log(None)
    assert panel.entries() == [] and not panel.undo_button.isEnabled()
