"""The Chat Completions client against a real local server: SSE quirks, tool-call merging, faults."""

from __future__ import annotations

import json

import httpx
import pytest

from studio.agent.clients import ChatCompletionsClient
from studio.agent.errors import ModelError
from studio.agent.events import Finish, Usage
from studio.agent.profiles import PROFILES, profile_for
from tests.agent.server import ModelServer, Reply, chunk, sse, usage_chunk
from tests.agent.util import calls_of, text_of, with_http


def run(server: ModelServer, *replies: Reply, profile: str | None = None) -> list:
    server.queue(*replies)
    prof = profile_for(server.base_url, profile) if profile else None
    return with_http(
        lambda http: ChatCompletionsClient(
            server.base_url, "m", api_key="k", profile=prof, http=http
        )
    )


def test_plain_text_stream_with_usage_chunk_and_done(server: ModelServer) -> None:
    events = run(
        server, Reply(sse(chunk("Hel"), chunk("lo"), chunk(finish="stop"), usage_chunk(12, 3)))
    )
    assert text_of(events) == "Hello"
    assert Usage(12, 3) in events
    assert events[-1] == Finish("stop")
    body = server.seen[0].body
    assert server.seen[0].path == "/v1/chat/completions"
    assert body["stream"] is True and body["messages"][1] == {"role": "user", "content": "hi"}
    assert body["tools"][0]["function"]["name"] == "outline"


def test_framing_quirks_no_space_crlf_comments(server: ModelServer) -> None:
    frames = [b": OPENROUTER PROCESSING\r\n\r\n", b"\r\n"]
    frames += sse(chunk("a"), prefix="data:", eol="\r\n", done=False)
    frames += [b": keep-alive\n\n"]
    frames += sse(chunk("b"), chunk(finish="stop"), prefix="data:", eol="\r\n")
    # JSON split across reads: one frame sent in two writes
    whole = b"".join(frames)
    events = run(server, Reply([whole[:37], whole[37:]]))
    assert text_of(events) == "ab"
    assert events[-1] == Finish("stop")


def test_stream_without_blank_lines_between_data_lines(server: ModelServer) -> None:
    body = (
        "data: "
        + json.dumps(chunk("x"))
        + "\n"
        + "data: "
        + json.dumps(chunk("y", finish="stop"))
        + "\n\n"
    ).encode()
    events = run(server, Reply([body]))
    assert text_of(events) == "xy"


def test_tool_calls_fragmented_by_index_name_assigned_once(server: ModelServer) -> None:
    frames = sse(
        chunk(
            tool_calls=[
                {
                    "index": 0,
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "readNode", "arguments": ""},
                }
            ]
        ),
        chunk(
            tool_calls=[
                {
                    "index": 1,
                    "id": "c2",
                    "type": "function",
                    "function": {"name": "readData", "arguments": '{"poi'},
                }
            ]
        ),
        chunk(
            tool_calls=[{"index": 0, "function": {"name": "", "arguments": '{"id":'}}]
        ),  # LM Studio: name ""
        chunk(
            tool_calls=[{"index": 0, "function": {"name": "readNode", "arguments": '"a"}'}}]
        ),  # name repeated
        chunk(tool_calls=[{"index": 1, "function": {"arguments": 'nter":"/x"}'}}]),
        chunk(finish="tool_calls"),
    )
    calls = calls_of(run(server, Reply(frames)))
    assert [(c.id, c.name, json.loads(c.arguments)) for c in calls] == [
        ("c1", "readNode", {"id": "a"}),
        ("c2", "readData", {"pointer": "/x"}),
    ]


