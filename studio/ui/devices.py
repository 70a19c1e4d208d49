"""Phones in the studio window: DeviceManager ties the picker and its adb watcher
(device_picker), the device page and its guidance (device_guidance) and one DeviceSession
(device_session) to the preview pane and the open prototype; it offers AutoMobile's downloads
(CtrlProxy, the video server) and installs CtrlProxy. The window imports from here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from studio.concurrency import TaskOwner, off_loop
from studio.device.adb import Adb, DeviceInfo, DeviceState
from studio.device.releases import (
    DEFAULT_BASE_URL,
    Asset,
    DownloadCancelled,
    DownloadError,
    Releases,
    human_size,
)
from studio.ui.device_guidance import (
    RELEASES_URL,
    DevicePage,
    DownloadOffer,
    GuidancePanel,
    adb_missing_guidance,
    device_header,
    guidance_for,
    locked_guidance,
    no_phone_guidance,
    update_guidance,
)
from studio.ui.device_picker import (
    ADB_PROBLEM,
    BUILTIN,
    BUILTIN_LABEL,
    NO_PHONE,
    NO_PHONE_LABEL,
    STATE_LABELS,
    WATCH_RETRY_S,
    DeviceTarget,
    DeviceWatcher,
    device_label,
    one_line,
)
from studio.ui.device_session import DISMISS_REASONS, AssetLoader, DeviceSession

if TYPE_CHECKING:
    from studio.device.ctrlproxy import Asset as DeviceAsset
    from studio.library.store import Library
    from studio.ui.preview_pane import PreviewPane

__all__ = [
    "BUILTIN",
    "BUILTIN_LABEL",
    "NO_PHONE",
    "NO_PHONE_LABEL",
    "STATE_LABELS",
    "WATCH_RETRY_S",
    "DeviceManager",
    "DevicePage",
    "DeviceSession",
    "DeviceTarget",
    "DeviceWatcher",
    "DownloadFlow",
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


def _default_releases() -> Releases:
    """AutoMobile's GitHub releases, or the mirror PROTO_STUDIO_AUTOMOBILE_ASSET_BASE_URL names
    (a mirror that is not https is refused with a warning, and GitHub used)."""
    try:
        return Releases()
    except DownloadError as exc:
        log.warning("%s; downloading from %s instead", exc, DEFAULT_BASE_URL)
        return Releases(base_url=DEFAULT_BASE_URL)


class DownloadFlow(QObject):
    """One download offered in a DownloadOffer: the first click asks for the size, the second
    downloads (off the GUI thread, with progress and Cancel); `then(path)` runs with the verified
    file. Nothing is downloaded without the user's click."""

    progressed = Signal(int, object)  # emitted from the download thread: queued to the GUI

    def __init__(
        self,
        offer: DownloadOffer,
        releases: Releases,
        asset: Asset,
        then: Callable[[Path], Awaitable[None]],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        *,
        what: str,
        action: str,
    ) -> None:
        super().__init__(offer)
        self.offer, self.releases, self.asset = offer, releases, asset
        self._then, self._spawn = then, spawn
        self.what, self.action = what, action
        self.size: int | None = None
        self._asked = False
        self._cancel = threading.Event()
        self.busy = False
        offer.accepted.connect(self._on_accept)
        offer.cancelled.connect(self._cancel.set)
        self.progressed.connect(offer.set_progress)
        offer.idle(f"{what}: {asset.title} from {asset.host}.", "Download…")

    def _on_accept(self) -> None:
        if self.busy:
            return
        self.busy = True
        if not self._asked:
            self.offer.running(f"Asking {self.asset.host} for the size of {self.asset.file}…")
            self._spawn(self._ask_size())
        else:
            self._cancel.clear()
            self.offer.running(f"Downloading {self.asset.title} ({human_size(self.size)})…")
            self._spawn(self._download())

    async def _ask_size(self) -> None:
        try:
            self.size = await off_loop(self.releases.size, self.asset)
        except Exception as exc:
            self.offer.idle(f"{self.what}: {one_line(exc)}", "Try again")
            return
        finally:
            self.busy = False
        self._asked = True
        self.offer.idle(
            f"{self.what}: {self.asset.title}, {human_size(self.size)} from {self.asset.host}. It "
            "is checked against the sha256 pinned in the studio before it is used.",
            f"{self.action} ({human_size(self.size)})",
        )

    async def _download(self) -> None:
        try:
            path = await off_loop(
                self.releases.download, self.asset, self.progressed.emit, self._cancel
            )
        except DownloadCancelled:
            self.offer.idle(f"{self.what}: cancelled; nothing was kept.", f"{self.action}")
            return
        except Exception as exc:  # DownloadError: one line, nothing kept
            self.offer.idle(one_line(exc), "Try again")
            return
        finally:
            self.busy = False
        self.offer.running(f"{self.asset.title} downloaded and verified…")
        try:
            await self._then(path)
        except Exception as exc:
            self.offer.idle(one_line(exc), "Try again")
            raise


