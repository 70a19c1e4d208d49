"""MCP servers declared in mcp.json are hosted by the studio window for its agent: a real
FastMCP server (tests/service/notes_server.py) over stdio, started by the studio; its read-only
tool runs without asking, the other asks in the window's consent dialog with its resolved
arguments (the secret masked), and only an allowed call reaches the server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from studio.agent.mcp_host import save_mcp_config
from studio.agent.providers import FixedModel
from studio.agent.testing import ScriptedModel, calls, reply
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.waiting import run_until
from tests.service.helpers import make_library
from tests.service.test_mcp_host import notes_stdio

pytestmark = pytest.mark.slow
SECRET = "tok-window-5566778899"  # not another test's: the process-wide masker keeps what it learns


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_the_window_hosts_declared_servers_behind_its_consent_dialog(
    qloop: asyncio.AbstractEventLoop, make_studio: Any, qapp: Any, tmp_path: Path
) -> None:
    qapp.setQuitOnLastWindowClosed(False)
    notes = tmp_path / "notes.txt"
    save_mcp_config([notes_stdio(notes)])
    _, entry_id = make_library("Demo")
    model = ScriptedModel(
        [
            calls(("mcp__notes__lookup", {"word": "inbox"})),
            calls(
                (
                    "mcp__notes__save_note",
                    {"title": "Inbox", "text": "rename it", "api_token": SECRET},
                )
            ),
            calls(("mcp__notes__save_note", {"title": "Again", "text": "no"})),
            reply("Looked it up and saved a note."),
        ]
    )
    s = make_studio(models=FixedModel(model))
    s.wait_for(lambda: s.studio.mcp is not None and s.studio.mcp.servers() == {"notes": None})
    consent_ui = s.studio.platform.consent_ui()
    opened: list[Any] = []

    def answer(dialog: Any) -> None:
        opened.append(
            (
                dialog.sentence.text(),
                {k: f.toPlainText() for k, f in dialog.argument_fields.items()},
            )
        )
        button = dialog.allow_once if len(opened) == 1 else dialog.deny
        QTimer.singleShot(0, button.click)

    consent_ui.dialog_opened.connect(answer)
    s.controller.open_entry(entry_id)
    s.settle()
    sheet = s.sheet
    sheet.instruction.setPlainText("Look up inbox and note it")
    sheet.send_button.click()
    run_until(qloop, lambda: bool(sheet.terminal_events), 60)
    assert sheet.terminal_events[-1].status == "completed"
    model.assert_complete()

    # One question per call that is not read-only; the lookup ran without one.
    assert len(opened) == 2
    sentence, fields = opened[0]
    assert "save_note" in sentence and "notes" in sentence
    assert fields["title"] == "Inbox" and fields["text"] == "rename it"
    assert SECRET not in fields["api_token"]
    outputs = [m["content"] for r in model.requests for m in r.messages if m["role"] == "tool"]
    assert any("where new mail arrives" in o for o in outputs)
    assert any("denied by the user" in o for o in outputs)
    # Only the allowed call reached the server.
    assert notes.read_text(encoding="utf-8") == f"Inbox: rename it (token {len(SECRET)} chars)\n"
