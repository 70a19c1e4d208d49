"""The real servers' recorded streams (tests/fixtures/agent/streams/, written by
test_real_servers.py with PROTO_STUDIO_RECORD_STREAMS=1) replayed byte for byte through the local
server: fast parsing tests of llama-server's and LiteLLM's own framing, checked against the
openai SDK reading the same bytes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from studio.agent.clients import make_client
from studio.agent.errors import ModelError
from studio.agent.events import Finish, ModelEvent, TextDelta, ToolCall, Usage
from studio.agent.profiles import profile_for
from tests.agent.server import ModelServer, Reply
from tests.agent.util import REQUEST

STREAMS = Path(__file__).resolve().parents[1] / "fixtures" / "agent" / "streams"


def recorded(name: str) -> Reply:
    meta = json.loads((STREAMS / f"{name}.json").read_text())
    body = (STREAMS / f"{name}.sse").read_bytes()
    return Reply([body], meta["status"], content_type=meta["content_type"] or "text/event-stream")


def replay(
    server: ModelServer, name: str, api: str = "chat", profile: str = "llamacpp"
) -> list[ModelEvent]:
    server.queue(recorded(name))

    async def go() -> list[ModelEvent]:
        async with httpx.AsyncClient() as http:
            client = make_client(
                api, server.base_url, "m", profile=profile_for(server.base_url, profile), http=http
            )
            return [e async for e in client.stream(REQUEST)]

    return asyncio.run(go())


def sdk_chat(server: ModelServer, name: str) -> tuple[str, list[tuple[str, str]], Any]:
    """The openai SDK's reading of a recorded chat stream: text, calls, usage."""
    from openai import AsyncOpenAI
    from openai.lib.streaming.chat import ChatCompletionStreamState

    server.queue(recorded(name))

    async def go() -> Any:
        async with httpx.AsyncClient() as http:
            client = AsyncOpenAI(
                base_url=server.base_url, api_key="x", http_client=http, max_retries=0
            )
            stream = await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}], stream=True
            )
            state = ChatCompletionStreamState()
            usage = None
            async for chunk in stream:
                state.handle_chunk(chunk)
                usage = chunk.usage or usage
            done = state.get_final_completion()
            message = done.choices[0].message
            calls = [(c.function.name, c.function.arguments) for c in message.tool_calls or []]
            return message.content or "", calls, usage

    result: tuple[str, list[tuple[str, str]], Any] = asyncio.run(go())
    return result


def ours(events: list[ModelEvent]) -> tuple[str, list[tuple[str, str]], Usage]:
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    calls = [(e.name, e.arguments) for e in events if isinstance(e, ToolCall)]
    usage = next(e for e in events if isinstance(e, Usage))
    return text, calls, usage


@pytest.mark.parametrize(
    ("name", "profile"),
    [
        ("llama-chat-outline-1", "llamacpp"),
        ("llama-chat-patch-1", "llamacpp"),
        ("llama-chat-turn2-1", "llamacpp"),
        ("litellm-chat-outline-1", "litellm"),
        ("litellm-chat-text-1", "litellm"),
    ],
)
def test_recorded_chat_streams_read_as_the_sdk_reads_them(
    server: ModelServer, name: str, profile: str
) -> None:
    text, calls, usage = ours(replay(server, name, profile=profile))
    sdk_text, sdk_calls, sdk_usage = sdk_chat(server, name)
    assert (text, calls) == (sdk_text, sdk_calls)
    assert not usage.estimated and (usage.input_tokens, usage.output_tokens) == (
        sdk_usage.prompt_tokens,
        sdk_usage.completion_tokens,
    )


def test_llama_server_outline_call_is_one_call_from_fragments(server: ModelServer) -> None:
    events = replay(server, "llama-chat-outline-1")
    [call] = [e for e in events if isinstance(e, ToolCall)]
    assert (call.name, call.arguments) == ("outline", "{}") and events[-1] == Finish("tool_calls")


def test_llama_server_responses_stream_is_one_call(server: ModelServer) -> None:
    """Point 1 on the recorded bytes: item_id and no output_index, one call (was two)."""
    raw = (STREAMS / "llama-responses-outline-1.sse").read_bytes()
    assert b"output_index" not in raw
    assert raw.count(b"event: response.function_call_arguments.delta") == 2
    events = replay(server, "llama-responses-outline-1", api="responses")
    calls = [e for e in events if isinstance(e, ToolCall)]
    assert [(c.name, c.arguments) for c in calls] == [("outline", "{}")]
    assert calls[0].id.startswith("call_") and events[-1] == Finish("tool_calls")
    usage = next(e for e in events if isinstance(e, Usage))
    assert not usage.estimated and usage.input_tokens > 100


def test_llama_server_forced_patch_validates(server: ModelServer) -> None:
    from studio.agent.draft import Draft
    from studio.agent.tools import ToolContext, build_spec_tools
    from tests.agent.util_spec import sign_in

    [call] = [e for e in replay(server, "llama-chat-patch-1") if isinstance(e, ToolCall)]
    patch = build_spec_tools(ToolContext(Draft(sign_in()))).get("patch")
    assert patch is not None and patch.check_arguments(json.loads(call.arguments)) is None


def test_the_old_summary_pattern_stream_fails_fatally(server: ModelServer) -> None:
    with pytest.raises(ModelError, match="does not match the expected peg-native format") as caught:
        replay(server, "llama-chat-patch-pattern-1")
    assert caught.value.kind == "fatal"


def test_litellm_429_and_framed_500(server: ModelServer) -> None:
    with pytest.raises(ModelError) as caught:
        replay(server, "litellm-chat-429-1", profile="litellm")
    assert caught.value.kind == "rate_limit"
    with pytest.raises(ModelError) as caught:
        replay(server, "litellm-responses-500-1", api="responses", profile="litellm")
    assert str(caught.value) == "HTTP 500: Error processing stream start"
