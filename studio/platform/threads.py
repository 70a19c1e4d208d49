"""Blocking work (files, the keychain) run off the event loop, in plain Python threads.

Not `asyncio.to_thread`: under qasync the loop's default executor is a QThread pool, whose Qt
timers warn (and can crash) when torn down from another thread. A private stdlib pool has no Qt.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="studio-platform")


async def off_loop(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` in a worker thread, awaited from the event loop."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_POOL, functools.partial(fn, *args, **kwargs))
