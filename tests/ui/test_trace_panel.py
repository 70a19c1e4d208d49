"""The trace panel: every step of a run, expandable, with the trace id; saved runs open and replay."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication

from studio.agent.testing import ScriptedModel, calls, reply
from studio.ui.trace_panel import TracePanel
from tests.helpers.waiting import run_until
from tests.ui.agent_helpers import (
    RENAME,
    SheetMaker,
    close_sheet,
    collect_qt_garbage,
    finish,
    new_document,
    sheet_maker,
)


@pytest.fixture(autouse=True, scope="module")
def _leave_no_qt_garbage() -> Iterator[None]:
    yield
    collect_qt_garbage()


@pytest.fixture
def make_sheet(qtbot: Any, qloop: Any) -> Iterator[SheetMaker]:
    yield from sheet_maker(qtbot, qloop)


def _run_with_tools(make_sheet: SheetMaker, qloop: Any) -> Any:
    bad = {
        "ops": [{"op": "replaceNode", "id": "nope", "node": {"type": "text", "text": "x"}}],
        "summary": "Bad",
    }
    model = ScriptedModel(
        [
            calls(("readNode", {"id": "title"})),
            calls(("patch", bad)),
            calls(("patch", RENAME)),
            reply("Renamed."),
        ]
    )
    doc = new_document()
    sheet = make_sheet(doc, model)
    sheet.instruction.setPlainText("Rename")
    sheet.send_button.click()
    assert finish(qloop, sheet) == "completed"
    run_until(qloop, lambda: sheet.driver.last_snapshot is not None)
    return sheet, doc


def _top(panel: TracePanel) -> list[Any]:
    return [panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())]


def test_every_step_is_listed_with_arguments_result_duration_and_error(
    make_sheet: SheetMaker, qloop: Any
) -> None:
    sheet, _ = _run_with_tools(make_sheet, qloop)
    panel = sheet.trace
    session = sheet.driver.session
    assert panel.trace_id == session.trace_id and panel.trace_label.text() == session.trace_id
    items = _top(panel)
    names = [i.text(0) for i in items]
    assert names.count("model request") == 4 and names.count("model response") == 4
    assert names[-1] == "run end" and "completed" in items[-1].text(1)
    read = items[names.index("readNode")]
    assert read.text(2) != ""  # duration in ms
    float(read.text(2))
    assert read.text(3) == ""  # no error
    children = {read.child(i).text(0): read.child(i) for i in range(read.childCount())}
    assert json.loads(children["arguments"].data(1, 0x0100)) == {"id": "title"}
    assert '"text": "Hello"' in children["result"].data(1, 0x0100)
    patches = [i for i in items if i.text(0) == "patch"]
    assert [p.text(3) for p in patches] == ["tool_error", ""]  # the rejected one has its class
    assert "patch rejected" in patches[0].text(1)
    close_sheet(qloop, sheet)


def test_copy_buttons_copy_the_trace_id_and_the_steps(make_sheet: SheetMaker, qloop: Any) -> None:
    sheet, _ = _run_with_tools(make_sheet, qloop)
    panel = sheet.trace
    panel.copy_id_button.click()
    assert QGuiApplication.clipboard().text() == panel.trace_id
    panel.copy_json_button.click()
    copied = json.loads(QGuiApplication.clipboard().text())
    assert copied["trace_id"] == panel.trace_id
    assert len(copied["steps"]) == panel.tree.topLevelItemCount()
    close_sheet(qloop, sheet)


def test_a_saved_run_opens_and_replays_in_the_sheet(make_sheet: SheetMaker, qloop: Any) -> None:
    sheet, _ = _run_with_tools(make_sheet, qloop)
    path = sheet.driver.last_snapshot
    recorded = [r.summary for r in sheet.driver.draft_revisions]
    close_sheet(qloop, sheet)

    # A fresh studio: a new document, a sheet whose model must never be called.
    doc = new_document()
    fresh = make_sheet(doc, ScriptedModel([]))
    panel = fresh.trace
    snapshot = qloop.run_until_complete(panel.open_snapshot(path))
    assert snapshot is not None
    assert panel.trace_id == snapshot["trace_id"]
    assert panel.tree.topLevelItemCount() == len(snapshot["trace"])
    assert "1 instruction(s)" in panel.message.text() and "completed" in panel.message.text()
    assert panel.replay_button.isEnabled()
    panel.replay_button.click()
    assert finish(qloop, fresh) == "completed"
    assert [r.summary for r in fresh.driver.draft_revisions] == recorded
    assert fresh.chat.bubbles[-1].text() == "Renamed."
    assert fresh.trace.trace_id != snapshot["trace_id"]  # the replay is a run of its own
    fresh.apply_button.click()
    assert doc.revisions.applied[-1].author == "agent"
    close_sheet(qloop, fresh)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("not json", "cannot read the run snapshot"),
        ('{"format": "other"}', "not a Proto Studio agent run snapshot"),
    ],
)
def test_a_bad_snapshot_file_says_what_is_wrong(
    qtbot: Any, qloop: Any, tmp_path: Path, content: str, expected: str
) -> None:
    panel = TracePanel()
    qtbot.addWidget(panel)
    bad = tmp_path / "run.json"
    bad.write_text(content)
    assert qloop.run_until_complete(panel.open_snapshot(bad)) is None
    assert str(bad) in panel.message.text() and expected in panel.message.text()
    assert "\n" not in panel.message.text()
    assert not panel.replay_button.isEnabled()
