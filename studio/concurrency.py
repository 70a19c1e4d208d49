"""The studio's one way off the event loop (`off_loop`, `Lane`) and its one task owner (`TaskOwner`).

Qt-free. Blocking work (files, the keychain, adb, joins) runs in a private stdlib thread pool,
never in `asyncio.to_thread` or `loop.run_in_executor(None, ...)`: under qasync the loop's default
executor is a QThread pool whose Qt timers warn (and can crash) when torn down from another thread.
A `Lane` runs its calls one after another on one thread of its own (the library: its reads and
writes never overlap). Every asyncio task a component starts is kept by a `TaskOwner`, which
reports failures, and cancels and drains them at close. `tests/test_concurrency_rules.py` keeps the
rest of the code on these.

Loops: the running loop is looked up with `asyncio.get_event_loop()`, not `get_running_loop()`.
qasync's `run_until_complete` processes Qt events once more after its loop stopped, and a task
step (or a Qt slot) run then has no running loop; `get_event_loop()` still finds the loop that was
set, which is the one the task belongs to.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger(__name__)

#: Enough threads that a long blocking call (an adb shell with its own timeout, a thread join)
#: never starves a short one (a keychain read); threads that are idle cost nothing.
_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="studio-worker")


def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_event_loop()


async def off_loop(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` in a worker thread of the studio's pool, awaited from the loop.

    Keep the work done in the thread small in Python objects (serialise on the loop first): a
    garbage collection started in a worker thread would destroy unreachable QObjects there."""
    return await _loop().run_in_executor(_POOL, functools.partial(fn, *args, **kwargs))


class Lane:
    """Calls that must never overlap (one library on disk), run in order on one thread."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._executor: ThreadPoolExecutor | None = ThreadPoolExecutor(
            1, thread_name_prefix=f"studio-{name}"
        )

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` on this lane's thread, after every call submitted before it."""
        if self._executor is None:
            raise RuntimeError(f"the {self.name} lane is closed")
        return await _loop().run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        """Wait for the calls already submitted, then stop the thread (shutdown)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)


ErrorReporter = Callable[[str, BaseException], None]


def _log_error(label: str, exc: BaseException) -> None:
    log.error("%s failed", label or "task", exc_info=exc)


class TaskOwner:
    """Keeps every asyncio task a component starts: a failure is reported (never lost), and
    `aclose()` cancels and drains them all. `idle()` waits for the tasks started so far (and the
    ones they start), for tests and orderly shutdown.

    `report(label, exc)` is called for an exception other than cancellation; by default it is
    logged at ERROR (which fails a test that did not expect it)."""

    def __init__(self, name: str = "", *, report: ErrorReporter | None = None) -> None:
        self.name = name
        self._report = report or _log_error
        self._tasks: set[asyncio.Task[Any]] = set()
        self._background: set[asyncio.Task[Any]] = set()
        self._closed = False

    @property
    def tasks(self) -> frozenset[asyncio.Task[Any]]:
        return frozenset(self._tasks)

    @property
    def closed(self) -> bool:
        return self._closed

    def spawn(
        self, coro: Coroutine[Any, Any, T], *, label: str = "", track: bool = True
    ) -> asyncio.Task[T | None]:
        """Start `coro` as a kept task. With `track=False` the task is kept and cancelled at
        close, but `idle()` does not wait for it (background work such as thumbnails)."""
        if self._closed:
            coro.close()
            raise RuntimeError(f"{self.name or 'the task owner'} is closed")
        task = _loop().create_task(self._guard(coro, label))
        # A task cancelled before its first step never runs `_guard`, which would leave `coro`
        # un-awaited ("coroutine ... was never awaited"): close it then.
        task.add_done_callback(lambda _task: coro.close())
        if track:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return task

    async def _guard(self, coro: Coroutine[Any, Any, T], label: str) -> T | None:
        try:
            return await coro
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # every failure is reported, never lost in a dropped task
            self._report(label, exc)
            return None

    async def idle(self) -> None:
        """Wait until every tracked task started so far (and those they start) has finished."""
        while pending := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    def cancel_all(self) -> None:
        for task in [*self._tasks, *self._background]:
            task.cancel()

    async def aclose(self) -> None:
        """Cancel every task (tracked and background) and wait for them to finish."""
        self._closed = True
        tasks = [*self._tasks, *self._background]
        for task in tasks:
            task.cancel()
        if tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*tasks, return_exceptions=True)
