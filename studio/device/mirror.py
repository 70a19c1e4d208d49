"""Mirror a device screen: H.264 (screenrecord or AutoMobile's video framing) decoded by PyAV on a
worker thread, screencap polling as the fallback, fps/latency measured, taps and swipes mapped back.
"""

from __future__ import annotations

import asyncio
import collections
import enum
import json
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import av
import numpy as np

from studio.concurrency import off_loop
from studio.device.adb import Adb

log = logging.getLogger(__name__)

SCREENRECORD_LIMIT_S = 180.0  # Android's hard limit per screenrecord run
SCREENRECORD_SEGMENT_S = 170.0  # restart before the limit
FIRST_FRAME_TIMEOUT_S = 5.0
H264_CODEC_ID = 0x68323634  # "h264"
FLAG_CONFIG = 1 << 63
FLAG_KEY = 1 << 62
FLAG_REPLAYED = 1 << 61
PTS_MASK = (1 << 61) - 1


class NoVideo(RuntimeError):
    """A video path produced no frame (so the mirror moves on to the next one)."""


@dataclass(frozen=True)
class Frame:
    """One decoded frame: RGB pixels plus when its packet arrived and when the frame was ready."""

    image: np.ndarray  # (height, width, 3) uint8, C-contiguous RGB
    received_at: float  # time.perf_counter() when the packet's last bytes arrived
    ready_at: float  # time.perf_counter() after the RGB conversion
    pts: int | None = None

    @property
    def width(self) -> int:
        return int(self.image.shape[1])

    @property
    def height(self) -> int:
        return int(self.image.shape[0])

    @property
    def latency_ms(self) -> float:
        return (self.ready_at - self.received_at) * 1000.0


def to_rgb(frame: av.VideoFrame) -> np.ndarray:
    """PyAV pads rows for some widths; QImage needs a C-contiguous buffer."""
    return np.ascontiguousarray(frame.to_ndarray(format="rgb24"))


class H264Decoder:
    """PyAV's h264 decoder fed either an Annex-B byte stream or whole packets."""

    def __init__(self) -> None:
        self._cc = av.CodecContext.create("h264", "r")
        self._pending_config = b""
        # byte-stream bookkeeping: (stream offset where a chunk ends, when it arrived), so a packet
        # the parser emits late is timed from when its last byte arrived, not from the next chunk
        self._chunks: collections.deque[tuple[int, float]] = collections.deque()
        self._fed = 0
        self._emitted = 0

    def feed_bytes(self, data: bytes, received_at: float) -> list[Frame]:
        """A raw byte stream (screenrecord): the parser emits a packet once the next one starts."""
        self._fed += len(data)
        self._chunks.append((self._fed, received_at))
        frames: list[Frame] = []
        for packet in self._cc.parse(data):
            self._emitted += packet.size
            while len(self._chunks) > 1 and self._chunks[0][0] < self._emitted:
                self._chunks.popleft()
            frames += self._decode(packet, self._chunks[0][1])
        return frames

    def feed_packet(
        self, data: bytes, received_at: float, *, pts: int | None = None, config: bool = False
    ) -> list[Frame]:
        """One framed packet (AutoMobile/scrcpy): config packets are prepended to the next one."""
        if config:
            self._pending_config += data
            return []
        payload, self._pending_config = self._pending_config + data, b""
        packet = av.Packet(payload)
        if pts is not None:
            packet.pts = pts
        return self._decode(packet, received_at)

    def flush(self, received_at: float) -> list[Frame]:
        frames: list[Frame] = []
        try:
            for packet in self._cc.parse(None):
                frames += self._decode(packet, received_at)
        except av.error.FFmpegError:
            pass
        frames += self._decode(None, received_at)
        return frames

    def _decode(
        self,
        packet: av.Packet | None,  # type: ignore[type-arg]
        received_at: float,
    ) -> list[Frame]:
        try:
            decoded = self._cc.decode(packet)
        except av.error.FFmpegError as exc:  # a damaged packet: skip it, keep the stream
            log.debug("h264 decode error: %s", exc)
            return []
        out = []
        for vf in decoded:
            image = to_rgb(vf)
            out.append(Frame(image, received_at, time.perf_counter(), vf.pts))
        return out


