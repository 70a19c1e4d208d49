"""AutoMobile's video-server jar as a mirror source (issue 15 point 3): downloaded from a local
stand-in of AutoMobile's releases and checked against its pinned sha256, then pushed and started
over the real adb path as AutoMobile's host starts it (PersistentEncoderH264Source.ts), with the
`AVMH` hello and its framed stream; a rotation mid-stream keeps the picture right. The jar is the
stand-in tests/device/phone/video_server_standin.py (which cites the jar's source)."""

from __future__ import annotations

import hashlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.device.decoder import Frame
from studio.device.framing import handshake
from studio.device.mirror import default_sources
from studio.device.releases import Release, Releases
from studio.device.sources import VideoServerSource, video_server_command
from tests.device import media
from tests.device.conftest import PHONE_SRC, Phone
from tests.device.release_server import release_server

JAR = (PHONE_SRC / "video_server_standin.py").read_bytes()


@pytest.fixture
def video_jar(fresh_phone: Phone, tmp_path: Path) -> Iterator[Path]:
    """The jar, downloaded and verified like the APK."""
    with release_server({"/0.0.99/automobile-video.jar": JAR}) as github:
        pinned = [Release("0.0.99", "0" * 64, hashlib.sha256(JAR).hexdigest(), prototypes=True)]
        releases = Releases(pinned, base_url=github.base_url, cache_dir=tmp_path / "cache")
        asset = releases.video_jar()
        assert asset is not None and asset.file == "automobile-video.jar"
        yield releases.download(asset)
    pid = fresh_phone.read("video-server.pid").strip()
    if pid.isdigit():
        fresh_phone.sh(f"kill {pid} 2>/dev/null; rm -f {fresh_phone.root}/video-server.pid")


def _gone(phone: Phone, pid: str, within_s: float = 5.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if phone.sh(f"kill -0 {pid} 2>/dev/null && echo alive || echo gone").strip() == "gone":
            return True
    return False


def test_the_jar_is_started_as_automobiles_host_starts_it_and_its_frames_decode(
    fresh_phone: Phone, video_jar: Path
) -> None:
    source = VideoServerSource(fresh_phone.adb, fresh_phone.serial, video_jar)
    frames, statuses = media.collect_frames(
        [source], lambda fs: media.near(media.mean_color(fs[-1]), media.BLUE)
    )
    for colour in (media.RED, media.GREEN, media.BLUE):
        assert any(media.near(media.mean_color(f), colour) for f in frames)
    assert (frames[0].width, frames[0].height) == (360, 800)
    assert statuses[-2].mode == "h264 (AutoMobile video server)"
    args = fresh_phone.read("video-server.log").split()
    assert args[:2] == ["--quality", "medium"]
    assert args[args.index("--socket-name") + 1] == source.socket_name
    assert source.socket_name == "automobile_video_" + source.token.replace("-", "")
    assert args[args.index("--session-token") + 1] == source.token
    assert args[args.index("--device-serial") + 1] == fresh_phone.serial
    assert source.pushed and source.device_pid is not None
    # stopped: the server is ended and the forward removed
    assert _gone(fresh_phone, str(source.device_pid))
    forwards = [f.remote for f in fresh_phone.device.forward_list()]
    assert not any(source.socket_name in r for r in forwards)


def test_a_second_start_does_not_push_the_same_jar_again(
    fresh_phone: Phone, video_jar: Path
) -> None:
    first = VideoServerSource(fresh_phone.adb, fresh_phone.serial, video_jar)
    media.collect_frames([first], lambda fs: len(fs) >= 3)
    second = VideoServerSource(fresh_phone.adb, fresh_phone.serial, video_jar)
    media.collect_frames([second], lambda fs: len(fs) >= 3)
    assert first.pushed and not second.pushed


def test_a_rotation_mid_stream_turns_the_picture(fresh_phone: Phone, video_jar: Path) -> None:
    """The jar recreates its encoder at the rotated size (#4785): the frames follow."""
    clip, _ = media.color_clip(800, 360)
    fresh_phone.device.sync.push(clip, f"{fresh_phone.root}/media/rotated.h264", mode=0o644)
    fresh_phone.device.sync.push(b"800x360", f"{fresh_phone.root}/media/rotated.h264.size")
    source = VideoServerSource(fresh_phone.adb, fresh_phone.serial, video_jar)

    def rotated_to_blue(frames: list[Frame]) -> bool:
        last = frames[-1]
        return last.width == 800 and media.near(media.mean_color(last), media.BLUE)

    frames, _ = media.collect_frames([source], rotated_to_blue)
    sizes = [(f.width, f.height) for f in frames]
    assert sizes[0] == (360, 800) and sizes[-1] == (800, 360)
    turned = sizes.index((800, 360))
    assert all(s == (360, 800) for s in sizes[:turned]) and all(
        s == (800, 360) for s in sizes[turned:]
    )
    assert media.near(media.mean_color(frames[turned]), media.RED)  # the new stream's first frame


def test_a_wrong_token_gets_nothing(fresh_phone: Phone, video_jar: Path) -> None:
    """VideoHandshake.kt `read`: a mismatching token is closed with zero bytes written."""
    adb, serial = fresh_phone.adb, fresh_phone.serial
    jar = f"{adb.device_tmp}/automobile-video.jar"
    adb.push_if_changed(serial, video_jar.read_bytes(), jar)
    token, name = "1234abcd-good-token", "automobile_video_test"
    port = adb.forward_free_port_blocking(serial, f"localabstract:{name}")
    server = adb.device(serial).shell(
        video_server_command(jar, token, name, serial, port), stream=True
    )
    try:
        server.conn.settimeout(10)
        out = b""
        while b"VIDEO_SESSION_READY" not in out:
            out += server.conn.recv(4096)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(handshake("1234abcd-bad-token"))
            assert sock.recv(100) == b""  # closed, nothing written
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(handshake(token))
            assert sock.recv(12)[:4] == b"h264"  # the stream header (`legacyHeader`)
    finally:
        server.close()
        adb.device(serial).forward_remove(f"tcp:{port}", False)


def test_a_downloaded_jar_goes_first_among_the_sources(fresh_phone: Phone, video_jar: Path) -> None:
    sources = default_sources(fresh_phone.adb, fresh_phone.serial, video_jar=video_jar)
    assert [s.mode for s in sources][:1] == ["h264 (AutoMobile video server)"]
    assert [s.mode for s in default_sources(fresh_phone.adb, fresh_phone.serial)][:1] == [
        "h264 (screenrecord)"
    ]
