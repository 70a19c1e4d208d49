"""A draft an outside agent wrote through `proto-studio mcp` (the SDK's client, the command in
its own process) is reviewed in the studio as the studio's own agent drafts are: the preview and
the card show it, Apply lands it as one agent revision of the saved prototype, Discard drops it;
the prototype is never changed behind the designer's back."""

from __future__ import annotations

import copy

import pytest

from studio.library.store import Library
from studio.mcpserver.drafts import draft_file, load_outside_draft
from tests.mcpserver.client import call_tools
from tests.service.helpers import RENAME_GO, SPEC, make_library

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
