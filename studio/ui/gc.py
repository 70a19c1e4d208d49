"""Garbage collection on the GUI thread only (qutebrowser's pattern).

Python's cyclic collector runs in whichever thread happens to allocate. When a cycle holds a Qt
object (a widget kept alive by a lambda, a QObject in a closure) and a worker thread (the library
executor, httpx, keyring) triggers the collection, the object is destroyed off the GUI thread:
Qt then warns ("Timers cannot be stopped from another thread") or crashes. So the studio turns
automatic collection off and collects from a QTimer on the GUI thread instead.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000


class GuiThreadCollector(QObject):
    """Disables automatic collection and runs the collector from the GUI thread's event loop:
    the youngest generation each tick, older ones when their thresholds say so."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        gc.enable()

    def check(self) -> int:
        """One collection step; returns how many objects were unreachable."""
        counts = gc.get_count()
        t0, t1, t2 = self._thresholds
        if counts[2] > t2 and counts[1] > t1:
            return gc.collect(2)
        if counts[1] > t1:
            return gc.collect(1)
        if counts[0] > t0:
            return gc.collect(0)
        return 0
