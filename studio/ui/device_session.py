"""One chosen ready phone: shows the open prototype natively (with the entry's assets and the
preview's appearance), re-shows it in place on edits, follows what happens on the phone
(dismissals, pages, light/dark), and mirrors the phone's screen."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from studio.concurrency import TaskOwner, off_loop
from studio.device import capabilities as caps
from studio.device.adb import Adb, DeviceInfo
from studio.ui.device_picker import one_line

if TYPE_CHECKING:
    from studio.device.ctrlproxy import Asset, DeviceShow
    from studio.device.mirror import Mirror
    from studio.device.sources import Source
    from studio.ui.mirror import MirrorView

#: Reads the open entry's assets (blocking: the session calls it in a worker thread).
AssetLoader = Callable[[], "Mapping[str, Asset]"]
#: The preview's theme choice -> the show's `appearance` (for prototype_appearance_v1 devices).
APPEARANCES = {"light": "light", "dark": "dark", "system": "device"}
#: Why the phone dismissed the prototype (PrototypeLifecycle.kt `PrototypeDismissReason`).
DISMISS_REASONS = {
    "ttl": "idle for 5 minutes",
    "user": "by the user",
    "teardown": "when CtrlProxy's service stopped",
    "disconnect": "when the studio's connection dropped",
}

log = logging.getLogger(__name__)


class DeviceSession(QObject):
    """A ready phone showing the open prototype: DeviceShow (show, re-show in place with the
    device's state merged, dismiss), the Mirror into a MirrorView, taps and swipes sent back.

    Specs are applied one at a time, newest wins (a burst of edits is one re-show). A dismissal
    on the phone after its idle timeout is shown again at once (the studio is in device mode);
    one by the user waits for "Show again" or the next edit."""

    deviceEvent = Signal(object)  # a CtrlProxy prototype_event frame (dict)
    shown = Signal(str)  # one line: shown / re-shown (and any warning)
    refused = Signal(list)  # the studio's refusals (capabilities), one line each with the place
    rejected = Signal(str)  # the device refused it: its own error text
    failed = Signal(str)  # CtrlProxy could not be reached (guidance shows)
    connected = Signal(object)  # frozenset: what the connected CtrlProxy advertises
    dismissedOnPhone = Signal(str)  # the reason (ttl, user, teardown)
    phoneState = Signal(str)  # one line: page, light/dark, hidden behind another app
    # No prototype_appearance_v1: a Light/Dark choice cannot be sent (True: a show follows now).
    followsDeviceTheme = Signal(bool)

    def __init__(
        self,
        adb: Adb,
        info: DeviceInfo,
        parent: QObject | None = None,
        *,
        sources: list[Source] | None = None,
        theme: str = "system",
        video_jar: Path | None = None,
    ) -> None:
        from studio.device.gestures import DeviceInput
        from studio.ui.mirror import MirrorView

        super().__init__(parent)
        self.adb, self.info, self.serial = adb, info, info.serial
        self.view: MirrorView = MirrorView()
        self.view.setObjectName("deviceMirror")
        if info.screen_size:
            self.view.set_device_size(*info.screen_size)
        self.view.attach_input(DeviceInput(adb, info.serial))
        self._sources = sources
        self.video_jar = video_jar
        self.mirror: Mirror | None = None  # made by the show loop (finding scrcpy touches files)
        self.device_show: DeviceShow | None = None
        self.shows = 0  # successful shows and re-shows
        self.dismissed: str | None = None  # the phone dismissed it (reason); cleared by a show
        self._wanted: dict[str, Any] | None = None
        self._assets: AssetLoader | None = None
        self.theme = theme  # "light" | "dark" | "system", as the preview's theme picker says
        self._wake = asyncio.Event()
        self._mirror_lock = asyncio.Lock()  # one mirror at a time (start, jar switch, close)
        self._tasks = TaskOwner(f"device session {info.serial}", report=self._task_failed)
        self._announced: frozenset[str] | None = None

    def start(self, after: asyncio.Future[Any] | None = None) -> None:
        """Start mirroring and the show loop (after `after`, e.g. a previous session's close)."""
        self._wake.set()  # connect to CtrlProxy at once, even with no prototype open
        self._tasks.spawn(self._run(after), label="device session", track=False)

    def update(self, spec: dict[str, Any] | None, assets: AssetLoader | None = None) -> None:
        """Show this spec (None: dismiss) with the assets `assets` reads, as soon as the previous
        show is done."""
        self._wanted = spec
        self._assets = assets
        self._wake.set()

    def show_again(self) -> None:
        """After a dismissal on the phone ("Show again")."""
        self._wake.set()

    def set_theme(self, theme: str) -> None:
        """The preview's Light/Dark/System choice: re-shown in place where the device takes an
        `appearance`; otherwise `followsDeviceTheme` says the device keeps its own."""
        if theme == self.theme:
            return
        self.theme = theme
        show = self.device_show
        if show is None or show.client is None:
            return  # the next show sends it
        if caps.APPEARANCE in show.supported:
            self._wake.set()
        elif theme != "system":
            self.followsDeviceTheme.emit(False)

    def use_video_jar(self, jar: Path) -> None:
        """A verified video-server jar arrived: mirror through it from now on."""
        self.video_jar = jar
        self._tasks.spawn(self._restart_mirror(), label="mirror restart")

    def _appearance(self, show: DeviceShow) -> str | None:
        if caps.APPEARANCE in show.supported:
            return APPEARANCES.get(self.theme, "device")
        if self.theme != "system":  # System is what such a device does anyway
            self.followsDeviceTheme.emit(True)
        return None

    async def _read_assets(self, show: DeviceShow) -> dict[str, Asset]:
        if self._assets is None:
            return {}
        try:
            return dict(await off_loop(self._assets))
        except Exception as exc:  # a damaged asset folder: show without images, say so
            log.info("reading the assets failed", exc_info=True)
            show.warnings.append(f"assets not read: {one_line(exc)}")
            return {}

    def retry(self) -> None:
        self._wake.set()

    # ---- the phone's events --------------------------------------------------------------------
    def _on_device_event(self, frame: dict[str, Any]) -> None:
        self.deviceEvent.emit(frame)
        kind, payload = frame.get("kind"), frame.get("payload")
        payload = payload if isinstance(payload, dict) else {}
        wanted = self._wanted
        ours = wanted is not None and frame.get("id") == wanted.get("id")
        if kind == "dismissed" and ours and payload.get("reason") != "agent":
            reason = str(payload.get("reason") or "unknown")
            self.dismissed = reason
            self.dismissedOnPhone.emit(reason)
            if reason == "ttl":  # the studio is in device mode: show it again at once
                self._wake.set()
        elif kind == "page_changed" and isinstance(frame.get("pages"), dict):
            pages = ", ".join(f"{p} at page {n + 1}" for p, n in sorted(frame["pages"].items()))
            self.phoneState.emit(f"On the phone: {pages}")
        elif kind == "appearance_changed" and payload.get("mode"):
            self.phoneState.emit(
                f"On the phone: drawn {payload['mode']} ({payload.get('source', 'system')})"
            )

    # ---- the loop ------------------------------------------------------------------------------
    async def _run(self, after: asyncio.Future[Any] | None) -> None:
        if after is not None:
            await asyncio.gather(after, return_exceptions=True)
        await self._restart_mirror()
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._sync(self._wanted)

    async def _restart_mirror(self) -> None:
        from studio.device.mirror import Mirror, default_sources

        async with self._mirror_lock:
            old, self.mirror = self.mirror, None
            if old is not None:
                await old.astop()
            sources = self._sources
            if sources is None:
                sources = await off_loop(
                    default_sources, self.adb, self.serial, video_jar=self.video_jar
                )
            self.mirror = Mirror(sources, self.view.frame_sink, self.view.status_sink)
            self.mirror.start()

    async def _sync(self, spec: dict[str, Any] | None) -> None:
        from studio.device.ctrlproxy import CtrlProxyError, DeviceRejected, DeviceShow, ShowRefused

        try:
            if self.device_show is None:
                self.device_show = DeviceShow(self.adb, self.serial, self._on_device_event)
                await self.device_show.open()
            show = self.device_show
            if show.supported != self._announced:
                self._announced = show.supported
                self.connected.emit(show.supported)
            if spec is None:
                await show.dismiss()
                return
            again = show.prototype_id is not None and show.prototype_id == str(spec.get("id"))
            returned = self.dismissed
            show.warnings.clear()
            assets = await self._read_assets(show)
            appearance = self._appearance(show)
            if show.prototype_id is None and returned is None:
                reply = await show.show(spec, assets=assets, appearance=appearance)
            else:
                reply = await show.apply_edit(spec, assets=assets, appearance=appearance)
            self.shows += 1
            self.dismissed = None
            if returned is not None:
                verb = f"Shown again (dismissed on the phone {DISMISS_REASONS.get(returned, returned)})"
            else:
                verb = "Re-shown" if again else "Showing"
            extra = f" ({'; '.join(show.warnings)})" if show.warnings else ""
            self.shown.emit(f"{verb} {spec.get('id')!r} on {self.serial}{extra}")
            look = reply.get("appearance")
            if isinstance(look, dict) and look.get("mode"):
                self.phoneState.emit(f"On the phone: drawn {look['mode']} ({look.get('source')})")
            await self._report_hidden(show)
        except ShowRefused as exc:
            self.refused.emit(list(exc.reasons))
        except DeviceRejected as exc:  # the phone answered no: its own words, no lock advice
            self.rejected.emit(one_line(exc))
        except CtrlProxyError as exc:
            await self._drop_show()
            self.failed.emit(one_line(exc))
        except Exception as exc:  # adbutils.AdbError (forward refused ...), socket errors
            log.info("showing on %s failed", self.serial, exc_info=True)
            await self._drop_show()
            self.failed.emit(f"{type(exc).__name__}: {one_line(exc)}")

    async def _report_hidden(self, show: DeviceShow) -> None:
        """A prototype hidden while another app is in front is still "shown" (PrototypeController
        .kt `foreground`): say so, from inspect, where the device reports it."""
        client = show.client
        if client is None or show.prototype_id is None or not caps.can_inspect(client.supported):
            return
        snap = client.snapshots.get(show.prototype_id)
        if snap is not None and snap.suspended:
            self.phoneState.emit(
                "On the phone: hidden while another app is in front; it returns with that app"
            )

    def _task_failed(self, label: str, exc: BaseException) -> None:
        log.error("%s on %s failed", label, self.serial, exc_info=exc)
        with contextlib.suppress(RuntimeError):  # already deleted with the window
            self.failed.emit(f"{type(exc).__name__}: {one_line(exc)}")

    async def _drop_show(self) -> None:
        show, self.device_show = self.device_show, None
        self._announced = None
        if show is not None:
            with contextlib.suppress(Exception):  # already half gone: nothing left to dismiss
                await show.close()

    async def aclose(self) -> None:
        """Stop showing (dismiss on the device), close the socket and forward, stop the mirror."""
        await self._tasks.aclose()
        show, self.device_show = self.device_show, None
        if show is not None:
            try:
                await show.close()
            except Exception:  # the device went away: nothing left to dismiss
                log.info("closing the device show failed", exc_info=True)
        async with self._mirror_lock:
            if self.mirror is not None:
                await self.mirror.astop()
        await self.view.aclose()
        with contextlib.suppress(RuntimeError):  # already deleted with the window
            self.view.close()
            self.view.deleteLater()
