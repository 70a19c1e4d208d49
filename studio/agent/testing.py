"""ScriptedModel: a model double that replays scripted responses and fails loudly on surprises."""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from studio.agent.events import Finish, ModelEvent, ModelRequest, TextDelta, ToolCall, Usage

Step = (
    Sequence[ModelEvent | BaseException]
    | BaseException
    | Callable[[ModelRequest], Sequence[ModelEvent]]
)

_ids = itertools.count(1)
TURN_USAGE = Usage(10, 5)
"""The usage each scripted turn reports unless told otherwise."""


def reply(text: str, *, usage: Usage | None = TURN_USAGE) -> list[ModelEvent]:
    """A final text answer."""
    out: list[ModelEvent] = [TextDelta(text)]
    if usage:
        out.append(usage)
    out.append(Finish("stop"))
    return out


def call(name: str, arguments: Any = None, *, id: str | None = None) -> ToolCall:
    """One tool call; `arguments` may be a dict (serialised) or a raw string (sent as is)."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
    return ToolCall(id or f"call_{next(_ids)}", name, raw)


def calls(
    *items: ToolCall | tuple[str, Any], text: str = "", usage: Usage | None = TURN_USAGE
) -> list[ModelEvent]:
    """A turn that asks for tool calls (tuples are (name, arguments))."""
    out: list[ModelEvent] = [TextDelta(text)] if text else []
    for item in items:
        out.append(item if isinstance(item, ToolCall) else call(item[0], item[1]))
    if usage:
        out.append(usage)
    out.append(Finish("tool_calls"))
    return out


class ScriptedModel:
    """Streams the scripted steps in order. An unexpected call raises AssertionError (it is not a
    ModelError, so the loop does not swallow it); `assert_complete()` fails on leftover steps.
    `requests` holds a deep copy of every request seen."""

    def __init__(self, steps: Sequence[Step] = (), *, model: str = "scripted") -> None:
        self.model = model
        self._steps: list[Step] = list(steps)
        self.requests: list[ModelRequest] = []

    def add(self, *steps: Step) -> None:
        self._steps.extend(steps)

    @property
    def remaining(self) -> int:
        return len(self._steps)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self.requests.append(copy.deepcopy(request))
        if not self._steps:
            last = request.messages[-1] if request.messages else {}
            raise AssertionError(
                f"ScriptedModel: unexpected model call #{len(self.requests)} (no scripted step left); "
                f"last message: {json.dumps(last)[:300]}"
            )
        step = self._steps.pop(0)
        if isinstance(step, BaseException):
            raise step
        events = step(request) if callable(step) else step
        for event in events:
            await asyncio.sleep(0)  # a real await point, so cancellation can land mid-stream
            if isinstance(event, BaseException):
                raise event
            yield event

    def assert_complete(self) -> None:
        if self._steps:
            raise AssertionError(
                f"ScriptedModel: {len(self._steps)} scripted step(s) were never used"
            )
