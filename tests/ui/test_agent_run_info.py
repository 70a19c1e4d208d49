"""The sheet's run details: reasoning shown collapsed and apart from the answer, and the offer to
continue an unfinished run saved before a restart."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from studio.agent.events import Finish, ReasoningDelta, TextDelta, Usage
from studio.agent.session import AgentSession
from studio.agent.snapshot import runs_dir, save_snapshot
from studio.agent.testing import ScriptedModel, calls, reply
from tests.helpers.waiting import run_until
from tests.ui.agent_helpers import (
    RENAME,
    SPEC,
    SheetMaker,
    close_sheet,
    collect_qt_garbage,
    finish,
    new_document,
    sheet_maker,
)

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture(autouse=True, scope="module")
def _leave_no_qt_garbage() -> Iterator[None]:
    yield
    collect_qt_garbage()


@pytest.fixture
def make_sheet(qtbot: Any, qloop: Any) -> Iterator[SheetMaker]:
    yield from sheet_maker(qtbot, qloop)


def send(sheet: Any, text: str) -> None:
    sheet.instruction.setPlainText(text)
    sheet.send_button.click()


def test_reasoning_is_shown_collapsed_and_never_in_the_answer(make_sheet: Any, qloop: Any) -> None:
    model = ScriptedModel(
        [
            [
                ReasoningDelta("The user wants "),
                ReasoningDelta("no change."),
                TextDelta("Fine as is."),
                Usage(10, 5),
                Finish("stop"),
            ]
        ]
    )
    sheet = make_sheet(new_document(), model)
    assert not sheet.reasoning.isVisibleTo(sheet)
    send(sheet, "Is this screen fine?")
    assert finish(qloop, sheet) == "completed"
    assert sheet.chat.bubbles[-1].text() == "Fine as is."
    assert sheet.reasoning.isVisibleTo(sheet)
    assert not sheet.reasoning.text.isVisibleTo(sheet)  # collapsed
    assert sheet.reasoning.toggle.text() == "▸ Reasoning (25 characters)"
    sheet.reasoning.toggle.click()
    assert sheet.reasoning.text.isVisibleTo(sheet)
    assert sheet.reasoning.text.toPlainText() == "The user wants no change."
    close_sheet(qloop, sheet)


def _saved_unfinished_run(loop: Any) -> None:
    """A run on the demo prototype saved while it waits for an answer (as before a restart)."""
    model = ScriptedModel(
        [
            calls(("patch", RENAME)),
            calls(("askUser", {"question": "Keep the subtitle?", "options": ["Keep", "Drop"]})),
        ]
    )
    session = AgentSession(model, copy.deepcopy(SPEC))
    assert loop.run_until_complete(session.run("Rename things")).status == "needs_input"
    save_snapshot(session.snapshot(), runs_dir() / f"{session.trace_id}.json")


def test_after_a_restart_the_sheet_offers_to_continue_an_unfinished_run(
    make_sheet: Any, qloop: Any
) -> None:
    _saved_unfinished_run(qloop)

    def after(request: Any) -> list[Any]:
        assert request.messages[-1]["content"] == '{"answer": "Keep"}'
        return reply("Renamed; the subtitle stays.")

    model = ScriptedModel([after])
    sheet = make_sheet(new_document(), model)
    run_until(qloop, lambda: sheet.resume_offer.isVisibleTo(sheet), what="the offer")
    assert sheet.resume_offer.label.text() == (
        "An unfinished run, “Rename things”: it waits for your answer."
    )
    sheet.resume_offer.continue_button.click()
    # The restored draft is under review at once; the question is asked again.
    run_until(qloop, lambda: sheet.ask_card.isVisibleTo(sheet), what="the question")
    assert sheet.ask_label.text() == "Keep the subtitle?"
    assert [r.summary for r in sheet.driver.draft_revisions] == [RENAME["summary"]]
    assert sheet.workspace.review is not None
    sheet.choice_buttons[0].click()
    assert finish(qloop, sheet) == "completed"
    model.assert_complete()
    assert sheet.chat.bubbles[-1].text() == "Renamed; the subtitle stays."
    assert not sheet.resume_offer.isVisibleTo(sheet)
    sheet.apply_button.click()
    assert sheet.workspace.document.spec["root"]["children"][0]["text"] == "Inbox"
    close_sheet(qloop, sheet)


def test_no_offer_for_another_prototype(make_sheet: Any, qloop: Any) -> None:
    from studio.document import Document

    _saved_unfinished_run(qloop)
    spec = copy.deepcopy(SPEC)
    spec["id"] = "another"
    sheet = make_sheet(Document(spec, name="another"), ScriptedModel([]))
    run_until(qloop, lambda: sheet.unfinished_checked, what="the lookup")
    assert not sheet.resume_offer.isVisibleTo(sheet)
    close_sheet(qloop, sheet)


def test_the_sheet_says_which_model_took_the_run_and_why(
    make_sheet: Any, qloop: Any, _memory_keyring: Any
) -> None:
    """A cloud model plus a local one (a real local HTTP server): an edit scoped to the selected
    node goes to the local model, and the sheet says so."""
    from studio.agent.config import AgentConfig
    from studio.agent.events import Finish, TextDelta, Usage
    from tests.agent.server import ModelServer
    from tests.agent.test_cli import to_chat_reply

    _memory_keyring.store[("proto-studio", "openai")] = "sk-cloud-never-used-0001"
    with ModelServer() as server:
        server.queue(
            to_chat_reply([TextDelta("It already says Hello."), Usage(5, 3), Finish("stop")])
        )
        config = AgentConfig(
            profile="openai",
            model="gpt-4.1",
            base_url="http://127.0.0.1:9/v1",
            local_profile="llamacpp",
            local_base_url=server.base_url,
            local_model="qwen-local",
            max_turns=3,
        )
        sheet = make_sheet(new_document(), None, models=make_sheet.provider(), config=config)
        run_until(qloop, lambda: not sheet.checking)
        sheet.set_selection("title")
        send(sheet, "Does the title read well?")
        assert finish(qloop, sheet) == "completed"
        assert [s.body["model"] for s in server.seen if s.path.endswith("/chat/completions")] == [
            "qwen-local"
        ]
    assert sheet.route_label.isVisibleTo(sheet)
    assert sheet.route_label.text() == "qwen-local (local) took this run: an edit scoped to title"
    close_sheet(qloop, sheet)


def test_a_run_saved_with_other_tools_is_refused_then_continued_anyway(
    make_sheet: Any, qloop: Any
) -> None:
    import json

    from tests.agent.test_resume import _fingerprint

    _saved_unfinished_run(qloop)
    [path] = list(runs_dir().glob("*.json"))
    data = json.loads(path.read_text())
    for item in data["tool_declarations"]:
        if item["name"] == "inspect":  # as saved by a build whose inspect took other args
            item["parameters"] = {"type": "object", "properties": {"x": {"type": "string"}}}
            item["fingerprint"] = data["tools"]["inspect"] = _fingerprint(item)
    path.write_text(json.dumps(data))
    model = ScriptedModel([reply("Kept it.")])
    sheet = make_sheet(new_document(), model)
    run_until(qloop, lambda: sheet.resume_offer.isVisibleTo(sheet), what="the offer")
    sheet.resume_offer.continue_button.click()
    assert finish(qloop, sheet) == "failed"
    assert "inspect changed its schema" in sheet.terminal_events[-1].reason
    assert model.requests == []  # refused before any model call
    # Offered again, saying what changed; continuing anyway runs with the current tools.
    assert sheet.resume_offer.isVisibleTo(sheet)
    assert sheet.resume_offer.continue_button.text() == "Continue anyway"
    assert "inspect changed its schema" in sheet.resume_offer.label.text()
    sheet.resume_offer.continue_button.click()
    run_until(qloop, lambda: sheet.ask_card.isVisibleTo(sheet), what="the question")
    sheet.choice_buttons[0].click()
    assert finish(qloop, sheet, runs=2) == "completed"
    close_sheet(qloop, sheet)
