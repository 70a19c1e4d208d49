"""The mirror's video paths, each run on a worker thread: screenrecord's raw H.264, AutoMobile's
framed stream (its video-server jar started over adb, or its daemon's relay socket), and screencap
polling as the fallback."""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import socket
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import adbutils
import av

from studio.device.adb import Adb
from studio.device.decoder import Frame, H264Decoder, decode_png
from studio.device.framing import (
    COMMAND_REQUEST_KEY_FRAME,
    SAFE_TOKEN,
    AccessUnitSplitter,
    PacketHeader,
    StreamHeader,
    handshake,
    parse_packet_header,
    parse_relay_packet_header,
    parse_stream_header,
)

log = logging.getLogger(__name__)

SCREENRECORD_LIMIT_S = 180.0  # Android's limit per screenrecord run (its --time-limit maximum)
SCREENRECORD_SEGMENT_S = 170.0  # restart a little before it, so the gap is ours to choose
FIRST_FRAME_TIMEOUT_S = 5.0
#: A framed stream with nothing at all for this long has stalled (the jar re-sends a frame every
#: second on a still screen, `FrameHeartbeat.kt`; the relay sends a heartbeat every second).
STALL_TIMEOUT_S = 10.0
#: A raw stream quiet this long after a slice has delivered its access unit (screenrecord writes
#: each encoder buffer in one go and then nothing while the screen is still).
QUIET_GAP_S = 0.012


class NoVideo(RuntimeError):
    """A video path produced no frame (so the mirror moves on to the next one)."""


FrameSink = Callable[[Frame], None]


class Source(Protocol):
    """A video path. `run` blocks on a worker thread until `stop` is set; raises NoVideo if it
    cannot produce a first frame."""

    mode: str

    def run(self, sink: FrameSink, stop: threading.Event) -> None: ...

    def interrupt(self) -> None: ...


class SocketSource:
    """Shared plumbing: one blocking socket, closed from another thread to interrupt reads."""

    def __init__(self) -> None:
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def _set(self, sock: socket.socket | None) -> None:
        with self._lock:
            old, self._sock = self._sock, sock
        if old is not None and old is not sock:
            close_quietly(old)

    def interrupt(self) -> None:
        self._set(None)


