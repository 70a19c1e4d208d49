"""The contract's placeholder `test` module: `test.echo` returns its text; `tick` is its event."""

from __future__ import annotations

from typing import Any

from studio.platform.module import JSON, CallContext, PlatformCall, PlatformEvent, PlatformModule
from studio.platform.module import object_schema as obj

MAX_TEXT = 4096


async def _echo(args: JSON, context: CallContext) -> Any:
    return {"text": args["text"]}


def module() -> PlatformModule:
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
        description="Raised by the host test harness, with a running count.",
        payload=obj({"count": {"type": "integer", "minimum": 0}}),
    )
    return PlatformModule(
        name="test",
        description="Placeholder module for tests and debugging.",
        calls={"echo": echo},
        events={"tick": tick},
    )
