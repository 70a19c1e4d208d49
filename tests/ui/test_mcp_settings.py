"""Agent settings' MCP servers list: mcp.json shown, servers added, turned off and checked as the
host checks them; a secret typed into the form goes to the OS keychain and never into mcp.json
or a widget; saving restarts the studio's hosted servers (a real FastMCP server over stdio)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit

from studio.agent.config import AgentConfig
from studio.agent.keys import SERVICE, KeyStore
from studio.agent.mcp_host import load_mcp_config, mcp_config_path, save_mcp_config
from studio.ui.agent_settings import AgentSettingsDialog
from tests.helpers.waiting import run_until
from tests.service.test_mcp_host import REPO, notes_stdio
from tests.ui.agent_helpers import collect

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
SECRET = "Bearer s3cr3t-XYZ-0123456789"


def _texts(widget: Any) -> str:
    parts = [w.text() for w in widget.findChildren(QLabel)]
    parts += [w.text() for w in widget.findChildren(QLineEdit)]
    parts += [w.toPlainText() for w in widget.findChildren(QPlainTextEdit)]
    editor = widget.mcp_servers
    parts += [editor.list.item(i).text() for i in range(editor.list.count())]
    return "\n".join(parts)


def test_the_list_edits_mcp_json_and_keeps_secrets_in_the_keychain(
    qtbot: Any, qloop: Any, tmp_path: Path, _memory_keyring: Any
) -> None:
    save_mcp_config([notes_stdio(tmp_path / "n.txt")])
    http = httpx.AsyncClient()
    dialog = AgentSettingsDialog(AgentConfig(), http=http, keys=KeyStore(), probe=False)
    qtbot.addWidget(dialog)
    editor = dialog.mcp_servers
    run_until(qloop, lambda: editor.loaded)
    assert editor.list.count() == 1
    assert editor.list.item(0).text().startswith("notes  ·  stdio  ·  ")

    # A bad entry is refused with the host's own words, and nothing is added.
    editor.list.setCurrentRow(-1)
    editor.name.setText("bad name!")
    editor.transport.setCurrentIndex(1)
    editor.url.setText("https://mcp.example.com/mcp")
    editor.add_button.click()
    assert "must be 1-32 letters, digits" in editor.message.text()
    editor.name.setText("web")
    editor.url.setText("ftp://x")
    editor.add_button.click()
    assert "needs a url starting http:// or https://" in editor.message.text()
    assert editor.list.count() == 1

    editor.url.setText("https://mcp.example.com/mcp")
    editor.values.setPlainText(f"Authorization={SECRET}")
    editor.add_button.click()
    assert editor.list.count() == 2 and "Added 'web'" in editor.message.text()
    assert SECRET not in _texts(dialog)  # the form shows the keychain's placeholder now
    editor.list.item(0).setCheckState(Qt.CheckState.Unchecked)  # notes: off

    saved = collect(dialog.mcpSaved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved))
    text = mcp_config_path().read_text(encoding="utf-8")
    assert SECRET not in text
    servers, problems = load_mcp_config()
    assert problems == []
    assert [(s.name, s.enabled) for s in servers] == [("notes", False), ("web", True)]
    assert servers[1].headers == {"Authorization": "keychain:web.Authorization"}
    assert _memory_keyring.store[(SERVICE, "mcp:web.Authorization")] == SECRET
    assert json.loads(text)["servers"][0]["command"] == sys.executable
    qloop.run_until_complete(http.aclose())


def test_saving_the_list_restarts_the_studios_servers(
    make_studio: Any, qloop: Any, tmp_path: Path
) -> None:
    s = make_studio()
    s.settle()
    assert s.studio.mcp is None  # nothing declared
    dialog = s.sheet.open_settings()
    editor = dialog.mcp_servers
    run_until(qloop, lambda: editor.loaded)
    editor.name.setText("notes")
    editor.command.setText(f"{sys.executable} -m tests.service.notes_server stdio")
    editor.values.setPlainText(f"NOTES_FILE={tmp_path / 'n.txt'}\nPYTHONPATH={REPO}")
    editor.add_button.click()
    assert editor.list.count() == 1, editor.message.text()
    dialog.save_button.click()
    s.wait_for(lambda: s.studio.mcp is not None and s.studio.mcp.servers() == {"notes": None})
    names = [t.name for t in s.studio.mcp_tools()]
    assert "mcp__notes__lookup" in names and "mcp__notes__save_note" in names
