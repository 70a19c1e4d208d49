"""Run events are typed, and their JSON form (the CLI's --events lines) is what it always was."""

from __future__ import annotations

import asyncio
from typing import Any

from studio.agent.loop import ApprovalAnswer
from studio.agent.registry import Tool
from studio.agent.run_events import (
    TERMINAL,
    RunEnded,
    RunEvent,
    TextStreamed,
    mask_event,
    run_event_from_json,
)
from studio.agent.session import AgentSession
from studio.agent.testing import ScriptedModel, calls, reply
from studio.agent.trace import Masker
from tests.agent.scenarios import add_tab_steps
from tests.agent.util_spec import load

#: The keys of each event type's JSON form, as the loop wrote its dict events before they were
#: typed (every `--events` file so far has these).
KEYS = {
    "run_started": ["type", "trace_id", "instruction", "model"],
    "turn_started": ["type", "trace_id", "turn"],
    "text_delta": ["type", "trace_id", "text"],
    "usage": [
        "type",
        "trace_id",
        "turn",
        "input_tokens",
        "output_tokens",
        "estimated",
        "total_tokens",
    ],
    "tool_call": ["type", "trace_id", "call_id", "name", "arguments"],
    "tool_result": ["type", "trace_id", "call_id", "name", "output", "error_class", "duration_ms"],
    "input_required": ["type", "trace_id", "kind", "call_id", "question", "options"],
    "revision": ["type", "trace_id", "revision", "summary", "changed", "ops"],
    "completed": ["type", "trace_id", "reason", "text", "turns", "total_tokens", "error_class"],
}


def test_the_json_form_of_a_runs_events_is_unchanged_and_reads_back() -> None:
    events: list[RunEvent] = []
    session = AgentSession(ScriptedModel(add_tab_steps()), load("tabs-app"), on_event=events.append)

    async def go() -> None:
        from studio.agent.loop import UserAnswer

        paused = await session.run("Add a settings tab")
        assert paused.status == "needs_input"
        await session.resume(UserAnswer("settings"))

    asyncio.run(go())
    seen = {e.to_json()["type"] for e in events}
    assert seen == set(KEYS)
    for event in events:
        data = event.to_json()
        assert list(data) == KEYS[data["type"]], data["type"]
        assert run_event_from_json(data) == event
    assert sum(isinstance(e, RunEnded) for e in events) == 1
    assert TERMINAL == ("completed", "no_changes", "failed", "cancelled")


def test_an_approval_event_and_masking() -> None:
    async def side_effect(args: dict[str, Any]) -> Any:
        return {"ok": True}

    events: list[RunEvent] = []
    masker = Masker(["sk-very-secret-0001"])
    session = AgentSession(
        ScriptedModel([calls(("send", {"to": "sk-very-secret-0001"})), reply("ok")]),
        load("blank-screen"),
        on_event=events.append,
        masker=masker,
    )
    session.tools.register(
        Tool("send", "send", {"type": "object"}, side_effect, needs_approval=True)
    )

    async def go() -> None:
        await session.run("Send it")
        await session.resume(ApprovalAnswer(True))

    asyncio.run(go())
    [ask] = [e.to_json() for e in events if e.to_json()["type"] == "input_required"]
    assert list(ask) == ["type", "trace_id", "kind", "call_id", "tool", "arguments"]
    assert ask["arguments"] == {"to": "***"}  # the secret is masked in the event
    assert "sk-very-secret-0001" not in repr([e.to_json() for e in events])
    plain = TextStreamed("t", "nothing secret")
    assert mask_event(plain, masker) is plain
