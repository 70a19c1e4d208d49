"""An outside agent for the tests: the official MCP SDK's client driving `proto-studio mcp` in
its own process over stdio, run on a thread of its own (so a Qt test's loop is left alone)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[2]


def env() -> dict[str, str]:
    out = dict(os.environ)
    out.update(PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    return out


def stdio_params(*args: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "studio.cli", "mcp", *args], env=env(), cwd=str(REPO)
    )


def call_tools(prototype: str, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    """Start `proto-studio mcp PROTOTYPE`, make the calls in order, return their results."""
    results: list[Any] = []
    failure: list[BaseException] = []

    async def main() -> None:
        async with (
            stdio_client(stdio_params(prototype)) as (read, write),
            ClientSession(read, write, read_timeout_seconds=timedelta(seconds=60)) as session,
        ):
            await session.initialize()
            for name, arguments in calls:
                results.append(await session.call_tool(name, arguments))

    def run() -> None:
        try:
            asyncio.run(asyncio.wait_for(main(), 90))
        except BaseException as exc:  # reported on the test's thread
            failure.append(exc)

    thread = threading.Thread(target=run, name="outside agent")
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the outside agent did not finish in 120 s"
    if failure:
        raise failure[0]
    return results