def test_tool_calls_all_index_zero_routed_by_id_and_missing_index(server: ModelServer) -> None:
    frames = sse(
        chunk(
            tool_calls=[
                {"index": 0, "id": "a", "function": {"name": "readNode", "arguments": '{"id":'}}
            ]
        ),
        chunk(
            tool_calls=[
                {"index": 0, "id": "b", "function": {"name": "readNode", "arguments": '{"id":"y"}'}}
            ]
        ),
        chunk(tool_calls=[{"id": "a", "function": {"arguments": '"x"}'}}]),  # Gemini: no index
        chunk(tool_calls=[{"id": "c", "function": {"name": "outline"}}]),
        chunk(finish="stop"),  # Ollama: stop with calls
    )
    events = run(server, Reply(frames))
    calls = calls_of(events)
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("a", "readNode", '{"id":"x"}'),
        ("b", "readNode", '{"id":"y"}'),
        ("c", "outline", "{}"),
    ]
    assert events[-1] == Finish("tool_calls")


def test_whole_calls_in_one_chunk_and_object_arguments(server: ModelServer) -> None:
    frames = sse(
        chunk(
            tool_calls=[
                {
                    "index": 0,
                    "id": "o1",
                    "function": {"name": "readNode", "arguments": {"id": "root"}},
                },
                {
                    "index": 1,
                    "id": "o2",
                    "function": {"name": "readData", "arguments": '{"pointer":"/a"}'},
                },
            ],
            finish="tool_calls",
        )
    )
    calls = calls_of(run(server, Reply(frames)))
    assert [json.loads(c.arguments) for c in calls] == [{"id": "root"}, {"pointer": "/a"}]
    assert isinstance(calls[0].arguments, str)


def test_groq_usage_in_x_groq(server: ModelServer) -> None:
    last = chunk(
        finish="stop", x_groq={"id": "req", "usage": {"prompt_tokens": 40, "completion_tokens": 2}}
    )
    events = run(server, Reply(sse(chunk("ok"), last)), profile="groq")
    assert Usage(40, 2) in events


def test_usage_estimated_when_absent(server: ModelServer) -> None:
    events = run(server, Reply(sse(chunk("x" * 40), chunk(finish="stop"))))
    usage = next(e for e in events if isinstance(e, Usage))
    assert usage.estimated and 10 <= usage.output_tokens <= 14 and usage.input_tokens > 0


def test_include_usage_and_tool_choice_follow_the_profile(server: ModelServer) -> None:
    run(server, Reply(sse(chunk("a", finish="stop"))), profile="openai")
    run(server, Reply(sse(chunk("a", finish="stop"))), profile="generic")
    assert server.seen[0].body["stream_options"] == {"include_usage": True}
    assert server.seen[0].body["tool_choice"] == "auto"
    assert "stream_options" not in server.seen[1].body and "tool_choice" not in server.seen[1].body


def test_buffered_tool_turn_profile_reads_a_whole_reply(server: ModelServer) -> None:
    whole = {
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "t",
                            "type": "function",
                            "function": {"name": "outline", "arguments": "{}"},
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1},
    }
    events = run(
        server,
        Reply([json.dumps(whole).encode()], content_type="application/json"),
        profile="ollama",
    )
    assert server.seen[0].body["stream"] is False and "tool_choice" not in server.seen[0].body
    assert [c.name for c in calls_of(events)] == ["outline"] and Usage(5, 1) in events


def test_authorization_header_and_profiles() -> None:
    assert profile_for("http://localhost:11434/v1").name == "ollama"
    assert profile_for("http://127.0.0.1:1234/v1").name == "lmstudio"
    assert profile_for("https://api.groq.com/openai/v1").name == "groq"
    assert profile_for("http://10.0.0.2:9999/v1").name == "generic"
    assert set(PROFILES) >= {
        "openai",
        "ollama",
        "lmstudio",
        "llamacpp",
        "vllm",
        "groq",
        "openrouter",
        "generic",
    }


