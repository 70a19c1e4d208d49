"""The studio collects cyclic garbage on the GUI thread, never in a worker thread."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject

from studio.ui.gc import GuiThreadCollector


class _Cycle:
    def __init__(self) -> None:
        self.me = self
        self.qobject = QObject()
        self.qobject.destroyed.connect(self.record)
        self.destroyed_in: list[str] = []

    def record(self) -> None:
        self.destroyed_in.append(threading.current_thread().name)


def test_collector_disables_automatic_gc_and_collects_on_its_tick(qtbot: object) -> None:
    gc.enable()  # as in a fresh app; the collector must turn automatic collection off
    collector = GuiThreadCollector(interval_ms=10)
    collector.start()
    try:
        assert not gc.isenabled()
        seen: list[str] = []
        cycle = _Cycle()
        cycle.qobject.destroyed.connect(lambda: seen.append(threading.current_thread().name))
        del cycle
        # A worker thread allocating lots of objects does not trigger a collection.
        worker = threading.Thread(target=lambda: [[] for _ in range(200_000)], name="worker")
        worker.start()
        worker.join()
        assert seen == []
        qtbot.waitUntil(lambda: collector.check() >= 0 and gc.collect(2) >= 0 and bool(seen))  # type: ignore[attr-defined]
        assert seen == [threading.current_thread().name]
    finally:
        collector.stop()
    assert gc.isenabled()
    gc.disable()  # as the suite has it during Qt tests (tests/conftest.py)
