"""scrcpy's video framing read over a real local TCP socket from a fake device-side writer (odd
chunk sizes, config packets, 3.x and 4.x headers), server discovery, and the source order."""

from __future__ import annotations

import socket
import stat
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.device.adb import Adb, AdbServer
from studio.device.decoder import Frame
from studio.device.mirror import default_sources
from studio.device.scrcpy import (
    ScrcpyServer,
    ScrcpySource,
    ScrcpyUnavailable,
    VideoStream,
    client_version,
    find_server,
    protocol_major,
    server_command,
    version_from_name,
)
from studio.device.sources import (
    FramedStreamSource,
    NoVideo,
    ScreencapSource,
    ScreenrecordSource,
)
from tests.device import media

H264 = 0x68323634
CHUNKS = (1, 7, 13, 777, 3, 4096, 11)  # odd sizes: every header gets split somewhere


def _split_config(pkt: bytes) -> tuple[bytes, bytes]:
    """SPS + PPS (what MediaCodec emits as its config buffer) and the rest of the key frame."""
    second = pkt.find(b"\x00\x00\x00\x01", 4)
    cut = pkt.find(b"\x00\x00\x00\x01", second + 4)
    return pkt[:cut], pkt[cut:]


def _media(
    protocol: int, pts: int, data: bytes, *, config: bool = False, key: bool = False
) -> bytes:
    if protocol >= 4:
        flags = (1 << 62 if config else 0) | (1 << 61 if key else 0)
    else:
        flags = (1 << 63 if config else 0) | (1 << 62 if key else 0)
    return struct.pack(">QI", flags | pts, len(data)) + data


def _session(width: int, height: int) -> bytes:
    return struct.pack(">III", 1 << 31, width, height)


def _device_stream(
    protocol: int, segments: list[tuple[int, int, list[bytes]]], *, forward: bool
) -> bytes:
    """What a scrcpy server writes on the video socket; one segment per capture session."""
    out = b"\0" if forward else b""
    out += b"Pixel 9 Pro".ljust(64, b"\0") + struct.pack(">I", H264)
    n = 0
    for s, (width, height, packets) in enumerate(segments):
        if protocol >= 4:
            out += _session(width, height)
        elif s == 0:
            out += struct.pack(">II", width, height)
        for i, pkt in enumerate(packets):
            if i == 0:
                config, pkt = _split_config(pkt)
                out += _media(protocol, 0, config, config=True)
            out += _media(protocol, n * 33333, pkt, key=i == 0)
            n += 1
    return out


class FakeDevice:
    """Plays the device side of the video socket: accepts one connection, writes `stream` in odd
    chunks, then stays open like a real server (adb streams have no half-close)."""

    def __init__(self) -> None:
        self.stream = b""
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(1)
        self.port = int(self.srv.getsockname()[1])
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.srv.accept()
        data, pos, k = self.stream, 0, 0
        while pos < len(data):
            size = CHUNKS[k % len(CHUNKS)]
            conn.sendall(data[pos : pos + size])
            pos, k = pos + size, k + 1
        self.done.wait(10)
        conn.close()

    def read(self, stream: bytes, want: int, *, forward: bool) -> tuple[VideoStream, list[Frame]]:
        """Connect the studio's reader and collect `want` frames."""
        self.stream = stream
        sock = socket.create_connection(("127.0.0.1", self.port))
        reader = VideoStream(sock, forward=forward)
        frames: list[Frame] = []
        stop = threading.Event()

        def sink(f: Frame) -> None:
            frames.append(f)
            if len(frames) >= want:
                stop.set()

        try:
            reader.run(sink, stop)
        finally:
            sock.close()
        return reader, frames


@pytest.fixture
def device() -> Iterator[FakeDevice]:
    dev = FakeDevice()
    yield dev
    dev.done.set()
    dev.thread.join(5)
    dev.srv.close()


def test_scrcpy3_stream_in_odd_chunks_decodes_to_the_known_colors(
    device: FakeDevice,
) -> None:
    colors = [media.RED] * 4 + [media.GREEN] * 4 + [media.BLUE] * 4
    packets = media.encode_h264([media.solid(320, 240, c) for c in colors])
    assert len(packets) == 12
    stream = _device_stream(3, [(320, 240, packets)], forward=True)
    reader, frames = device.read(stream, 12, forward=True)
    assert reader.header is not None
    assert (reader.header.device_name, reader.header.codec) == ("Pixel 9 Pro", "h264")
    assert (reader.header.width, reader.header.height, reader.header.protocol) == (320, 240, 3)
    # 13 packets on the wire (config + 12); the config packet made no frame of its own
    assert len(frames) == 12
    for i, color in enumerate(colors):
        assert media.near(media.mean_color(frames[i]), color), (i, media.mean_color(frames[i]))
    assert [f.pts for f in frames[:3]] == [0, 33333, 66666]
    assert (frames[0].width, frames[0].height) == (320, 240)


