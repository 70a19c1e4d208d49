"""Small helpers shared by the agent tests."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx

from studio.agent.clients import ModelClient
from studio.agent.events import ModelEvent, ModelRequest, TextDelta, ToolCall, ToolSpec
from tests.helpers.memory_keyring import MemoryKeyring

REQUEST = ModelRequest(
    messages=[{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}],
    tools=[ToolSpec("outline", "see the tree", {"type": "object", "properties": {}})],
)


def collect(client: ModelClient, request: ModelRequest = REQUEST) -> list[ModelEvent]:
    async def go() -> list[ModelEvent]:
        return [e async for e in client.stream(request)]

    return asyncio.run(go())


def with_http(make: Any) -> Any:
    """Run `make(http)` -> client inside a fresh AsyncClient per test (closed afterwards)."""

    async def go() -> list[ModelEvent]:
        async with httpx.AsyncClient() as http:
            client = make(http)
            return [e async for e in client.stream(REQUEST)]

    return asyncio.run(go())


def text_of(events: list[ModelEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def calls_of(events: list[ModelEvent]) -> list[ToolCall]:
    return [e for e in events if isinstance(e, ToolCall)]


class ThreadRecordingKeyring(MemoryKeyring):
    """The in-memory keychain, noting which thread each call ran on."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[threading.Thread] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.threads.append(threading.current_thread())
        return super().get_password(service, username)

    def set_password(self, service: str, username: str, password: str) -> None:
        self.threads.append(threading.current_thread())
        super().set_password(service, username, password)

    def delete_password(self, service: str, username: str) -> None:
        self.threads.append(threading.current_thread())
        super().delete_password(service, username)
