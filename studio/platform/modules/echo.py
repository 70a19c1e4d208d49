"""The contract's placeholder `test` module: `test.echo` returns its text; `test.tick` is an
event raised every `tick_ms` milliseconds while the host runs the module's events."""

from __future__ import annotations

from typing import Any

from studio.platform.module import (
    JSON,
    CallContext,
    Emit,
    EventSource,
    PlatformCall,
    PlatformEvent,
    PlatformModule,
    Sleep,
)
from studio.platform.module import object_schema as obj

MAX_TEXT = 4096
TICK_MS = 1000


async def _echo(args: JSON, context: CallContext) -> Any:
    return {"text": args["text"]}


def ticks(tick_ms: int) -> EventSource:
    """A source raising `{"count": n}` (n = 1, 2, ...) every `tick_ms` milliseconds."""
    if tick_ms <= 0:
        raise ValueError(f"tick_ms must be positive, got {tick_ms}")

    async def run(emit: Emit, sleep: Sleep) -> None:
        count = 0
        while True:
            await sleep(tick_ms / 1000)
            count += 1
            emit({"count": count})

    return run


def module(tick_ms: int = TICK_MS) -> PlatformModule:
    echo = PlatformCall(
        name="echo",
        description="Returns its text unchanged (a placeholder with no real effect).",
        args=obj(
            {"text": {"type": "string", "maxLength": MAX_TEXT, "description": "Text to echo"}}
        ),
        result=obj({"text": {"type": "string"}}),
        handler=_echo,
    )
    tick = PlatformEvent(
        name="tick",
        description=f"Raised every {tick_ms} ms while the prototype runs, with a running count.",
        payload=obj({"count": {"type": "integer", "minimum": 0}}),
        source=ticks(tick_ms),
    )
    return PlatformModule(
        name="test",
        description="Placeholder module for tests and debugging.",
        calls={"echo": echo},
        events={"tick": tick},
    )