def close_quietly(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


def read_exact(
    sock: socket.socket, n: int, stop: threading.Event, idle_s: float | None = None
) -> bytes:
    """n bytes from a socket with a short timeout (so `stop` is seen), or EOFError (also when
    nothing at all arrived for `idle_s`)."""
    buf = bytearray()
    quiet_since = time.monotonic()
    while len(buf) < n:
        if stop.is_set():
            raise EOFError("stopped")
        try:
            chunk = sock.recv(n - len(buf))
        except TimeoutError:
            if idle_s is not None and time.monotonic() - quiet_since > idle_s:
                raise EOFError(f"nothing arrived for {idle_s:g} s") from None
            continue
        quiet_since = time.monotonic()
        if not chunk:
            raise EOFError("video stream closed")
        buf += chunk
    return bytes(buf)


# ---- screenrecord ---------------------------------------------------------------------------------


class ScreenrecordSource(SocketSource):
    """`adb exec-out screenrecord --output-format=h264 -`: each access unit is decoded as soon as it
    is complete (the next one starts, or the stream goes quiet), and screenrecord is started again
    when it exits at its time limit (and, by us, a little before it)."""

    mode = "h264 (screenrecord)"

    def __init__(
        self,
        adb: Adb,
        serial: str,
        *,
        segment_s: float = SCREENRECORD_SEGMENT_S,
        first_frame_timeout: float = FIRST_FRAME_TIMEOUT_S,
        quiet_gap_s: float = QUIET_GAP_S,
        bit_rate: int | None = None,
        size: tuple[int, int] | None = None,
    ):
        super().__init__()
        self.adb, self.serial = adb, serial
        self.segment_s = min(segment_s, SCREENRECORD_LIMIT_S - 1)
        self.first_frame_timeout = first_frame_timeout
        self.quiet_gap_s = quiet_gap_s
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
            got = self._segment(sink, stop)
            got_any = got_any or got
            if not got and not stop.is_set():
                raise NoVideo("screenrecord ended without a frame")

    def _segment(self, sink: FrameSink, stop: threading.Event) -> bool:
        conn = self.adb.open_exec(self.serial, self.command())
        sock = conn.conn
        self._set(sock)
        self.segments += 1
        decoder = H264Decoder()
        splitter = AccessUnitSplitter()
        started = time.monotonic()
        got = False
        head = b""

        def deliver(unit: bytes, arrived: float) -> None:
            nonlocal got
            for f in decoder.feed_packet(unit, arrived):
                got = True
                sink(f)

        try:
            while not stop.is_set():
                elapsed = time.monotonic() - started
                if elapsed >= self.segment_s:
                    return got  # start a fresh screenrecord before Android's limit
                if not got and elapsed > self.first_frame_timeout:
                    raise NoVideo(_first_line(head) or "screenrecord sent no frame")
                sock.settimeout(self.quiet_gap_s if splitter.pending else 0.25)
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    pending = splitter.flush()  # quiet: the unit so far is the whole frame
                    if pending is not None:
                        deliver(*pending)
                    continue
                except OSError:
                    return got
                if not chunk:  # screenrecord exited: an error text, or its time limit
                    pending = splitter.flush()
                    if pending is not None:
                        deliver(*pending)
                    if not got:
                        raise NoVideo(_first_line(head) or "screenrecord exited")
                    return got
                if len(head) < 256:
                    head += chunk[: 256 - len(head)]
                for unit, arrived in splitter.feed(chunk, time.perf_counter()):
                    deliver(unit, arrived)
            return got
        finally:
            self._set(None)


def _first_line(data: bytes) -> str:
    if not data or data.startswith((b"\x00\x00\x00\x01", b"\x00\x00\x01")):
        return ""
    return data.decode(errors="replace").strip().splitlines()[0][:200]


# ---- AutoMobile's framed stream ---------------------------------------------------------------


class FramedStreamSource(SocketSource):
    """AutoMobile's framed H.264: the video-server jar's layout, or (`relay=True`) its daemon
    relay's, whose empty heartbeat and dropped-frame packets never reach the decoder."""

    mode = "h264 (AutoMobile video stream)"

    def __init__(
        self,
        connect: Callable[[], socket.socket],
        *,
        relay: bool = False,
        first_frame_timeout: float = FIRST_FRAME_TIMEOUT_S,
        request_key_frame: bool = False,
        stall_timeout: float = STALL_TIMEOUT_S,
    ):
        super().__init__()
        self._connect = connect
        self.relay = relay
        self.first_frame_timeout = first_frame_timeout
        self.stall_timeout = stall_timeout
        self.request_key_frame = request_key_frame
        self.header: StreamHeader | None = None
        self.heartbeats = 0
        self.dropped_frames = 0
        self.rotation: int | None = None
        self.replayed = 0

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        try:
            sock = self._connect()
        except OSError as exc:
            raise NoVideo(f"video stream not reachable: {exc}") from exc
        self._set(sock)
        sock.settimeout(0.25)
        decoder = H264Decoder()
        # The relay sends one packet per NAL unit (videoStreamSocketServer.ts `broadcastNal`):
        # they are joined into access units, each decoded once complete.
        splitter = AccessUnitSplitter() if self.relay else None
        started = time.monotonic()
        got = False
        parse = parse_relay_packet_header if self.relay else parse_packet_header

        def deliver(data: bytes, arrived: float, pts: int | None, config: bool) -> None:
            nonlocal got
            for f in decoder.feed_packet(data, arrived, pts=pts, config=config):
                got = True
                sink(f)

        try:
            self.header = parse_stream_header(read_exact(sock, 12, stop))
            if self.request_key_frame:  # a current IDR instead of a GOP wait (PEH `wireSocket`)
                sock.sendall(COMMAND_REQUEST_KEY_FRAME)
            while not stop.is_set():
                if not got and time.monotonic() - started > self.first_frame_timeout:
                    raise NoVideo("AutoMobile video stream sent no frame")
                raw = self._next_header(sock, stop, splitter)
                if raw is None:  # quiet: the NAL units so far are the whole frame
                    assert splitter is not None
                    pending = splitter.flush()
                    if pending is not None:
                        deliver(pending[0], pending[1], None, False)
                    continue
                head = parse(raw)
                data = read_exact(sock, head.size, stop, self.stall_timeout) if head.size else b""
                self._note(head)
                if not head.media:  # heartbeats and dropped-frame counts: never decoded
                    continue
                now = time.perf_counter()
                if splitter is None:
                    deliver(data, now, head.pts, head.config)
                else:
                    for unit, arrived in splitter.feed(data, now):
                        deliver(unit, arrived, None, False)
        except (EOFError, OSError, ValueError) as exc:
            if not stop.is_set():
                if not got:
                    raise NoVideo(str(exc)) from exc
                raise NoVideo(f"the stream ended: {exc}") from exc
        finally:
            self._set(None)

    def _next_header(
        self, sock: socket.socket, stop: threading.Event, splitter: AccessUnitSplitter | None
    ) -> bytes | None:
        """The next 12-byte packet header, or None when a relay stream went quiet with a unit
        pending."""
        if splitter is None or not splitter.pending:
            return read_exact(sock, 12, stop, self.stall_timeout)
        sock.settimeout(QUIET_GAP_S)
        try:
            first = sock.recv(12)
        except TimeoutError:
            return None
        finally:
            sock.settimeout(0.25)
        if not first:
            raise EOFError("video stream closed")
        if len(first) < 12:
            return first + read_exact(sock, 12 - len(first), stop, self.stall_timeout)
        return first

    def _note(self, head: PacketHeader) -> None:
        if head.heartbeat:
            self.heartbeats += 1
        if head.dropped_frames is not None:
            self.dropped_frames = head.dropped_frames
        if head.rotation is not None:
            self.rotation = head.rotation
        if head.replayed:
            self.replayed += 1


def automobile_daemon_connector(
    device_id: str | None,
    session_uuid: str,
    *,
    quality: str = "medium",
    fps: int = 30,
    socket_path: str | None = None,
) -> Callable[[], socket.socket]:
    """Subscribe to the AutoMobile daemon's relay (~/.auto-mobile/video-stream.sock;
    `src/daemon/videoStreamSocketServer.ts`): one JSON line, one JSON reply, then the stream."""
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
    """A video server reached on a host port (`adb forward tcp:P localabstract:...`)."""

    def connect() -> socket.socket:
        sock = socket.create_connection((host, port), timeout=5)
        if hello:
            sock.sendall(hello)
        return sock

    return connect


# ---- AutoMobile's video-server jar, started by us -----------------------------------------------

#: PEH `VIDEO_SERVER_REMOTE_JAR_PATH` is /data/local/tmp/automobile-video.jar (`Adb.device_tmp`).
VIDEO_SERVER_DEVICE_FILE = "automobile-video.jar"
VIDEO_SERVER_CLASS = (
    "dev.jasonpearson.automobile.video.VideoServer"  # PEH `VIDEO_SERVER_MAIN_CLASS`
)
VIDEO_SERVER_SOCKET_PREFIX = "automobile_video"  # PEH `VIDEO_SERVER_SOCKET_PREFIX`
VIDEO_SERVER_READY_TIMEOUT_S = 10.0  # PEH `DEFAULT_READY_TIMEOUT_MS`
#: PEH `SESSION_READY_PATTERN`, plus the `proto=` the server advertises (VideoHandshake.kt KDoc).
_READY = re.compile(
    r"^VIDEO_SESSION_READY token=(?P<token>\S+) pid=(?P<pid>\d+) socket=(?P<socket>\S+)"
    r"(?: proto=(?P<proto>\d+))?\s*$"
)


def video_server_command(
    jar: str,
    token: str,
    socket_name: str,
    serial: str,
    forward_port: int,
    *,
    quality: str = "medium",
) -> str:
    """The shell command that starts the jar (on the device at `jar`), with the arguments
    AutoMobile's host passes (`src/features/webrtc/PersistentEncoderH264Source.ts`
    `buildServerArgs`)."""
    args = [
        f"CLASSPATH={jar}",
        "app_process",
        "/",
        VIDEO_SERVER_CLASS,
        "--quality",
        quality,
        "--socket-name",
        socket_name,
        "--session-token",
        token,
        "--owner-pid",
        str(os.getpid()),
        "--device-serial",
        serial,
        "--forward-port",
        str(forward_port),
    ]
    return " ".join(shlex.quote(a) for a in args)


class VideoServerSource(FramedStreamSource):
    """AutoMobile's video-server jar (a verified download) run directly, as its host does: push
    (to the device's temp folder, `Adb.device_tmp`),
    `adb forward tcp:<port> localabstract:automobile_video_<token>`, `app_process`, wait for
    `VIDEO_SESSION_READY`, connect, the `AVMH` hello, then the jar's framed stream."""

    mode = "h264 (AutoMobile video server)"

    def __init__(
        self,
        adb: Adb,
        serial: str,
        jar: Path,
        *,
        quality: str = "medium",
        ready_timeout: float = VIDEO_SERVER_READY_TIMEOUT_S,
        first_frame_timeout: float = FIRST_FRAME_TIMEOUT_S,
    ):
        super().__init__(
            self._open, first_frame_timeout=first_frame_timeout, request_key_frame=True
        )
        self.adb, self.serial, self.jar = adb, serial, jar
        self.device_path = f"{adb.device_tmp.rstrip('/')}/{VIDEO_SERVER_DEVICE_FILE}"
        self.quality, self.ready_timeout = quality, ready_timeout
        self.token = str(uuid.uuid4())  # PEH uses an id generator; a UUID fits SAFE_TOKEN
        self.socket_name = f"{VIDEO_SERVER_SOCKET_PREFIX}_{self.token.replace('-', '')}"
        self.device_pid: int | None = None
        self.pushed = False
        self._server: adbutils.AdbConnection | None = None
        self._output = bytearray()
        self._port: int | None = None

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        try:
            super().run(sink, stop)
        finally:
            self._teardown()

    def _open(self) -> socket.socket:
        if not SAFE_TOKEN.fullmatch(self.token):
            raise NoVideo("video session token does not match AutoMobile's SAFE_TOKEN")
        try:
            self.pushed = self.adb.push_if_changed(
                self.serial, self.jar.read_bytes(), self.device_path
            )
            self._port = self.adb.forward_free_port_blocking(
                self.serial, f"localabstract:{self.socket_name}"
            )
            cmd = video_server_command(
                self.device_path,
                self.token,
                self.socket_name,
                self.serial,
                self._port,
                quality=self.quality,
            )
            self._server = self.adb.device(self.serial).shell(cmd, stream=True)
            proto = self._wait_ready(self._server)
        except (adbutils.AdbError, OSError) as exc:
            raise NoVideo(f"AutoMobile video server could not be started: {exc}") from exc
        # The hello goes only to a server that advertises the handshake (VideoHandshake.kt KDoc:
        # a pre-handshake server gets no frame).
        hello = handshake(self.token) if proto >= 1 else b""
        return tcp_connector(self.adb.server.host, self._port, hello)()

    def _wait_ready(self, server: adbutils.AdbConnection) -> int:
        """The server's `VIDEO_SESSION_READY` line (token and socket checked); its proto."""
        sock = server.conn
        deadline = time.monotonic() + self.ready_timeout
        line_buf = b""
        while time.monotonic() < deadline:
            sock.settimeout(max(0.05, min(0.25, deadline - time.monotonic())))
            try:
                chunk = sock.recv(4096)
            except TimeoutError:
                continue
            if not chunk:
                raise NoVideo(f"AutoMobile video server exited: {self.error_line()}")
            if len(self._output) < 16384:
                self._output += chunk
            line_buf += chunk
            *lines, line_buf = line_buf.split(b"\n")
            for raw in lines:
                match = _READY.match(raw.decode(errors="replace").strip())
                if match is None:
                    continue
                if match["token"] != self.token or match["socket"] != self.socket_name:
                    raise NoVideo("AutoMobile video server reported another session's token")
                self.device_pid = int(match["pid"])
                return int(match["proto"] or 0)
        raise NoVideo(
            f"AutoMobile video server was not session-ready within {self.ready_timeout:g} s"
            + (f": {self.error_line()}" if self.error_line() else "")
        )

    def error_line(self) -> str:
        lines = [ln.strip() for ln in self._output.decode(errors="replace").splitlines()]
        for ln in lines:
            if ln.startswith(("Error", "ERROR")) or "Exception" in ln:
                return ln[:200]
        return next((ln[:200] for ln in reversed(lines) if ln), "")

    def _teardown(self) -> None:
        server, self._server = self._server, None
        if self.device_pid is not None:
            try:  # the server also exits 5 s after its last client (VSW reconnect window)
                self.adb.device(self.serial).shell(f"kill {self.device_pid}", timeout=5)
            except (adbutils.AdbError, OSError):
                log.debug("video server %s already gone", self.device_pid)
        if server is not None:
            close_quietly(server.conn)
        if self._port is not None:
            try:
                self.adb.device(self.serial).forward_remove(f"tcp:{self._port}", False)
            except (adbutils.AdbError, OSError):
                pass
            self._port = None


# ---- screencap ---------------------------------------------------------------------------------


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
                frame = decode_png(data, time.perf_counter())
            except (OSError, ValueError, av.error.FFmpegError) as exc:
                if not got:
                    raise NoVideo(f"screencap failed: {exc}") from exc
                log.warning("screencap failed: %s", exc)
            else:
                got = True
                sink(frame)
            stop.wait(max(0.0, self.interval_s - (time.perf_counter() - started)))

    def interrupt(self) -> None:
        pass