def decode_png(data: bytes) -> np.ndarray:
    """A PNG (screencap -p) to RGB pixels, with PyAV's png decoder."""
    cc = av.CodecContext.create("png", "r")
    frames = cc.decode(av.Packet(data))
    if not frames:
        raise ValueError("screencap returned no image")
    return to_rgb(frames[0])


# ---- sources ----------------------------------------------------------------------------------

FrameSink = Callable[[Frame], None]


class Source(Protocol):
    """A video path. `run` blocks on a worker thread until `stop` is set; raises NoVideo if it
    cannot produce a first frame."""

    mode: str

    def run(self, sink: FrameSink, stop: threading.Event) -> None: ...

    def interrupt(self) -> None: ...


class _SocketSource:
    """Shared plumbing: one blocking socket, closed from another thread to interrupt reads."""

    def __init__(self) -> None:
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def _set(self, sock: socket.socket | None) -> None:
        with self._lock:
            old, self._sock = self._sock, sock
        if old is not None and old is not sock:
            _close_quietly(old)

    def interrupt(self) -> None:
        self._set(None)


def _close_quietly(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


class ScreenrecordSource(_SocketSource):
    """`adb exec-out screenrecord --output-format=h264 -`, restarted before its 180 s limit."""

    mode = "h264 (screenrecord)"

    def __init__(
        self,
        adb: Adb,
        serial: str,
        *,
        segment_s: float = SCREENRECORD_SEGMENT_S,
        first_frame_timeout: float = FIRST_FRAME_TIMEOUT_S,
        bit_rate: int | None = None,
        size: tuple[int, int] | None = None,
    ):
        super().__init__()
        self.adb, self.serial = adb, serial
        self.segment_s = min(segment_s, SCREENRECORD_LIMIT_S - 1)
        self.first_frame_timeout = first_frame_timeout
        self.bit_rate, self.size = bit_rate, size
        self.segments = 0

    def command(self) -> str:
        cmd = "screenrecord --output-format=h264"
        if self.bit_rate:
            cmd += f" --bit-rate {int(self.bit_rate)}"
        if self.size:
            cmd += f" --size {self.size[0]}x{self.size[1]}"
        return cmd + " -"

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        got_any = False
        while not stop.is_set():
            got = self._segment(sink, stop, first=not got_any)
            got_any = got_any or got
            if not got and not stop.is_set():
                raise NoVideo("screenrecord ended without a frame")

    def _segment(self, sink: FrameSink, stop: threading.Event, *, first: bool) -> bool:
        conn = self.adb.open_exec(self.serial, self.command())
        sock = conn.conn
        self._set(sock)
        self.segments += 1
        decoder = H264Decoder()
        started = time.monotonic()
        got = False
        head = b""
        sock.settimeout(0.25)
        try:
            while not stop.is_set():
                elapsed = time.monotonic() - started
                if elapsed >= self.segment_s:
                    return got  # restart a fresh screenrecord before Android's limit
                if not got and elapsed > self.first_frame_timeout:
                    raise NoVideo(_first_line(head) or "screenrecord sent no frame")
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    return got
                if not chunk:  # screenrecord exited: an error text, or its time limit
                    if not got:
                        raise NoVideo(_first_line(head) or "screenrecord exited")
                    for f in decoder.flush(time.perf_counter()):
                        sink(f)
                    return got
                now = time.perf_counter()
                if len(head) < 256:
                    head += chunk[: 256 - len(head)]
                for f in decoder.feed_bytes(chunk, now):
                    got = True
                    sink(f)
            return got
        finally:
            self._set(None)


def _first_line(data: bytes) -> str:
    if not data or data.startswith((b"\x00\x00\x00\x01", b"\x00\x00\x01")):
        return ""
    return data.decode(errors="replace").strip().splitlines()[0][:200]


# ---- AutoMobile video framing ----------------------------------------------------------------


@dataclass(frozen=True)
class StreamHeader:
    codec_id: int
    width: int
    height: int


def parse_stream_header(data: bytes) -> StreamHeader:
    """AutoMobile's 12-byte stream header: codec id, width, height (big-endian u32)."""
    codec_id, width, height = struct.unpack(">III", data)
    if codec_id != H264_CODEC_ID:
        raise ValueError(f"video stream codec 0x{codec_id:08x} is not h264")
    return StreamHeader(codec_id, width, height)


@dataclass(frozen=True)
class PacketHeader:
    pts: int
    config: bool
    key: bool
    replayed: bool
    size: int


def parse_packet_header(data: bytes) -> PacketHeader:
    """A 12-byte packet header: u64 pts_and_flags (bit 63 config, 62 key, 61 replayed) + u32 size."""
    pts_flags, size = struct.unpack(">QI", data)
    return PacketHeader(
        pts_flags & PTS_MASK,
        bool(pts_flags & FLAG_CONFIG),
        bool(pts_flags & FLAG_KEY),
        bool(pts_flags & FLAG_REPLAYED),
        size,
    )


def handshake(token: str) -> bytes:
    """Client hello of AutoMobile's video server: "AVMH", version 1, token length, token."""
    raw = token.encode("ascii")
    if not 8 <= len(raw) <= 80:
        raise ValueError("video session token must be 8..80 ASCII characters")
    return b"AVMH" + bytes([1, len(raw)]) + raw


def _read_exact(sock: socket.socket, n: int, stop: threading.Event) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        if stop.is_set():
            raise EOFError("stopped")
        try:
            chunk = sock.recv(n - len(buf))
        except TimeoutError:
            continue
        if not chunk:
            raise EOFError("video stream closed")
        buf += chunk
    return bytes(buf)


class FramedStreamSource(_SocketSource):
    """AutoMobile's framed H.264 (video-server jar over adb forward, or the daemon's relay socket)."""

    mode = "h264 (AutoMobile video stream)"

    def __init__(
        self,
        connect: Callable[[], socket.socket],
        *,
        first_frame_timeout: float = FIRST_FRAME_TIMEOUT_S,
    ):
        super().__init__()
        self._connect = connect
        self.first_frame_timeout = first_frame_timeout
        self.header: StreamHeader | None = None

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        try:
            sock = self._connect()
        except OSError as exc:
            raise NoVideo(f"video stream not reachable: {exc}") from exc
        self._set(sock)
        sock.settimeout(0.25)
        decoder = H264Decoder()
        started = time.monotonic()
        got = False
        try:
            self.header = parse_stream_header(_read_exact(sock, 12, stop))
            while not stop.is_set():
                if not got and time.monotonic() - started > self.first_frame_timeout:
                    raise NoVideo("AutoMobile video stream sent no frame")
                head = parse_packet_header(_read_exact(sock, 12, stop))
                data = _read_exact(sock, head.size, stop)
                now = time.perf_counter()
                for f in decoder.feed_packet(data, now, pts=head.pts, config=head.config):
                    got = True
                    sink(f)
        except (EOFError, OSError, ValueError) as exc:
            if not got and not stop.is_set():
                raise NoVideo(str(exc)) from exc
        finally:
            self._set(None)


def automobile_daemon_connector(
    device_id: str | None,
    session_uuid: str,
    *,
    quality: str = "medium",
    fps: int = 30,
    socket_path: str | None = None,
) -> Callable[[], socket.socket]:
    """Subscribe to the AutoMobile daemon's relay (~/.auto-mobile/video-stream.sock)."""
    path = socket_path or str(Path.home() / ".auto-mobile" / "video-stream.sock")

    def connect() -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(5)
        sock.connect(path)
        request: dict[str, Any] = {
            "action": "subscribe",
            "id": "studio-1",
            "sessionUuid": session_uuid,
            "quality": quality,
            "fps": fps,
        }
        if device_id:
            request["deviceId"] = device_id
        sock.sendall(json.dumps(request).encode() + b"\n")
        line = b""
        while not line.endswith(b"\n"):
            chunk = sock.recv(1)
            if not chunk:
                raise OSError("AutoMobile daemon closed the video socket")
            line += chunk
        reply = json.loads(line)
        if not reply.get("success") or reply.get("framing") != "h264":
            raise OSError(
                f"AutoMobile daemon refused the video stream: {reply.get('error') or reply}"
            )
        return sock

    return connect


def tcp_connector(host: str, port: int, hello: bytes = b"") -> Callable[[], socket.socket]:
    """A video server reached on a host port (e.g. `adb forward tcp:P localabstract:automobile_video`)."""

    def connect() -> socket.socket:
        sock = socket.create_connection((host, port), timeout=5)
        if hello:
            sock.sendall(hello)
        return sock

    return connect


class ScreencapSource:
    """The fallback: `adb exec-out screencap -p`, polled."""

    mode = "screencap fallback"

    def __init__(self, adb: Adb, serial: str, *, interval_s: float = 0.2):
        self.adb, self.serial, self.interval_s = adb, serial, interval_s

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        got = False
        while not stop.is_set():
            started = time.perf_counter()
            try:
                data = self.adb.exec_out_blocking(self.serial, "screencap -p")
                received = time.perf_counter()
                image = decode_png(data)
            except (OSError, ValueError, av.error.FFmpegError) as exc:
                if not got:
                    raise NoVideo(f"screencap failed: {exc}") from exc
                log.warning("screencap failed: %s", exc)
            else:
                got = True
                sink(Frame(image, received, time.perf_counter()))
            stop.wait(max(0.0, self.interval_s - (time.perf_counter() - started)))

    def interrupt(self) -> None:
        pass


# ---- the mirror --------------------------------------------------------------------------------


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
    (called on the worker thread: a UI must hop to its own thread, e.g. with a queued signal)."""

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
                MirrorStatus(MirrorState.STARTING, source.mode, message="; ".join(reasons))
            )
            try:
                source.run(self._sink, self._stop)
                return
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


def default_sources(adb: Adb, serial: str, *, screencap_interval_s: float = 0.2) -> list[Source]:
    """In order: AutoMobile's video relay (when configured), the user's scrcpy server (when one is
    installed), H.264 through screenrecord, then screencap polling.

    Set PROTO_STUDIO_AUTOMOBILE_SESSION to the AutoMobile daemon's session UUID to have its relay
    tried first; scrcpy is found through SCRCPY_SERVER_PATH or its usual install paths.
    """
    from studio.device.scrcpy import scrcpy_source  # scrcpy builds on this module

    sources: list[Source] = []
    session = os.environ.get("PROTO_STUDIO_AUTOMOBILE_SESSION")
    if session:
        sources.append(FramedStreamSource(automobile_daemon_connector(serial, session)))
    scrcpy = scrcpy_source(adb, serial)
    if scrcpy is not None:
        sources.append(scrcpy)
    sources.append(ScreenrecordSource(adb, serial))
    sources.append(ScreencapSource(adb, serial, interval_s=screencap_interval_s))
    return sources


# ---- input ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Viewport:
    """Where the frame is drawn in the view (view pixels) and the device's size in pixels."""

    x: float
    y: float
    width: float
    height: float
    device_width: int
    device_height: int

    def to_device(self, vx: float, vy: float) -> tuple[int, int] | None:
        """A view point to device pixels; None outside the drawn frame."""
        if self.width <= 0 or self.height <= 0:
            return None
        u, v = (vx - self.x) / self.width, (vy - self.y) / self.height
        if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
            return None
        return (
            min(int(u * self.device_width), self.device_width - 1),
            min(int(v * self.device_height), self.device_height - 1),
        )


def fit(
    view_w: float, view_h: float, frame_w: int, frame_h: int
) -> tuple[float, float, float, float]:
    """The largest rect of the frame's aspect ratio centred in the view: (x, y, w, h)."""
    if frame_w <= 0 or frame_h <= 0 or view_w <= 0 or view_h <= 0:
        return (0.0, 0.0, 0.0, 0.0)
    scale = min(view_w / frame_w, view_h / frame_h)
    w, h = frame_w * scale, frame_h * scale
    return ((view_w - w) / 2, (view_h - h) / 2, w, h)


class DeviceInput:
    """Taps and swipes sent with `input` over adb, in device pixels, one at a time in order."""

    def __init__(self, adb: Adb, serial: str):
        self.adb, self.serial = adb, serial
        self._lock: asyncio.Lock | None = None  # created on the loop that uses it

    def _serial_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def tap(self, x: int, y: int) -> None:
        async with self._serial_lock():
            await self.adb.tap(self.serial, x, y)

    async def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        async with self._serial_lock():
            await self.adb.swipe(self.serial, x1, y1, x2, y2, max(1, duration_ms))
