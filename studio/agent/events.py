"""Typed events a model client streams, the neutral request/transcript shapes, and their JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

JSON = dict[str, Any]
Message = dict[str, Any]
"""A neutral transcript message: {"role": "system"|"user"|"assistant"|"tool", "content": str|None,
"tool_calls": [{"id","name","arguments"}] (assistant), "tool_call_id": str (tool)}."""


@dataclass(frozen=True)
class TextDelta:
    text: str
    type: Literal["text"] = "text"


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's reasoning (thinking): shown apart, never part of the answer or the
    transcript sent back."""

    text: str
    type: Literal["reasoning"] = "reasoning"


@dataclass(frozen=True)
class ToolCall:
    """A whole tool call, emitted once the stream has ended; `arguments` is the raw JSON string."""

    id: str
    name: str
    arguments: str
    type: Literal["tool_call"] = "tool_call"


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    estimated: bool = False
    type: Literal["usage"] = "usage"

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True)
class Finish:
    reason: str
    type: Literal["finish"] = "finish"


ModelEvent = TextDelta | ReasoningDelta | ToolCall | Usage | Finish


def event_to_json(event: ModelEvent) -> JSON:
    if isinstance(event, TextDelta):
        return {"type": "text", "text": event.text}
    if isinstance(event, ReasoningDelta):
        return {"type": "reasoning", "text": event.text}
    if isinstance(event, ToolCall):
        return {
            "type": "tool_call",
            "id": event.id,
            "name": event.name,
            "arguments": event.arguments,
        }
    if isinstance(event, Usage):
        return {
            "type": "usage",
            "input_tokens": event.input_tokens,
            "output_tokens": event.output_tokens,
            "estimated": event.estimated,
        }
    return {"type": "finish", "reason": event.reason}


def event_from_json(data: JSON) -> ModelEvent:
    kind = data.get("type")
    if kind == "text":
        return TextDelta(str(data["text"]))
    if kind == "reasoning":
        return ReasoningDelta(str(data["text"]))
    if kind == "tool_call":
        args = data.get("arguments", "")
        return ToolCall(
            str(data["id"]), str(data["name"]), args if isinstance(args, str) else json.dumps(args)
        )
    if kind == "usage":
        return Usage(
            int(data.get("input_tokens", 0)),
            int(data.get("output_tokens", 0)),
            bool(data.get("estimated")),
        )
    if kind == "finish":
        return Finish(str(data.get("reason", "stop")))
    raise ValueError(f"recorded model event has an unknown type {kind!r}")


@dataclass(frozen=True)
class ToolSpec:
    """What the model is told about one tool."""

    name: str
    description: str
    parameters: JSON


@dataclass
class ModelRequest:
    """One model call: the whole transcript and the same tool list on every turn."""

    messages: list[Message]
    tools: list[ToolSpec] = field(default_factory=list)
    tool_choice: str = "auto"
    # The most the reply may use (sent as max_tokens / max_output_tokens); None: not sent.
    max_tokens: int | None = None
    # Seconds without a byte from the server before the request fails (httpx's read timeout).
    idle_timeout: float | None = None
    # The request's own token count as the loop estimated it (for usage when none comes back).
    input_tokens: int | None = None
    # Reasoning effort (studio.agent.reasoning): "provider-default" sends nothing.
    effort: str = "provider-default"
