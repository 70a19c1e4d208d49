"""The suite's one polling helper: run the event loop until a state holds (never a fixed sleep)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

#: How often the predicate is looked at while the loop runs (Qt events, tasks, queued signals).
INTERVAL = 0.005


def run_until(
    loop: asyncio.AbstractEventLoop,
    predicate: Callable[[], object],
    timeout: float = 10.0,
    *,
    what: str = "",
) -> None:
    """Run `loop` (a qasync loop runs Qt too) until `predicate()` is true; AssertionError after
    `timeout` seconds, naming `what` was awaited."""

    async def poll() -> None:
        while not predicate():  # noqa: ASYNC110 (a state with no event to await)
            await asyncio.sleep(INTERVAL)

    try:
        loop.run_until_complete(asyncio.wait_for(poll(), timeout))
    except TimeoutError:
        raise AssertionError(
            f"timed out after {timeout:g} s waiting for {what or getattr(predicate, '__name__', 'a state')}"
        ) from None
