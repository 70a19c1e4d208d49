"""The harness protocol's messages: what a thin client sends (`parse_message`, each checked and
typed) and the events the server sends (`event`), as JSON text frames. docs/service.md is the
reference; `MESSAGES` and `EVENTS` here are what it lists (tests/service/test_protocol_doc.py).

Every server frame has a `type`; the events of a session also carry `seq` (increasing by one per
session, so a client that reconnects asks for what came after the last one it saw) and, when they
belong to a turn, `turn`. A turn ends with exactly one of `TERMINAL`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

JSON = dict[str, Any]
VERSION = 1
MAX_FRAME = 256 * 1024
"""The largest frame a client may send (bytes); a longer one is refused with an error event."""
MAX_INSTRUCTION = 20_000
TERMINAL = ("completed", "no_changes", "failed", "cancelled")

#: Client messages and their fields: name -> (type, required).
MESSAGES: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "hello": {
        "token": (str, True),
        "session": (str, False),
        "after": (int, False),
        "client": (str, False),
    },
    "list": {},
    "start": {"prototype": (str, True), "instruction": (str, True), "selected": (str, False)},
    "cancel": {},
    "answer": {"text": (str, True), "call_id": (str, False)},
    "approve": {"id": (str, True), "approved": (bool, True)},
    "apply": {},
    "discard": {},
    "ping": {},
}

#: Server events (docs/service.md has their fields and examples).
EVENTS = (
    "welcome",
    "prototypes",
    "turn_started",
    "text",
    "tool",
    "draft",
    "counters",
    "ask_user",
    "approval",
    "notice",
    *TERMINAL,
    "applied",
    "discarded",
    "error",
    "pong",
)

ErrorCode = Literal[
    "bad_frame",
    "unknown_type",
    "bad_field",
    "unauthorized",
    "no_hello",
    "unknown_session",
    "unknown_prototype",
    "busy",
    "not_waiting",
    "no_draft",
    "stale",
    "library",
    "too_large",
]


class ProtocolError(Exception):
    """A frame the server refuses: `code` and a message naming the problem."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


@dataclass(frozen=True)
class Message:
    """One checked client message: its `type` and fields (optional ones absent or None)."""

    type: str
    fields: JSON

    def get(self, name: str, default: Any = None) -> Any:
        value = self.fields.get(name)
        return default if value is None else value


def parse_message(frame: str | bytes) -> Message:
    """A client frame as a `Message`; ProtocolError names what is wrong (the frame, the type,
    or the field and what it should be)."""
    if isinstance(frame, bytes):
        raise ProtocolError(
            "bad_frame", "binary frames are not part of the protocol; send JSON text"
        )
    if len(frame.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise ProtocolError("too_large", f"frame larger than {MAX_FRAME} bytes")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad_frame", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_frame", "a message must be a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_frame", "a message needs a string 'type'")
    spec = MESSAGES.get(kind)
    if spec is None:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind[:40]!r}; known: {', '.join(MESSAGES)}"
        )
    fields: JSON = {}
    for name, (want, required) in spec.items():
        value = data.get(name)
        if value is None:
            if required:
                raise ProtocolError("bad_field", f"{kind}: '{name}' is required")
            continue
        ok = isinstance(value, want) and not (want is int and isinstance(value, bool))
        if not ok:
            label = want.__name__ if isinstance(want, type) else "/".join(w.__name__ for w in want)
            raise ProtocolError(
                "bad_field", f"{kind}: '{name}' must be a {label}, not {type(value).__name__}"
            )
        fields[name] = value
    unknown = sorted(set(data) - set(spec) - {"type"})
    if unknown:
        raise ProtocolError("bad_field", f"{kind}: unknown field(s) {', '.join(unknown)}")
    if kind == "start":
        text = fields["instruction"].strip()
        if not text:
            raise ProtocolError("bad_field", "start: 'instruction' is empty")
        if len(text) > MAX_INSTRUCTION:
            raise ProtocolError(
                "bad_field", f"start: 'instruction' is longer than {MAX_INSTRUCTION} characters"
            )
        fields["instruction"] = text
    if kind == "hello" and fields.get("after", 0) < 0:
        raise ProtocolError("bad_field", "hello: 'after' must be 0 or more")
    return Message(kind, fields)


def event(kind: str, **fields: Any) -> JSON:
    """A server event (its `seq` is added when a session keeps it)."""
    if kind not in EVENTS:
        raise ValueError(f"not a protocol event: {kind!r}")
    return {"type": kind, **fields}


def error(code: ErrorCode, message: str, in_reply_to: str | None = None) -> JSON:
    out = event("error", code=code, message=message)
    if in_reply_to:
        out["in_reply_to"] = in_reply_to
    return out


def dumps(data: JSON) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
