"""The device picker of the preview toolbar and the adb watcher behind it (on its own thread):
which phones adb sees, each listed with its state; "No phone found" or "adb unavailable" when
there is none, each leading to what to do."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QComboBox, QWidget

from studio.concurrency import TaskOwner, off_loop
from studio.device.adb import Adb, AdbUnavailable, DeviceInfo, DeviceState
from studio.ui.texts import BUILTIN_LABEL

log = logging.getLogger(__name__)

BUILTIN = ""  # the picker's data for the built-in preview
NO_PHONE = "\x00no-phone"  # the picker's data for "No phone found" (never a serial)
NO_PHONE_LABEL = "No phone found"
ADB_PROBLEM = "\x00adb"  # the picker's data for "adb unavailable"
ADB_PROBLEM_LABEL = "adb unavailable"
#: How long the watcher waits before asking adb again after the server went away.
WATCH_RETRY_S = 3.0
STATE_LABELS = {
    DeviceState.READY: "ready",
    DeviceState.UNAUTHORIZED: "unauthorized",
    DeviceState.OFFLINE: "offline",
    DeviceState.UNAVAILABLE: "unavailable",
    DeviceState.CTRLPROXY_MISSING: "CtrlProxy missing",
    DeviceState.CTRLPROXY_NOT_ENABLED: "not enabled",
}


def one_line(exc: BaseException | str) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:299] + "…"


def device_label(info: DeviceInfo) -> str:
    """ "Pixel 8 (SERIAL) · ready" — the picker's entry for one device."""
    name = f"{info.model} ({info.serial})" if info.model else info.serial
    if info.adb_state == "authorizing":
        return f"{name} · accept the prompt on the phone"
    return f"{name} · {STATE_LABELS.get(info.state, info.state.value)}"


# ---- the picker ----------------------------------------------------------------------------------


class DeviceTarget(QComboBox):
    """Where the prototype shows: "Built-in preview" or one adb device, listed with its state."""

    targetChanged = Signal(str)  # serial; "" = the built-in preview

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deviceTarget")
        self.setToolTip("Show the prototype in the built-in preview or on a phone (adb)")
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.devices: dict[str, DeviceInfo] = {}
        self.problem = ""
        self.listed = False  # adb has answered at least once
        self._rebuild(BUILTIN)
        self.currentIndexChanged.connect(self._on_index)

    def current_serial(self) -> str:
        data = self.currentData()
        return data if isinstance(data, str) else BUILTIN

    def labels(self) -> list[str]:
        return [self.itemText(i) for i in range(self.count())]

    def choose(self, serial: str) -> None:
        index = self.findData(serial)
        if index < 0:
            raise LookupError(f"no device {serial!r} in the picker")
        self.setCurrentIndex(index)

    def set_devices(self, infos: list[DeviceInfo]) -> None:
        self.devices = {i.serial: i for i in infos}
        self.problem = ""
        self.listed = True
        self._rebuild(self.current_serial())

    def set_problem(self, text: str) -> None:
        """adb cannot be reached: one entry says so (the reason in its tooltip), leading to how
        to get adb."""
        self.devices = {}
        self.problem = text
        self._rebuild(self.current_serial())

    def _rebuild(self, keep: str) -> None:
        self.blockSignals(True)
        try:
            self.clear()
            self.addItem(BUILTIN_LABEL, BUILTIN)
            for info in self.devices.values():
                self.addItem(device_label(info), info.serial)
                self.setItemData(self.count() - 1, info.detail, Qt.ItemDataRole.ToolTipRole)
            if self.problem:
                self.addItem(ADB_PROBLEM_LABEL, ADB_PROBLEM)
                self.setItemData(self.count() - 1, self.problem, Qt.ItemDataRole.ToolTipRole)
            elif self.listed and not self.devices:
                self.addItem(NO_PHONE_LABEL, NO_PHONE)
                self.setItemData(
                    self.count() - 1,
                    "Connect a phone with USB debugging on, or start an emulator",
                    Qt.ItemDataRole.ToolTipRole,
                )
            index = self.findData(keep) if keep else 0
            self.setCurrentIndex(max(index, 0))
        finally:
            self.blockSignals(False)
        if keep and index < 0:  # the chosen device went away: back to the built-in preview
            self.targetChanged.emit(BUILTIN)

    def _on_index(self, _index: int) -> None:
        self.targetChanged.emit(self.current_serial())


# ---- the watcher -------------------------------------------------------------------------------


class DeviceWatcher(QObject):
    """Runs the core's `Adb.watch_devices()` (adb server start included) on its own thread with its
    own asyncio loop, so no adb call ever blocks the GUI thread; lists arrive as queued signals."""

    devicesChanged = Signal(object)  # list[DeviceInfo]
    unavailable = Signal(str)  # one line: adb cannot be reached or started

    def __init__(
        self, adb: Adb, parent: QObject | None = None, *, retry_s: float = WATCH_RETRY_S
    ) -> None:
        super().__init__(parent)
        self.adb = adb
        self.retry_s = retry_s
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: TaskOwner | None = None  # made on the watcher's own loop
        self._current: asyncio.Task[None | None] | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self._thread is None and not self._stopping.is_set():
            self._thread = threading.Thread(target=self._run, name="adb-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(self._main())

    async def _main(self) -> None:
        tasks = TaskOwner("adb watch", report=self._failed)
        with self._lock:
            if self._stopping.is_set():
                return
            self._loop, self._tasks = asyncio.get_running_loop(), tasks
        try:
            while not self._stopping.is_set():  # a Refresh cancels the watch: start it again
                current = tasks.spawn(self._watch(), label="adb watch")
                with self._lock:
                    self._current = current
                with contextlib.suppress(asyncio.CancelledError):
                    await current
        finally:
            await tasks.aclose()

    def _failed(self, _label: str, exc: BaseException) -> None:
        log.info("adb device watch failed", exc_info=exc)
        self._emit(self.unavailable, f"adb: {one_line(exc)}")

    def refresh(self) -> None:
        """Ask adb again now (the Refresh button): the running watch is replaced by a new one."""
        self._cancel_current()
        if self._thread is None:
            self.start()

    def _cancel_current(self) -> None:
        with self._lock:
            loop, current = self._loop, self._current
        if loop is not None and current is not None:
            with contextlib.suppress(RuntimeError):  # its loop has already finished
                loop.call_soon_threadsafe(current.cancel)

    async def _watch(self) -> None:
        while True:
            try:
                async for infos in self.adb.watch_devices():
                    self._emit(self.devicesChanged, infos)
            except AdbUnavailable as exc:
                self._emit(self.unavailable, one_line(exc))
            except Exception as exc:  # adbutils/socket errors: say so, try again
                log.info("adb device watch failed", exc_info=True)
                self._emit(self.unavailable, f"adb: {one_line(exc)}")
            await asyncio.sleep(self.retry_s)

    def _emit(self, signal: Any, value: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the window was deleted meanwhile
            signal.emit(value)

    async def aclose(self) -> None:
        """Cancel the watch (closing adb's track-devices connection) and join the thread."""
        self._stopping.set()
        self._cancel_current()
        thread, self._thread = self._thread, None
        if thread is not None:
            await off_loop(thread.join, 10.0)
