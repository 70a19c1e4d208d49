"""One chosen ready phone: shows the open prototype natively (with the entry's assets and the
preview's appearance), re-shows it in place on edits, and mirrors the phone's screen."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from studio.concurrency import off_loop
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

log = logging.getLogger(__name__)


class DeviceSession(QObject):
    """A ready phone showing the open prototype: DeviceShow (show, re-show in place with the
    device's state merged, dismiss), the Mirror into a MirrorView, taps and swipes sent back.

    Specs are applied one at a time, newest wins (a burst of edits is one re-show)."""

    deviceEvent = Signal(object)  # a CtrlProxy prototype_event frame (dict)
    shown = Signal(str)  # one line: shown / re-shown (and any warning)
    refused = Signal(list)  # reasons, one line each, naming the spec place
    failed = Signal(str)  # CtrlProxy could not be reached (guidance shows)
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
        self.mirror: Mirror | None = None  # made by the show loop (finding scrcpy touches files)
        self.device_show: DeviceShow | None = None
        self.shows = 0  # successful shows and re-shows
        self._wanted: dict[str, Any] | None = None
        self._assets: AssetLoader | None = None
        self.theme = theme  # "light" | "dark" | "system", as the preview's theme picker says
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self, after: asyncio.Future[Any] | None = None) -> None:
        """Start mirroring and the show loop (after `after`, e.g. a previous session's close)."""
        self._wake.set()  # connect to CtrlProxy at once, even with no prototype open
        self._task = asyncio.get_event_loop().create_task(self._run(after))

    def update(self, spec: dict[str, Any] | None, assets: AssetLoader | None = None) -> None:
        """Show this spec (None: dismiss) with the assets `assets` reads, as soon as the previous
        show is done."""
        self._wanted = spec
        self._assets = assets
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

    async def _run(self, after: asyncio.Future[Any] | None) -> None:
        from studio.device.mirror import Mirror, default_sources

        if after is not None:
            await asyncio.gather(after, return_exceptions=True)
        sources = self._sources
        if sources is None:
            sources = await off_loop(default_sources, self.adb, self.serial)
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
            assets = await self._read_assets(show)
            appearance = self._appearance(show)
            if show.prototype_id is None:
                await show.show(spec, assets=assets, appearance=appearance)
            else:
                await show.apply_edit(spec, assets=assets, appearance=appearance)
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
