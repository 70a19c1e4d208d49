"""Mirror a device screen: which video path to use (the first of them that works), run on a worker
thread, with fps and latency measured and every skipped path's reason kept for the status."""

from __future__ import annotations

import collections
import enum
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from studio.concurrency import off_loop
from studio.device.adb import Adb
from studio.device.decoder import Frame
from studio.device.scrcpy import scrcpy_source
from studio.device.sources import (
    FramedStreamSource,
    FrameSink,
    NoVideo,
    ScreencapSource,
    ScreenrecordSource,
    Source,
    VideoServerSource,
    automobile_daemon_connector,
)

log = logging.getLogger(__name__)

#: Set to the AutoMobile daemon's session UUID to have its relay tried first.
DAEMON_SESSION_ENV = "PROTO_STUDIO_AUTOMOBILE_SESSION"


class MirrorState(enum.Enum):
    IDLE = "idle"
    STARTING = "starting"
    STREAMING = "streaming"
    FAILED = "failed"
    STOPPED = "stopped"


@dataclass(frozen=True)
class MirrorStatus:
    state: MirrorState
    mode: str = ""  # the live source, e.g. "h264 (scrcpy)" or "screencap fallback"
    fps: float = 0.0
    latency_ms: float = 0.0  # packet received -> frame ready, mean of recent frames
    frames: int = 0
    message: str = ""

    @property
    def fallback(self) -> bool:
        return self.mode == ScreencapSource.mode


class Mirror:
    """Runs the first source that works on a worker thread; frames and status go to callbacks
    (called on the worker thread: a UI must hop to its own thread, e.g. with a queued signal).
    A source that ends (or fails) after frames hands over to the next one, with its reason."""

    def __init__(
        self,
        sources: list[Source],
        on_frame: FrameSink,
        on_status: Callable[[MirrorStatus], None] | None = None,
    ):
        self.sources = sources
        self.on_frame = on_frame
        self.on_status = on_status
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._times: collections.deque[float] = collections.deque(maxlen=90)
        self._latencies: collections.deque[float] = collections.deque(maxlen=90)
        self._status = MirrorStatus(MirrorState.IDLE)
        self._active: Source | None = None
        self._last_report = 0.0

    @property
    def status(self) -> MirrorStatus:
        return self._status

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._set_status(MirrorStatus(MirrorState.STARTING))
        self._thread = threading.Thread(target=self._run, name="mirror-decode", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._active is not None:
            self._active.interrupt()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._set_status(
            MirrorStatus(MirrorState.STOPPED, self._status.mode, frames=self._status.frames)
        )

    async def astop(self) -> None:
        await off_loop(self.stop)

    def _set_status(self, status: MirrorStatus) -> None:
        self._status = status
        if self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:
                log.exception("mirror status callback failed")

    def _sink(self, frame: Frame) -> None:
        self._times.append(frame.ready_at)
        self._latencies.append(frame.latency_ms)
        try:
            self.on_frame(frame)
        except Exception:
            log.exception("mirror frame callback failed")
        now = frame.ready_at
        if now - self._last_report >= 0.5 or self._status.state is not MirrorState.STREAMING:
            self._last_report = now
            self._set_status(
                MirrorStatus(
                    MirrorState.STREAMING,
                    self._active.mode if self._active else "",
                    fps=self.fps(),
                    latency_ms=sum(self._latencies) / len(self._latencies),
                    frames=self._status.frames + 1,
                    message=self._status.message,  # why earlier sources were skipped
                )
            )
        else:
            s = self._status
            self._status = MirrorStatus(
                s.state, s.mode, s.fps, s.latency_ms, s.frames + 1, s.message
            )

    def fps(self) -> float:
        """Frames per second over the last second of frames."""
        if len(self._times) < 2:
            return 0.0
        newest = self._times[-1]
        recent = [t for t in self._times if newest - t <= 1.0]
        if len(recent) < 2:
            return 0.0
        return (len(recent) - 1) / max(recent[-1] - recent[0], 1e-6)

    def _run(self) -> None:
        reasons: list[str] = []
        for source in self.sources:
            if self._stop.is_set():
                return
            self._active = source
            self._set_status(
                MirrorStatus(
                    MirrorState.STARTING,
                    source.mode,
                    frames=self._status.frames,
                    message="; ".join(reasons),
                )
            )
            try:
                source.run(self._sink, self._stop)
                if self._stop.is_set():
                    return
                reasons.append(f"{source.mode}: ended")
            except NoVideo as exc:
                reasons.append(f"{source.mode}: {exc}")
                log.info("mirror: %s unavailable: %s", source.mode, exc)
            except Exception as exc:  # adb errors and the like: try the next path
                reasons.append(f"{source.mode}: {type(exc).__name__}: {exc}")
                log.info("mirror: %s failed", source.mode, exc_info=True)
        if not self._stop.is_set():
            self._set_status(
                MirrorStatus(MirrorState.FAILED, message="; ".join(reasons) or "no video source")
            )


def default_sources(
    adb: Adb,
    serial: str,
    *,
    video_jar: Path | None = None,
    screencap_interval_s: float = 0.2,
) -> list[Source]:
    """In order: AutoMobile's daemon relay (when `PROTO_STUDIO_AUTOMOBILE_SESSION` holds a daemon
    session), AutoMobile's video-server jar (when a verified download is at hand), the user's scrcpy
    server (when one is installed), screenrecord, then screencap polling.

    Touches files (scrcpy's install paths): call it off the GUI thread."""
    sources: list[Source] = []
    session = os.environ.get(DAEMON_SESSION_ENV)
    if session:
        sources.append(FramedStreamSource(automobile_daemon_connector(serial, session), relay=True))
    if video_jar is not None:
        sources.append(VideoServerSource(adb, serial, video_jar))
    scrcpy = scrcpy_source(adb, serial)
    if scrcpy is not None:
        sources.append(scrcpy)
    sources.append(ScreenrecordSource(adb, serial))
    sources.append(ScreencapSource(adb, serial, interval_s=screencap_interval_s))
    return sources
