"""The agent chat sheet driven through whole runs by scripted models, as a designer would use it."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from PySide6.QtGui import QColor, QPalette

from studio.agent.config import AgentConfig
from studio.agent.errors import ModelError
from studio.agent.events import Finish, TextDelta, Usage
from studio.agent.keys import SERVICE
from studio.agent.providers import FixedModel
from studio.agent.testing import ScriptedModel, calls, reply
from tests.agent.util import ThreadRecordingKeyring
from tests.helpers.waiting import run_until
from tests.ui.agent_helpers import (
    RENAME,
    SPEC,
    GatedModel,
    SheetMaker,
    close_sheet,
    collect,
    collect_qt_garbage,
    finish,
    new_document,
    sheet_maker,
)

# The offscreen platform cannot size top-level windows and says so; nothing else is ignored.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "build" / "screenshots"


@pytest.fixture(autouse=True, scope="module")
def _leave_no_qt_garbage() -> Iterator[None]:
    yield
    collect_qt_garbage()


@pytest.fixture
def doc() -> Any:
    return new_document()


@pytest.fixture
def make_sheet(qtbot: Any, qloop: Any) -> Iterator[SheetMaker]:
    yield from sheet_maker(qtbot, qloop)


def send(sheet: Any, text: str) -> None:
    sheet.instruction.setPlainText(text)
    sheet.send_button.click()


def test_streamed_text_grows_in_one_bubble(make_sheet: Any, qloop: Any, doc: Any) -> None:
    holder: dict[str, Any] = {}

    def bubble_shows(text: str) -> Any:
        return lambda: (
            bool(holder["sheet"].chat.bubbles) and holder["sheet"].chat.bubbles[-1].text() == text
        )

    model = GatedModel(
        [
            TextDelta("Hello "),
            bubble_shows("Hello "),  # the first words are on screen before the rest arrives
            TextDelta("designer, "),
            TextDelta("all done."),
            Usage(12, 6),
            Finish("stop"),
        ]
    )
    sheet = make_sheet(doc, model)
    holder["sheet"] = sheet
    send(sheet, "Say hello")
    assert not sheet.send_button.isEnabled()  # one active run per prototype
    assert sheet.stop_button.isEnabled()
    assert finish(qloop, sheet) == "completed"
    roles = [b.role for b in sheet.chat.bubbles]
    assert roles == ["user", "assistant"]  # one bubble for the whole streamed answer
    assert sheet.chat.bubbles[1].text() == "Hello designer, all done."
    assert sheet.send_button.isEnabled() and not sheet.stop_button.isEnabled()
    close_sheet(qloop, sheet)


def test_a_run_that_changed_nothing_says_so(make_sheet: Any, qloop: Any, doc: Any) -> None:
    """Issue 16 point 5: a model that only claims the edit is nudged once, then the sheet shows
    "no changes made" with the reason, not "done"."""
    model = ScriptedModel([reply("I renamed the title."), reply("It is renamed now.")])
    sheet = make_sheet(doc, model)
    send(sheet, "Rename the title to Inbox")
    assert finish(qloop, sheet) == "no_changes"
    assert sheet.last_status == "no changes made"
    errors = [b.text() for b in sheet.chat.bubbles if b.role == "error"]
    assert errors == ["No changes made: the draft was not changed: no patch was applied."]
    assert sheet.send_button.isEnabled()


def test_tool_actions_show_in_the_status_line(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel(
        [
            calls(("outline", {}), ("readNode", {"id": "title"})),
            calls(("patch", RENAME)),
            reply("Renamed."),
        ]
    )
    sheet = make_sheet(doc, model)
    statuses = collect(sheet.statusChanged)
    send(sheet, "Rename things")
    assert finish(qloop, sheet) == "completed"
    assert "reading the outline" in statuses
    assert "reading node title" in statuses
    assert "patching 2 nodes" in statuses
    assert statuses.index("reading node title") < statuses.index("patching 2 nodes")
    assert sheet.last_status.startswith("done")
    model.assert_complete()
    close_sheet(qloop, sheet)


def test_selected_node_and_its_subtree_go_with_the_instruction(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([reply("ok")])
    sheet = make_sheet(doc, model)
    sheet.workspace.select("subtitle")
    assert "subtitle" in sheet.selection_label.text()
    send(sheet, "What does it say?")  # a question: no change is asked for (no nudge)
    finish(qloop, sheet)
    user = model.requests[0].messages[-1]["content"]
    assert user.startswith("What does it say?")
    assert "Selected node: subtitle" in user and '"text": "Sub"' in user
    assert user.count('"text": "Sub"') == 1  # the subtree is sent once (by the core)
    # Clearing the selection: the next instruction is about the whole prototype.
    sheet.clear_selection_button.click()
    model.add(reply("ok"))
    send(sheet, "Now the whole thing")
    finish(qloop, sheet, runs=2)
    assert "Selected node" not in model.requests[1].messages[-1]["content"]
    close_sheet(qloop, sheet)


def test_ask_user_choices_are_buttons_and_the_answer_resumes_the_run(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    def after_answer(request: Any) -> list[Any]:
        assert json.loads(request.messages[-1]["content"]) == {"answer": "Green"}
        return reply("Green it is.")

    model = ScriptedModel(
        [
            calls(("askUser", {"question": "Which colour?", "options": ["Blue", "Green"]})),
            after_answer,
        ]
    )
    sheet = make_sheet(doc, model)
    send(sheet, "Which accent would suit the button?")
    run_until(qloop, lambda: sheet.ask_card.isVisibleTo(sheet))
    assert sheet.ask_label.text() == "Which colour?"
    assert [b.text() for b in sheet.choice_buttons] == ["Blue", "Green"]
    assert not sheet.send_button.isEnabled()  # still one run: it waits for the answer
    assert sheet.last_status == "waiting for your answer"
    sheet.choice_buttons[1].click()
    assert finish(qloop, sheet) == "completed"
    assert not sheet.ask_card.isVisibleTo(sheet)
    assert sheet.chat.bubbles[-1].text() == "Green it is."
    assert len(sheet.terminal_events) == 1
    model.assert_complete()
    close_sheet(qloop, sheet)


def test_counters_update_while_streaming_and_after_each_turn(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    seen: dict[str, str] = {}

    def mid_stream() -> bool:
        seen["tokens"] = sheet.counters_bar.tokens_label.text()
        seen["turns"] = sheet.counters_bar.turns_label.text()
        return "~" in seen["tokens"]  # the open turn's output is estimated as it streams

    model = GatedModel(
        [*calls(("outline", {}), usage=Usage(100_000, 20_000))],
        [TextDelta("x" * 400), mid_stream, Usage(50_000, 10_000), Finish("stop")],
    )
    config = AgentConfig(profile="openai", model="gpt-4o-mini", max_turns=7, token_budget=500_000)
    sheet = make_sheet(doc, model, config=config)
    send(sheet, "Count")
    finish(qloop, sheet)
    assert seen["turns"] == "Turns 2/7"
    assert re.search(r"~100,000 in · ~20,1\d\d out of 500,000", seen["tokens"]), seen["tokens"]
    assert sheet.counters_bar.turns_label.text() == "Turns 2/7"
    assert sheet.counters_bar.tokens_label.text() == "Tokens 150,000 in · 30,000 out of 500,000"
    # gpt-4o-mini list price: 150k x $0.15/M + 30k x $0.60/M = $0.0405
    assert sheet.counters_bar.cost_label.text() == "Cost $0.0405"
    assert re.fullmatch(r"\d+:\d\d", sheet.counters_bar.time_label.text())
    close_sheet(qloop, sheet)


def test_review_highlights_then_apply_lands_an_agent_revision_and_undo_reverts(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([calls(("patch", RENAME)), reply("Renamed.")])
    sheet = make_sheet(doc, model)
    workspace = sheet.workspace
    send(sheet, "Rename")
    finish(qloop, sheet)
    # Before apply: the document is untouched; the draft is shown with its changes highlighted.
    assert doc.spec == SPEC
    shown = workspace.shown
    assert shown.source == "review" and shown.highlight == ("title", "go")
    assert shown.spec["root"]["children"][0]["text"] == "Inbox"
    assert sheet.review.isVisibleTo(sheet)
    assert "Rename the title to Inbox" in sheet.review_label.text()
    # The card says what each node lost or gained, and the rule for editing meanwhile.
    assert sheet.review.diff_label.text() == (
        'title (text)\n    text: "Hello" → "Inbox"\ngo (button)\n    label: "Go" → "Send"'
    )
    assert "Edits to the draft's nodes are refused" in sheet.review.text()
    assert sheet.apply_button.isEnabled() and sheet.discard_button.isEnabled()

    sheet.apply_button.click()
    revision = doc.revisions.applied[-1]
    assert revision.author == "agent"
    assert revision.summary == RENAME["summary"]
    assert revision.changed == ("title", "go")
    assert doc.spec["root"]["children"][0]["text"] == "Inbox"
    assert doc.spec["root"]["children"][2]["label"] == "Send"
    assert workspace.shown.source == "document" and workspace.shown.highlight == ()
    assert not sheet.apply_button.isEnabled()

    assert sheet.undo_button.isEnabled()
    sheet.undo_button.click()
    assert doc.spec == SPEC
    assert not sheet.undo_button.isEnabled()
    close_sheet(qloop, sheet)


def test_undo_in_the_draft_and_discard(make_sheet: Any, qtbot: Any, qloop: Any, doc: Any) -> None:
    second = {
        "ops": [
            {
                "op": "replaceNode",
                "id": "subtitle",
                "node": {"type": "text", "id": "subtitle", "text": "New"},
            }
        ],
        "summary": "Change the subtitle",
    }
    model = ScriptedModel([calls(("patch", RENAME)), calls(("patch", second)), reply("Done.")])
    sheet = make_sheet(doc, model)
    workspace = sheet.workspace
    send(sheet, "Two edits")
    finish(qloop, sheet)
    assert workspace.shown.highlight == ("title", "go", "subtitle")
    sheet.undo_button.click()  # undoes the draft's last revision, not the document
    assert workspace.shown.highlight == ("title", "go")
    assert workspace.shown.spec["root"]["children"][1]["text"] == "Sub"
    assert workspace.shown.changed == ("subtitle",)  # only that node rebuilds in the preview
    assert len(doc.revisions.applied) == 0
    sheet.discard_button.click()
    assert doc.spec == SPEC and len(doc.revisions.applied) == 0
    assert workspace.shown.spec == SPEC and workspace.shown.source == "document"
    assert workspace.shown.highlight == ()
    assert not sheet.review.isVisibleTo(sheet)
    close_sheet(qloop, sheet)


def test_stop_cancels_mid_stream(make_sheet: Any, qtbot: Any, qloop: Any, doc: Any) -> None:
    holder: dict[str, Any] = {}
    model = GatedModel([TextDelta("Partial answer"), lambda: False, TextDelta("never shown")])
    sheet = make_sheet(doc, model)
    holder["sheet"] = sheet
    send(sheet, "Write a lot")
    run_until(
        qloop,
        lambda: bool(sheet.chat.bubbles) and sheet.chat.bubbles[-1].text() == "Partial answer",
    )
    assert sheet.stop_button.isEnabled()
    sheet.stop_button.click()
    assert finish(qloop, sheet) == "cancelled"
    assert sheet.chat.bubbles[-1].text() == "Partial answer ⏹ stopped"
    assert sheet.last_status.startswith("stopped")
    assert sheet.send_button.isEnabled() and not sheet.stop_button.isEnabled()
    # Exactly one terminal event, and the transcript stays usable for the next instruction.
    run_until(qloop, lambda: not sheet._tasks.tasks)  # the snapshot is written
    assert [e.status for e in sheet.terminal_events] == ["cancelled"]
    close_sheet(qloop, sheet)


def test_stop_while_waiting_for_an_answer(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([calls(("askUser", {"question": "Sure?", "options": ["Yes"]}))])
    sheet = make_sheet(doc, model)
    send(sheet, "Ask me")
    run_until(qloop, lambda: sheet.ask_card.isVisibleTo(sheet))
    sheet.stop_button.click()
    assert finish(qloop, sheet) == "cancelled"
    assert not sheet.ask_card.isVisibleTo(sheet)
    assert sheet.send_button.isEnabled()
    close_sheet(qloop, sheet)


def test_a_failed_run_says_why(make_sheet: Any, qtbot: Any, qloop: Any, doc: Any) -> None:
    model = ScriptedModel([ModelError("auth", "Incorrect API key provided", status=401)])
    sheet = make_sheet(doc, model)
    send(sheet, "Anything")
    assert finish(qloop, sheet) == "failed"
    error = [b for b in sheet.chat.bubbles if b.role == "error"]
    assert len(error) == 1
    assert "rejected the API key" in error[0].text() and "HTTP 401" in error[0].text()
    # A key problem points at the settings, but the studio stays usable.
    assert sheet.banner.isVisibleTo(sheet)
    assert "Agent settings" in sheet.banner_label.text()
    assert sheet.send_button.isEnabled()
    close_sheet(qloop, sheet)


@pytest.mark.expected_log("agent run crashed", logger="studio.agent.driver", level="ERROR")
def test_a_crashing_model_still_ends_in_one_failed_event(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([])  # an unexpected call raises AssertionError, which is no ModelError
    sheet = make_sheet(doc, model)
    send(sheet, "Anything")
    assert finish(qloop, sheet) == "failed"
    assert "crashed" in sheet.chat.bubbles[-1].text()
    assert len(sheet.terminal_events) == 1
    close_sheet(qloop, sheet)


def test_turn_cap_stops_the_run_and_says_so(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([calls(("outline", {})), calls(("readNode", {"id": "go"}))])
    config = AgentConfig(max_turns=2, token_budget=None)
    sheet = make_sheet(doc, model, config=config)
    send(sheet, "Loop")
    assert finish(qloop, sheet) == "failed"
    assert "turn cap of 2 turns" in sheet.chat.bubbles[-1].text()
    assert sheet.counters_bar.turns_label.text() == "Turns 2/2"
    close_sheet(qloop, sheet)


def test_without_a_key_the_banner_says_what_to_configure(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    config = AgentConfig(profile="openai", model="gpt-4o-mini")
    backend = ThreadRecordingKeyring()
    keyring.set_keyring(backend)
    sheet = make_sheet(doc, None, models=make_sheet.provider(), config=config)
    run_until(qloop, lambda: not sheet.checking)  # the keychain is read off the GUI thread
    assert sheet.banner.isVisibleTo(sheet)
    assert sheet.banner_label.text() == (
        "Add an API key for OpenAI in Agent settings (stored in the OS keychain)."
    )
    assert not sheet.send_button.isEnabled()
    sheet.banner_button.click()
    dialog = sheet.settings_dialog
    assert dialog is not None and dialog.isVisible() and not dialog.isModal()
    dialog.key.setText("sk-test-0123456789abcdef")
    saved = collect(sheet.settingsSaved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved) and not sheet.checking)
    assert not sheet.banner.isVisibleTo(sheet)
    assert sheet.send_button.isEnabled()
    assert backend.store[(SERVICE, "openai")] == "sk-test-0123456789abcdef"
    assert backend.threads and all(t is not threading.main_thread() for t in backend.threads)
    close_sheet(qloop, sheet)


def test_local_only_with_a_cloud_model_shows_the_banner(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    config = AgentConfig(profile="openai", model="gpt-4o-mini", local_only=True)
    sheet = make_sheet(doc, None, models=make_sheet.provider(), config=config)
    run_until(qloop, lambda: not sheet.checking)
    assert "Local only is on" in sheet.banner_label.text()
    assert sheet.banner.isVisibleTo(sheet) and not sheet.send_button.isEnabled()
    close_sheet(qloop, sheet)


def test_no_document_no_run(make_sheet: Any, qtbot: Any, qloop: Any) -> None:
    sheet = make_sheet(None, ScriptedModel([]))
    assert sheet.banner_label.text() == "Open a prototype to use the agent."
    assert not sheet.send_button.isEnabled()
    close_sheet(qloop, sheet)


def test_a_follow_up_instruction_continues_the_draft(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([calls(("patch", RENAME)), reply("Renamed.")])
    sheet = make_sheet(doc, model)
    send(sheet, "Rename")
    finish(qloop, sheet)
    model.add(reply("Still renamed."))
    send(sheet, "Anything else?")
    finish(qloop, sheet, runs=2)
    # The second request carries the whole conversation, and the draft is still open.
    contents = [m.get("content") for m in model.requests[-1].messages if m["role"] == "user"]
    assert contents == ["Rename", "Anything else?"]
    assert sheet.apply_button.isEnabled()
    close_sheet(qloop, sheet)


def test_a_follow_up_keeps_the_draft_and_takes_the_new_settings(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    first = ScriptedModel([calls(("patch", RENAME)), reply("Renamed.")])
    sheet = make_sheet(doc, first)
    send(sheet, "Rename")
    finish(qloop, sheet)
    session = sheet.driver.session
    # The settings change between the two instructions: another model and another turn cap.
    subtitle = {"op": "replaceNode", "id": "subtitle", "node": {"type": "text", "id": "subtitle", "text": "New"}}  # fmt: skip
    second = ScriptedModel([calls(("patch", {"ops": [subtitle], "summary": "New subtitle"})), reply("Done.")])  # fmt: skip
    sheet.models = FixedModel(second)
    sheet.config = AgentConfig(max_turns=4, token_budget=None)
    send(sheet, "And the subtitle")
    assert finish(qloop, sheet, runs=2) == "completed"
    assert sheet.driver.session is session  # the same draft
    assert [r.summary for r in sheet.driver.draft_revisions] == [RENAME["summary"], "New subtitle"]
    assert sheet.driver.changed() == ["title", "go", "subtitle"]
    assert sheet.counters_bar.turns_label.text() == "Turns 2/4"
    assert len(second.requests) == 2 and "Rename" in json.dumps(second.requests[0].messages)
    sheet.apply_button.click()
    assert doc.revisions.applied[-1].changed == ("title", "go", "subtitle")
    close_sheet(qloop, sheet)


def test_a_run_sent_before_the_settings_check_still_says_what_to_configure(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    config = AgentConfig(profile="openai", model="gpt-4o-mini")
    sheet = make_sheet(doc, None, models=make_sheet.provider(), config=config)
    assert sheet.checking and sheet.send_button.isEnabled()  # the keychain is not read yet
    send(sheet, "Rename")
    assert finish(qloop, sheet) == "failed"
    missing = "Add an API key for OpenAI in Agent settings (stored in the OS keychain)."
    assert sheet.chat.bubbles[-1].text() == missing
    assert sheet.banner.isVisibleTo(sheet) and sheet.banner_label.text() == missing
    assert not sheet.send_button.isEnabled()
    assert len(sheet.terminal_events) == 1
    close_sheet(qloop, sheet)


def test_cost_of_a_local_model_is_free_and_of_an_unknown_model_unknown(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([reply("ok", usage=Usage(1000, 100))])
    sheet = make_sheet(doc, model, config=AgentConfig(profile="ollama", model="llama3.2"))
    send(sheet, "Hi")
    finish(qloop, sheet)
    assert sheet.counters_bar.cost_label.text() == "Cost: free (local)"
    sheet.config = AgentConfig(profile="openai", model="some-future-model")
    sheet.recheck()
    run_until(qloop, lambda: not sheet.checking)
    assert sheet.counters_bar.cost_label.text() == "Cost: no price"
    close_sheet(qloop, sheet)


def test_a_replay_with_an_answer_and_a_follow_up_is_one_run_in_the_sheet(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel(
        [
            calls(("askUser", {"question": "Which title?", "options": ["Inbox", "Mail"]})),
            calls(("patch", RENAME)),
            reply("Renamed."),
            reply("Nothing else to do."),
        ]
    )
    sheet = make_sheet(doc, model)
    send(sheet, "Rename")
    run_until(qloop, lambda: bool(sheet.choice_buttons))
    sheet.choice_buttons[0].click()
    finish(qloop, sheet)
    send(sheet, "Anything else?")
    finish(qloop, sheet, runs=2)

    def saved_both() -> bool:
        path = sheet.driver.last_snapshot
        return path is not None and len(json.loads(path.read_text())["instructions"]) == 2

    run_until(qloop, saved_both)
    snapshot = json.loads(sheet.driver.last_snapshot.read_text())
    close_sheet(qloop, sheet)

    fresh = make_sheet(new_document(), ScriptedModel([]))
    states = collect(fresh.runStateChanged)
    fresh.replay(snapshot)
    assert finish(qloop, fresh) == "completed"
    assert len(fresh.terminal_events) == 1  # two recorded instructions, one replay
    assert not fresh.choice_buttons  # the recorded answer was given back, nobody was asked
    texts = [b.text() for b in fresh.chat.bubbles]
    assert "Which title?" in texts and texts[-1] == "Nothing else to do."
    assert [r.summary for r in fresh.driver.draft_revisions] == [RENAME["summary"]]
    assert states[-1] == "idle" and fresh.driver.state == "idle"
    assert "differs" not in fresh.last_status
    close_sheet(qloop, fresh)


def _dark(palette: QPalette) -> QPalette:
    dark = QPalette(palette)
    roles = {
        QPalette.ColorRole.Window: "#1f1f23",
        QPalette.ColorRole.WindowText: "#e6e1e5",
        QPalette.ColorRole.Base: "#2b2930",
        QPalette.ColorRole.AlternateBase: "#36343b",
        QPalette.ColorRole.Text: "#e6e1e5",
        QPalette.ColorRole.Button: "#36343b",
        QPalette.ColorRole.ButtonText: "#e6e1e5",
        QPalette.ColorRole.Highlight: "#6750a4",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Mid: "#49454f",
        QPalette.ColorRole.PlaceholderText: "#938f99",
    }
    for role, color in roles.items():
        dark.setColor(role, QColor(color))
    for role in (
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
    ):
        dark.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6f6b75"))
    return dark


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_the_sheet_under_review(
    make_sheet: Any, qtbot: Any, qloop: Any, qapp: Any, request: Any, doc: Any, theme: str
) -> None:
    model = ScriptedModel(
        [
            calls(("readNode", {"id": "title"}), text="Let me look at the title. "),
            calls(("patch", RENAME), text="Renaming it now. "),
            reply("I renamed the title to Inbox and the button to Send."),
        ]
    )
    config = AgentConfig(profile="openai", model="gpt-4o-mini", max_turns=20, token_budget=200_000)
    previous = qapp.palette()
    if theme == "dark":  # what the Fusion style shows when the system is dark
        qapp.setPalette(_dark(previous))
    request.addfinalizer(lambda: qapp.setPalette(previous))
    sheet = make_sheet(doc, model, config=config)
    sheet.show()
    qtbot.waitExposed(sheet)
    sheet.workspace.select("title")
    send(sheet, "Call the screen Inbox and the button Send")
    finish(qloop, sheet)
    qtbot.waitUntil(lambda: not sheet.chat.verticalScrollBar().maximum())  # the layout settled
    image = sheet.grab().toImage()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target = SCREENSHOTS / f"agent-sheet-{theme}.png"
    assert image.save(str(target))
    corner = image.pixelColor(2, image.height() // 2)
    assert (corner.lightness() < 100) == (theme == "dark")
    close_sheet(qloop, sheet)


def test_stop_at_close_cancels_the_run(make_sheet: Any, qtbot: Any, qloop: Any, doc: Any) -> None:
    model = GatedModel([TextDelta("a"), lambda: False])
    sheet = make_sheet(doc, model)
    send(sheet, "Hold")
    run_until(qloop, lambda: bool(sheet.chat.bubbles) and sheet.chat.bubbles[-1].text() == "a")
    sheet.close()  # closing the sheet cancels everything it started
    assert finish(qloop, sheet) == "cancelled"
    qloop.run_until_complete(asyncio.sleep(0))
    close_sheet(qloop, sheet)


def test_apply_after_the_user_edited_meanwhile_keeps_both_changes(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([calls(("patch", RENAME)), reply("Renamed.")])
    sheet = make_sheet(doc, model)
    send(sheet, "Rename")
    finish(qloop, sheet)
    doc.apply_ops([{"op": "add", "path": "/state/dark", "value": True}], summary="user edit")
    sheet.apply_button.click()
    assert [r.author for r in doc.revisions.applied] == ["user", "agent"]
    assert doc.spec["state"]["dark"] is True
    assert doc.spec["root"]["children"][0]["text"] == "Inbox"
    close_sheet(qloop, sheet)


def test_a_replay_that_differs_from_the_recording_says_how(
    make_sheet: Any, qtbot: Any, qloop: Any, doc: Any
) -> None:
    sheet = make_sheet(doc, ScriptedModel([calls(("patch", RENAME)), reply("Renamed.")]))
    send(sheet, "Rename")
    finish(qloop, sheet)
    snapshot = json.loads(json.dumps(sheet.driver.session.snapshot()))
    close_sheet(qloop, sheet)
    snapshot["tools"]["patch"] = "0000000000000000"  # recorded with another patch schema

    fresh = make_sheet(new_document(), ScriptedModel([]))
    statuses = collect(fresh.statusChanged)
    fresh.replay(snapshot)
    assert finish(qloop, fresh) == "completed"
    run_until(qloop, lambda: any(s.startswith("the replay differs") for s in statuses))
    assert "tool drift: patch: schema changed (0000000000000000 -> " in fresh.last_status
    assert [r.summary for r in fresh.driver.draft_revisions] == [RENAME["summary"]]
    close_sheet(qloop, fresh)


BAD_LABEL = {
    "ops": [{"op": "replaceNode", "id": "go", "node": {"type": "button", "id": "go", "label": 5}}],
    "summary": "Make the label a number",
}


def test_a_run_whose_patch_was_rejected_says_where_and_why(
    make_sheet: Any, qloop: Any, doc: Any
) -> None:
    """The model gives up after a rejected patch: the chat names the place and the reason once,
    the review card stays hidden (there is no draft) and the status says nothing changed."""
    model = ScriptedModel([calls(("patch", BAD_LABEL)), reply("I could not do that.")])
    sheet = make_sheet(doc, model)
    send(sheet, "Explain the button")  # not an edit request: the run completes
    assert finish(qloop, sheet) == "completed"
    texts = [(b.role, b.text()) for b in sheet.chat.bubbles]
    assert texts == [
        ("user", "Explain the button"),
        ("assistant", "I could not do that."),
        (
            "error",
            "No changes were made: the patch was rejected at root.children[2].label: "
            "Invalid string value",
        ),
    ]
    assert sheet.last_status == "no changes made"
    assert not sheet.review.isVisibleTo(sheet) and doc.spec == SPEC
    close_sheet(qloop, sheet)


def test_an_edit_request_ending_on_a_rejected_patch_gives_the_reason_once(
    make_sheet: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel(
        [calls(("patch", BAD_LABEL)), reply("Done."), calls(("patch", BAD_LABEL)), reply("Done.")]
    )
    sheet = make_sheet(doc, model)
    send(sheet, "Change the button label to 5")
    assert finish(qloop, sheet) == "no_changes"
    errors = [b.text() for b in sheet.chat.bubbles if b.role == "error"]
    assert errors == [
        "No changes were made: the patch was rejected at root.children[2].label: "
        "Invalid string value"
    ]
    everything = " ".join(b.text() for b in sheet.chat.bubbles) + sheet.status_label.text()
    assert everything.count("Invalid string value") == 1  # one error, shown once
    close_sheet(qloop, sheet)


def test_a_rejection_fixed_by_a_later_patch_is_not_reported(
    make_sheet: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([calls(("patch", BAD_LABEL)), calls(("patch", RENAME)), reply("Done.")])
    sheet = make_sheet(doc, model)
    send(sheet, "Rename")
    assert finish(qloop, sheet) == "completed"
    assert [b.role for b in sheet.chat.bubbles] == ["user", "assistant"]
    assert sheet.last_status == "done: review the changes below"
    close_sheet(qloop, sheet)


def test_no_empty_answer_bubble_while_tools_run(make_sheet: Any, qloop: Any, doc: Any) -> None:
    holder: dict[str, Any] = {}
    seen: list[list[tuple[str, str]]] = []

    def tools_answered() -> bool:  # turn 2 starts only after both tools answered
        seen.append([(b.role, b.text()) for b in holder["sheet"].chat.bubbles])
        return True

    model = GatedModel(
        calls(("outline", {}), ("readNode", {"id": "title"})),
        [tools_answered, TextDelta("It says Hello."), Usage(10, 4), Finish("stop")],
    )
    sheet = make_sheet(doc, model)
    holder["sheet"] = sheet
    send(sheet, "What does the title say?")
    assert finish(qloop, sheet) == "completed"
    # While the tools ran: only the instruction, no empty reply bubble.
    assert seen == [[("user", "What does the title say?")]]
    assert [(b.role, b.text()) for b in sheet.chat.bubbles][1:] == [("assistant", "It says Hello.")]
    close_sheet(qloop, sheet)


def test_counters_status_and_errors_reset_when_another_prototype_opens(
    make_sheet: Any, qloop: Any, doc: Any
) -> None:
    model = ScriptedModel([ModelError("auth", "Incorrect API key provided", status=401)])
    sheet = make_sheet(doc, model)
    send(sheet, "Anything")
    assert finish(qloop, sheet) == "failed"
    assert sheet.banner.isVisibleTo(sheet) and sheet.status_label.text()
    assert sheet.counters.turn == 1 and sheet.counters.started is not None
    other = new_document()
    sheet.workspace.open(other)
    assert sheet.chat.bubbles == []
    assert sheet.status_label.text() == "" and not sheet.banner.isVisibleTo(sheet)
    assert sheet.counters.turn == 0 and sheet.counters.started is None
    assert sheet.counters_bar.turns_label.text() == "Turns 0/5"
    close_sheet(qloop, sheet)


def test_the_review_card_lists_each_property_added_removed_and_changed(
    make_sheet: Any, qloop: Any, doc: Any
) -> None:
    restyle = {
        "ops": [
            {
                "op": "replaceNode",
                "id": "go",
                "node": {"type": "button", "id": "go", "label": "Send", "variant": "outlined"},
            },
            {"op": "replaceNode", "id": "subtitle", "node": {"type": "divider", "id": "subtitle"}},
        ],
        "summary": "Outline the button, a divider for the subtitle",
    }
    model = ScriptedModel([calls(("patch", restyle)), reply("Done.")])
    sheet = make_sheet(doc, model)
    send(sheet, "Outline the button and replace the subtitle with a divider")
    finish(qloop, sheet)
    lines = sheet.review.diff_label.text().split("\n")
    assert lines == [  # in document order, one property a line
        "subtitle (divider)",
        '    type: "text" → "divider"',
        "    − text",
        "go (button)",
        '    label: "Go" → "Send"',
        '    + variant: "outlined"',
    ]
    # Wrapped inside the dock: the card never widens the sheet.
    assert sheet.review.diff_label.wordWrap()
    close_sheet(qloop, sheet)