# ---- the window's device support ---------------------------------------------------------------


class DeviceManager(QObject):
    """Ties the picker, the watcher, the device page and one DeviceSession to the preview pane.

    `show_spec`/`clear_spec` follow the open prototype (the window connects them to the
    controller); the open entry's assets go to the phone with it, read from `library`, and the
    preview's Light/Dark/System choice follows as the show's `appearance`. `library` and
    `entry_id()` (the open entry) come from the composition root. `releases` is where
    AutoMobile's downloads come from (default: GitHub). Every task is kept and `aclose()` stops
    everything."""

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
        releases: Releases | None = None,
    ) -> None:
        super().__init__(parent)
        self.pane = pane
        self.adb = adb
        self.library = library
        self._entry_id = entry_id
        self.releases = releases or _default_releases()
        self._told_theme: set[str] = set()  # serials told they follow their own theme
        self._theme_note = ""  # that, for the next "Showing ..." message
        self.picker = DeviceTarget(pane)
        pane.add_leading(self.picker)
        self.page = DevicePage(pane)
        self.page.hide()
        self.watcher = DeviceWatcher(adb, self) if adb is not None else None
        self.session: DeviceSession | None = None
        self.spec: dict[str, Any] | None = None
        self._services: dict[str, str] = {}
        self._tasks = TaskOwner("devices", report=self._task_failed)
        self._closers = TaskOwner("device closes", report=self._task_failed)
        self._closing: asyncio.Task[Any] | None = None
        self._closed = False
        self.apk_flow: DownloadFlow | None = None
        self.jar_flow: DownloadFlow | None = None
        self._video_jar: Path | None = None  # verified, for every session from now on
        if adb is None:
            self.picker.setToolTip("Phones are not available in this window (no adb client)")
        self.picker.targetChanged.connect(self._apply_target)
        self.page.guidance.retryRequested.connect(self.retry)
        self.page.guidance.enableRequested.connect(self.enable_ctrlproxy)
        self.page.guidance.installRequested.connect(self.install_ctrlproxy)
        self.page.showAgainRequested.connect(self._show_again)
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

        def load() -> dict[str, DeviceAsset]:
            from studio.device.ctrlproxy import Asset as DeviceAsset

            return {
                key: DeviceAsset(a.mime, a.data) for key, a in library.load_assets(entry_id).items()
            }

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
        if serial in (NO_PHONE, ADB_PROBLEM) or serial:
            self._apply_target(serial)
        elif chosen and chosen not in (NO_PHONE, ADB_PROBLEM):
            self.errorMessage.emit(f"{chosen} was disconnected; back to the built-in preview")

    def _on_unavailable(self, reason: str) -> None:
        self.picker.set_problem(reason)
        self.errorMessage.emit(f"Devices: {reason}")
        if self.picker.current_serial() == ADB_PROBLEM:
            self._apply_target(ADB_PROBLEM)

    def _apply_target(self, serial: str) -> None:
        if serial in (NO_PHONE, ADB_PROBLEM):
            self._end_session()
            self.page.set_header(NO_PHONE_LABEL if serial == NO_PHONE else "adb")
            self.page.set_capabilities(None)
            self.pane.show_device(self.page)
            if serial == ADB_PROBLEM:
                self.page.show_guidance(adb_missing_guidance(self.picker.problem))
            else:
                self.page.show_guidance(no_phone_guidance("(looking it up…)"))
                self._spawn(self._describe_adb())
            return
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

    async def _describe_adb(self) -> None:
        if self.adb is None:
            return
        where = await off_loop(self.adb.server.describe)
        if self.picker.current_serial() == NO_PHONE:
            self.page.show_guidance(no_phone_guidance(where))

    def _show_guidance(self, info: DeviceInfo) -> None:
        services = self._services.get(info.serial)
        self.page.show_guidance(guidance_for(info, services))
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
        session = DeviceSession(self.adb, info, self, theme=self.theme(), video_jar=self._video_jar)
        session.deviceEvent.connect(lambda frame: self.pane.log_event(frame, origin="device"))
        session.shown.connect(self._on_shown)
        session.refused.connect(self._on_refused)
        session.rejected.connect(self._on_rejected)
        session.failed.connect(self._on_failed)
        session.connected.connect(self._on_connected)
        session.dismissedOnPhone.connect(self._on_dismissed)
        session.phoneState.connect(self.page.set_phone_state)
        session.followsDeviceTheme.connect(self._on_follows_device_theme)
        self.session = session
        self.page.set_banner([])
        self.page.set_capabilities(None)
        self.page.set_phone_state("")
        self.page.set_mirror(session.view)
        session.start(after=self._closing)
        if self.spec is not None:
            session.update(self.spec, self._asset_loader())
        self.sessionStarted.emit(session)
        if self._video_jar is None:
            self._spawn(self._offer_video_jar())

    def _end_session(self) -> None:
        session, self.session = self.session, None
        if session is None:
            return
        with contextlib.suppress(RuntimeError):  # the page was deleted with the window
            self.page.set_banner([])
            self.page.set_capabilities(None)
            self.page.set_phone_state("")
            self.page.set_mirror(None)
            self.page.hide_guidance()
            self.page.mirror_offer.hide()
        self._closing = self._closers.spawn(self._close_session(session), label="closing a session")

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

    def _on_rejected(self, error: str) -> None:
        """The phone refused it: its own words; the phone is reachable (no unlock advice)."""
        serial = self.session.serial if self.session else ""
        self.page.set_banner([f"The phone refused it ({serial}):", error])
        self.errorMessage.emit(f"{serial} refused it: {error}")

    def _on_failed(self, message: str) -> None:
        session = self.session
        if session is None:
            return
        self.page.show_guidance(locked_guidance(session.info, message))
        self.errorMessage.emit(f"{session.serial}: {message}")

    def _on_connected(self, supported: frozenset[str]) -> None:
        self.page.set_capabilities(supported)
        if self.session is not None and "show_prototype" not in supported:
            self._offer_install(self.session.info, update=True)

    def _on_dismissed(self, reason: str) -> None:
        session = self.session
        if session is None:
            return
        why = DISMISS_REASONS.get(reason, reason)
        if reason == "ttl":
            self.statusMessage.emit(f"Dismissed on {session.serial} ({why}); showing it again")
            return
        self.page.set_banner([f"Dismissed on the phone {why}."], show_again=True)
        self.statusMessage.emit(f"Dismissed on {session.serial} {why}")

    def _show_again(self) -> None:
        self.page.set_banner([])
        if self.session is not None:
            self.session.show_again()

    # ---- guidance buttons ------------------------------------------------------------------
    def retry(self) -> None:
        """Try again: reconnect CtrlProxy for a ready device, probe a device that was not ready,
        ask adb again when there was no phone or no adb."""
        current = self.picker.current_serial()
        if current in (NO_PHONE, ADB_PROBLEM):
            if self.watcher is not None:
                self.watcher.refresh()
            return
        if self.session is not None:
            self.page.hide_guidance()
            self.session.retry()
            return
        if current and self.adb is not None:
            self._services.pop(current, None)
            self._spawn(self._reprobe(current, enable=False))

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

    # ---- AutoMobile's downloads ------------------------------------------------------------------
    def install_ctrlproxy(self) -> None:
        """The guidance's "Install CtrlProxy…": offer the pinned APK (its size asked first)."""
        info = self.picker.devices.get(self.picker.current_serial())
        if info is not None:
            self._offer_install(info, update=False)

    def _offer_install(self, info: DeviceInfo, *, update: bool) -> None:
        panel = self.page.guidance
        if update:
            self.page.show_guidance(update_guidance(info))
        asset = self.releases.ctrlproxy_apk()
        panel.download.show()
        if asset is None:
            newest = self.releases.newest_known() or "none"
            panel.download.idle(
                "No CtrlProxy with prototype support is pinned in this studio yet (the newest "
                f"AutoMobile release it has checksums for, {newest}, predates prototypes). "
                f"Install a newer control-proxy-debug.apk from {RELEASES_URL} with the command "
                "above.",
                "",
            )
            return
        if self.apk_flow is not None and self.apk_flow.busy:
            return
        serial = info.serial

        async def install(path: Path) -> None:
            from studio.device.install import install_ctrlproxy

            assert self.adb is not None
            panel.download.running(f"Installing CtrlProxy on {serial}…")
            outcome = await install_ctrlproxy(self.adb, serial, path, emulator=info.emulator)
            panel.download.idle(outcome.message, "")
            self.statusMessage.emit(outcome.message)

        if self.apk_flow is not None:
            self.apk_flow.deleteLater()
        self.apk_flow = DownloadFlow(
            panel.download,
            self.releases,
            asset,
            install,
            self._spawn,
            what="AutoMobile's CtrlProxy",
            action="Download and install",
        )

    async def _offer_video_jar(self) -> None:
        """Offer AutoMobile's video server for the mirror, unless a verified copy is at hand."""
        asset = self.releases.video_jar()
        if asset is None:
            return
        cached = await off_loop(self.releases.cached, asset)
        if cached is not None:
            self._use_video_jar(cached)
            return
        if self.session is None or self.jar_flow is not None:
            if self.jar_flow is not None:
                self.page.mirror_offer.show()
            return

        async def use(path: Path) -> None:
            self._use_video_jar(path)
            self.page.mirror_offer.idle(
                f"Mirroring through AutoMobile's video server ({asset.title}).", ""
            )

        self.jar_flow = DownloadFlow(
            self.page.mirror_offer,
            self.releases,
            asset,
            use,
            self._spawn,
            what="Smoother mirroring with AutoMobile's video server",
            action="Download",
        )
        self.page.mirror_offer.show()

    def _use_video_jar(self, path: Path) -> None:
        self._video_jar = path
        if self.session is not None:
            self.session.use_video_jar(path)

    # ---- tasks ------------------------------------------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        if self._tasks.closed:
            coro.close()
            return
        self._tasks.spawn(coro, label="devices")

    def _task_failed(self, _label: str, exc: BaseException) -> None:
        log.info("device task failed", exc_info=exc)
        with contextlib.suppress(RuntimeError):  # the window was deleted meanwhile
            self.errorMessage.emit(f"Devices: {one_line(exc)}")

    async def idle(self) -> None:
        """Wait for the probes and closes started so far (tests)."""
        await self._tasks.idle()
        await self._closers.idle()

    async def aclose(self) -> None:
        """Stop watching, dismiss on the device and stop mirroring; cancel every task."""
        if self._closed:
            return
        self._closed = True
        if self.watcher is not None:
            await self.watcher.aclose()
        self._end_session()
        await self._tasks.aclose()
        await self._closers.idle()  # the sessions' closes run to the end (dismiss on the phone)
        await self._closers.aclose()
