"""Classified model errors: what went wrong, whether a retry can help, and how long to wait."""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping
from typing import Any, Literal

ErrorKind = Literal[
    "auth", "rate_limit", "retryable", "timeout", "context_length", "fatal", "blocked"
]

_CONTEXT_MARKERS = (
    "context_length_exceeded",
    "context length",
    "maximum context",
    "context window",
    "too many tokens",
    "prompt is too long",
    "exceeds the context",
    "context size",  # llama-server: "exceeds the available context size (N tokens)"
    "exceed_context_size",  # llama-server's error type
)
MAX_MESSAGE = 600
"""The longest error message carried into events, traces and the terminal (F8: a 60 MB body)."""
MAX_ERROR_BODY = 64 * 1024
"""How much of an HTTP error body is read at all."""
_RETRYABLE_CODES = {"server_is_overloaded", "server_error", "rate_limit_exceeded", "overloaded"}


class ModelError(Exception):
    """A failed model call. `kind` decides the loop's reaction; `retry_after` is seconds or None."""

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        message = short(message)
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.message = message
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind in ("rate_limit", "retryable", "timeout")

    def __str__(self) -> str:
        where = f"HTTP {self.status}: " if self.status else ""
        return f"{where}{self.message}"


class ModelRequestsBlocked(ModelError):
    """Raised when PROTO_STUDIO_ALLOW_MODEL_REQUESTS=0 and the host is not loopback."""

    def __init__(self, url: str) -> None:
        super().__init__(
            "blocked",
            f"model requests to {url} are disabled (PROTO_STUDIO_ALLOW_MODEL_REQUESTS=0 allows "
            "only loopback hosts)",
        )


def short(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms`, then `retry-after` (seconds or an HTTP date)."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def error_message(payload: Any) -> tuple[str, str | None]:
    """(message, code) from an error payload: a string, {"error": "..."} or {"error": {...}}."""
    if isinstance(payload, dict) and "error" in payload:
        payload = payload["error"]
    if isinstance(payload, str):
        return payload, None
    if isinstance(payload, dict):
        message = payload.get("message") or payload.get("detail") or json.dumps(payload)[:300]
        code = payload.get("code") or payload.get("type")
        return str(message), str(code) if code is not None else None
    return str(payload)[:300], None


def _is_context_error(message: str, code: str | None) -> bool:
    text = f"{message} {code or ''}".lower()
    return any(marker in text for marker in _CONTEXT_MARKERS)


def _payload(body: bytes) -> Any:
    """An error body as JSON; SSE framing (`data: {...}` lines, LiteLLM's streamed 500s) is
    unwrapped to the first event that parses; anything else is text (cut short)."""
    text = body.decode("utf-8", "replace").strip()
    if not text:
        return ""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if text.startswith(("data:", "event:", ":")):
        for line in text.splitlines():
            if line.startswith("data:"):
                value = line[5:].strip()
                if value and value != "[DONE]":
                    try:
                        return json.loads(value)
                    except (ValueError, RecursionError):
                        return value[:300]
    return text[:300]


def classify_http(status: int, headers: Mapping[str, str], body: bytes) -> ModelError:
    """Turn an HTTP error response into a ModelError of the right kind."""
    payload = _payload(body[:MAX_ERROR_BODY])
    message, code = error_message(payload)
    message = message or f"the provider answered HTTP {status}"
    retry_after = parse_retry_after(headers)
    if status in (401, 403):
        return ModelError("auth", message, status=status)
    if status == 429:
        return ModelError("rate_limit", message, status=status, retry_after=retry_after)
    if status in (408, 409) or status >= 500 or headers.get("x-should-retry") == "true":
        return ModelError("retryable", message, status=status, retry_after=retry_after)
    if status in (400, 413) and _is_context_error(message, code):
        return ModelError("context_length", message, status=status)
    return ModelError("fatal", message, status=status)


def classify_stream_error(payload: Any) -> ModelError:
    """An error object that arrived inside a stream after HTTP 200."""
    message, code = error_message(payload)
    if _is_context_error(message, code):
        return ModelError("context_length", message)
    lowered = f"{message} {code or ''}".lower()
    if code in _RETRYABLE_CODES or "overload" in lowered or "rate limit" in lowered:
        return ModelError("retryable", f"error in the stream: {message}")
    return ModelError("fatal", f"error in the stream: {message}")
