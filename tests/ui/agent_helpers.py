"""Shared pieces of the agent sheet tests: a small spec, a gated model, and loop helpers."""

from __future__ import annotations

import asyncio
import copy
import gc
from collections.abc import AsyncIterator, Callable
from typing import Any

from studio.agent.events import ModelEvent, ModelRequest
from studio.document import Document
from studio.ui.agent_bridge import AgentConfig, FixedModel
from studio.ui.agent_sheet import AgentSheet

SPEC: dict[str, Any] = {
    "id": "demo",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"count": 0},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "text", "id": "subtitle", "text": "Sub"},
            {"type": "button", "id": "go", "label": "Go"},
        ],
    },
}

RENAME = {
    "ops": [
        {
            "op": "replaceNode",
            "id": "title",
            "node": {"type": "text", "id": "title", "text": "Inbox"},
        },
        {"op": "replaceNode", "id": "go", "node": {"type": "button", "id": "go", "label": "Send"}},
    ],
    "summary": "Rename the title to Inbox and the button to Send",
}


def new_document() -> Document:
    return Document(copy.deepcopy(SPEC), name="demo")


Wait = Callable[[], bool]


class GatedModel:
    """Streams scripted turns; a callable in a turn is a gate: the stream waits (on state, not on
    time) until it returns True. A gate that never opens holds the stream until it is cancelled."""

    def __init__(self, *turns: list[ModelEvent | Wait], model: str = "gated") -> None:
        self.model = model
        self.turns = list(turns)
        self.requests: list[ModelRequest] = []

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self.requests.append(copy.deepcopy(request))
        assert self.turns, "GatedModel: unexpected model call"
        for item in self.turns.pop(0):
            if callable(item):
                while not item():  # noqa: ASYNC110 - widget state has no event to await
                    await asyncio.sleep(0.002)
            else:
                await asyncio.sleep(0)
                yield item


def run_until(
    loop: asyncio.AbstractEventLoop, predicate: Callable[[], bool], timeout: float = 10.0
) -> None:
    """Run the qasync loop until `predicate()` holds (a state wait, like qtbot.waitUntil)."""

    async def wait() -> None:
        while not predicate():  # noqa: ASYNC110 - widget state has no event to await
            await asyncio.sleep(0.002)

    loop.run_until_complete(asyncio.wait_for(wait(), timeout))


def finish(loop: asyncio.AbstractEventLoop, sheet: AgentSheet, runs: int = 1) -> str:
    """Run the loop until the sheet has seen `runs` terminal events; the last one's type."""
    run_until(loop, lambda: len(sheet.terminal_events) >= runs)
    return str(sheet.terminal_events[-1]["type"])


def make_sheet(
    qtbot: Any,
    document: Document | None,
    model: Any,
    *,
    config: AgentConfig | None = None,
    **kw: Any,
) -> AgentSheet:
    sheet = AgentSheet(
        lambda: document,
        models=FixedModel(model) if model is not None else kw.pop("models"),
        config=config or AgentConfig(max_turns=5, token_budget=20_000),
        **kw,
    )
    qtbot.addWidget(sheet)
    sheet.resize(420, 760)
    return sheet


def close_sheet(loop: asyncio.AbstractEventLoop, sheet: AgentSheet) -> None:
    loop.run_until_complete(sheet.aclose())


def collect(signal: Any) -> list[Any]:
    """Every emission of `signal` (one argument: the value; several: a tuple)."""
    seen: list[Any] = []
    signal.connect(lambda *args: seen.append(args[0] if len(args) == 1 else args))
    return seen


def collect_qt_garbage() -> None:
    """Collect, here on the GUI thread, the widgets that finished tests left in reference cycles.
    Left alone, a collection may start in another Python thread (a local HTTP server's, a worker
    pool's) and destroy those QObjects there, which Qt reports ("Timers cannot be stopped from
    another thread") and may crash on."""
    gc.collect()
