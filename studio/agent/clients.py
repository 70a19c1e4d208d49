"""Model clients: one small streaming interface, over Chat Completions and the Responses API.

The httpx client is passed in (a real one is the default). When the env var
PROTO_STUDIO_ALLOW_MODEL_REQUESTS is "0" (tests), any host that is not loopback is refused.
"""

from __future__ import annotations

import ipaddress
import json
import math
import os
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol, TypeVar

import httpx

from studio.agent.accumulate import ChatStreamState
from studio.agent.errors import (
    MAX_ERROR_BODY,
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
    ReasoningDelta,
    TextDelta,
    ToolCall,
    Usage,
)
from studio.agent.profiles import ProviderProfile, profile_for
from studio.agent.reasoning import EffortError, request_fields
from studio.agent.sse import SSELineTooLong, iter_sse
from studio.agent.tokens import ESTIMATE, ContextWindow, request_tokens

T = TypeVar("T")
ALLOW_ENV = "PROTO_STUDIO_ALLOW_MODEL_REQUESTS"
MAX_RESPONSE_BYTES = 64 * 1024 * 1024
"""The most one model answer may send (F8); a stream past it fails instead of filling memory."""
MAX_REDIRECTS = 3
CONNECT_TIMEOUT = 10.0
DEFAULT_IDLE_TIMEOUT = 120.0
_MALFORMED = (AttributeError, TypeError, ValueError, KeyError, OverflowError, RecursionError)


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
    """The real client: an idle timeout between bytes (each request may set its own), 10 s to
    connect, no redirects followed (the client decides, see `_post`)."""
    return httpx.AsyncClient(
        timeout=httpx.Timeout(DEFAULT_IDLE_TIMEOUT, connect=CONNECT_TIMEOUT),
        follow_redirects=False,
    )


def _malformed(what: str, data: Any, exc: BaseException | None = None) -> ModelError:
    try:
        shown = data if isinstance(data, str) else json.dumps(data)
    except _MALFORMED:
        shown = repr(data)
    why = f" ({type(exc).__name__}: {str(exc)[:120]})" if exc is not None else ""
    return ModelError("retryable", f"malformed {what} in the stream: {shown[:120]!r}{why}")


def _parse_chunk(data: str) -> list[Any]:
    """JSON of one SSE event; tolerates servers that omit blank lines between `data:` lines."""
    try:
        return [json.loads(data)]
    except (ValueError, RecursionError):
        if "\n" in data:
            try:
                return [json.loads(line) for line in data.split("\n") if line.strip()]
            except (ValueError, RecursionError):
                pass
        raise _malformed("chunk", data) from None


def _feed(state: ChatStreamState, chunk: Any) -> list[ModelEvent]:
    try:
        return state.feed(chunk)
    except _MALFORMED as exc:  # a chunk of the wrong shape
        raise _malformed("chunk", chunk, exc) from None


