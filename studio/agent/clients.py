"""Model clients: one small streaming interface, over Chat Completions and the Responses API.

The httpx client is passed in (a real one is the default). When the env var
PROTO_STUDIO_ALLOW_MODEL_REQUESTS is "0" (tests), any host that is not loopback is refused.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol

import httpx

from studio.agent.accumulate import ChatStreamState
from studio.agent.errors import (
    ModelError,
    ModelRequestsBlocked,
    classify_http,
    classify_stream_error,
)
from studio.agent.events import (
    Finish,
    Message,
    ModelEvent,
    ModelRequest,
    TextDelta,
    ToolCall,
    Usage,
    estimate_tokens,
)
from studio.agent.profiles import ProviderProfile, profile_for
from studio.agent.sse import iter_sse

ALLOW_ENV = "PROTO_STUDIO_ALLOW_MODEL_REQUESTS"


class ModelClient(Protocol):
    """Anything that streams typed events for a request (real clients, ScriptedModel)."""

    model: str

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]: ...


def check_request_allowed(url: str) -> None:
    """Refuse non-loopback hosts when model requests are disabled (tests)."""
    if os.environ.get(ALLOW_ENV, "1") != "0":
        return
    host = httpx.URL(url).host
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise ModelRequestsBlocked(url)


def default_http_client() -> httpx.AsyncClient:
    """The real client: generous read timeout for long streams, 5 s to connect."""
    return httpx.AsyncClient(timeout=httpx.Timeout(600.0, connect=5.0))


def _parse_chunk(data: str) -> list[Any]:
    """JSON of one SSE event; tolerates servers that omit blank lines between `data:` lines."""
    try:
        return [json.loads(data)]
    except ValueError:
        if "\n" in data:
            try:
                return [json.loads(line) for line in data.split("\n") if line.strip()]
            except ValueError:
                pass
        raise ModelError("retryable", f"malformed chunk in the stream: {data[:120]!r}") from None


def _feed(state: ChatStreamState, chunk: Any) -> list[ModelEvent]:
    try:
        return state.feed(chunk)
    except (AttributeError, TypeError, ValueError) as exc:  # a chunk of the wrong shape
        raise ModelError(
            "retryable", f"malformed chunk in the stream: {json.dumps(chunk)[:120]} ({exc})"
        ) from None


def _estimate(request: ModelRequest, out_chars: int) -> Usage:
    sent = json.dumps(request.messages) + json.dumps([t.parameters for t in request.tools])
    return Usage(estimate_tokens(sent), (out_chars + 3) // 4, estimated=True)


class _HTTPClient:
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        profile: ProviderProfile | None = None,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.profile = profile or profile_for(self.base_url)
        self._api_key = api_key
        self._http = http or default_http_client()
        self._owns_http = http is None

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}({self.base_url!r}, model={self.model!r}, profile={self.profile.name!r})"

    def _headers(self, streaming: bool) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if streaming:
            headers["Accept"] = "text/event-stream"
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    @asynccontextmanager
    async def _post(
        self, path: str, body: dict[str, Any], streaming: bool
    ) -> AsyncIterator[httpx.Response]:
        # A context manager (not a generator we iterate) so that transport errors raised while
        # the caller reads the body are thrown back in here and classified.
        url = self.base_url + path
        check_request_allowed(url)
        try:
            async with self._http.stream(
                "POST", url, json=body, headers=self._headers(streaming)
            ) as response:
                if response.status_code >= 400:
                    raw = await response.aread()
                    raise classify_http(response.status_code, response.headers, raw)
                yield response
        except httpx.TimeoutException as exc:
            raise ModelError(
                "retryable", f"timed out talking to {url} ({type(exc).__name__})"
            ) from exc
        except httpx.TransportError as exc:
            raise ModelError(
                "retryable", f"network error talking to {url}: {exc or type(exc).__name__}"
            ) from exc


def _chat_messages(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        role = m["role"]
        if role == "assistant" and m.get("tool_calls"):
            out.append(
                {
                    "role": "assistant",
                    "content": m.get("content") or None,
                    "tool_calls": [
                        {
                            "id": c["id"],
                            "type": "function",
                            "function": {"name": c["name"], "arguments": c["arguments"]},
                        }
                        for c in m["tool_calls"]
                    ],
                }
            )
        elif role == "tool":
            out.append({"role": "tool", "tool_call_id": m["tool_call_id"], "content": m["content"]})
        else:
            out.append({"role": role, "content": m.get("content") or ""})
    return out


class ChatCompletionsClient(_HTTPClient):
    """POST {base_url}/chat/completions with SSE streaming."""

    def body(self, request: ModelRequest, stream: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": _chat_messages(request.messages),
            "stream": stream,
        }
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.parameters,
                    },
                }
                for t in request.tools
            ]
            if self.profile.tool_choice:
                body["tool_choice"] = request.tool_choice
        if stream and self.profile.include_usage:
            body["stream_options"] = {"include_usage": True}
        return body

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        streaming = not (self.profile.buffer_tool_turns and request.tools)
        state = ChatStreamState(self.profile.usage_paths)
        async with self._post(
            "/chat/completions", self.body(request, streaming), streaming
        ) as response:
            if not streaming or "event-stream" not in response.headers.get(
                "content-type", "event-stream"
            ):
                raw = await response.aread()
                for chunk in _parse_chunk(raw.decode("utf-8", "replace")):
                    if isinstance(chunk, dict) and "error" in chunk:
                        raise classify_stream_error(chunk)
                    for event in _feed(state, chunk):
                        yield event
            else:
                async for message in iter_sse(response.aiter_bytes()):
                    if message.data == "[DONE]":
                        break
                    for chunk in _parse_chunk(message.data):
                        if not isinstance(chunk, dict):
                            raise ModelError(
                                "retryable",
                                f"malformed chunk in the stream: {message.data[:120]!r}",
                            )
                        if "error" in chunk:
                            raise classify_stream_error(chunk)
                        for event in _feed(state, chunk):
                            yield event
        calls, finish = state.finish()
        if finish.reason == "tool_calls" and not calls:
            raise ModelError(
                "retryable", "the model finished with tool_calls but sent no tool call"
            )
        out_chars = state.text_chars
        for call in calls:
            out_chars += len(call.name) + len(call.arguments)
            yield call
        yield state.usage or _estimate(request, out_chars)
        yield finish


def _responses_input(messages: list[Message]) -> tuple[str | None, list[dict[str, Any]]]:
    instructions: list[str] = []
    items: list[dict[str, Any]] = []
    for m in messages:
        role = m["role"]
        if role == "system":
            instructions.append(m.get("content") or "")
        elif role == "tool":
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": m["tool_call_id"],
                    "output": m["content"],
                }
            )
        elif role == "assistant":
            if m.get("content"):
                items.append({"role": "assistant", "content": m["content"]})
            for c in m.get("tool_calls") or []:
                items.append(
                    {
                        "type": "function_call",
                        "call_id": c["id"],
                        "name": c["name"],
                        "arguments": c["arguments"],
                    }
                )
        else:
            items.append({"role": role, "content": m.get("content") or ""})
    return ("\n\n".join(instructions) or None), items


class ResponsesClient(_HTTPClient):
    """POST {base_url}/responses with SSE streaming (stateless: store=false, full input each turn)."""

    def body(self, request: ModelRequest) -> dict[str, Any]:
        instructions, items = _responses_input(request.messages)
        body: dict[str, Any] = {"model": self.model, "input": items, "stream": True, "store": False}
        if instructions:
            body["instructions"] = instructions
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                }
                for t in request.tools
            ]
            if self.profile.tool_choice:
                body["tool_choice"] = request.tool_choice
        return body

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        calls: dict[int, dict[str, Any]] = {}
        usage: Usage | None = None
        reason: str | None = None
        out_chars = 0
        async with self._post("/responses", self.body(request), True) as response:
            async for message in iter_sse(response.aiter_bytes()):
                if message.data == "[DONE]":
                    break
                for event in _parse_chunk(message.data):
                    if not isinstance(event, dict):
                        raise ModelError(
                            "retryable", f"malformed event in the stream: {message.data[:120]!r}"
                        )
                    kind = event.get("type") or message.event
                    if kind == "error" or (kind is None and "error" in event):
                        raise classify_stream_error(event.get("error", event))
                    if kind == "response.output_text.delta":
                        delta = event.get("delta") or ""
                        if delta:
                            out_chars += len(delta)
                            yield TextDelta(delta)
                    elif kind in ("response.output_item.added", "response.output_item.done"):
                        item = event.get("item") or {}
                        if item.get("type") == "function_call":
                            slot = calls.setdefault(
                                int(event.get("output_index", len(calls))), {"args": []}
                            )
                            slot.setdefault("call_id", item.get("call_id") or item.get("id"))
                            if item.get("name") and not slot.get("name"):
                                slot["name"] = item["name"]
                            if (
                                kind.endswith(".done")
                                and isinstance(item.get("arguments"), str)
                                and item["arguments"]
                            ):
                                slot["args"] = [item["arguments"]]
                    elif kind == "response.function_call_arguments.delta":
                        slot = calls.setdefault(int(event.get("output_index", 0)), {"args": []})
                        slot["args"].append(event.get("delta") or "")
                    elif kind == "response.function_call_arguments.done":
                        slot = calls.setdefault(int(event.get("output_index", 0)), {"args": []})
                        if isinstance(event.get("arguments"), str):
                            slot["args"] = [event["arguments"]]
                        if event.get("name") and not slot.get("name"):
                            slot["name"] = event["name"]
                    elif kind in ("response.completed", "response.incomplete"):
                        body = event.get("response") or {}
                        u = body.get("usage")
                        if isinstance(u, dict):
                            usage = Usage(
                                int(u.get("input_tokens") or 0), int(u.get("output_tokens") or 0)
                            )
                        if kind == "response.incomplete":
                            details = body.get("incomplete_details") or {}
                            reason = (
                                "length"
                                if details.get("reason") == "max_output_tokens"
                                else str(details.get("reason") or "incomplete")
                            )
                        else:
                            reason = "stop"
                    elif kind == "response.failed":
                        raise classify_stream_error(
                            (event.get("response") or {}).get("error") or "response failed"
                        )
        if reason is None:
            raise ModelError("retryable", "the Responses stream ended without a terminal event")
        out: list[ToolCall] = []
        for n, index in enumerate(sorted(calls)):
            slot = calls[index]
            arguments = "".join(slot["args"]).strip() or "{}"
            out.append(
                ToolCall(
                    str(slot.get("call_id") or f"call_{n}"), str(slot.get("name") or ""), arguments
                )
            )
            out_chars += len(arguments)
        for call in out:
            yield call
        yield usage or _estimate(request, out_chars)
        yield Finish("tool_calls" if out else reason)


def make_client(
    api: str,
    base_url: str,
    model: str,
    *,
    api_key: str | None = None,
    profile: ProviderProfile | None = None,
    http: httpx.AsyncClient | None = None,
) -> ChatCompletionsClient | ResponsesClient:
    """A client for `api` ("chat" or "responses")."""
    if api == "chat":
        return ChatCompletionsClient(base_url, model, api_key=api_key, profile=profile, http=http)
    if api == "responses":
        return ResponsesClient(base_url, model, api_key=api_key, profile=profile, http=http)
    raise ValueError(f"unknown API {api!r}: use 'chat' or 'responses'")
