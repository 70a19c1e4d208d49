"""Shared pieces of the agent sheet tests: a small spec, a gated model, and a sheet on a workspace."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx

from studio.agent.config import AgentConfig
from studio.agent.events import ModelEvent, ModelRequest
from studio.agent.keys import KeyStore
from studio.agent.providers import FixedModel, ProviderModels
from studio.document import Document
from studio.ui.agent_sheet import AgentServices, AgentSheet
from studio.workspace import Workspace
from tests.helpers.waiting import run_until

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


def open_workspace(document: Document | None) -> Workspace:
    workspace = Workspace()
    if document is not None:
        workspace.open(document)
    return workspace


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


def finish(loop: asyncio.AbstractEventLoop, sheet: AgentSheet, runs: int = 1) -> str:
    """Run the loop until the sheet has seen `runs` terminal events; the last one's status."""
    run_until(loop, lambda: len(sheet.terminal_events) >= runs, what=f"{runs} run(s) to end")
    return sheet.terminal_events[-1].status


class SheetMaker:
    """Builds agent sheets on a workspace as the studio window does (the composition root's
    services: a model source, a key store, one HTTP client), and closes them at the end."""

    def __init__(self, qtbot: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.qtbot = qtbot
        self.loop = loop
        self.http = httpx.AsyncClient()
        self.keys = KeyStore()
        self.sheets: list[AgentSheet] = []

    def provider(self) -> ProviderModels:
        """The configured provider as the studio builds it (this maker's keys and client)."""
        return ProviderModels(self.keys, self.http)

    def __call__(
        self,
        document: Document | None,
        model: Any,
        *,
        config: AgentConfig | None = None,
        models: Any = None,
        workspace: Workspace | None = None,
        save_snapshots: bool = True,
        **kw: Any,
    ) -> AgentSheet:
        workspace = workspace or open_workspace(document)
        services = AgentServices(
            models if models is not None else FixedModel(model),
            self.keys,
            self.http,
            config or AgentConfig(max_turns=5, token_budget=20_000),
            save_snapshots=save_snapshots,
        )
        sheet = AgentSheet(workspace, **services.options(), **kw)
        # The controller forwards the workspace's events in the studio; here the test does.
        workspace.subscribe(sheet.on_workspace_event)
        # Closed as the studio closes it (its tasks drained) before pytest-qt deletes it.
        self.qtbot.addWidget(sheet, before_close_func=lambda _: close_sheet(self.loop, sheet))
        sheet.resize(420, 760)
        self.sheets.append(sheet)
        return sheet

    def close(self) -> None:
        self.loop.run_until_complete(self.http.aclose())


def sheet_maker(qtbot: Any, loop: asyncio.AbstractEventLoop) -> Iterator[SheetMaker]:
    maker = SheetMaker(qtbot, loop)
    yield maker
    maker.close()


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
    import gc

    gc.collect()
