"""In the studio the agent's `preview` tool reads the real renderer: the draft, with bounds."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import QMainWindow

from studio.agent.testing import ScriptedModel, calls, reply
from studio.preview.widget import PreviewWidget
from studio.spec import expand
from studio.ui.agent_bridge import AgentConfig, FixedModel
from studio.ui.agent_sheet import install_agent_sheet
from tests.ui.agent_helpers import RENAME, close_sheet, finish, new_document


def test_preview_tool_summarises_the_rendered_draft_with_bounds(qtbot: Any, qloop: Any) -> None:
    document = new_document()
    window = QMainWindow()
    qtbot.addWidget(window)
    preview = PreviewWidget(window)
    window.setCentralWidget(preview)
    window.resize(900, 900)
    window.show()
    preview.set_spec(expand(document.spec))
    model = ScriptedModel([calls(("patch", RENAME)), calls(("preview", {})), reply("Done.")])
    sheet = install_agent_sheet(
        window,
        lambda: document,
        preview,
        None,
        models=FixedModel(model),
        config=AgentConfig(max_turns=5, token_budget=10_000),
    )
    sheet.refresh_document()
    sheet.instruction.setPlainText("Rename the title")
    sheet.send_button.click()
    assert finish(qloop, sheet) == "completed"
    model.assert_complete()
    tool_results = [
        m
        for m in model.requests[-1].messages
        if m.get("role") == "tool" and "Inbox" in m["content"]
    ]
    assert tool_results, "the preview tool's result did not show the draft"
    summary = json.loads(tool_results[-1]["content"])
    entries = summary["onScreen"]
    inbox = [e for e in entries if e.get("text") == "Inbox"]
    assert inbox and {"x", "y", "width", "height"} <= set(inbox[0]["bounds"])
    assert inbox[0]["bounds"]["width"] > 0
    # The document itself is untouched until the user applies the draft.
    assert document.spec["root"]["children"][0]["text"] == "Hello"
    close_sheet(qloop, sheet)
