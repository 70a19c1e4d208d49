"""Shared pieces of the service tests: a library with one prototype, a server on 127.0.0.1:0 and a
real WebSocket client (the `websockets` library) that reads events with a bounded wait."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from studio.agent.config import AgentConfig
from studio.agent.events import ModelEvent, ModelRequest
from studio.agent.mcp_host import McpHost
from studio.agent.providers import FixedModel
from studio.library.store import Library
from studio.service.server import HarnessServer
from tests.helpers.demo import SPEC

TOKEN = "test-token-0123456789"


class GatedModel:
    """A model double whose turns can be held open: each step waits for `gate` when `hold` is
    set, so a test can cancel or disconnect mid-turn without any timing."""

    def __init__(self, steps: Sequence[Sequence[ModelEvent]], *, model: str = "gated") -> None:
        self.model = model
        self.steps = [list(s) for s in steps]
        self.requests: list[ModelRequest] = []
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()
        self.hold: set[int] = set()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        n = len(self.requests)
        self.requests.append(copy.deepcopy(request))
        if not self.steps:
            raise AssertionError("GatedModel: unexpected model call")
        step = self.steps.pop(0)
        for i, event in enumerate(step):
            if i == 1 and n in self.hold:  # after the first event: the turn is under way
                self.waiting.set()
                await self.gate.wait()
            await asyncio.sleep(0)
            yield event


def make_library(name: str = "Demo") -> tuple[Library, str]:
    library = Library()
    entry = library.create(name, copy.deepcopy(SPEC), "paste")
    return library, entry.id


@contextlib.asynccontextmanager
async def running_server(
    model: Any, *, library: Library | None = None, mcp: McpHost | None = None, **kw: Any
) -> AsyncIterator[tuple[HarnessServer, str, Library]]:
    library = library or make_library()[0]
    server = HarnessServer(
        library,
        FixedModel(model),
        AgentConfig(),
        TOKEN,
        port=0,
        mcp=mcp,
        save_snapshots=False,
        **kw,
    )
    bound = await server.start()
    try:
        yield server, bound.ws_url, library
    finally:
        await server.aclose()


class Client:
    """A real WebSocket client speaking the protocol."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.hello: list[dict[str, Any]] = []

    @classmethod
    async def open(
        cls, url: str, token: str = TOKEN, **hello: Any
    ) -> tuple[Client, dict[str, Any]]:
        ws = await connect(url)
        client = cls(ws)
        await client.send("hello", token=token, **hello)
        welcome = await client.until("welcome")
        client.hello, client.seen = client.seen, []  # what came before and with the welcome
        return client, welcome

    async def send(self, kind: str, **fields: Any) -> None:
        await self.ws.send(json.dumps({"type": kind, **fields}))

    async def next(self, limit: float = 10.0) -> dict[str, Any]:
        async with asyncio.timeout(limit):
            event = json.loads(await self.ws.recv())
        self.seen.append(event)
        return event

    async def until(self, *kinds: str, limit: float = 10.0) -> dict[str, Any]:
        """Events up to (and including) the first of `kinds`; returns that one."""
        while True:
            event = await self.next(limit)
            if event["type"] in kinds:
                return event

    def types(self) -> list[str]:
        return [e["type"] for e in self.seen]

    async def close(self) -> None:
        await self.ws.close()
