"""Issue 16, points 1-4 and 11-14 at the seams (the local server): Responses calls by item id,
request bodies the SDK's types and strict servers accept, LiteLLM's profile and error framing,
streams that end early or lie, redirects, the key kept out of everything the model's output
reaches, bounded errors, bytes and time, and one rule for what a stopped run keeps."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.agent.clients import make_client
from studio.agent.errors import ModelError, classify_http
from studio.agent.events import ModelEvent, ModelRequest, ToolCall
from studio.agent.guards import Limits, RetryPolicy
from studio.agent.loop import AgentLoop
from studio.agent.profiles import profile_for
from studio.agent.registry import ToolRegistry
from studio.agent.trace import Masker, StreamRedactor
from studio.cli import main
from tests.agent.server import ModelServer, Reply, chunk, sse, usage_chunk
from tests.agent.util import REQUEST
from tests.agent.util_spec import FIXTURES

KEY = "Zq9MARKERx7Yv3Wk2Lp"


def stream(
    server: ModelServer, api: str = "chat", request: ModelRequest = REQUEST, **kw: Any
) -> list[ModelEvent]:
    async def go() -> list[ModelEvent]:
        async with httpx.AsyncClient() as http:
            client = make_client(api, server.base_url, "m", http=http, **kw)
            return [e async for e in client.stream(request)]

    return asyncio.run(go())


def cli(
    server: ModelServer, tmp_path: Path, *extra: str, spec: str = "blank-screen"
) -> tuple[int, list[dict[str, Any]], Path]:
    ev, out = tmp_path / "events.jsonl", tmp_path / "out.json"
    code = main(
        [
            "agent",
            "--spec",
            str(FIXTURES / f"{spec}.json"),
            "--instruction",
            "Rename the title to Inbox",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--events",
            str(ev),
            "--out",
            str(out),
            "--snapshot",
            str(tmp_path / "snap.json"),
            *extra,
        ]
    )
    return code, [json.loads(line) for line in ev.read_text().splitlines()], out


def tool_reply(name: str, arguments: str, call_id: str = "call_0") -> Reply:
    tc = {
        "index": 0,
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": arguments},
    }
    return Reply(sse(chunk(tool_calls=[tc]), chunk(finish="tool_calls")))


PATCH = {
    "ops": [
        {
            "op": "replaceNode",
            "id": "bar",
            "node": {"type": "topAppBar", "id": "bar", "title": "Inbox"},
        }
    ],
    "summary": "Title Inbox",
}


# -- point 1: Responses calls keyed by item id -------------------------------------------------


def test_responses_events_without_output_index_are_one_call(server: ModelServer) -> None:
    """agent-servers.md §5's reproduction: output_item.added, a delta by item_id, output_item.done."""
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "outline"}
    events = [
        {"type": "response.output_item.added", "item": {**item, "arguments": ""}},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "delta": "{}"},
        {"type": "response.output_item.done", "item": {**item, "arguments": "{}"}},
        {
            "type": "response.completed",
            "response": {"usage": {"input_tokens": 310, "output_tokens": 10}},
        },
    ]
    server.queue(Reply([f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events]))
    calls = [e for e in stream(server, "responses") if isinstance(e, ToolCall)]
    assert [(c.id, c.name, c.arguments) for c in calls] == [("call_1", "outline", "{}")]


@pytest.mark.parametrize(
    "event",
    [
        {"type": "response.function_call_arguments.delta", "output_index": "x", "delta": {"a": 1}},
        {"type": "response.output_item.added", "item": "a string"},
        {"type": "response.completed", "response": {"usage": {"input_tokens": "many"}}},
        {"type": "response.completed", "response": {"usage": {"input_tokens": 1e400}}},
    ],
)
def test_hostile_responses_events_are_malformed_model_errors(
    server: ModelServer, event: dict[str, Any]
) -> None:
    """F11: these used to escape as ValueError/AttributeError/TypeError and crash the run."""
    raw = json.dumps(event).replace("Infinity", "1e400")
    server.queue(Reply([f"data: {raw}\n\n".encode()]))
    with pytest.raises(ModelError, match="malformed event") as caught:
        stream(server, "responses")
    assert caught.value.kind == "retryable"


# -- points 2 and 3: bodies strict servers and the SDK's types accept --------------------------


