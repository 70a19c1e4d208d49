"""The Responses API client against a real local server: event sequence, Ollama's variant, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.agent.clients import ResponsesClient
from studio.agent.errors import ModelError
from studio.agent.events import Finish, Usage
from tests.agent.server import ModelServer, Reply, sse
from tests.agent.util import calls_of, text_of, with_http


def ev(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields}


def frames(*events: dict[str, Any]) -> list[bytes]:
    """Responses streams name the event in an `event:` line too."""
    out = []
    for n, e in enumerate(events):
        out.append(
            f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': n})}\n\n".encode()
        )
    return out


CREATED = ev("response.created", response={"id": "r1", "status": "in_progress"})


def run(server: ModelServer, reply: Reply) -> list:
    server.queue(reply)
    return with_http(lambda http: ResponsesClient(server.base_url, "gpt", api_key="k", http=http))


def test_text_and_function_call_sequence(server: ModelServer) -> None:
    events = run(
        server,
        Reply(
            frames(
                CREATED,
                ev("response.in_progress", response={}),
                ev(
                    "response.output_item.added",
                    output_index=0,
                    item={"type": "message", "id": "m1"},
                ),
                ev(
                    "response.output_text.delta",
                    item_id="m1",
                    output_index=0,
                    content_index=0,
                    delta="Look",
                ),
                ev(
                    "response.output_text.delta",
                    item_id="m1",
                    output_index=0,
                    content_index=0,
                    delta="ing",
                ),
                ev(
                    "response.output_item.added",
                    output_index=1,
                    item={
                        "type": "function_call",
                        "id": "fc1",
                        "call_id": "call_A",
                        "name": "readNode",
                        "arguments": "",
                    },
                ),
                ev(
                    "response.function_call_arguments.delta",
                    item_id="fc1",
                    output_index=1,
                    delta='{"id":',
                ),
                ev(
                    "response.function_call_arguments.delta",
                    item_id="fc1",
                    output_index=1,
                    delta='"title"}',
                ),
                ev(
                    "response.function_call_arguments.done",
                    item_id="fc1",
                    output_index=1,
                    arguments='{"id":"title"}',
                ),
                ev(
                    "response.output_item.done",
                    output_index=1,
                    item={
                        "type": "function_call",
                        "id": "fc1",
                        "call_id": "call_A",
                        "name": "readNode",
                        "arguments": '{"id":"title"}',
                    },
                ),
                ev(
                    "response.completed",
                    response={
                        "usage": {"input_tokens": 30, "output_tokens": 9, "total_tokens": 39}
                    },
                ),
            )
        ),
    )
    assert text_of(events) == "Looking"
    [c] = calls_of(events)
    assert (c.id, c.name, json.loads(c.arguments)) == ("call_A", "readNode", {"id": "title"})
    assert Usage(30, 9) in events and events[-1] == Finish("tool_calls")
    body = server.seen[0].body
    assert server.seen[0].path == "/v1/responses" and body["store"] is False
    assert body["instructions"] == "be brief" and body["input"] == [
        {"role": "user", "content": "hi"}
    ]
    assert body["tools"][0] == {
        "type": "function",
        "name": "outline",
        "description": "see the tree",
        "parameters": {"type": "object", "properties": {}},
        "strict": False,  # the SDK's FunctionToolParam requires the key (issue 16, point 3)
    }


def test_ollama_style_done_without_name(server: ModelServer) -> None:
    events = run(
        server,
        Reply(
            sse(
                CREATED,
                ev(
                    "response.output_item.added",
                    output_index=0,
                    item={"type": "function_call", "call_id": "c9", "name": "outline"},
                ),
                ev("response.function_call_arguments.delta", output_index=0, delta="{}"),
                ev("response.function_call_arguments.done", output_index=0, arguments="{}"),
                ev(
                    "response.output_item.done",
                    output_index=0,
                    item={"type": "function_call", "call_id": "c9", "arguments": "{}"},
                ),
                ev("response.completed", response={}),
                done=False,
            )
        ),
    )
    [c] = calls_of(events)
    assert (c.id, c.name, c.arguments) == ("c9", "outline", "{}")
    assert any(isinstance(e, Usage) and e.estimated for e in events)


def test_transcript_with_tool_results_becomes_input_items(server: ModelServer) -> None:
    from studio.agent.events import ModelRequest

    client = ResponsesClient(server.base_url, "gpt")
    request = ModelRequest(
        [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c1", "name": "outline", "arguments": "{}"}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "root: column"},
        ]
    )
    items = client.body(request)["input"]
    assert items[1] == {
        "type": "function_call",
        "call_id": "c1",
        "name": "outline",
        "arguments": "{}",
    }
    assert items[2] == {"type": "function_call_output", "call_id": "c1", "output": "root: column"}


@pytest.mark.parametrize(
    ("events", "needle", "kind"),
    [
        (
            [CREATED, ev("error", code="server_is_overloaded", message="Overloaded")],
            "Overloaded",
            "retryable",
        ),
        (
            [
                CREATED,
                ev(
                    "response.failed",
                    response={"error": {"code": "server_error", "message": "it broke"}},
                ),
            ],
            "it broke",
            "retryable",
        ),
        (
            [CREATED, ev("response.output_text.delta", delta="x")],
            "without a terminal event",
            "retryable",
        ),
    ],
)
def test_errors_after_http_200(
    server: ModelServer, events: list[dict[str, Any]], needle: str, kind: str
) -> None:
    with pytest.raises(ModelError) as info:
        run(server, Reply(frames(*events)))
    assert needle in str(info.value) and info.value.kind == kind


def test_incomplete_response_reports_length(server: ModelServer) -> None:
    events = run(
        server,
        Reply(
            frames(
                CREATED,
                ev("response.output_text.delta", delta="abc"),
                ev(
                    "response.incomplete",
                    response={"incomplete_details": {"reason": "max_output_tokens"}},
                ),
            )
        ),
    )
    assert events[-1] == Finish("length")
