"""Faults end to end: the loop driving the real Chat Completions client against a local server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from studio.agent.clients import ChatCompletionsClient
from studio.agent.loop import AgentLoop, RunResult
from studio.agent.registry import Tool, ToolRegistry
from studio.agent.run_events import RunEvent
from tests.agent.server import ModelServer, Reply, chunk, sse, usage_chunk


def drive(
    server: ModelServer, instruction: str = "hi"
) -> tuple[RunResult, list[float], list[dict[str, Any]]]:
    waits: list[float] = []
    events: list[dict[str, Any]] = []

    async def sleep(d: float) -> None:
        waits.append(d)

    async def outline(_: dict[str, Any]) -> Any:
        return {"outline": "column#root"}

    tools = ToolRegistry([Tool("outline", "the tree", {"type": "object"}, outline)])

    async def go() -> RunResult:
        async with httpx.AsyncClient() as http:
            client = ChatCompletionsClient(
                server.base_url, "m", api_key="sk-testkey123456", http=http
            )
            loop = AgentLoop(
                client,
                tools,
                system="s",
                sleep=sleep,
                rng=lambda: 1.0,
                on_event=lambda e: events.append(e.to_json()),
            )
            return await loop.run(instruction)

    return asyncio.run(go()), waits, events


OK = Reply(sse(chunk("done"), chunk(finish="stop"), usage_chunk(3, 1)))


def test_429_with_retry_after_then_success(server: ModelServer) -> None:
    server.queue(
        Reply(
            [b'{"error":{"message":"rate limited"}}'], 429, {"Retry-After": "3"}, "application/json"
        ),
        OK,
    )
    result, waits, _ = drive(server)
    assert result.status == "completed" and result.text == "done" and waits == [3.0]
    assert len(server.seen) == 2


def test_500_then_success_backs_off(server: ModelServer) -> None:
    server.queue(Reply([b"oops"], 500, content_type="text/plain"), OK)
    result, waits, _ = drive(server)
    assert result.status == "completed" and waits == [0.5]


def test_401_stops_without_retry(server: ModelServer) -> None:
    server.queue(
        Reply(
            [b'{"error":{"message":"Incorrect API key provided: sk-testk***"}}'],
            401,
            content_type="application/json",
        )
    )
    result, waits, events = drive(server)
    assert (
        result.status == "failed"
        and result.error_class == "auth"
        and waits == []
        and len(server.seen) == 1
    )
    assert "Re-authenticate" in result.text
    assert "sk-testkey123456" not in json.dumps(events)


def test_cut_before_output_is_retried_cut_after_output_is_not(server: ModelServer) -> None:
    frames = sse(chunk("abc"), chunk(finish="stop"))
    server.queue(Reply(frames, cut_after=0), OK)
    result, waits, _ = drive(server)
    assert result.status == "completed" and len(waits) == 1

    server.queue(Reply(frames, cut_after=len(frames[0]) + 3), OK)
    result, waits, events = drive(server)
    assert result.status == "failed" and "network error" in result.text and waits == []
    assert [e["text"] for e in events if e["type"] == "text_delta"] == ["abc"]


def test_error_mid_stream_and_malformed_chunk_fail_the_run(server: ModelServer) -> None:
    server.queue(
        Reply(sse(chunk("par"), {"error": {"message": "worker died", "code": "internal"}}))
    )
    result, _, _ = drive(server)
    assert result.status == "failed" and "worker died" in result.text
    server.queue(Reply(sse(chunk("a"), "{not json")))
    result, _, _ = drive(server)
    assert result.status == "failed" and "malformed chunk" in result.text


def test_tool_round_trip_over_http_sends_the_transcript(server: ModelServer) -> None:
    call = chunk(
        tool_calls=[
            {
                "index": 0,
                "id": "c1",
                "type": "function",
                "function": {"name": "outline", "arguments": "{}"},
            }
        ],
        finish="tool_calls",
    )
    server.queue(Reply(sse(call)), OK)
    result, _, _ = drive(server)
    assert result.status == "completed"
    second = server.seen[1].body["messages"]
    assert second[2]["tool_calls"][0]["function"] == {"name": "outline", "arguments": "{}"}
    assert second[3] == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": '{"outline": "column#root"}',
    }
    assert server.seen[0].body["tools"] == server.seen[1].body["tools"]
    assert server.seen[0].headers["Authorization"] == "Bearer sk-testkey123456"


def test_cancel_mid_stream_over_http_closes_the_stream(server: ModelServer) -> None:
    server.queue(Reply(sse(chunk("first"), *[chunk("x")] * 40, chunk(finish="stop")), pause=0.05))
    events: list[dict[str, Any]] = []

    async def go() -> AgentLoop:
        got_text = asyncio.Event()

        def on_event(event: RunEvent) -> None:
            e = event.to_json()
            events.append(e)
            if e["type"] == "text_delta":
                got_text.set()

        async with httpx.AsyncClient() as http:
            client = ChatCompletionsClient(server.base_url, "m", http=http)
            loop = AgentLoop(client, ToolRegistry([]), system="s", on_event=on_event)
            task = asyncio.create_task(loop.run("go"))
            await got_text.wait()
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            return loop

    loop = asyncio.run(go())
    assert [m["role"] for m in loop.messages] == ["system", "user"]
    assert [e["type"] for e in events if e["type"] in ("completed", "failed", "cancelled")] == [
        "cancelled"
    ]
    assert len([e for e in events if e["type"] == "text_delta"]) < 40