def test_request_bodies_fit_strict_servers_and_the_sdk_types(server: ModelServer) -> None:
    from openai.types.chat import ChatCompletionAssistantMessageParam
    from openai.types.responses import FunctionToolParam

    request = ModelRequest(
        REQUEST.messages
        + [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c", "name": "outline", "arguments": "{}"}],
            },
            {"role": "tool", "tool_call_id": "c", "content": "ok"},
        ],
        REQUEST.tools,
    )
    chat = make_client("chat", server.base_url, "m").body(request, True)
    assistant = chat["messages"][2]
    # llama-cpp-python's server answers HTTP 500 to null (llama_types.py:
    # ChatCompletionRequestAssistantMessage.content is NotRequired[str])
    assert assistant["content"] == "" and isinstance(assistant["content"], str)
    assert set(ChatCompletionAssistantMessageParam.__required_keys__) <= set(assistant)
    tool = make_client("responses", server.base_url, "m").body(request)["tools"][0]
    assert set(FunctionToolParam.__required_keys__) <= set(tool) and tool["strict"] is False
    assert set(tool) <= set(FunctionToolParam.__annotations__)


# -- point 4: LiteLLM ----------------------------------------------------------------------------


def test_a_litellm_url_gets_usage_and_its_framed_errors_are_unwrapped(server: ModelServer) -> None:
    profile = profile_for("http://127.0.0.1:4000/v1")
    assert profile.name == "litellm" and profile.include_usage
    server.queue(Reply(sse(chunk("hi"), chunk(finish="stop"), usage_chunk(7, 2))))
    stream(server, profile=profile)
    assert server.seen[0].body["stream_options"] == {"include_usage": True}
    framed = b'data: {"error": {"message": "Error processing stream start", "code": "500"}}\n\ndata: [DONE]\n\n'
    assert str(classify_http(500, {}, framed)) == "HTTP 500: Error processing stream start"


# -- point 11: streams that end early, junk, redirects -----------------------------------------


def test_a_cut_stream_fails_and_is_not_replayed(server: ModelServer, tmp_path: Path) -> None:
    parts = sse(chunk("The pro"), chunk("totype has a form."), chunk(finish="stop"))
    server.queue(Reply(parts[:1]))  # cut after the first chunk: no finish_reason, no [DONE]
    code, events, _ = cli(server, tmp_path)
    assert code == 1 and events[-1]["type"] == "failed" and len(server.seen) == 1
    assert "broke off" in events[-1]["reason"] and "no finish_reason" in events[-1]["reason"]


def test_junk_is_not_a_completed_answer(server: ModelServer) -> None:
    server.queue(Reply([b"\x00\x01 binary junk\n\xff\xfe\nhello world\n\n" * 50]))
    with pytest.raises(ModelError, match="ended before the model finished"):
        stream(server)


def test_a_finish_reason_without_done_is_a_whole_answer(server: ModelServer) -> None:
    server.queue(Reply(sse(chunk("ok"), chunk(finish="stop"), done=False)))
    assert stream(server)[-1].reason == "stop"  # type: ignore[union-attr]


def test_redirects_to_another_host_are_refused_same_host_307_is_followed(
    server: ModelServer,
) -> None:
    other = server.base_url.replace("127.0.0.1", "127.0.0.2") + "/chat/completions"
    server.queue(Reply([], 307, headers={"Location": other}))
    with pytest.raises(ModelError, match="redirects to another host are refused") as caught:
        stream(server)
    assert caught.value.kind == "fatal" and len(server.seen) == 1
    server.queue(Reply([], 307, headers={"Location": "/v1/chat/completions?moved=1"}))
    server.queue(Reply(sse(chunk("ok"), chunk(finish="stop"))))
    stream(server, api="chat", api_key=KEY)
    assert [s.path for s in server.seen[1:]] == [
        "/v1/chat/completions",
        "/v1/chat/completions?moved=1",
    ]
    assert server.seen[-1].headers["Authorization"] == f"Bearer {KEY}"


# -- point 12: the key stays in the Authorization header ----------------------------------------


