"""The agent against real OpenAI-compatible servers nobody here wrote (issue 16, Tests):
llama.cpp's llama-server running the hand-set bigram model, and LiteLLM's proxy with mocked
responses. The servers' own template rendering, grammar, tool-call parsing and SSE framing are
what is exercised; tests/agent/real_servers.py starts them. Their streams are recorded in
tests/fixtures/agent/streams/ for the fast parsing tests (test_recorded_streams.py)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.clients import ChatCompletionsClient, ModelClient, ResponsesClient, make_client
from studio.agent.draft import Draft
from studio.agent.errors import ModelError
from studio.agent.events import (
    Finish,
    ModelEvent,
    ModelRequest,
    TextDelta,
    ToolCall,
    ToolSpec,
    Usage,
)
from studio.agent.guards import Limits
from studio.agent.profiles import profile_for
from studio.agent.session import AgentSession
from studio.agent.tools import ToolContext, build_spec_tools
from studio.cli import main
from tests.agent.real_servers import RecordingTransport, Server
from tests.agent.util_spec import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2700)]  # a cold llama-server build included

INSTRUCTION = "Rename the sign-in button to Log in"
MASTER = "sk-litellm-master-0123456789"  # general_settings.master_key in real_servers.py


def specs() -> list[ToolSpec]:
    return build_spec_tools(ToolContext(Draft(sign_in()))).specs()


def first_request(names: tuple[str, ...] = (), choice: str = "auto") -> ModelRequest:
    tools = [t for t in specs() if not names or t.name in names]
    return ModelRequest(
        [
            {"role": "system", "content": "You edit specs."},
            {"role": "user", "content": INSTRUCTION},
        ],
        tools,
        tool_choice=choice,
        max_tokens=400,
    )


def stream(client_for: Any, name: str, request: ModelRequest) -> tuple[list[ModelEvent], Any]:
    async def go() -> tuple[list[ModelEvent], Any]:
        transport = RecordingTransport(name)
        async with httpx.AsyncClient(transport=transport, timeout=120) as http:
            client = client_for(http)
            return [e async for e in client.stream(request)], transport

    return asyncio.run(go())


def llama_chat(server: Server) -> Any:
    return lambda http: ChatCompletionsClient(
        server.base_url, "bigram", profile=profile_for(server.base_url, "llamacpp"), http=http
    )


def calls_in(events: list[ModelEvent]) -> list[ToolCall]:
    return [e for e in events if isinstance(e, ToolCall)]


# -- llama-server ----------------------------------------------------------------------------


def test_llama_server_streams_one_outline_call_with_real_usage(llama_server: Server) -> None:
    events, transport = stream(llama_chat(llama_server), "llama-chat-outline", first_request())
    [call] = calls_in(events)
    assert call.name == "outline" and json.loads(call.arguments) == {}
    usage = next(e for e in events if isinstance(e, Usage))
    assert not usage.estimated and usage.input_tokens > 100 and usage.output_tokens > 0
    assert events[-1] == Finish("tool_calls")
    # the arguments came in fragments ("{" then "}") that were joined, not doubled
    assert transport.bodies[0].count(b'"tool_calls"') >= 2


def test_llama_server_responses_api_gives_one_call_per_item(llama_server: Server) -> None:
    """Point 1: llama-server's Responses events carry item_id but no output_index; the call
    used to come out twice (X, X_1)."""
    events, transport = stream(
        lambda http: ResponsesClient(llama_server.base_url, "bigram", http=http),
        "llama-responses-outline",
        first_request(),
    )
    assert b"output_index" not in transport.bodies[0] and b"item_id" in transport.bodies[0]
    [call] = calls_in(events)
    assert call.name == "outline" and call.id.startswith("call_") and call.arguments == "{}"
    assert transport.requests[0]["tools"][0]["strict"] is False  # point 3


def test_llama_server_takes_our_transcript_back(llama_server: Server) -> None:
    """Point 2: the assistant tool-call message carries content "" (not null) and the server
    accepts the whole second-turn transcript on both APIs."""
    request = first_request()
    request.messages += [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "name": "outline", "arguments": "{}"}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "root column\n  button submit 'Sign in'"},
    ]
    for client_for, name in (
        (llama_chat(llama_server), "llama-chat-turn2"),
        (
            lambda http: ResponsesClient(llama_server.base_url, "bigram", http=http),
            "llama-responses-turn2",
        ),
    ):
        events, transport = stream(client_for, name, request)
        assert isinstance(events[-1], Finish)
        sent = transport.requests[0]
        if "messages" in sent:
            assert sent["messages"][2]["content"] == "" and sent["messages"][2]["tool_calls"]


def test_a_forced_patch_closes_under_llama_cpp_grammar(llama_server: Server) -> None:
    """Point 7: without `pattern` on patch.summary the grammar closes the summary and the patch
    parses; with the old pattern the server aborts the stream (the same request otherwise)."""
    events, _ = stream(
        llama_chat(llama_server), "llama-chat-patch", first_request(("patch",), "required")
    )
    [call] = calls_in(events)
    args = json.loads(call.arguments)
    assert call.name == "patch" and args["summary"] == INSTRUCTION
    assert args["ops"][0]["node"]["label"] == "Log in"
    patch = next(t for t in specs() if t.name == "patch")
    old = json.loads(json.dumps(patch.parameters))
    old["properties"]["summary"]["pattern"] = "^[^\\n]*$"
    old["required"] = ["ops", "summary"]
    request = first_request(("patch",), "required")
    request.tools = [ToolSpec("patch", patch.description, old)]
    with pytest.raises(ModelError, match="does not match the expected"):
        stream(llama_chat(llama_server), "llama-chat-patch-pattern", request)


def test_the_context_window_comes_from_props(llama_server: Server) -> None:
    """Point 8: llama-server's /props says the slot's context (-c 8192)."""

    async def go() -> Any:
        async with httpx.AsyncClient() as http:
            client = make_client(
                "chat",
                llama_server.base_url,
                "bigram",
                http=http,
                profile=profile_for(llama_server.base_url, "llamacpp"),
            )
            return await client.context_window()

    window = asyncio.run(go())
    assert window is not None and window.tokens == 8192 and "/props" in window.source


class Narrowing:
    """A ModelClient that offers the real client one tool set per turn (as agent-servers.md's
    driver did): the bigram model follows whatever tools the grammar allows."""

    def __init__(self, inner: ModelClient, plan: list[tuple[tuple[str, ...], str]]) -> None:
        self.inner = inner
        self.model = inner.model
        self.profile = getattr(inner, "profile", None)
        self.context_window = inner.context_window
        self.plan = plan

    def stream(self, request: ModelRequest) -> Any:
        names, choice = self.plan.pop(0)
        narrowed = replace(
            request, tools=[t for t in request.tools if t.name in names], tool_choice=choice
        )
        return self.inner.stream(narrowed)


def test_a_session_renames_the_button_on_llama_server(llama_server: Server) -> None:
    """readNode, then a forced patch through the grammar: the draft gets "Log in". The turn cap
    then stops the run, and the draft keeps the revision (point 14's one rule)."""

    async def go() -> tuple[AgentSession, Any]:
        async with httpx.AsyncClient(timeout=120) as http:
            inner = make_client(
                "chat",
                llama_server.base_url,
                "bigram",
                http=http,
                profile=profile_for(llama_server.base_url, "llamacpp"),
            )
            model = Narrowing(inner, [(("readNode",), "auto"), (("patch",), "required")])
            session = AgentSession(model, sign_in(), guide="short", limits=Limits(max_turns=2))
            result = await session.run(INSTRUCTION)
            return session, result

    session, result = asyncio.run(go())
    assert result.status == "failed" and result.error_class == "limit"
    assert "keeps the changes" in result.reason
    [revision] = session.draft.revisions
    assert revision.summary == INSTRUCTION
    button = session.draft.spec["root"]["children"][1]["child"]["children"][6]
    assert button["label"] == "Log in" and button["id"] == "submit"
    assert session.loop.window is not None and session.loop.window.tokens == 8192
    reads = [r for r in session.loop.record if r.get("kind") == "tool" and r["name"] == "readNode"]
    assert json.loads(reads[0]["output"])["id"] == "submit"


def test_the_cli_on_llama_server_runs_each_responses_call_once(
    llama_server: Server, tmp_path: Path
) -> None:
    """The unmodified CLI over /v1/responses: the model only ever calls outline, so the stuck
    detector stops it at the third identical call; each call ran once (no `X_1`)."""
    spec = tmp_path / "sign-in.json"
    spec.write_text(json.dumps(sign_in()))
    ev, out = tmp_path / "events.jsonl", tmp_path / "out.json"
    code = main(
        [
            "agent",
            "--spec",
            str(spec),
            "--instruction",
            INSTRUCTION,
            "--base-url",
            llama_server.base_url,
            "--model",
            "bigram",
            "--api",
            "responses",
            "--profile",
            "llamacpp",
            "--events",
            str(ev),
            "--out",
            str(out),
            "--snapshot",
            str(tmp_path / "s.json"),
        ]
    )
    events = [json.loads(line) for line in ev.read_text().splitlines()]
    calls = [e for e in events if e["type"] == "tool_call"]
    turns = [e for e in events if e["type"] == "turn_started"]
    assert code == 1 and events[-1]["type"] == "failed" and "looks stuck" in events[-1]["reason"]
    assert len(calls) == len(turns) == 3 and all(not c["call_id"].endswith("_1") for c in calls)
    assert all(not e["estimated"] for e in events if e["type"] == "usage")
    assert json.loads(out.read_text()) == sign_in()  # nothing was changed, nothing applied


# -- LiteLLM's proxy -------------------------------------------------------------------------


def litellm(server: Server, model: str, api: str = "chat", profile: str | None = "litellm") -> Any:
    return lambda http: make_client(
        api,
        server.base_url,
        model,
        api_key=MASTER,
        profile=profile_for(server.base_url, profile),
        http=http,
    )


def test_litellm_reports_usage_with_its_profile(litellm_proxy: Server) -> None:
    """Point 4: with the litellm profile the request asks for usage and LiteLLM sends it."""
    events, transport = stream(
        litellm(litellm_proxy, "scripted"), "litellm-chat-outline", first_request()
    )
    assert transport.requests[0]["stream_options"] == {"include_usage": True}
    usage = next(e for e in events if isinstance(e, Usage))
    assert not usage.estimated and usage.input_tokens == 1000
    [call] = calls_in(events)
    assert call.name == "outline"
    events, _ = stream(litellm(litellm_proxy, "claims"), "litellm-chat-text", first_request())
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "I renamed the sign-in button to Log in." and not calls_in(events)
    assert not next(e for e in events if isinstance(e, Usage)).estimated


def test_litellm_session_applies_the_patch_on_both_apis(
    litellm_proxy: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROTO_STUDIO_API_KEY", MASTER)
    for api, model in (("chat", "scripted"), ("responses", "bridged")):
        spec = tmp_path / "sign-in.json"
        spec.write_text(json.dumps(sign_in()))
        out, ev = tmp_path / f"out-{api}.json", tmp_path / f"ev-{api}.jsonl"
        code = main(
            [
                "agent",
                "--spec",
                str(spec),
                "--instruction",
                INSTRUCTION,
                "--base-url",
                litellm_proxy.base_url,
                "--model",
                model,
                "--api",
                api,
                "--profile",
                "litellm",
                "--events",
                str(ev),
                "--out",
                str(out),
                "--snapshot",
                str(tmp_path / f"s-{api}.json"),
            ]
        )
        events = [json.loads(line) for line in ev.read_text().splitlines()]
        assert code == 0 and events[-1]["type"] == "completed", events[-1]
        button = json.loads(out.read_text())["root"]["children"][1]["child"]["children"][6]
        assert button["label"] == "Log in"
        assert all(not e["estimated"] for e in events if e["type"] == "usage")


def test_litellm_text_tool_call_and_claims_are_not_silent(
    litellm_proxy: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 5 through a real proxy: a Hermes <tool_call> written as text is run as a call; a
    model that only claims the edit is nudged once, then the CLI exits 3 ("no changes made")."""
    monkeypatch.setenv("PROTO_STUDIO_API_KEY", MASTER)
    spec = tmp_path / "sign-in.json"
    spec.write_text(json.dumps(sign_in()))
    results = {}
    for model in ("textcall", "claims"):
        out, ev = tmp_path / f"out-{model}.json", tmp_path / f"ev-{model}.jsonl"
        code = main(
            [
                "agent",
                "--spec",
                str(spec),
                "--instruction",
                INSTRUCTION,
                "--base-url",
                litellm_proxy.base_url,
                "--model",
                model,
                "--profile",
                "litellm",
                "--events",
                str(ev),
                "--out",
                str(out),
                "--snapshot",
                str(tmp_path / f"s-{model}.json"),
            ]
        )
        results[model] = (code, [json.loads(line) for line in ev.read_text().splitlines()], out)
    code, events, out = results["textcall"]
    assert code == 0 and any(e["type"] == "revision" for e in events)
    code, events, out = results["claims"]
    assert code == 3 and events[-1]["type"] == "no_changes"
    assert "No changes made" in events[-1]["reason"]
    assert sum(e["type"] == "warning" and "Harness check" in e["message"] for e in events) == 1
    assert json.loads(out.read_text()) == sign_in()


def test_litellm_errors_are_classified_without_sse_framing(litellm_proxy: Server) -> None:
    """Point 4: a 429 is a rate limit; LiteLLM's streamed 500 body (`data: {...}` lines) shows
    only its message."""
    with pytest.raises(ModelError) as caught:
        stream(litellm(litellm_proxy, "rate-limited"), "litellm-chat-429", first_request())
    assert caught.value.kind == "rate_limit" and caught.value.status == 429
    with pytest.raises(ModelError) as caught:
        stream(
            litellm(litellm_proxy, "plain", "responses"), "litellm-responses-500", first_request()
        )
    assert "data:" not in str(caught.value) and "[DONE]" not in str(caught.value)


def test_the_eval_runs_end_to_end_on_llama_server(
    llama_server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`proto-studio eval` against the real llama-server and its tiny bigram model: it scores
    low (the point is that the harness runs end to end), and what it recorded replays offline
    to the same score."""
    out = tmp_path / "live"
    argv = ["eval", "--base-url", llama_server.base_url, "--model", "bigram"]
    argv += ["--profile", "llamacpp", "--only", "restyle-button,dark-theme"]
    argv += ["--tools", "standard,compound"]  # the two sets side by side
    argv += ["--max-turns", "2", "--max-output-tokens", "200", "--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    live = capsys.readouterr().out
    assert "tools standard,compound" in live.splitlines()[0]
    rows = {line.split()[0]: line.split() for line in live.splitlines()[3:]}
    assert set(rows) == {
        f"{task}/{tools}"
        for task in ("restyle-button", "dark-theme", "all")
        for tools in ("standard", "compound")
    }
    assert (out / "report.html").read_text().count("<svg") == 2
    runs = sorted(p.name for p in (out / "runs").iterdir())
    assert runs == [
        "dark-theme-compound-1.json",
        "dark-theme-standard-1.json",
        "restyle-button-compound-1.json",
        "restyle-button-standard-1.json",
    ]
    assert main(["eval", "--replay", str(out / "runs"), "--out", str(tmp_path / "replay")]) == 0
    replayed = capsys.readouterr().out
    again = {line.split()[0]: line.split() for line in replayed.splitlines()[3:]}
    assert {k: v[1:7] for k, v in again.items()} == {k: v[1:7] for k, v in rows.items()}
