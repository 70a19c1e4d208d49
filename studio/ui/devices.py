"""Phones in the studio window: the device picker of the preview toolbar, the adb watcher behind it
(on its own thread), the guidance for devices that are not ready, and the session that shows the
open prototype natively on a ready phone and mirrors its screen into the centre of the window."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import threading
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.device.adb import (
    CTRLPROXY_PACKAGE,
    Adb,
    AdbUnavailable,
    DeviceInfo,
    DeviceState,
    ctrlproxy_enable_commands,
)

if TYPE_CHECKING:
    from studio.device.ctrlproxy import DeviceShow
    from studio.device.mirror import Mirror, Source
    from studio.ui.mirror import MirrorView
    from studio.ui.preview_pane import PreviewPane

log = logging.getLogger(__name__)

BUILTIN = ""  # the picker's data for the built-in preview
BUILTIN_LABEL = "Built-in preview"
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
    return f"{name} · {STATE_LABELS.get(info.state, info.state.value)}"


def guidance_for(info: DeviceInfo, services: str | None = None) -> tuple[str, str, list[str]]:
    """(title, what to do, the exact adb commands) for a device that cannot show prototypes.

    `services` is the device's current `enabled_accessibility_services` (the enable command keeps
    them); None while it is being read."""
    s = shlex.quote(info.serial)
    name = info.model or info.serial
    if info.state is DeviceState.UNAUTHORIZED:
        return (
            f"{name} has not allowed USB debugging",
            info.detail + " If no prompt shows, reconnect and check again:",
            [f"adb -s {s} reconnect", "adb devices -l"],
        )
    if info.state is DeviceState.OFFLINE:
        return (f"{name} is offline", info.detail, [f"adb -s {s} reconnect", "adb devices -l"])
    if info.state is DeviceState.CTRLPROXY_MISSING:
        return (
            f"CtrlProxy is missing on {name}",
            info.detail,
            [
                f"adb -s {s} shell pm path {CTRLPROXY_PACKAGE}",
                f"adb -s {s} install -r <AutoMobile's CtrlProxy APK>",
                *ctrlproxy_enable_commands(info.serial, services or "")[1:],
            ],
        )
    if info.state is DeviceState.CTRLPROXY_NOT_ENABLED:
        detail = (
            "CtrlProxy is installed but its accessibility service is off. Enable it in Settings > "
            "Accessibility, or with these adb commands (they keep the services already enabled; "
            "retail phones may refuse `settings put`). Unlock the phone: a locked device does not "
            "bind the service."
        )
        if services is None:
            return (f"CtrlProxy is not enabled on {name}", detail, ["(reading the device…)"])
        return (
            f"CtrlProxy is not enabled on {name}",
            detail,
            ctrlproxy_enable_commands(info.serial, services),
        )
    if info.state is DeviceState.UNAVAILABLE:
        return (f"{name} is not available", info.detail, ["adb devices -l"])
    return (f"{name} is ready", info.detail, [])


def locked_guidance(info: DeviceInfo, error: str) -> tuple[str, str, list[str]]:
    """A ready device whose CtrlProxy does not answer: usually locked, or the service not bound."""
    s = shlex.quote(info.serial)
    return (
        f"CtrlProxy on {info.model or info.serial} did not answer",
        f"{error} Unlock the phone (a locked device does not bind CtrlProxy's service) and check "
        "that the service is enabled, then Retry:",
        [
            f"adb -s {s} shell input keyevent KEYCODE_WAKEUP",
            f"adb -s {s} shell wm dismiss-keyguard",
            f"adb -s {s} shell settings get secure enabled_accessibility_services",
            f'adb -s {s} shell "dumpsys accessibility | grep -i ctrlproxy"',
        ],
    )


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
        self._rebuild(self.current_serial())

    def update_device(self, info: DeviceInfo) -> None:
        if info.serial in self.devices:
            self.devices[info.serial] = info
            self._rebuild(self.current_serial())

    def set_problem(self, text: str) -> None:
        """adb cannot be reached: one disabled entry says so (the reason in its tooltip)."""
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
                self.addItem("adb unavailable", None)
                self.setItemData(self.count() - 1, self.problem, Qt.ItemDataRole.ToolTipRole)
                item = cast(QStandardItemModel, self.model()).item(self.count() - 1)
                item.setEnabled(False)
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
        self._task: asyncio.Task[None] | None = None

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
        with self._lock:
            if self._stopping.is_set():
                return
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
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
        with self._lock:
            if self._loop is not None and self._task is not None:
                with contextlib.suppress(RuntimeError):  # its loop has already finished
                    self._loop.call_soon_threadsafe(self._task.cancel)
        thread, self._thread = self._thread, None
        if thread is not None:
            await asyncio.to_thread(thread.join, 10.0)


# ---- the centre page in device mode -----------------------------------------------------------


class GuidancePanel(QWidget):
    """What to do about a device that cannot show prototypes: the exact adb commands (copyable),
    Retry, and for a disabled CtrlProxy "Enable with adb"."""

    retryRequested = Signal()
    enableRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deviceGuidance")
        self.title = QLabel(self)
        self.title.setObjectName("deviceGuidanceTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.detail = QLabel(self)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.commands = QPlainTextEdit(self)
        self.commands.setObjectName("deviceCommands")
        self.commands.setReadOnly(True)
        self.commands.setMaximumHeight(110)
        self.copy_button = QPushButton("Copy commands", self)
        self.enable_button = QPushButton("Enable with adb", self)
        self.enable_button.setToolTip("Run the settings commands now (emulators, rooted phones)")
        self.retry_button = QPushButton("Retry", self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.enable_button)
        buttons.addStretch(1)
        buttons.addWidget(self.retry_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addWidget(self.commands)
        layout.addLayout(buttons)
        self.copy_button.clicked.connect(self.copy_commands)
        self.retry_button.clicked.connect(self.retryRequested)
        self.enable_button.clicked.connect(self.enableRequested)

    def set_guidance(
        self, title: str, detail: str, commands: list[str], *, can_enable: bool = False
    ) -> None:
        self.title.setText(title)
        self.detail.setText(detail)
        self.commands.setPlainText("\n".join(commands))
        self.commands.setVisible(bool(commands))
        self.copy_button.setVisible(bool(commands))
        self.enable_button.setVisible(can_enable)

    def command_lines(self) -> list[str]:
        return [line for line in self.commands.toPlainText().splitlines() if line]

    def copy_commands(self) -> None:
        QGuiApplication.clipboard().setText(self.commands.toPlainText())


class DevicePage(QWidget):
    """The preview's device mode: the device's name, a banner for refusals and warnings, the
    guidance panel and the mirrored screen."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("devicePage")
        self.header = QLabel(self)
        self.header.setObjectName("deviceHeader")
        self.banner = QLabel(self)
        self.banner.setObjectName("deviceBanner")
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.setStyleSheet(
            "QLabel#deviceBanner { background: #7a3e00; color: white; padding: 6px; }"
        )
        self.banner.hide()
        self.guidance = GuidancePanel(self)
        self.guidance.hide()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(4, 4, 4, 4)
        self._layout.addWidget(self.header)
        self._layout.addWidget(self.banner)
        self._layout.addWidget(self.guidance)
        self._layout.addStretch(1)
        self.mirror: MirrorView | None = None

    def set_header(self, text: str) -> None:
        self.header.setText(text)

    def set_banner(self, lines: list[str]) -> None:
        self.banner.setText("\n".join(lines))
        self.banner.setVisible(bool(lines))

    def banner_lines(self) -> list[str]:
        return self.banner.text().splitlines() if self.banner.isVisibleTo(self) else []

    def show_guidance(
        self, guidance: tuple[str, str, list[str]], *, can_enable: bool = False
    ) -> None:
        self.guidance.set_guidance(*guidance, can_enable=can_enable)
        self.guidance.show()

    def hide_guidance(self) -> None:
        self.guidance.hide()

    def set_mirror(self, view: MirrorView | None) -> None:
        """Put a session's mirror in the page (None takes it out; the session deletes it)."""
        if self.mirror is not None:
            self._layout.removeWidget(self.mirror)
            self.mirror.hide()
            self.mirror.setParent(None)
        self.mirror = view
        stretch = self._layout.itemAt(self._layout.count() - 1)
        if view is not None:
            if stretch is not None and stretch.spacerItem() is not None:
                self._layout.removeItem(stretch)
            self._layout.addWidget(view, 1)
            view.show()
        elif stretch is None or stretch.spacerItem() is None:
            self._layout.addStretch(1)