def test_a_key_split_across_chunks_reaches_no_file(
    server: ModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROTO_STUDIO_API_KEY", KEY)
    text = f"Your key is {KEY} ok"
    server.queue(
        Reply(sse(*[chunk(text[i : i + 5]) for i in range(0, len(text), 5)], chunk(finish="stop")))
    )
    code, events, out = cli(server, tmp_path, spec="blank-screen")
    joined = "".join(e["text"] for e in events if e["type"] == "text_delta")
    assert joined == "Your key is *** ok"
    for path in (tmp_path / "events.jsonl", tmp_path / "snap.json", out):
        assert KEY not in path.read_text() and KEY[:10] not in path.read_text()


def test_a_key_echoed_into_a_patch_reaches_no_spec(
    server: ModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F5.1: the model patches a title to the key it was sent; --out must not hold it."""
    monkeypatch.setenv("PROTO_STUDIO_API_KEY", KEY)
    node = {"type": "topAppBar", "id": "bar", "title": f"key={KEY}"}
    args = {"ops": [{"op": "replaceNode", "id": "bar", "node": node}], "summary": "s"}
    server.queue(
        tool_reply("patch", json.dumps(args)), Reply(sse(chunk("done"), chunk(finish="stop")))
    )
    code, events, out = cli(server, tmp_path)
    assert code == 0 and json.loads(out.read_text())["root"]["children"][0]["title"] == "key=***"
    for path in (tmp_path / "events.jsonl", tmp_path / "snap.json", out):
        assert KEY not in path.read_text()
    assert KEY not in json.dumps(server.seen[1].body)  # nor goes back to the model


def test_masking_takes_exact_keys_of_any_length_and_only_real_key_shapes() -> None:
    short = Masker(["k3y"])
    assert short.text("Your key is k3y ok") == "Your key is *** ok"
    assert short.text("a k3yboard") == "a k3yboard"  # a short key only where it stands alone
    shapes = Masker()
    assert shapes.text("Task-management made easy") == "Task-management made easy"
    assert shapes.text("Ask-anything") == "Ask-anything"
    real = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
    assert shapes.text(f"Ask-anything {real}") == "Ask-anything ***"
    redactor = StreamRedactor(Masker([KEY]))
    pieces = [redactor.feed(p) for p in ("key: Zq9MA", "RKERx7", "Yv3Wk2Lp and Zq9", " more")]
    assert "".join(pieces) + redactor.flush() == "key: *** and Zq9 more"


# -- point 13: bounded bytes and time -----------------------------------------------------------


def test_a_huge_error_body_stays_small_everywhere(
    server: ModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = b'{"error": {"message": "' + b"E" * 6_000_000 + b'"}}'
    server.queue(*[Reply([body], 500, content_type="application/json")] * 4)
    code, events, _ = cli(server, tmp_path, "--max-turns", "2")
    assert code == 1 and events[-1]["type"] == "failed"
    err = capsys.readouterr().err
    assert len(err) < 5_000 and "model_error" not in err  # no trace steps on stderr without -v
    assert (tmp_path / "events.jsonl").stat().st_size < 20_000
    assert (tmp_path / "snap.json").stat().st_size < 100_000


@pytest.mark.parametrize(
    "raw",
    [
        b'event: \xff\xfe\ndata: {"choices": []}\n\ndata: [DONE]\n\n',
        b'data: {"choices": [], "usage": {"prompt_tokens": 1e400, "completion_tokens": 1}}\n\n',
        b'data: {"choices": [{"index": 0, "delta": {"content": {"not": "text"}}}]}\n\n',
    ],
)
def test_hostile_chat_chunks_are_model_errors_or_harmless(server: ModelServer, raw: bytes) -> None:
    """F11: a non-UTF-8 event name is read as text; an overflowing usage count or an object
    as content is a malformed chunk, not a Python exception out of the client."""
    server.queue(Reply([raw]))
    try:
        stream(server)
    except ModelError as exc:
        assert exc.kind == "retryable" and ("malformed" in str(exc) or "ended before" in str(exc))


def test_a_line_without_end_fails_quickly(server: ModelServer) -> None:
    server.queue(Reply([b"data: " + b"B" * (9 * 1024 * 1024)]))
    with pytest.raises(ModelError, match="line passed"):
        stream(server)


def loop_on(server: ModelServer, limits: Limits, retry: RetryPolicy | None = None) -> Any:
    async def go() -> Any:
        async with httpx.AsyncClient() as http:
            client = make_client("chat", server.base_url, "m", http=http)
            loop = AgentLoop(
                client, ToolRegistry(), limits=limits, retry=retry or RetryPolicy(max_attempts=1)
            )
            return await loop.run("hi")

    return asyncio.run(go())


def test_a_server_that_goes_quiet_hits_the_idle_timeout(server: ModelServer) -> None:
    server.queue(Reply(sse(chunk("a"), chunk("b"), chunk(finish="stop")), pause=2.0))
    result = loop_on(server, Limits(idle_timeout=0.3))
    assert (
        result.status == "failed"
        and result.error_class == "timeout"
        and "no byte for 0.3 s" in result.reason
    )


def test_a_trickling_server_hits_the_request_time_limit(server: ModelServer) -> None:
    server.queue(Reply(sse(*[chunk("x") for _ in range(200)]), pause=0.02))
    result = loop_on(server, Limits(idle_timeout=5, request_timeout=0.5))
    assert result.status == "failed" and "request time limit of 0.5 s" in result.reason
    assert len(server.seen) == 1  # not asked again


def test_a_retry_after_past_the_cap_is_not_waited_for(server: ModelServer) -> None:
    server.queue(
        Reply(
            [b'{"error": {"message": "slow down"}}'],
            429,
            headers={"Retry-After": "100000"},
            content_type="application/json",
        )
    )
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def go() -> Any:
        async with httpx.AsyncClient() as http:
            loop = AgentLoop(
                make_client("chat", server.base_url, "m", http=http), ToolRegistry(), sleep=sleep
            )
            return await loop.run("hi")

    result = asyncio.run(go())
    assert result.status == "failed" and result.error_class == "rate_limit" and waits == []


def test_the_run_time_limit_answers_the_running_call() -> None:
    from studio.agent.registry import Tool
    from studio.agent.testing import ScriptedModel, calls

    async def slow(args: dict[str, Any]) -> Any:
        await asyncio.sleep(30)

    tools = ToolRegistry([Tool("slow", "slow", {"type": "object"}, slow, timeout=60)])
    loop = AgentLoop(ScriptedModel([calls(("slow", {}))]), tools, limits=Limits(run_timeout=0.3))
    result = asyncio.run(loop.run("go"))
    assert (
        result.status == "failed"
        and result.error_class == "limit"
        and "time limit of 0.3 s" in result.reason
    )
    assert json.loads(loop.messages[-1]["content"]) == {
        "error": "not run: the run's time limit was reached"
    }
    assert loop.pending is None


# -- point 14: one rule for what a stopped run keeps --------------------------------------------


def test_a_turn_cap_stop_keeps_the_revisions_in_out(
    server: ModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.queue(tool_reply("patch", json.dumps(PATCH)), tool_reply("outline", "{}", "call_1"))
    code, events, out = cli(server, tmp_path, "--max-turns", "2")
    assert code == 1 and events[-1]["error_class"] == "limit"
    assert "The draft keeps the changes made so far" in events[-1]["reason"]
    assert json.loads(out.read_text())["root"]["children"][0]["title"] == "Inbox"
    assert "(kept 1 revision(s))" in capsys.readouterr().err


def test_no_changes_made_has_its_own_exit_code(server: ModelServer, tmp_path: Path) -> None:
    server.queue(*[Reply(sse(chunk("I renamed it."), chunk(finish="stop")))] * 2)
    code, events, out = cli(server, tmp_path)
    assert code == 3 and events[-1]["type"] == "no_changes"
    assert json.loads(out.read_text()) == json.loads((FIXTURES / "blank-screen.json").read_text())


@given(
    before=st.text(alphabet="abc Zq9 -", max_size=30),
    after=st.text(alphabet="abc Zq9 -", max_size=30),
    cuts=st.lists(st.integers(min_value=0, max_value=80), max_size=12),
)
def test_a_key_split_anywhere_never_comes_out_whole_or_in_part(
    before: str, after: str, cuts: list[int]
) -> None:
    text = before + KEY + after
    points = sorted({min(c, len(text)) for c in cuts})
    pieces = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    redactor = StreamRedactor(Masker([KEY]))
    out = "".join(redactor.feed(p) for p in pieces) + redactor.flush()
    assert out == Masker([KEY]).text(text) and KEY not in out
