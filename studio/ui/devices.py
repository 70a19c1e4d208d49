"""Phones in the studio window: DeviceManager ties the picker and its adb watcher
(device_picker), the device page and its guidance (device_guidance) and one DeviceSession
(device_session) to the preview pane and the open prototype. The window imports from here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from studio.device.adb import Adb, DeviceInfo, DeviceState
from studio.ui.device_guidance import (
    DevicePage,
    GuidancePanel,
    device_header,
    guidance_for,
    locked_guidance,
)
from studio.ui.device_picker import (
    BUILTIN,
    BUILTIN_LABEL,
    STATE_LABELS,
    WATCH_RETRY_S,
    DeviceTarget,
    DeviceWatcher,
    device_label,
    one_line,
)
from studio.ui.device_session import AssetLoader, DeviceSession

if TYPE_CHECKING:
    from studio.device.ctrlproxy import Asset
    from studio.library.store import Library
    from studio.ui.preview_pane import PreviewPane

__all__ = [
    "BUILTIN",
    "BUILTIN_LABEL",
    "STATE_LABELS",
    "WATCH_RETRY_S",
    "DeviceManager",
    "DevicePage",
    "DeviceSession",
    "DeviceTarget",
    "DeviceWatcher",
    "GuidancePanel",
    "device_label",
    "guidance_for",
    "locked_guidance",
    "one_line",
]

log = logging.getLogger(__name__)

FOLLOWS_DEVICE_THEME = (
    "{serial} follows its own light/dark theme: its CtrlProxy has no prototype_appearance_v1"
)


# ---- the window's device support ---------------------------------------------------------------


class DeviceManager(QObject):
    """Ties the picker, the watcher, the device page and one DeviceSession to the preview pane.

    `show_spec`/`clear_spec` follow the open prototype (the window connects them to the
    controller); the open entry's assets go to the phone with it, read from `library`, and the
    preview's Light/Dark/System choice follows as the show's `appearance`. `library` and
    `entry_id()` (the open entry) come from the composition root. Every task is kept and
    `aclose()` stops everything."""

    statusMessage = Signal(str)
    errorMessage = Signal(str)
    sessionStarted = Signal(object)  # DeviceSession

    def __init__(
        self,
        pane: PreviewPane,
        adb: Adb | None,
        parent: QObject | None = None,
        *,
        library: Library | None = None,
        entry_id: Callable[[], str | None] = lambda: None,
    ) -> None:
        super().__init__(parent)
        self.pane = pane
        self.adb = adb
        self.library = library
        self._entry_id = entry_id
        self._told_theme: set[str] = set()  # serials told they follow their own theme
        self._theme_note = ""  # that, for the next "Showing ..." message
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
        pane.theme_combo.currentIndexChanged.connect(self._on_theme)
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
            self.session.update(spec, self._asset_loader())

    def clear_spec(self) -> None:
        """No prototype is open any more: dismiss it on the device."""
        self.spec = None
        if self.session is not None:
            self.session.update(None)

    def _asset_loader(self) -> AssetLoader | None:
        """Reads the open entry's assets as CtrlProxy takes them (called off the GUI thread)."""
        library, entry_id = self.library, self._entry_id()
        if library is None or not entry_id:
            return None

        def load() -> dict[str, Asset]:
            from studio.device.ctrlproxy import Asset

            return {key: Asset(a.mime, a.data) for key, a in library.load_assets(entry_id).items()}

        return load

    def theme(self) -> str:
        """The preview's theme choice: "light", "dark" or "system"."""
        value = self.pane.theme_combo.currentData()
        return value if isinstance(value, str) else "system"

    def _on_theme(self, _index: int) -> None:
        if self.session is not None:
            self.session.set_theme(self.theme())

    def _on_follows_device_theme(self, showing: bool) -> None:
        """Say once per device that it keeps its own theme: with the show's message when a show
        follows (it would replace this one in the status bar), else now."""
        session = self.session
        if session is None or session.serial in self._told_theme:
            return
        self._told_theme.add(session.serial)
        note = FOLLOWS_DEVICE_THEME.format(serial=session.serial)
        if showing:
            self._theme_note = note
        else:
            self.statusMessage.emit(note)

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
        self.page.set_header(device_header(info))
        self.pane.show_device(self.page)
        self.pane.theme_combo.setEnabled(True)  # the theme also goes to the phone
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
        session = DeviceSession(self.adb, info, self, theme=self.theme())
        session.deviceEvent.connect(lambda frame: self.pane.log_event(frame, origin="device"))
        session.shown.connect(self._on_shown)
        session.refused.connect(self._on_refused)
        session.failed.connect(self._on_failed)
        session.followsDeviceTheme.connect(self._on_follows_device_theme)
        self.session = session
        self.page.set_banner([])
        self.page.set_mirror(session.view)
        session.start(after=self._closing)
        if self.spec is not None:
            session.update(self.spec, self._asset_loader())
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
        note, self._theme_note = self._theme_note, ""
        self.statusMessage.emit(f"{message}. {note}" if note else message)

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
        """Probe again (after enabling); the watcher gets the result from `Adb.reprobe` and the
        picker and page follow its new list."""
        assert self.adb is not None
        if enable:
            info = await self.adb.enable_ctrlproxy(serial)
        else:
            info = await self.adb.reprobe(serial)
        if info.state is not DeviceState.READY:
            self.statusMessage.emit(f"{serial}: still {STATE_LABELS.get(info.state, '')}")

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
