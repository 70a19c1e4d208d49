"""Blocking calls of the agent core (the keychain, snapshot files), run off the event loop.

This mirrors studio.platform.threads.off_loop: a private stdlib thread pool, not
asyncio.to_thread, whose default executor under qasync is a QThread pool (Qt timer warnings).
One difference: the loop is asyncio.get_event_loop(), not get_running_loop(). qasync's
run_until_complete processes Qt events once more after its loop stopped, and a task step run
then has no running loop; get_event_loop() still finds the (set) loop the task belongs to.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="studio-agent")


async def off_loop(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` in a worker thread, awaited from the event loop.

    Keep the work done in the thread small in Python objects (serialize on the loop first): a
    garbage collection started in a worker thread would destroy unreachable QObjects there."""
    loop = asyncio.get_event_loop()
    return await loop.run_in_executor(_POOL, functools.partial(fn, *args, **kwargs))
