"""In the studio the agent's `preview` tool renders the draft in a scene of its own (at the size
and theme of the user's preview), with bounds; it never writes into the user's preview."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.agent.providers import FixedModel
from studio.agent.testing import ScriptedModel, calls, reply
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.ui.agent_helpers import RENAME, SPEC, finish

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)


def test_preview_tool_summarises_the_rendered_draft_with_bounds(
    make_studio: Any, tmp_path: Any
) -> None:
    model = ScriptedModel([calls(("patch", RENAME)), calls(("preview", {})), reply("Done.")])
    studio = make_studio(models=FixedModel(model))
    spec_file = tmp_path / "demo.json"
    spec_file.write_text(json.dumps(SPEC), encoding="utf-8")
    studio.controller.import_files([spec_file])
    studio.settle()
    pane = studio.window.preview_pane
    pane.device_combo.setCurrentIndex(1)  # Large phone, 412 x 915
    shown: list[Any] = []
    studio.controller.shownChanged.connect(shown.append)
    sheet = studio.sheet
    sheet.instruction.setPlainText("Rename the title")
    sheet.send_button.click()
    assert finish(studio.loop, sheet) == "completed"
    model.assert_complete()
    tool_results = [
        m
        for m in model.requests[-1].messages
        if m.get("role") == "tool" and "Inbox" in m["content"]
    ]
    assert tool_results, "the preview tool's result did not show the draft"
    entries = json.loads(tool_results[-1]["content"])["onScreen"]
    inbox = [e for e in entries if e.get("text") == "Inbox"]
    assert inbox and {"x", "y", "width", "height"} <= set(inbox[0]["bounds"])
    assert 0 < inbox[0]["bounds"]["width"] <= 412
    # The user's preview changed only through the workspace: once, for the draft's revision.
    assert [s.source for s in shown] == ["review"]
    # The document itself is untouched until the user applies the draft.
    document = studio.controller.document
    assert document is not None and document.spec["root"]["children"][0]["text"] == "Hello"
