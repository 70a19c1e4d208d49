"""Module events in the studio: opening a prototype that requires `test` starts `test.tick` into the
preview (shown in its event log); switching prototypes, dropping the module or closing stops it.
The host's sleep is a fake the test steps, so no real time passes between ticks."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.platform.consent import ConsentBroker
from studio.platform.host import PlatformHost
from studio.platform.registry import default_registry
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

TICKING: dict[str, Any] = {
    "id": "ticking",
    "window": {"placement": {"type": "fullscreen"}},
    "requires": {"platform": ["test"]},
    "state": {},
    "root": {"type": "text", "id": "hello", "text": "Ticking"},
}
QUIET: dict[str, Any] = {**TICKING, "id": "quiet", "requires": {"platform": ["units"]}}


class StepSleep:
    """A fake `asyncio.sleep` for the host's event sources: each wait returns when released."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self._go: asyncio.Queue[None] = asyncio.Queue()

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await self._go.get()

    def release(self, times: int = 1) -> None:
        for _ in range(times):
            self._go.put_nowait(None)


class Hosts:
    """The studio's host factory: real hosts (default registry), each on the fake clock."""

    def __init__(self) -> None:
        self.registry = default_registry()
        self.broker = ConsentBroker()
        self.sleep = StepSleep()
        self.made: list[PlatformHost] = []

    def __call__(self, prototype_id: str) -> PlatformHost:
        host = PlatformHost(self.registry, self.broker, prototype_id=prototype_id, sleep=self.sleep)
        self.made.append(host)
        return host


def open_spec(studio: Studio, tmp_path: Path, spec: dict[str, Any]) -> None:
    path = tmp_path / f"{spec['id']}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    studio.controller.import_files([path])
    studio.settle()
    assert studio.controller.document is not None
    assert studio.controller.document.name == spec["id"]


def tick_lines(studio: Studio) -> list[str]:
    return [line for line in studio.window.preview_pane.log_lines() if "test.tick" in line]


def test_ticks_reach_the_event_log_and_stop_on_switch(
    qloop: Any, make_studio: Any, tmp_path: Path
) -> None:
    hosts = Hosts()
    studio = make_studio(host_factory=hosts)
    try:
        # The templates opened at start require no module: no host, no registry work.
        assert hosts.made == []
        open_spec(studio, tmp_path, TICKING)
        host = hosts.made[-1]
        assert host.prototype_id == studio.controller.document.entry_id  # type: ignore[union-attr]
        assert host.running_events == ["test.tick"]

        hosts.sleep.release(3)
        studio.wait_for(lambda: len(tick_lines(studio)) == 3)
        assert [line.split(" ", 1)[1] for line in tick_lines(studio)] == [
            'platform test.tick {"count": 1}',
            'platform test.tick {"count": 2}',
            'platform test.tick {"count": 3}',
        ]
        assert hosts.sleep.waits[:3] == [1.0, 1.0, 1.0]  # the module's 1000 ms, not waited

        # Another prototype: the first one's source is stopped; the new one has no events.
        open_spec(studio, tmp_path, QUIET)
        assert host.running_events == []
        runtime = studio.window.preview_pane.preview.runtime
        assert runtime is not None
        hosts.sleep.release(3)
        qloop.run_until_complete(asyncio.sleep(0.05))
        assert tick_lines(studio) == []
        assert not any(e.name == "test.tick" for e in runtime.events)
        quiet_host = hosts.made[-1]
        assert quiet_host is not host and quiet_host.running_events == []
    finally:
        studio.close()


def test_an_edit_that_drops_the_module_stops_its_events_and_close_stops_all(
    qloop: Any, make_studio: Any, tmp_path: Path
) -> None:
    hosts = Hosts()
    studio = make_studio(host_factory=hosts)
    closed = False
    try:
        open_spec(studio, tmp_path, QUIET)
        document = studio.controller.document
        assert document is not None
        host = hosts.made[-1]
        assert host.running_events == []

        # An edit that requires `test` starts its events in the same (kept) runtime.
        ticking = copy.deepcopy(document.spec)
        ticking["requires"] = {"platform": ["units", "test"]}
        document.replace_spec(ticking, summary="Require the test module")
        studio.settle()
        assert host.running_events == ["test.tick"]
        hosts.sleep.release(1)
        studio.wait_for(lambda: len(tick_lines(studio)) == 1)

        quiet = copy.deepcopy(ticking)
        quiet["requires"] = {"platform": ["units"]}
        document.replace_spec(quiet, summary="Drop the test module")
        studio.settle()
        assert host.running_events == []

        document.replace_spec(ticking, summary="Require the test module again")
        studio.settle()
        assert host.running_events == ["test.tick"]
        studio.close()
        closed = True
        assert host.running_events == []
    finally:
        if not closed:
            studio.close()
