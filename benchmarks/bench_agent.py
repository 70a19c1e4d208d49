"""Harness overhead per turn: the guarded AgentLoop with a scripted model and no-op tools, against
a bare loop doing the same model iteration and tool calls in the same process.

Each turn: the model streams one text delta and two tool calls (one read-only, one writing),
the tools do nothing, and the next request carries the full transcript. Prints µs per turn
for both, the ratio, and the time to the first event.

    .venv/bin/python benchmarks/bench_agent.py [--turns 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studio.agent.events import ModelRequest, ToolCall  # noqa: E402
from studio.agent.guards import Limits  # noqa: E402
from studio.agent.loop import AgentLoop  # noqa: E402
from studio.agent.registry import Tool, ToolRegistry  # noqa: E402
from studio.agent.testing import ScriptedModel, call, calls, reply  # noqa: E402
from studio.agent.trace import Tracer  # noqa: E402

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}}


async def noop(args: dict[str, Any]) -> Any:
    return {"ok": True}


def script(turns: int) -> list[Any]:
    steps: list[Any] = [
        calls(call("read", {"n": i}), call("write", {"n": i}), text="thinking")
        for i in range(turns - 1)
    ]
    steps.append(reply("done"))
    return steps


def tools() -> ToolRegistry:
    return ToolRegistry(
        [Tool("read", "read", SCHEMA, noop), Tool("write", "write", SCHEMA, noop, idempotent=False)]
    )


async def harness(turns: int) -> tuple[float, float]:
    first: list[float] = []
    model, registry = ScriptedModel(script(turns)), tools()
    start = time.perf_counter()

    def on_event(e: dict[str, Any]) -> None:
        if not first:
            first.append(time.perf_counter())

    loop = AgentLoop(
        model,
        registry,
        system="s",
        limits=Limits(max_turns=turns + 1),
        on_event=on_event,
        tracer=Tracer(),
    )
    result = await loop.run("go")
    assert result.status == "completed", result.reason
    return time.perf_counter() - start, first[0] - start


async def bare(turns: int) -> float:
    """The minimum a loop must do: stream, collect calls, run tools, grow the transcript."""
    model = ScriptedModel(script(turns))
    registry = tools()
    specs = registry.specs()
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "go"},
    ]
    start = time.perf_counter()
    while True:
        found: list[ToolCall] = []
        async for event in model.stream(ModelRequest(list(messages), specs)):
            if isinstance(event, ToolCall):
                found.append(event)
        messages.append({"role": "assistant", "tool_calls": [c.__dict__ for c in found]})
        if not found:
            break
        for c in found:
            tool = registry.get(c.name)
            assert tool is not None
            out = await tool.handler(json.loads(c.arguments))
            messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps(out)})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    runs_h, runs_b = [], []
    for _ in range(args.repeat):  # alternated, so that a busy machine slows both alike
        runs_h.append(asyncio.run(harness(args.turns)))
        runs_b.append(asyncio.run(bare(args.turns)))
    h = min(runs_h, key=lambda r: r[0])
    b = min(runs_b)
    n = args.turns
    print(f"turns per run: {n} (2 tool calls per turn, scripted model, no-op tools)")
    print(f"bare loop : {b / n * 1e6:8.1f} µs/turn")
    print(f"AgentLoop : {h[0] / n * 1e6:8.1f} µs/turn  (ratio {h[0] / b:.2f}x the bare loop)")
    print(
        f"harness overhead: {(h[0] - b) / n * 1e6:8.1f} µs/turn; first event after {h[1] * 1e6:.0f} µs"
    )


if __name__ == "__main__":
    main()