def _tokens(value: Any) -> int:
    """A token count from a usage object: a non-negative finite number, else malformed."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"a token count of {value!r}")
    return max(0, int(value))


def _effort(profile: ProviderProfile, api: str, request: ModelRequest) -> dict[str, Any]:
    """The body fields carrying the request's reasoning effort (studio.agent.reasoning); an
    effort the provider cannot take fails before anything is sent."""
    try:
        return request_fields(profile.name, api, request.effort)
    except EffortError as exc:
        raise ModelError("fatal", str(exc)) from None


def _estimate(request: ModelRequest, out_chars: int) -> Usage:
    sent = (
        request.input_tokens
        if request.input_tokens is not None
        else request_tokens(request, ESTIMATE)
    )
    return Usage(sent, math.ceil(out_chars / 3.2), estimated=True)


async def _body_bytes(
    response: httpx.Response, limit: int = MAX_RESPONSE_BYTES
) -> AsyncGenerator[bytes, None]:
    """The response body, failing once it passes `limit` bytes (the generator is always closed
    by its caller, so the connection is released in the task that opened it)."""
    total = 0
    async with closing_stream(response.aiter_bytes()) as chunks:
        async for chunk in chunks:
            total += len(chunk)
            if total > limit:
                raise ModelError(
                    "fatal", f"the answer passed {limit // (1024 * 1024)} MiB; stopped reading it"
                )
            yield chunk


async def _read_capped(response: httpx.Response, limit: int) -> bytes:
    """At most `limit` bytes of a body (an error body of 60 MB is not read whole)."""
    parts: list[bytes] = []
    size = 0
    async with closing_stream(response.aiter_bytes()) as chunks:
        async for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size >= limit:
                break
    return b"".join(parts)[:limit]


@asynccontextmanager
async def closing_stream(stream: AsyncIterator[T]) -> AsyncGenerator[AsyncIterator[T], None]:
    """`contextlib.aclosing` for any async iterator: an async generator that a caller stops
    reading is closed here, in the task that used it, not later by the garbage collector in
    another task (which is what printed anyio's "cancel scope in a different task" and
    httpcore's GeneratorExit tracebacks during cancels, issue 14)."""
    try:
        yield stream
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()


async def _events(response: httpx.Response) -> AsyncGenerator[Any, None]:
    """Parsed JSON of each SSE event (with its `event:` name as `("event", name, data)`)."""
    try:
        body = _body_bytes(response)  # closed here too: iter_sse does not close what it reads
        async with closing_stream(body), closing_stream(iter_sse(body)) as messages:
            async for message in messages:
                if message.data == "[DONE]":
                    yield None
                    return
                for data in _parse_chunk(message.data):
                    yield (message.event, data)
    except SSELineTooLong as exc:
        raise ModelError("fatal", str(exc)) from None


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
        self._window: ContextWindow | None = None
        self._window_probed = False

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

    async def context_window(self) -> ContextWindow | None:
        """The server's context window, asked once (llama-server's /props, else /v1/models);
        None when the server does not say. Bounded to a few seconds; never raises."""
        if self._window_probed:
            return self._window
        self._window_probed = True
        from studio.agent.tokens import window_from_models, window_from_props

        root = self.base_url[: -len("/v1")] if self.base_url.endswith("/v1") else self.base_url
        probes: list[tuple[str, str, Any]] = []
        if self.profile.name == "llamacpp":
            probes.append((root + "/props", "the server (/props)", window_from_props))
        probes.append(
            (
                self.base_url + "/models",
                "the server (/models)",
                lambda data: window_from_models(data, self.model),
            )
        )
        for url, source, read in probes:
            try:
                check_request_allowed(url)
                response = await self._http.get(
                    url, headers=self._headers(False), timeout=httpx.Timeout(3.0)
                )
                if response.status_code != 200 or len(response.content) > MAX_ERROR_BODY * 16:
                    continue
                tokens = read(response.json())
            except (httpx.HTTPError, ModelError, *_MALFORMED):
                continue
            if tokens:
                self._window = ContextWindow(tokens, source)
                break
        return self._window

    @asynccontextmanager
    async def _post(
        self, path: str, body: dict[str, Any], streaming: bool, idle: float | None = None
    ) -> AsyncIterator[httpx.Response]:
        # A context manager (not a generator we iterate) so that transport errors raised while
        # the caller reads the body are thrown back in here and classified.
        url = self.base_url + path
        check_request_allowed(url)
        timeout = httpx.Timeout(idle or DEFAULT_IDLE_TIMEOUT, connect=CONNECT_TIMEOUT)
        try:
            for _ in range(MAX_REDIRECTS + 1):
                request = self._http.build_request(
                    "POST", url, json=body, headers=self._headers(streaming), timeout=timeout
                )
                response = await self._http.send(request, stream=True, follow_redirects=False)
                try:
                    if response.is_redirect:
                        url = self._redirect_target(url, response)
                        continue
                    if response.status_code >= 400:
                        raw = await _read_capped(response, MAX_ERROR_BODY)
                        raise classify_http(response.status_code, response.headers, raw)
                    if response.status_code >= 300 or response.status_code < 200:
                        raise ModelError(
                            "fatal",
                            f"{url} answered HTTP {response.status_code}, not a model reply",
                            status=response.status_code,
                        )
                    yield response
                    return
                finally:
                    await response.aclose()
            raise ModelError("fatal", f"{url}: more than {MAX_REDIRECTS} redirects")
        except httpx.TimeoutException as exc:
            what = "no byte" if isinstance(exc, httpx.ReadTimeout) else type(exc).__name__
            raise ModelError(
                "timeout",
                f"timed out talking to {url} ({what} for {timeout.read:g} s)"
                if what == "no byte"
                else f"timed out talking to {url} ({what})",
            ) from exc
        except httpx.TransportError as exc:
            raise ModelError(
                "retryable", f"network error talking to {url}: {exc or type(exc).__name__}"
            ) from exc

    @staticmethod
    def _redirect_target(url: str, response: httpx.Response) -> str:
        """Follow a 307/308 only to the same scheme, host and port (the key goes with it);
        refuse every other redirect with where it pointed."""
        location = response.headers.get("location", "")
        here = httpx.URL(url)
        target = here.join(location) if location else here
        same = (target.scheme, target.host, target.port) == (here.scheme, here.host, here.port)
        if response.status_code in (307, 308) and same and location:
            return str(target)
        where = f" to {target}" if location else ""
        advice = (
            "redirects to another host are refused, because the API key would go with them"
            if not same
            else "only 307/308 redirects keep a POST; set the base URL to the final address"
        )
        raise ModelError(
            "fatal",
            f"{url} redirected (HTTP {response.status_code}){where}; {advice}",
            status=response.status_code,
        )


def _chat_messages(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        role = m["role"]
        if role == "assistant" and m.get("tool_calls"):
            out.append(
                {
                    "role": "assistant",
                    # "" rather than null: llama-cpp-python's server refuses null with HTTP 500
                    # (llama_types.py: ChatCompletionRequestAssistantMessage.content is a str);
                    # OpenAI, LiteLLM and llama-server accept "" (common/chat.cpp:
                    # common_chat_msgs_parse_oaicompat).
                    "content": m.get("content") or "",
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
        if request.max_tokens is not None:
            body[self.profile.max_tokens_field] = request.max_tokens
        if stream and self.profile.include_usage:
            body["stream_options"] = {"include_usage": True}
        body.update(_effort(self.profile, "chat", request))
        return body

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        streaming = not (self.profile.buffer_tool_turns and request.tools)
        state = ChatStreamState(self.profile.usage_paths)
        done = False
        async with self._post(
            "/chat/completions", self.body(request, streaming), streaming, request.idle_timeout
        ) as response:
            kind = response.headers.get("content-type", "event-stream")
            if not streaming or "event-stream" not in kind:
                raw = await _read_capped(response, MAX_RESPONSE_BYTES)
                for chunk in _parse_chunk(raw.decode("utf-8", "replace")):
                    if not isinstance(chunk, dict):
                        raise _malformed("answer", chunk)
                    if "error" in chunk:
                        raise classify_stream_error(chunk)
                    for event in _feed(state, chunk):
                        yield event
                done = state.finish_reason is not None
            else:  # the hot path (bench_sse.py): one generator between the bytes and us
                try:
                    body = _body_bytes(response)  # closed here too (iter_sse does not)
                    async with (
                        closing_stream(body),
                        closing_stream(iter_sse(body)) as messages,
                    ):
                        async for message in messages:
                            if message.data == "[DONE]":
                                done = True
                                break
                            for chunk in _parse_chunk(message.data):
                                if not isinstance(chunk, dict):
                                    raise _malformed("chunk", chunk)
                                if "error" in chunk:
                                    raise classify_stream_error(chunk)
                                for event in _feed(state, chunk):
                                    yield event
                except SSELineTooLong as exc:
                    raise ModelError("fatal", str(exc)) from None
        if not done and state.finish_reason is None:
            # A cut connection, a proxy that gave up, or junk: not a finished answer (F4).
            raise ModelError(
                "retryable",
                "the stream ended before the model finished (no finish_reason and no [DONE])",
            )
        calls, finish = state.finish()
        if finish.reason == "tool_calls" and not calls:
            raise ModelError(
                "retryable", "the model finished with tool_calls but sent no tool call"
            )
        out_chars = state.text_chars + state.reasoning_chars
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


class _ResponsesCalls:
    """Function calls of one Responses stream, keyed by every name a server gives them.

    OpenAI sends `output_index` and `item_id`; llama-server sends `item_id` and the item's `id`
    / `call_id` but no `output_index` (tools/server/server-task.cpp:
    to_json_oaicompat_resp_stream and the partial events), so a call is found by any key it was
    seen under, and `output_item.added`, the argument deltas and `output_item.done` of one item
    merge into one call.
    """

    def __init__(self) -> None:
        self.slots: list[dict[str, Any]] = []
        self._keys: dict[tuple[str, Any], dict[str, Any]] = {}
        self._last: dict[str, Any] | None = None

    def slot(self, keys: list[tuple[str, Any]], *, may_continue: bool = False) -> dict[str, Any]:
        keys = [k for k in keys if k[1] is not None]
        found = next((self._keys[k] for k in keys if k in self._keys), None)
        if found is None and not keys and may_continue:
            found = self._last
        if found is None:
            found = {"args": []}
            self.slots.append(found)
        for key in keys:
            self._keys.setdefault(key, found)
        self._last = found
        return found


def _index(event: dict[str, Any]) -> tuple[str, Any]:
    value = event.get("output_index")
    return ("index", value if isinstance(value, int) and not isinstance(value, bool) else None)


def _text(value: Any, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TypeError(f"{what} is {type(value).__name__}, not a string")
    return value


_REASONING_DELTAS = frozenset(
    {
        # OpenAI's reasoning summaries (openai-python types/responses:
        # ResponseReasoningSummaryTextDeltaEvent) and the raw reasoning text llama-server
        # streams (tools/server/server-task.cpp, the Responses partial events).
        "response.reasoning_summary_text.delta",
        "response.reasoning_text.delta",
    }
)


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
                    # The SDK's FunctionToolParam requires it; our schemas are not strict-mode
                    # schemas (optional properties), so false.
                    "strict": False,
                }
                for t in request.tools
            ]
            if self.profile.tool_choice:
                body["tool_choice"] = request.tool_choice
        if request.max_tokens is not None:
            body["max_output_tokens"] = request.max_tokens
        body.update(_effort(self.profile, "responses", request))
        return body

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        calls = _ResponsesCalls()
        usage: Usage | None = None
        reason: str | None = None
        out_chars = 0
        async with (
            self._post("/responses", self.body(request), True, request.idle_timeout) as response,
            closing_stream(_events(response)) as events,
        ):
            async for item in events:
                if item is None:  # [DONE]: not a Responses terminal event; keep reading
                    break
                name, event = item
                if not isinstance(event, dict):
                    raise _malformed("event", event)
                try:
                    kind = event.get("type") or name
                    if kind == "error" or (kind is None and "error" in event):
                        raise classify_stream_error(event.get("error", event))
                    if kind == "response.output_text.delta":
                        delta = _text(event.get("delta"), "delta")
                        if delta:
                            out_chars += len(delta)
                            yield TextDelta(delta)
                    elif kind in _REASONING_DELTAS:
                        delta = _text(event.get("delta"), "delta")
                        if delta:
                            out_chars += len(delta)
                            yield ReasoningDelta(delta)
                    elif kind in ("response.output_item.added", "response.output_item.done"):
                        found = event.get("item")
                        if not isinstance(found, dict):
                            raise TypeError(f"item is {type(found).__name__}, not an object")
                        if found.get("type") == "function_call":
                            slot = calls.slot(
                                [
                                    ("id", found.get("id")),
                                    ("call", found.get("call_id")),
                                    _index(event),
                                ]
                            )
                            slot.setdefault("call_id", found.get("call_id") or found.get("id"))
                            if found.get("name") and not slot.get("name"):
                                slot["name"] = _text(found["name"], "name")
                            arguments = found.get("arguments")
                            if kind.endswith(".done") and isinstance(arguments, str) and arguments:
                                slot["args"] = [arguments]
                            elif isinstance(arguments, dict):
                                slot["args"] = [json.dumps(arguments)]
                    elif kind == "response.function_call_arguments.delta":
                        slot = calls.slot(
                            [("id", event.get("item_id")), _index(event)], may_continue=True
                        )
                        slot["args"].append(_text(event.get("delta"), "delta"))
                    elif kind == "response.function_call_arguments.done":
                        slot = calls.slot(
                            [("id", event.get("item_id")), _index(event)], may_continue=True
                        )
                        if isinstance(event.get("arguments"), str):
                            slot["args"] = [event["arguments"]]
                        if event.get("name") and not slot.get("name"):
                            slot["name"] = _text(event["name"], "name")
                    elif kind in ("response.completed", "response.incomplete"):
                        body = event.get("response") or {}
                        u = body.get("usage")
                        if isinstance(u, dict):
                            usage = Usage(
                                _tokens(u.get("input_tokens")), _tokens(u.get("output_tokens"))
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
                except _MALFORMED as exc:
                    raise _malformed("event", event, exc) from None
        if reason is None:
            raise ModelError("retryable", "the Responses stream ended without a terminal event")
        out: list[ToolCall] = []
        for n, slot in enumerate(calls.slots):
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
