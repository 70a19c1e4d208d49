"""Changes from outside the window reach it while the prototype is open. A draft an outside agent
wrote through `proto-studio mcp` (the SDK's client, the command in its own process) is reviewed
as the studio's own agent drafts are: the preview and the card show it, Apply lands it as one
agent revision of the saved prototype, Discard drops it. A draft applied through the harness
server (a real WebSocket client on `HarnessServer`) becomes a revision in the window."""

from __future__ import annotations

import asyncio
import copy
import threading
from typing import Any

import pytest

from studio.agent.testing import ScriptedModel, calls, reply
from studio.library.store import Library
from studio.mcpserver.drafts import draft_file, load_outside_draft
from tests.helpers.demo import RENAME_GO, SPEC
from tests.mcpserver.client import call_tools
from tests.service.helpers import Client, make_library, running_server

pytestmark = pytest.mark.slow

ADD_SENT = {"ops": [{"op": "add", "path": "/state/sent", "value": False}], "summary": "Track sent"}


def test_the_designer_reviews_applies_and_discards_an_outside_draft(make_studio) -> None:  # type: ignore[no-untyped-def]
    _, entry_id = make_library("Demo")
    (done,) = call_tools("Demo", ("patch", RENAME_GO))
    assert not done.isError

    s = make_studio()
    s.controller.open_entry(entry_id)
    s.settle()
    review = s.workspace.review
    assert review is not None and len(review.revisions) == 1
    shown = s.workspace.shown.spec
    assert shown["root"]["children"][1]["label"] == "Send"  # the preview shows the draft
    assert s.workspace.document is not None and s.workspace.document.spec == SPEC
    sheet = s.sheet
    assert sheet.review.isVisible() or sheet.review.isVisibleTo(sheet)
    assert "Rename the button to Send" in sheet.review_label.text()
    assert sheet.apply_button.isEnabled() and sheet.discard_button.isEnabled()
    assert "(MCP) wrote a draft of Demo: 1 revision(s) to review" in s.status

    # The outside agent goes on while the prototype is open; the studio sees the file change.
    call_tools(entry_id, ("patch", ADD_SENT))
    s.wait_for(lambda: s.workspace.review is not None and len(s.workspace.review.revisions) == 2)
    review = s.workspace.review
    assert review is not None and [r.summary for r in review.revisions] == [
        "Rename the button to Send",
        "Track sent",
    ]

    sheet.apply_button.click()
    s.settle()
    document = s.workspace.document
    assert document is not None and s.workspace.review is None
    assert document.spec["root"]["children"][1]["label"] == "Send"
    assert document.revisions.applied[-1].author == "agent"
    saved = Library().load_spec(entry_id)
    assert saved["root"]["children"][1]["label"] == "Send" and saved["state"] == {"sent": False}
    assert not draft_file(Library(), entry_id).exists()

    # A new draft, discarded: the saved prototype stays as applied.
    rename_back = copy.deepcopy(RENAME_GO)
    rename_back["ops"][0]["node"]["label"] = "Go back"
    rename_back["summary"] = "Rename it back"
    call_tools(entry_id, ("patch", rename_back))
    s.wait_for(lambda: s.workspace.review is not None)
    assert s.workspace.shown.spec["root"]["children"][1]["label"] == "Go back"
    sheet.discard_button.click()
    s.settle()
    assert s.workspace.review is None
    assert load_outside_draft(Library(), entry_id) is None
    assert Library().load_spec(entry_id) == saved


def _apply_through_serve(entry_id: str) -> dict[str, Any]:
    """A thin client's turn on the harness server (its own loop, in a thread), applied."""
    model = ScriptedModel([calls(("patch", RENAME_GO)), reply("Renamed it.")])
    out: dict[str, Any] = {}

    async def main() -> None:
        async with running_server(model, library=Library()) as (_, ws_url, _):
            client, _ = await Client.open(ws_url)
            await client.send("start", prototype=entry_id, instruction="Rename the button")
            out["end"] = await client.until("completed", "failed", limit=30)
            await client.send("apply")
            out["applied"] = await client.until("applied", limit=30)
            await client.close()

    thread = threading.Thread(target=lambda: asyncio.run(asyncio.wait_for(main(), 60)))
    thread.start()
    thread.join(90)
    assert not thread.is_alive()
    return out


def test_a_draft_applied_through_serve_becomes_a_revision_in_the_open_window(
    make_studio,  # type: ignore[no-untyped-def]
) -> None:
    _, entry_id = make_library("Demo")
    s = make_studio()
    s.controller.open_entry(entry_id)
    s.settle()
    document = s.workspace.document
    assert document is not None and document.spec == SPEC

    out = _apply_through_serve(entry_id)
    assert out["end"]["type"] == "completed" and out["applied"]["changed"] == ["go"]
    s.wait_for(lambda: document.spec["root"]["children"][1]["label"] == "Send")
    last = document.revisions.applied[-1]
    assert last.author == "agent"
    assert last.summary == "Rename the button to Send (saved outside the studio)"
    assert s.workspace.document is document  # the same document, one revision more: undo works
    s.workspace.undo()
    s.settle()
    assert document.spec == SPEC and Library().load_spec(entry_id) == SPEC
