"""Reasoning effort (the `effort` option and each provider's translation) and reasoning deltas
(kept out of the answer and the transcript), against a real local HTTP server."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.clients import ChatCompletionsClient, ResponsesClient
from studio.agent.errors import ModelError
from studio.agent.events import Finish, ReasoningDelta, TextDelta, Usage
from studio.agent.profiles import profile_for
from studio.agent.reasoning import (
    CHOICES,
    PROVIDER_DEFAULT,
    TRANSLATIONS,
    effort_problem,
    levels_for,
    request_fields,
)
from studio.agent.replay import replay_sync
from studio.agent.run_events import ReasoningStreamed, RunEvent, TextStreamed
from studio.agent.session import AgentSession
from studio.agent.testing import ScriptedModel, call, calls
from studio.cli import main
from tests.agent.server import ModelServer, Reply, chunk, sse, usage_chunk
from tests.agent.test_responses_client import CREATED, ev, frames
from tests.agent.util import REQUEST, text_of
from tests.agent.util_spec import sign_in


def body_for(profile: str, api: str, effort: str) -> dict[str, Any]:
    request = replace(REQUEST, effort=effort)
    prof = profile_for("", profile)
    if api == "chat":
        return ChatCompletionsClient("http://127.0.0.1:1/v1", "m", profile=prof).body(request, True)
    return ResponsesClient("http://127.0.0.1:1/v1", "m", profile=prof).body(request)


@pytest.mark.parametrize(
    ("profile", "api", "fields"),
    [
        ("openai", "chat", {"reasoning_effort": "low"}),
        ("openai", "responses", {"reasoning": {"effort": "low"}}),
        ("litellm", "chat", {"reasoning_effort": "low"}),
        ("openrouter", "chat", {"reasoning": {"effort": "low"}}),
        ("ollama", "chat", {"reasoning_effort": "low"}),
        ("llamacpp", "responses", {"reasoning": {"effort": "low"}}),
        ("vllm", "chat", {"reasoning_effort": "low"}),
    ],
)
def test_each_provider_gets_effort_in_its_own_field(
    profile: str, api: str, fields: dict[str, Any]
) -> None:
    body = body_for(profile, api, "low")
    for key, value in fields.items():
        assert body[key] == value
    other = {"reasoning_effort", "reasoning"} - set(fields)
    assert not other & set(body)


@pytest.mark.parametrize("profile", ["openai", "ollama", "lmstudio", "generic"])
@pytest.mark.parametrize("api", ["chat", "responses"])
def test_provider_default_sends_no_effort_even_without_a_translation(
    profile: str, api: str
) -> None:
    body = body_for(profile, api, PROVIDER_DEFAULT)
    assert "reasoning_effort" not in body and "reasoning" not in body
    assert request_fields(profile, api, None) == {}


def test_an_unsupported_effort_is_refused_with_what_the_provider_takes() -> None:
    assert effort_problem("generic", "chat", "high") == (
        "the generic profile has no reasoning-effort setting, so effort 'high' cannot be sent; "
        "use provider-default (the server's own default)"
    )
    problem = effort_problem("ollama", "chat", "minimal")
    assert problem is not None
    assert "ollama" in problem and "none, low, medium, high" in problem
    unknown = effort_problem("openai", "chat", "extreme")
    assert unknown is not None and "provider-default, none, minimal" in unknown
    assert effort_problem("openai", "responses", " HIGH ") is None  # case and spaces
    assert levels_for("lmstudio", "chat") == (PROVIDER_DEFAULT,)
    assert levels_for("ollama", "chat") == (PROVIDER_DEFAULT, "none", "low", "medium", "high")
    assert set(CHOICES) >= {e for t in TRANSLATIONS.values() for e in t.levels}


def test_a_refused_effort_fails_before_any_request_is_sent(server: ModelServer) -> None:
    async def go() -> None:
        async with httpx.AsyncClient() as http:
            client = ChatCompletionsClient(
                server.base_url, "m", profile=profile_for(server.base_url, "generic"), http=http
            )
            async for _ in client.stream(replace(REQUEST, effort="high")):
                pass

    with pytest.raises(ModelError, match="no reasoning-effort setting") as info:
        asyncio.run(go())
    assert info.value.kind == "fatal"
    assert server.seen == []


def test_chat_reasoning_deltas_are_not_the_answer(server: ModelServer) -> None:
    """llama-server's `reasoning_content` and Ollama's `reasoning` both come out as reasoning."""
    server.queue(
        Reply(
            sse(
                {"choices": [{"index": 0, "delta": {"reasoning_content": "Read the "}}]},
                {"choices": [{"index": 0, "delta": {"reasoning": "outline."}}]},
                chunk("Done."),
                chunk(finish="stop"),
                usage_chunk(20, 9),
            )
        )
    )

    async def go() -> list[Any]:
        async with httpx.AsyncClient() as http:
            client = ChatCompletionsClient(
                server.base_url, "m", profile=profile_for(server.base_url, "llamacpp"), http=http
            )
            return [e async for e in client.stream(replace(REQUEST, effort="high"))]

    events = asyncio.run(go())
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [
        ReasoningDelta("Read the "),
        ReasoningDelta("outline."),
    ]
    assert text_of(events) == "Done."
    assert server.seen[0].body["reasoning_effort"] == "high"
    assert events[-2:] == [Usage(20, 9), Finish("stop")]


def test_responses_reasoning_summary_and_text_deltas(server: ModelServer) -> None:
    server.queue(
        Reply(
            frames(
                CREATED,
                ev("response.output_item.added", output_index=0, item={"type": "reasoning"}),
                ev("response.reasoning_summary_text.delta", output_index=0, delta="Plan: "),
                ev("response.reasoning_text.delta", item_id="rs_1", delta="outline first"),
                ev("response.output_text.delta", output_index=1, delta="Hi"),
                ev(
                    "response.completed",
                    response={"usage": {"input_tokens": 5, "output_tokens": 7}},
                ),
            )
        )
    )

    async def go() -> list[Any]:
        async with httpx.AsyncClient() as http:
            client = ResponsesClient(
                server.base_url,
                "gpt",
                api_key="k",
                profile=profile_for(server.base_url, "openai"),
                http=http,
            )
            return [e async for e in client.stream(replace(REQUEST, effort="medium"))]

    events = asyncio.run(go())
    assert [e.text for e in events if isinstance(e, ReasoningDelta)] == ["Plan: ", "outline first"]
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hi"]
    assert server.seen[0].body["reasoning"] == {"effort": "medium"}


def thinking_steps() -> list[Any]:
    patch = {
        "ops": [
            {
                "op": "replaceNode",
                "id": "submit",
                "node": {"type": "button", "id": "submit", "label": "Log in"},
            }
        ],
        "summary": "Rename the button",
    }
    return [
        [
            ReasoningDelta("The button is submit; "),
            ReasoningDelta("one replaceNode."),
            *calls(call("patch", patch, id="p1")),
        ],
        [
            ReasoningDelta("Done, say so."),
            TextDelta("Renamed it to Log in."),
            Usage(9, 4),
            Finish("stop"),
        ],
    ]


def test_the_loop_keeps_reasoning_out_of_the_answer_and_transcript(tmp_path: Path) -> None:
    model = ScriptedModel(thinking_steps())
    events: list[RunEvent] = []
    session = AgentSession(model, sign_in(), on_event=events.append, effort="low")
    result = asyncio.run(session.run("Rename the sign-in button to Log in"))
    model.assert_complete()
    assert result.status == "completed" and result.text == "Renamed it to Log in."
    assert all(r.effort == "low" for r in model.requests)
    shown = "".join(e.text for e in events if isinstance(e, ReasoningStreamed))
    assert shown == "The button is submit; one replaceNode.Done, say so."
    assert "".join(e.text for e in events if isinstance(e, TextStreamed)) == result.text
    # what the model is sent back holds no reasoning
    sent = json.dumps(model.requests[-1].messages)
    assert "one replaceNode" not in sent and "Done, say so" not in sent
    assert session.loop.messages[-1] == {"role": "assistant", "content": "Renamed it to Log in."}
    # recorded, so a replay streams it too
    recorded = [e for r in session.loop.record if r["kind"] == "model" for e in r["events"]]
    assert {"type": "reasoning", "text": "Done, say so."} in recorded
    path = session.save(tmp_path / "run.json")
    report = replay_sync(json.loads(path.read_text()))
    assert report.ok, report.problems()


def test_cli_refuses_an_effort_the_provider_cannot_take(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(sign_in()))
    code = main(
        ["agent", "--spec", str(spec), "--instruction", "x", "--base-url", "http://127.0.0.1:9/v1"]
        + ["--model", "m", "--profile", "lmstudio", "--effort", "high"]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == [
        "proto-studio agent: --effort: the lmstudio profile has no reasoning-effort setting, so "
        "effort 'high' cannot be sent; use provider-default (the server's own default)"
    ]


def test_cli_sends_the_effort_to_the_server(tmp_path: Path, server: ModelServer) -> None:
    spec = tmp_path / "s.json"
    spec.write_text(json.dumps(sign_in()))
    server.queue(Reply(sse(chunk("Nothing to do."), chunk(finish="stop"))))
    code = main(
        ["agent", "--spec", str(spec), "--instruction", "Explain the screen"]
        + ["--base-url", server.base_url, "--model", "m", "--profile", "llamacpp"]
        + ["--effort", "none", "--snapshot", str(tmp_path / "run.json")]
    )
    assert code == 0
    assert server.seen[-1].body["reasoning_effort"] == "none"