# ---- one chosen device -------------------------------------------------------------------------


class DeviceSession(QObject):
    """A ready phone showing the open prototype: DeviceShow (show, re-show in place with the
    device's state merged, dismiss), the Mirror into a MirrorView, taps and swipes sent back.

    Specs are applied one at a time, newest wins (a burst of edits is one re-show)."""

    deviceEvent = Signal(object)  # a CtrlProxy prototype_event frame (dict)
    shown = Signal(str)  # one line: shown / re-shown (and any warning)
    refused = Signal(list)  # reasons, one line each, naming the spec place
    failed = Signal(str)  # CtrlProxy could not be reached (guidance shows)

    def __init__(
        self,
        adb: Adb,
        info: DeviceInfo,
        parent: QObject | None = None,
        *,
        sources: list[Source] | None = None,
    ) -> None:
        from studio.device.mirror import DeviceInput
        from studio.ui.mirror import MirrorView

        super().__init__(parent)
        self.adb, self.info, self.serial = adb, info, info.serial
        self.view = MirrorView()
        self.view.setObjectName("deviceMirror")
        if info.screen_size:
            self.view.set_device_size(*info.screen_size)
        self.view.attach_input(DeviceInput(adb, info.serial))
        self._sources = sources
        self.mirror: Mirror | None = None  # made by the show loop (finding scrcpy touches files)
        self.device_show: DeviceShow | None = None
        self.shows = 0  # successful shows and re-shows
        self._wanted: dict[str, Any] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self, after: asyncio.Future[Any] | None = None) -> None:
        """Start mirroring and the show loop (after `after`, e.g. a previous session's close)."""
        self._wake.set()  # connect to CtrlProxy at once, even with no prototype open
        self._task = asyncio.get_event_loop().create_task(self._run(after))

    def update(self, spec: dict[str, Any] | None) -> None:
        """Show this spec (None: dismiss) as soon as the previous show is done."""
        self._wanted = spec
        self._wake.set()

    def retry(self) -> None:
        self._wake.set()

    async def _run(self, after: asyncio.Future[Any] | None) -> None:
        from studio.device.mirror import Mirror, default_sources

        if after is not None:
            await asyncio.gather(after, return_exceptions=True)
        sources = self._sources
        if sources is None:
            sources = await asyncio.to_thread(default_sources, self.adb, self.serial)
        self.mirror = Mirror(sources, self.view.frame_sink, self.view.status_sink)
        self.mirror.start()
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._sync(self._wanted)

    async def _sync(self, spec: dict[str, Any] | None) -> None:
        from studio.device.ctrlproxy import CtrlProxyError, DeviceShow, ShowRefused

        try:
            if self.device_show is None:
                self.device_show = DeviceShow(self.adb, self.serial, self.deviceEvent.emit)
                await self.device_show.open()
            show = self.device_show
            if spec is None:
                await show.dismiss()
                return
            again = show.prototype_id is not None and show.prototype_id == str(spec.get("id"))
            show.warnings.clear()
            if show.prototype_id is None:
                await show.show(spec)
            else:
                await show.apply_edit(spec)
            self.shows += 1
            verb = "Re-shown" if again else "Showing"
            extra = f" ({'; '.join(show.warnings)})" if show.warnings else ""
            self.shown.emit(f"{verb} {spec.get('id')!r} on {self.serial}{extra}")
        except ShowRefused as exc:
            self.refused.emit(list(exc.reasons))
        except CtrlProxyError as exc:
            show_ = self.device_show
            if show_ is not None and show_.client is not None and show_.client.connected:
                self.failed.emit(one_line(exc))  # e.g. the device rejected the spec
                return
            await self._drop_show()
            self.failed.emit(one_line(exc))
        except Exception as exc:  # adbutils.AdbError (forward refused ...), socket errors
            log.info("showing on %s failed", self.serial, exc_info=True)
            await self._drop_show()
            self.failed.emit(f"{type(exc).__name__}: {one_line(exc)}")

    async def _drop_show(self) -> None:
        show, self.device_show = self.device_show, None
        if show is not None:
            with contextlib.suppress(Exception):  # already half gone: nothing left to dismiss
                await show.close()

    async def aclose(self) -> None:
        """Stop showing (dismiss on the device), close the socket and forward, stop the mirror."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        show, self.device_show = self.device_show, None
        if show is not None:
            try:
                await show.close()
            except Exception:  # the device went away: nothing left to dismiss
                log.info("closing the device show failed", exc_info=True)
        if self.mirror is not None:
            await self.mirror.astop()
        with contextlib.suppress(RuntimeError):  # already deleted with the window
            self.view.close()  # cancels taps still in flight
            self.view.deleteLater()


# ---- the window's device support ---------------------------------------------------------------


class DeviceManager(QObject):
    """Ties the picker, the watcher, the device page and one DeviceSession to the preview pane.

    `show_spec`/`clear_spec` follow the open prototype (the window connects them to the
    controller); every task is kept and `aclose()` stops everything."""

    statusMessage = Signal(str)
    errorMessage = Signal(str)
    sessionStarted = Signal(object)  # DeviceSession

    def __init__(self, pane: PreviewPane, adb: Adb | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pane = pane
        self.adb = adb
        self.picker = DeviceTarget(pane)
        pane.toolbar.insertWidget(0, self.picker)
        self.page = DevicePage(pane)
        self.page.hide()
        self.watcher = DeviceWatcher(adb, self) if adb is not None else None
        self.session: DeviceSession | None = None
        self.spec: dict[str, Any] | None = None
        self._services: dict[str, str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closers: set[asyncio.Task[Any]] = set()
        self._closing: asyncio.Task[Any] | None = None
        self._closed = False
        if adb is None:
            self.picker.setToolTip("Phones are not available in this window (no adb client)")
        self.picker.targetChanged.connect(self._apply_target)
        self.page.guidance.retryRequested.connect(self.retry)
        self.page.guidance.enableRequested.connect(self.enable_ctrlproxy)
        if self.watcher is not None:
            self.watcher.devicesChanged.connect(self._on_devices)
            self.watcher.unavailable.connect(self._on_unavailable)

    def start(self) -> None:
        if self.watcher is not None:
            self.watcher.start()

    # ---- the open prototype ----------------------------------------------------------------
    def show_spec(self, spec: dict[str, Any], *_changed: Any) -> None:
        """The open prototype was opened or edited (revision, undo, redo)."""
        self.spec = spec
        if self.session is not None:
            self.session.update(spec)

    def clear_spec(self) -> None:
        """No prototype is open any more: dismiss it on the device."""
        self.spec = None
        if self.session is not None:
            self.session.update(None)

    # ---- devices -------------------------------------------------------------------------------
    def _on_devices(self, infos: list[DeviceInfo]) -> None:
        chosen = self.picker.current_serial()
        self.picker.set_devices(infos)  # emits targetChanged("") if the chosen one left
        serial = self.picker.current_serial()
        if serial:
            self._apply_target(serial)
        elif chosen:
            self.errorMessage.emit(f"{chosen} was disconnected; back to the built-in preview")

    def _on_unavailable(self, reason: str) -> None:
        self.picker.set_problem(reason)
        self.errorMessage.emit(f"Devices: {reason}")

    def _apply_target(self, serial: str) -> None:
        info = self.picker.devices.get(serial) if serial else None
        if info is None:
            self._end_session()
            self.pane.show_device(None)
            return
        self.page.set_header(_header(info))
        self.pane.show_device(self.page)
        if info.state is DeviceState.READY:
            if self.session is None or self.session.serial != serial:
                self._end_session()
                self.page.hide_guidance()
                self._begin_session(info)
            return
        self._end_session()
        self._show_guidance(info)

    def _show_guidance(self, info: DeviceInfo) -> None:
        services = self._services.get(info.serial)
        not_enabled = info.state is DeviceState.CTRLPROXY_NOT_ENABLED
        self.page.show_guidance(guidance_for(info, services), can_enable=not_enabled)
        needs_services = info.state in (
            DeviceState.CTRLPROXY_NOT_ENABLED,
            DeviceState.CTRLPROXY_MISSING,
        )
        if needs_services and services is None:
            self._spawn(self._read_services(info))

    async def _read_services(self, info: DeviceInfo) -> None:
        assert self.adb is not None
        text = await self.adb.shell(
            info.serial, "settings get secure enabled_accessibility_services"
        )
        self._services[info.serial] = text.strip()
        current = self.picker.devices.get(info.serial)
        chosen = self.picker.current_serial() == info.serial and self.session is None
        if chosen and current is not None and current.state is not DeviceState.READY:
            self._show_guidance(current)

    def _begin_session(self, info: DeviceInfo) -> None:
        assert self.adb is not None
        session = DeviceSession(self.adb, info, self)
        session.deviceEvent.connect(lambda frame: self.pane.log_event(frame, origin="device"))
        session.shown.connect(self._on_shown)
        session.refused.connect(self._on_refused)
        session.failed.connect(self._on_failed)
        self.session = session
        self.page.set_banner([])
        self.page.set_mirror(session.view)
        session.start(after=self._closing)
        if self.spec is not None:
            session.update(self.spec)
        self.sessionStarted.emit(session)

    def _end_session(self) -> None:
        session, self.session = self.session, None
        if session is None:
            return
        with contextlib.suppress(RuntimeError):  # the page was deleted with the window
            self.page.set_banner([])
            self.page.set_mirror(None)
            self.page.hide_guidance()
        closer = asyncio.get_event_loop().create_task(self._close_session(session))
        self._closers.add(closer)
        closer.add_done_callback(self._closers.discard)
        self._closing = closer

    async def _close_session(self, session: DeviceSession) -> None:
        try:
            await session.aclose()
        finally:
            with contextlib.suppress(RuntimeError):  # already deleted with the window
                session.deleteLater()

    def _on_shown(self, message: str) -> None:
        self.page.set_banner([])
        self.page.hide_guidance()
        self.statusMessage.emit(message)

    def _on_refused(self, reasons: list[str]) -> None:
        serial = self.session.serial if self.session else ""
        self.page.set_banner([f"Not shown on {serial}:", *reasons])
        self.errorMessage.emit(f"Not shown on {serial}: {'; '.join(reasons)}")

    def _on_failed(self, message: str) -> None:
        session = self.session
        if session is None:
            return
        self.page.show_guidance(locked_guidance(session.info, message))
        self.errorMessage.emit(f"{session.serial}: {message}")

    # ---- guidance buttons ------------------------------------------------------------------
    def retry(self) -> None:
        """Try again: reconnect CtrlProxy for a ready device, probe a device that was not ready."""
        if self.session is not None:
            self.page.hide_guidance()
            self.session.retry()
            return
        serial = self.picker.current_serial()
        if serial and self.adb is not None:
            self._services.pop(serial, None)
            self._spawn(self._reprobe(serial, enable=False))

    def enable_ctrlproxy(self) -> None:
        serial = self.picker.current_serial()
        if serial and self.adb is not None:
            self._spawn(self._reprobe(serial, enable=True))

    async def _reprobe(self, serial: str, *, enable: bool) -> None:
        assert self.adb is not None
        if enable:
            info = await self.adb.enable_ctrlproxy(serial)
        else:
            info = await self.adb.probe(serial)
        self.picker.update_device(info)
        if info.state is not DeviceState.READY:
            self.statusMessage.emit(f"{serial}: still {STATE_LABELS.get(info.state, '')}")
        if self.picker.current_serial() == serial:
            self._apply_target(serial)

    # ---- tasks ------------------------------------------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_event_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            assert exc is not None
            with contextlib.suppress(RuntimeError):
                self.errorMessage.emit(f"Devices: {one_line(exc)}")

    async def idle(self) -> None:
        """Wait for the probes and closes started so far (tests)."""
        while pending := [t for t in (*self._tasks, *self._closers) if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def aclose(self) -> None:
        """Stop watching, dismiss on the device and stop mirroring; cancel every task."""
        if self._closed:
            return
        self._closed = True
        if self.watcher is not None:
            await self.watcher.aclose()
        self._end_session()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *list(self._closers), return_exceptions=True)


def _header(info: DeviceInfo) -> str:
    parts = [info.model or info.serial, info.serial if info.model else ""]
    if info.android_version:
        parts.append(f"Android {info.android_version}")
    if info.screen_size:
        parts.append(f"{info.screen_size[0]}×{info.screen_size[1]}")
    parts.append(STATE_LABELS.get(info.state, info.state.value))
    return " · ".join(p for p in parts if p)
