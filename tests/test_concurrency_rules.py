"""The studio leaves the event loop one way: `studio.concurrency` (off_loop, Lane, TaskOwner).

`asyncio.to_thread` and `run_in_executor(None, ...)` use the loop's default executor, which under
qasync is a QThread pool (Qt timers torn down from another thread warn, and can crash); ruff's
TID251 bans the first at lint time, this scan catches both wherever they are spelled.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from studio.concurrency import Lane, TaskOwner, off_loop

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {ROOT / "studio" / "concurrency.py"}


def _offenders() -> list[str]:
    found: list[str] = []
    for path in sorted((ROOT / "studio").rglob("*.py")):
        if path in ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            name = node.func.attr
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if name == "to_thread":
                found.append(f"{where}: asyncio.to_thread")
            elif name == "run_in_executor" and (
                not node.args
                or (isinstance(node.args[0], ast.Constant) and node.args[0].value is None)
            ):
                found.append(f"{where}: run_in_executor(None, ...)")
    return found


def test_nothing_uses_the_loops_default_executor() -> None:
    assert _offenders() == []


def test_off_loop_runs_in_a_studio_worker_thread() -> None:
    import threading

    async def main() -> str:
        return await off_loop(lambda: threading.current_thread().name)

    assert asyncio.run(main()).startswith("studio-worker")


def test_a_lane_runs_calls_in_order_on_one_thread() -> None:
    import threading
    import time

    lane = Lane("test")
    seen: list[tuple[int, str]] = []

    def work(i: int, pause: float) -> None:
        time.sleep(pause)  # the first call is the slowest: order must still hold
        seen.append((i, threading.current_thread().name))

    async def main() -> None:
        await asyncio.gather(*(lane.run(work, i, 0.02 if i == 0 else 0) for i in range(5)))

    try:
        asyncio.run(main())
    finally:
        lane.close()
    assert [i for i, _ in seen] == [0, 1, 2, 3, 4]
    assert len({name for _, name in seen}) == 1
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(lane.run(print))


def test_task_owner_reports_failures_and_drains_at_close() -> None:
    reported: list[tuple[str, str]] = []
    owner = TaskOwner("test", report=lambda label, exc: reported.append((label, str(exc))))
    finished: list[str] = []

    async def fails() -> None:
        raise ValueError("boom")

    async def forever() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            finished.append("forever")

    async def main() -> None:
        owner.spawn(fails(), label="Save")
        owner.spawn(forever(), label="Background", track=False)
        await owner.idle()  # the background task is not waited for
        assert reported == [("Save", "boom")]
        await owner.aclose()

    asyncio.run(main())
    assert finished == ["forever"]
    assert owner.closed
