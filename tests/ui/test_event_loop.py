"""Issue 14: no Python tracebacks on the terminal during agent runs and cancels. Their cause was
qasync's loop not finalizing async generators (studio/ui/event_loop.py says how)."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from studio.agent.clients import make_client
from studio.agent.events import ModelRequest
from studio.agent.loop import AgentLoop
from studio.agent.registry import ToolRegistry
from tests.agent.server import ModelServer, Reply, chunk, sse

REQUEST = ModelRequest([{"role": "user", "content": "hi"}])


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as srv:
        yield srv


@pytest.fixture
def unraisable() -> Iterator[list[str]]:
    """What Python would print as "Exception ignored in ..." (collected, not printed)."""
    seen: list[str] = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda u: seen.append(
        f"{u.object!r}: {u.exc_type.__name__}: {u.exc_value}"
    )
    yield seen
    sys.unraisablehook = previous


async def runs_and_a_cancel(base_url: str) -> None:
    async with httpx.AsyncClient() as http:
        client = make_client("chat", base_url, "m", http=http)
        for _ in range(3):  # whole answers: the reader stops at [DONE], before the body's end
            async for _event in client.stream(REQUEST):
                pass
            gc.collect()
        loop = AgentLoop(client, ToolRegistry())
        task = asyncio.ensure_future(loop.run("go"))
        while not loop.turns:  # noqa: ASYNC110 - the loop's own state, set once it streams
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # a few chunks in: the cancel lands mid-stream
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        gc.collect()
        await asyncio.sleep(0.05)  # the finalizer's aclose() tasks run on the loop


def test_runs_and_cancels_leave_no_unfinalized_generators(
    qloop: asyncio.AbstractEventLoop, server: ModelServer, unraisable: list[str]
) -> None:
    for _ in range(3):
        server.queue(Reply(sse(chunk("a"), chunk("b"), chunk(finish="stop"))))
    server.queue(Reply(sse(*[chunk("x") for _ in range(40)]), pause=0.02))
    qloop.run_until_complete(runs_and_a_cancel(server.base_url))
    gc.collect()
    assert unraisable == []


def test_the_plain_qasync_loop_is_where_they_came_from(
    qapp: Any, server: ModelServer, unraisable: list[str]
) -> None:
    """The same runs on qasync's own loop print httpcore's "ignored GeneratorExit" (if qasync
    ever finalizes async generators itself, this fails and StudioEventLoop can go)."""
    import qasync

    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    try:
        for _ in range(3):
            server.queue(Reply(sse(chunk("a"), chunk("b"), chunk(finish="stop"))))
        server.queue(Reply(sse(*[chunk("x") for _ in range(40)]), pause=0.02))
        loop.run_until_complete(runs_and_a_cancel(server.base_url))
        gc.collect()
    finally:
        loop.close()
        asyncio.set_event_loop(None)
    assert any("GeneratorExit" in u for u in unraisable), unraisable