def test_scrcpy4_session_packets_follow_a_rotation(device: FakeDevice) -> None:
    portrait = media.encode_h264([media.solid(240, 320, media.RED) for _ in range(3)])
    landscape = media.encode_h264([media.solid(320, 240, media.BLUE) for _ in range(3)])
    stream = _device_stream(4, [(240, 320, portrait), (320, 240, landscape)], forward=False)
    reader, frames = device.read(stream, 6, forward=False)
    assert reader.header is not None and reader.header.protocol == 4
    assert (reader.header.width, reader.header.height) == (240, 320)
    assert [(s.width, s.height) for s in reader.sessions] == [(320, 240)]
    assert [(f.height, f.width) for f in frames] == [(320, 240)] * 3 + [(240, 320)] * 3
    assert media.near(media.mean_color(frames[0]), media.RED) and media.near(
        media.mean_color(frames[-1]), media.BLUE
    )
    assert [f.pts for f in frames] == [i * 33333 for i in range(6)]


@pytest.mark.parametrize(
    ("codec", "message"),
    [
        (1, "configuration error"),
        (0, "could not capture the screen"),
        (0x68323635, "codec h265, not h264"),
    ],
)
def test_a_refused_stream_says_why(device: FakeDevice, codec: int, message: str) -> None:
    stream = b"Pixel".ljust(64, b"\0") + struct.pack(">I", codec)
    with pytest.raises(NoVideo, match=message):
        device.read(stream, 1, forward=False)


def test_versions_the_studio_does_not_speak_fail_with_one_line() -> None:
    assert protocol_major("3.3.4") == 3 and protocol_major("4.0") == 4
    for version in ("2.7", "1.24", "5.0", "nightly"):
        with pytest.raises(ScrcpyUnavailable) as err:
            protocol_major(version)
        assert str(err.value) == (
            f"scrcpy {version} is not supported (the studio speaks the protocol of scrcpy 3.x "
            "and 4.x)"
        )


def _fake_scrcpy(directory: Path, text: str) -> Path:
    exe = directory / "scrcpy"
    exe.write_text(f"#!/bin/sh\necho '{text}'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_finds_the_server_and_its_version(tmp_path: Path) -> None:
    server = tmp_path / "share" / "scrcpy-server"
    server.parent.mkdir()
    server.write_bytes(b"dex")
    missing = str(tmp_path / "nowhere" / "scrcpy-server")
    assert find_server({}, paths=[missing]) is None
    assert find_server({}, paths=[missing, str(server)]) == ScrcpyServer(server)
    env = {"SCRCPY_SERVER_PATH": str(server), "SCRCPY_SERVER_VERSION": "3.1"}
    assert find_server(env, paths=[]) == ScrcpyServer(server, "3.1")
    # a SCRCPY_SERVER_PATH that does not exist falls through to the install paths
    assert find_server({"SCRCPY_SERVER_PATH": missing}, paths=[str(server)]) == ScrcpyServer(server)
    exe = _fake_scrcpy(tmp_path, "scrcpy 3.3.4 <https://github.com/Genymobile/scrcpy>")
    assert client_version(str(exe)) == "3.3.4"
    assert client_version(str(_fake_scrcpy(tmp_path, "something else"))) is None
    assert version_from_name(Path("scrcpy-server-v3.3.1")) == "3.3.1"
    assert version_from_name(Path("scrcpy-server")) is None


def test_server_command_asks_for_video_only_h264() -> None:
    cmd = server_command("3.3.4", 0x1234ABCD, tunnel_forward=True)
    assert cmd.split() == [
        "CLASSPATH=/data/local/tmp/scrcpy-server.jar",
        "app_process",
        "/",
        "com.genymobile.scrcpy.Server",
        "3.3.4",
        "scid=1234abcd",
        "log_level=info",
        "video=true",
        "audio=false",
        "control=false",
        "video_codec=h264",
        "tunnel_forward=true",
    ]
    assert "tunnel_forward=false" in server_command("3.3.4", 1, tunnel_forward=False)


def test_sources_are_tried_automobile_scrcpy_screenrecord_screencap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = tmp_path / "scrcpy-server"
    server.write_bytes(b"dex")
    monkeypatch.setenv("SCRCPY_SERVER_PATH", str(server))
    monkeypatch.setenv("PROTO_STUDIO_AUTOMOBILE_SESSION", "2f1c0a9e-session")
    adb = Adb(AdbServer(host="127.0.0.1", port=1))
    sources = default_sources(adb, "SERIAL")
    assert [type(s) for s in sources] == [
        FramedStreamSource,
        ScrcpySource,
        ScreenrecordSource,
        ScreencapSource,
    ]
    assert [s.mode for s in sources][1] == "h264 (scrcpy)"
    scrcpy = sources[1]
    assert isinstance(scrcpy, ScrcpySource) and scrcpy.server.path == server
    monkeypatch.delenv("PROTO_STUDIO_AUTOMOBILE_SESSION")
    assert type(default_sources(adb, "SERIAL")[0]) is ScrcpySource


def test_an_unknown_server_version_is_one_clear_line(tmp_path: Path) -> None:
    server = tmp_path / "scrcpy-server"
    server.write_bytes(b"dex")
    with pytest.raises(ScrcpyUnavailable, match=r"^scrcpy 2\.7 is not supported"):
        ScrcpyServer(server, "2.7").resolved_version()
