"""scrcpy as a mirror source: the user's scrcpy server, pushed and started over adb, read as H.264.

Speaks the video protocol of scrcpy 3.x and the session packets of 4.x; the packets go to the
mirror's decoder like the other H.264 sources.

Hand-written rather than a PyPI scrcpy client: none of them speaks the 3.x/4.x protocol with the
adbutils and PyAV versions the studio uses (see docs/research/qt-toolchain.md section 4), and the
protocol needed here (video only, no control) is a few dozen lines.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import shlex
import shutil
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import adbutils

from studio.device.adb import Adb
from studio.device.decoder import H264Decoder
from studio.device.framing import H264_CODEC_ID
from studio.device.sources import (
    FIRST_FRAME_TIMEOUT_S,
    FrameSink,
    NoVideo,
    SocketSource,
    close_quietly,
)

log = logging.getLogger(__name__)

SERVER_ENV = "SCRCPY_SERVER_PATH"  # what scrcpy itself reads to find its server
VERSION_ENV = "SCRCPY_SERVER_VERSION"  # ours: the server's version when no `scrcpy` is on PATH
INSTALL_PATHS = (
    "/usr/share/scrcpy/scrcpy-server",
    "/usr/local/share/scrcpy/scrcpy-server",
    "/opt/homebrew/share/scrcpy/scrcpy-server",
    "/snap/scrcpy/current/usr/share/scrcpy/scrcpy-server",
    "C:/Program Files/scrcpy/scrcpy-server",
)
DEVICE_FILE = "scrcpy-server.jar"  # scrcpy pushes it to /data/local/tmp (Adb.device_tmp)
DEVICE_PATH = f"/data/local/tmp/{DEVICE_FILE}"
SERVER_CLASS = "com.genymobile.scrcpy.Server"
SUPPORTED_MAJORS = (3, 4)
DEVICE_NAME_LEN = 64
CONNECT_TIMEOUT_S = 8.0

# special codec ids the server writes instead of a codec when it cannot stream
CODEC_DISABLED, CODEC_ERROR = 0, 1
CODEC_NAMES = {
    0x68323634: "h264",
    0x68323635: "h265",
    0x00617631: "av1",
    0x00767038: "vp8",
    0x00767039: "vp9",
}

_VERSION_RE = re.compile(r"(\d+\.\d+(?:\.\d+)?)")


class ScrcpyUnavailable(NoVideo):
    """No usable scrcpy server (not installed, unknown or unsupported version, refused)."""


# ---- finding the server on the user's machine -------------------------------------------------


@dataclass(frozen=True)
class ScrcpyServer:
    """A scrcpy server file on this machine and, when known, its version."""

    path: Path
    version: str | None = None

    def resolved_version(self) -> str:
        """The version to send (must equal the server's own); asks `scrcpy --version` if unknown."""
        version = self.version or client_version() or version_from_name(self.path)
        if not version:
            raise ScrcpyUnavailable(
                f"scrcpy server {self.path} has no known version: put `scrcpy` on PATH or set "
                f"{VERSION_ENV}"
            )
        protocol_major(version)
        return version


def find_server(
    env: Mapping[str, str] | None = None, paths: Sequence[str] = INSTALL_PATHS
) -> ScrcpyServer | None:
    """SCRCPY_SERVER_PATH, then the usual install locations; None when there is none."""
    env = os.environ if env is None else env
    candidates = [env[SERVER_ENV]] if env.get(SERVER_ENV) else []
    candidates += list(paths)
    for candidate in candidates:
        path = Path(candidate).expanduser()
        if path.is_file():
            return ScrcpyServer(path, env.get(VERSION_ENV) or None)
    return None


def client_version(exe: str | None = None, timeout: float = 5.0) -> str | None:
    """The version `scrcpy --version` prints ("scrcpy 3.3.4 <https://...>"), or None."""
    exe = exe or shutil.which("scrcpy")
    if not exe:
        return None
    try:
        out = subprocess.run(
            [exe, "--version"], capture_output=True, text=True, timeout=timeout, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        log.info("scrcpy --version failed: %s", exc)
        return None
    first = out.strip().splitlines()[0] if out.strip() else ""
    match = re.match(r"scrcpy\s+v?" + _VERSION_RE.pattern, first)
    return match.group(1) if match else None


def version_from_name(path: Path) -> str | None:
    """Release downloads are named scrcpy-server-v3.3.4."""
    match = re.search(r"scrcpy-server-v" + _VERSION_RE.pattern, path.name)
    return match.group(1) if match else None


def protocol_major(version: str) -> int:
    """The major version, refused unless the studio speaks its protocol."""
    match = re.match(r"(\d+)\.", version)
    major = int(match.group(1)) if match else -1
    if major not in SUPPORTED_MAJORS:
        raise ScrcpyUnavailable(
            f"scrcpy {version} is not supported (the studio speaks the protocol of scrcpy "
            f"{' and '.join(f'{m}.x' for m in SUPPORTED_MAJORS)})"
        )
    return major


def server_command(
    version: str,
    scid: int,
    *,
    tunnel_forward: bool,
    device_path: str = DEVICE_PATH,
    max_size: int | None = None,
) -> str:
    """The shell command that starts the server: video only, H.264, no audio, no control."""
    args = [
        f"CLASSPATH={shlex.quote(device_path)}",
        "app_process",
        "/",
        SERVER_CLASS,
        version,
        f"scid={scid:08x}",
        "log_level=info",
        "video=true",
        "audio=false",
        "control=false",
        "video_codec=h264",
        f"tunnel_forward={'true' if tunnel_forward else 'false'}",
    ]
    if max_size:
        args.append(f"max_size={int(max_size)}")
    return " ".join(args)


def socket_name(scid: int) -> str:
    return f"scrcpy_{scid:08x}"


# ---- the stream -------------------------------------------------------------------------------


@dataclass(frozen=True)
class VideoHeader:
    """What the server sends before the first packet."""

    device_name: str
    codec: str
    width: int
    height: int
    protocol: int  # 3: codec + size header; 4: codec + session packets


@dataclass(frozen=True)
class MediaPacket:
    pts: int
    config: bool
    key: bool
    data: bytes


@dataclass(frozen=True)
class SessionPacket:
    """4.x: a new capture session (e.g. after a rotation) and its frame size."""

    width: int
    height: int
    client_resized: bool


Reader = Callable[[int], bytes]  # reads exactly n bytes or raises EOFError/OSError


def _codec_name(codec_id: int) -> str:
    return CODEC_NAMES.get(codec_id) or f"0x{codec_id:08x}"


def read_header(read: Reader, *, forward: bool) -> VideoHeader:
    """(dummy byte,) device name, codec id, then the 3.x size or the 4.x first session packet.

    The layout is told apart from the stream itself: a 3.x width never has its top bit set, a 4.x
    session packet always does.
    """
    if forward:
        read(1)  # the dummy byte: proof that the server (not only adb) accepted the connection
    name = read(DEVICE_NAME_LEN).split(b"\0", 1)[0].decode("utf-8", errors="replace")
    (codec_id,) = struct.unpack(">I", read(4))
    if codec_id == CODEC_DISABLED:
        raise NoVideo("the scrcpy server could not capture the screen (video disabled)")
    if codec_id == CODEC_ERROR:
        raise NoVideo("the scrcpy server reported a configuration error")
    if codec_id != H264_CODEC_ID:
        raise NoVideo(f"the scrcpy server sent codec {_codec_name(codec_id)}, not h264")
    (first,) = struct.unpack(">I", read(4))
    if first & 0x8000_0000:  # 4.x session packet: flag, padding, client-resized bit
        width, height = struct.unpack(">II", read(8))
        protocol = 4
    else:  # 3.x: width, height
        width, (height,) = first, struct.unpack(">I", read(4))
        protocol = 3
    return VideoHeader(name, "h264", width, height, protocol)


_SIZE_LIMIT = 64 << 20  # no MediaCodec packet is this big: the stream is out of step


def read_packet(read: Reader, protocol: int) -> MediaPacket | SessionPacket:
    """One packet after the header: 12-byte header [flags|PTS][size], then the payload."""
    head = read(12)
    pts_flags, size = struct.unpack(">QI", head)
    if protocol >= 4:
        if pts_flags >> 63:
            width, height = struct.unpack(">II", head[4:])
            return SessionPacket(width, height, bool(head[3] & 1))
        config, key, pts = (pts_flags >> 62) & 1, (pts_flags >> 61) & 1, pts_flags & ((1 << 61) - 1)
    else:
        config, key, pts = pts_flags >> 63, (pts_flags >> 62) & 1, pts_flags & ((1 << 62) - 1)
    if size > _SIZE_LIMIT:
        raise ValueError(f"scrcpy packet of {size} bytes: the stream is out of step")
    return MediaPacket(0 if config else pts, bool(config), bool(key), read(size))


class VideoStream:
    """One scrcpy video socket read into a frame sink: header, session packets, media packets
    (config packets are held by the decoder and prepended to the next packet)."""

    def __init__(
        self,
        sock: socket.socket,
        *,
        forward: bool,
        first_frame_timeout: float = FIRST_FRAME_TIMEOUT_S,
    ):
        self.sock, self.forward = sock, forward
        self.first_frame_timeout = first_frame_timeout
        self.header: VideoHeader | None = None
        self.sessions: list[SessionPacket] = []
        self.frames = 0

    def _reader(self, stop: threading.Event) -> Reader:
        started = time.monotonic()

        def read(n: int) -> bytes:
            buf = bytearray()
            while len(buf) < n:
                if stop.is_set():
                    raise EOFError("stopped")
                if not self.frames and time.monotonic() - started > self.first_frame_timeout:
                    raise NoVideo(
                        f"scrcpy server sent no frame within {self.first_frame_timeout:g} s"
                    )
                try:
                    chunk = self.sock.recv(min(n - len(buf), 1 << 20))
                except TimeoutError:
                    continue
                if not chunk:
                    raise EOFError("video socket closed")
                buf += chunk
            return bytes(buf)

        return read

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        """Until `stop`; raises NoVideo (refused, no frame in time) or EOFError/OSError/ValueError."""
        self.sock.settimeout(0.25)
        read = self._reader(stop)
        self.header = read_header(read, forward=self.forward)
        decoder = H264Decoder()
        while not stop.is_set():
            packet = read_packet(read, self.header.protocol)
            if isinstance(packet, SessionPacket):
                self.sessions.append(packet)
                continue  # the next config packet carries the new SPS; the decoder follows it
            now = time.perf_counter()
            for f in decoder.feed_packet(packet.data, now, pts=packet.pts, config=packet.config):
                self.frames += 1
                sink(f)


# ---- the source -------------------------------------------------------------------------------


class _ServerProcess:
    """The server kept running through `adb shell`; its output is kept for error messages."""

    def __init__(self, conn: adbutils.AdbConnection):
        self.conn = conn
        self.output = bytearray()
        self.exited = threading.Event()
        self._thread = threading.Thread(target=self._read, name="scrcpy-server-out", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while True:
                chunk = self.conn.conn.recv(4096)
                if not chunk:
                    break
                if len(self.output) < 16384:
                    self.output += chunk
        except OSError:
            pass
        finally:
            self.exited.set()

    def error_line(self) -> str:
        """The server's most telling line: its ERROR, else its last line."""
        lines = [ln.strip() for ln in self.output.decode(errors="replace").splitlines()]
        lines = [ln for ln in lines if ln]
        for ln in lines:
            if "ERROR" in ln or "Exception" in ln or "not found" in ln:
                return ln[:200]
        return lines[-1][:200] if lines else ""

    def close(self) -> None:
        close_quietly(self.conn.conn)
        self._thread.join(2.0)


class ScrcpySource(SocketSource):
    """The user's scrcpy server, pushed to the device and read over an adb reverse (or forward)
    tunnel; H.264 packets go to the shared decoder."""

    mode = "h264 (scrcpy)"

    def __init__(
        self,
        adb: Adb,
        serial: str,
        server: ScrcpyServer,
        *,
        device_path: str | None = None,  # default: scrcpy-server.jar in Adb.device_tmp
        tunnel: str = "auto",  # "auto" (reverse, then forward), "reverse" or "forward"
        max_size: int | None = None,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        first_frame_timeout: float = FIRST_FRAME_TIMEOUT_S,
    ):
        super().__init__()
        if tunnel not in {"auto", "reverse", "forward"}:
            raise ValueError(f"tunnel must be auto, reverse or forward, not {tunnel!r}")
        self.adb, self.serial, self.server = adb, serial, server
        self.device_path = device_path or f"{adb.device_tmp.rstrip('/')}/{DEVICE_FILE}"
        self.tunnel, self.max_size = tunnel, max_size
        self.connect_timeout, self.first_frame_timeout = connect_timeout, first_frame_timeout
        self.version: str | None = None
        self.stream: VideoStream | None = None
        self.tunnel_used = ""
        self.pushed = False

    # -- setup

    def push_server(self) -> bool:
        """Push the server unless the device already has the same file; True when pushed."""
        return self.adb.push_if_changed(
            self.serial, self.server.path.read_bytes(), self.device_path
        )

    def _start(self, scid: int, forward: bool) -> _ServerProcess:
        assert self.version is not None
        cmd = server_command(
            self.version,
            scid,
            tunnel_forward=forward,
            device_path=self.device_path,
            max_size=self.max_size,
        )
        conn = self.adb.device(self.serial).shell(cmd, stream=True)
        return _ServerProcess(conn)

    def _failed(self, proc: _ServerProcess, what: str) -> NoVideo:
        line = proc.error_line()
        return NoVideo(f"{what}: {line}" if line else what)

    def _open_reverse(
        self, scid: int, stop: threading.Event
    ) -> tuple[socket.socket, _ServerProcess]:
        dev = self.adb.device(self.serial)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(0.25)
        remote = f"localabstract:{socket_name(scid)}"
        try:
            dev.reverse(remote, f"tcp:{listener.getsockname()[1]}")
        except BaseException:
            listener.close()
            raise
        self._set(listener)  # interrupt() closes it
        proc: _ServerProcess | None = None
        try:
            proc = self._start(scid, forward=False)
            deadline = time.monotonic() + self.connect_timeout
            while True:
                self._still_waiting(proc, deadline, stop, "connect")
                try:
                    sock, _ = listener.accept()
                except TimeoutError:
                    continue
                return sock, proc
        except BaseException:
            if proc is not None:
                proc.close()
            raise
        finally:
            self._set(None)
            with contextlib.suppress(adbutils.AdbError, OSError):
                dev.reverse_remove(remote)  # the connection stays; the tunnel is not needed

    def _still_waiting(
        self, proc: _ServerProcess, deadline: float, stop: threading.Event, what: str
    ) -> None:
        """Raise when waiting for the server makes no more sense: stopped, exited, too late."""
        if stop.is_set():
            raise NoVideo("stopped")
        if proc.exited.is_set():
            raise self._failed(proc, "scrcpy server exited")
        if time.monotonic() > deadline:
            raise self._failed(
                proc, f"scrcpy server did not {what} within {self.connect_timeout:g} s"
            )

    def _open_forward(
        self, scid: int, stop: threading.Event
    ) -> tuple[socket.socket, _ServerProcess]:
        dev = self.adb.device(self.serial)
        with socket.socket() as probe:  # a free host port, just before forwarding
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        local = f"tcp:{port}"
        dev.forward(local, f"localabstract:{socket_name(scid)}")
        proc: _ServerProcess | None = None
        try:
            proc = self._start(scid, forward=True)
            deadline = time.monotonic() + self.connect_timeout
            # adb accepts the connection even before the server listens, then closes it: retry
            # until the server's dummy byte arrives, as scrcpy's client does
            while True:
                self._still_waiting(proc, deadline, stop, "accept")
                try:
                    sock = socket.create_connection((self.adb.server.host, port), timeout=1.0)
                except OSError:
                    stop.wait(0.1)
                    continue
                self._set(sock)
                if self._dummy_byte(sock, proc, deadline, stop):
                    return sock, proc
                self._set(None)
                stop.wait(0.1)
        except BaseException:
            self._set(None)
            if proc is not None:
                proc.close()
            raise
        finally:
            with contextlib.suppress(adbutils.AdbError, OSError):
                dev.forward_remove(local, False)

    @staticmethod
    def _dummy_byte(
        sock: socket.socket, proc: _ServerProcess, deadline: float, stop: threading.Event
    ) -> bool:
        """Wait for the server's dummy byte (left in the socket for the header reader). False when
        adb closed the connection because nothing listens yet on the device."""
        sock.settimeout(0.25)
        while not stop.is_set() and not proc.exited.is_set() and time.monotonic() < deadline:
            try:
                return bool(sock.recv(1, socket.MSG_PEEK))
            except TimeoutError:
                continue  # connected to the server, which has not written yet: keep this socket
            except OSError:
                return False
        return False

    def _connect(self, stop: threading.Event) -> tuple[socket.socket, _ServerProcess, bool]:
        scid = secrets.randbits(31)
        # a reverse tunnel makes the adb server connect to its own host: only local servers
        local_server = self.adb.server.host in {"127.0.0.1", "localhost", "::1"}
        if self.tunnel == "reverse" or (self.tunnel == "auto" and local_server):
            try:
                sock, proc = self._open_reverse(scid, stop)
                return sock, proc, False
            except adbutils.AdbError as exc:
                if self.tunnel == "reverse":
                    raise NoVideo(f"adb reverse failed: {exc}") from exc
                log.info("scrcpy: adb reverse failed (%s), using adb forward", exc)
        sock, proc = self._open_forward(secrets.randbits(31), stop)
        return sock, proc, True

    # -- streaming

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        try:
            self.version = self.server.resolved_version()
            self.pushed = self.push_server()
            sock, proc, forward = self._connect(stop)
        except (adbutils.AdbError, OSError) as exc:
            raise NoVideo(f"scrcpy server could not be started: {exc}") from exc
        self.tunnel_used = "forward" if forward else "reverse"
        self._set(sock)
        stream = VideoStream(sock, forward=forward, first_frame_timeout=self.first_frame_timeout)
        self.stream = stream
        try:
            stream.run(sink, stop)
        except NoVideo:
            if not stop.is_set():
                raise
        except (EOFError, OSError, ValueError) as exc:
            if not stream.frames and not stop.is_set():
                if proc.exited.wait(0.5):
                    raise self._failed(proc, f"scrcpy stream ended ({exc})") from exc
                raise NoVideo(f"scrcpy stream: {exc}") from exc
        finally:
            self._set(None)
            proc.close()

    @property
    def header(self) -> VideoHeader | None:
        return self.stream.header if self.stream else None


def scrcpy_source(
    adb: Adb, serial: str, env: Mapping[str, str] | None = None
) -> ScrcpySource | None:
    """A scrcpy source when a server is installed on this machine, else None."""
    server = find_server(env)
    return ScrcpySource(adb, serial, server) if server else None
