"""Module events pushed into a running prototype: `test.tick` on an injected clock, through the host."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from studio.platform.consent import ConsentBroker
from studio.platform.host import PlatformHost
from studio.platform.module import Emit, PlatformError, PlatformEvent, PlatformModule, Sleep
from studio.platform.module import object_schema as obj
from studio.platform.modules import echo
from studio.platform.registry import PlatformRegistry, default_registry
from studio.runtime import Change, Runtime


class StepSleep:
    """A fake `asyncio.sleep`: records each wait and returns only when the test releases it."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self._go: asyncio.Queue[None] = asyncio.Queue()

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await self._go.get()

    def release(self, times: int = 1) -> None:
        for _ in range(times):
            self._go.put_nowait(None)


async def until(condition: Callable[[], bool], turns: int = 1000) -> None:
    """Let the loop run (no real time passes) until `condition` holds."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("condition never held")


def spec(modules: list[str]) -> dict[str, Any]:
    return {
        "id": "ticking",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": modules},
        "state": {"n": 0},
        "root": {"type": "text", "text": "hi"},
    }


def ticks(runtime: Runtime) -> list[Any]:
    return [e.payload["count"] for e in runtime.events if e.name == "test.tick"]


def make_host(registry: PlatformRegistry, sleep: Sleep) -> PlatformHost:
    return PlatformHost(registry, ConsentBroker(), prototype_id="p", sleep=sleep)


def test_tick_every_n_ms_until_the_host_closes() -> None:
    runtime = Runtime(spec(["test"]))
    changes: list[Change] = []
    runtime.subscribe(changes.append)

    async def go() -> None:
        sleep = StepSleep()
        host = make_host(PlatformRegistry([echo.module(tick_ms=250)]), sleep)
        assert host.start_events(runtime) == ["test.tick"]
        assert host.start_events(runtime) == []  # already running: not twice
        sleep.release(3)
        await until(lambda: len(ticks(runtime)) == 3 and len(sleep.waits) == 4)
        assert ticks(runtime) == [1, 2, 3]
        assert sleep.waits == [0.25] * 4
        assert host.running_events == ["test.tick"]
        await host.aclose()
        assert host.running_events == []
        sleep.release(5)
        for _ in range(20):
            await asyncio.sleep(0)
        assert ticks(runtime) == [1, 2, 3]

    asyncio.run(go())
    events = [e for e in runtime.events if e.name == "test.tick"]
    assert {(e.kind, e.id) for e in events} == {("platform", "ticking")}
    assert [c.event for c in changes] == events


def test_stop_and_restart_events() -> None:
    runtime = Runtime(spec(["test"]))

    async def go() -> None:
        sleep = StepSleep()
        host = make_host(PlatformRegistry([echo.module(tick_ms=10)]), sleep)
        host.start_events(runtime)
        sleep.release(2)
        await until(lambda: len(ticks(runtime)) == 2)
        await host.stop_events()
        assert host.running_events == []
        assert host.start_events(runtime) == ["test.tick"]
        sleep.release(1)
        await until(lambda: len(ticks(runtime)) == 3)
        await host.aclose()

    asyncio.run(go())
    assert ticks(runtime) == [1, 2, 1]  # a new source counts from the start


def test_a_dismissed_prototype_stops_its_sources() -> None:
    runtime = Runtime(spec(["test"]))

    async def go() -> None:
        sleep = StepSleep()
        host = make_host(PlatformRegistry([echo.module()]), sleep)
        host.start_events(runtime)
        sleep.release(1)
        await until(lambda: len(ticks(runtime)) == 1)
        runtime.dismiss()
        sleep.release(1)
        await until(lambda: host.running_events == [])
        assert sleep.waits == [1.0, 1.0]
        await host.aclose()

    asyncio.run(go())
    assert ticks(runtime) == [1]


def test_only_required_modules_start_by_default() -> None:
    runtime = Runtime(spec(["units"]))

    async def go() -> None:
        host = make_host(default_registry(), StepSleep())
        assert host.start_events(runtime) == []
        assert host.start_events(runtime, ["test", "nope"]) == ["test.tick"]
        await host.aclose()

    asyncio.run(go())


def test_emit_event_checks_the_event_and_its_payload() -> None:
    runtime = Runtime(spec(["test"]))
    host = make_host(default_registry(), StepSleep())
    host.emit_event(runtime, "test.tick", {"count": 7})
    assert ticks(runtime) == [7]
    with pytest.raises(
        PlatformError, match=r"^test\.tock: unknown platform event \(it has: tick\)$"
    ):
        host.emit_event(runtime, "test.tock", {"count": 1})
    with pytest.raises(
        PlatformError, match=r"^test\.tick: payload\.count: a whole number was expected, got '7'$"
    ):
        host.emit_event(runtime, "test.tick", {"count": "7"})
    with pytest.raises(PlatformError, match=r"^test\.tick: payload: 'count' is required$"):
        host.emit_event(runtime, "test.tick", {})
    assert ticks(runtime) == [7]


@pytest.mark.expected_log("buggy.tick source failed", logger="studio.platform.host", level="ERROR")
def test_a_broken_source_ends_with_an_audit_entry() -> None:
    async def bad(emit: Emit, sleep: Sleep) -> None:
        await sleep(0.1)
        emit({"count": -1})  # breaks the payload schema

    module = PlatformModule(
        name="buggy",
        description="A module whose event source sends a bad payload.",
        calls={},
        events={
            "tick": PlatformEvent(
                "tick", "bad", obj({"count": {"type": "integer", "minimum": 0}}), source=bad
            )
        },
    )
    runtime = Runtime(spec(["buggy"]))

    async def go() -> PlatformHost:
        sleep = StepSleep()
        host = make_host(PlatformRegistry([module]), sleep)
        assert host.start_events(runtime) == ["buggy.tick"]
        sleep.release(1)
        await until(lambda: host.running_events == [])
        await host.aclose()
        return host

    host = asyncio.run(go())
    (entry,) = list(host.audit)
    assert entry["event"] == "buggy.tick" and entry["status"] == "error"
    assert entry["message"] == "buggy.tick: payload.count: -1 is less than the minimum of 0"
    assert [e for e in runtime.events if e.kind == "platform"] == []