@pytest.mark.parametrize(
    "payload",
    [
        {"error": "model 'x' not found"},
        {"error": {"message": "upstream exploded", "type": "server_error", "code": 500}},
    ],
)
def test_error_object_after_http_200(server: ModelServer, payload: dict) -> None:
    with pytest.raises(ModelError) as info:
        run(server, Reply(sse(chunk("partial"), payload)))
    assert "error in the stream" in str(info.value)
    assert ("not found" in str(info.value)) or ("upstream exploded" in str(info.value))


def test_http_429_carries_retry_after(server: ModelServer) -> None:
    with pytest.raises(ModelError) as info:
        run(
            server,
            Reply(
                [b'{"error":{"message":"slow down"}}'],
                429,
                {"Retry-After": "7"},
                "application/json",
            ),
        )
    assert info.value.kind == "rate_limit" and info.value.retry_after == 7.0


def test_http_429_retry_after_ms(server: ModelServer) -> None:
    with pytest.raises(ModelError) as info:
        run(server, Reply([b"{}"], 429, {"retry-after-ms": "250"}, "application/json"))
    assert info.value.retry_after == 0.25


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (401, b'{"error":{"message":"bad key"}}', "auth"),
        (403, b"forbidden", "auth"),
        (500, b"boom", "retryable"),
        (503, b"", "retryable"),
        (408, b"", "retryable"),
        (
            400,
            b'{"error":{"message":"This model\'s maximum context length is 8192 tokens","code":"context_length_exceeded"}}',
            "context_length",
        ),
        (400, b'{"error":{"message":"bad tool schema"}}', "fatal"),
        (404, b"not found", "fatal"),
    ],
)
def test_http_errors_are_classified(
    server: ModelServer, status: int, body: bytes, kind: str
) -> None:
    with pytest.raises(ModelError) as info:
        run(server, Reply([body], status, content_type="application/json"))
    assert info.value.kind == kind and info.value.status == status


def test_cut_connection_is_a_retryable_network_error(server: ModelServer) -> None:
    frames = sse(chunk("abc"), chunk("def"), chunk(finish="stop"))
    with pytest.raises(ModelError) as info:
        run(server, Reply(frames, cut_after=len(frames[0]) + 10))
    assert info.value.kind == "retryable" and "network error" in str(info.value)


def test_malformed_chunk(server: ModelServer) -> None:
    with pytest.raises(ModelError) as info:
        run(
            server,
            Reply(
                sse(chunk("a"), '{"choices": [ nope'),
            ),
        )
    assert info.value.kind == "retryable" and "malformed chunk" in str(info.value)


def test_tool_calls_finish_without_calls_is_an_error(server: ModelServer) -> None:
    with pytest.raises(ModelError, match="sent no tool call"):
        run(server, Reply(sse(chunk(finish="tool_calls"))))


def test_non_loopback_hosts_are_refused_in_tests() -> None:
    async def go() -> None:
        def refuse(request: httpx.Request) -> httpx.Response:
            raise AssertionError("a request left the machine")

        async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as http:
            client = ChatCompletionsClient(
                "https://api.openai.com/v1", "gpt", api_key="k", http=http
            )
            [e async for e in client.stream(REQUEST)]

    import asyncio

    from tests.agent.util import REQUEST

    with pytest.raises(ModelError) as info:
        asyncio.run(go())
    assert info.value.kind == "blocked" and "PROTO_STUDIO_ALLOW_MODEL_REQUESTS=0" in str(info.value)


def test_whole_arguments_repeated_in_every_chunk(server: ModelServer) -> None:
    whole = '{"id":"title"}'
    frames = sse(
        chunk(
            tool_calls=[
                {"index": 0, "id": "m1", "function": {"name": "readNode", "arguments": whole}}
            ]
        ),
        chunk(
            tool_calls=[
                {"index": 0, "id": "m1", "function": {"name": "readNode", "arguments": whole}}
            ]
        ),
        chunk(finish="tool_calls"),
    )
    [c] = calls_of(run(server, Reply(frames)))
    assert json.loads(c.arguments) == {"id": "title"}
