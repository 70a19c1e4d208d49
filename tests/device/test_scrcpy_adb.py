"""The scrcpy source end to end over a real adb server and Debian's adbd (no phone): the studio
pushes the "server" found on this machine, opens the reverse (or forward) tunnel, starts it with
app_process through adbd's shell, and decodes the known frames the stand-in server streams."""

from __future__ import annotations

import re
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.device.decoder import Frame
from studio.device.mirror import MirrorState
from studio.device.scrcpy import ScrcpyServer, ScrcpySource, find_server
from studio.device.sources import ScreenrecordSource, Source
from tests.device import media
from tests.device.conftest import PHONE_SRC, Phone


@pytest.fixture
def install_scrcpy(fresh_phone: Phone, tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """`install(version)`: a scrcpy server of that version on this machine (the stand-in)."""
    fresh_phone.sh(f"mkdir -p {fresh_phone.root}/tmp; rm -f {fresh_phone.root}/scrcpy.log")
    source = (PHONE_SRC / "scrcpy_server_standin.py").read_text()

    def install(version: str) -> Path:
        path = tmp_path / version / "scrcpy-server"
        path.parent.mkdir(exist_ok=True)
        path.write_text(re.sub(r'(?m)^VERSION = ".*"$', f'VERSION = "{version}"', source))
        return path

    yield install
    pid = fresh_phone.read("scrcpy.pid").strip()
    if pid.isdigit():
        fresh_phone.sh(f"kill {pid} 2>/dev/null; rm -f {fresh_phone.root}/scrcpy.pid")


def _source(phone: Phone, server: ScrcpyServer, **kw: object) -> ScrcpySource:
    return ScrcpySource(
        phone.adb,
        phone.serial,
        server,
        device_path=f"{phone.root}/tmp/scrcpy-server.jar",
        **kw,  # type: ignore[arg-type]
    )


def _server_ends(phone: Phone, within_s: float = 5.0) -> bool:
    """The stand-in server exits once the studio closes its video socket."""
    pid = phone.read("scrcpy.pid").strip()
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if phone.sh(f"kill -0 {pid} 2>/dev/null && echo alive || echo gone").strip() == "gone":
            return True
    return False


def _mirror_until_blue(sources: list[Any]) -> tuple[list[Any], list[Any]]:
    return media.collect_frames(
        sources, lambda fs: media.near(media.mean_color(fs[-1]), media.BLUE)
    )


def _assert_known_frames(frames: list[Frame]) -> None:
    means = [media.mean_color(f) for f in frames]
    for color in (media.RED, media.GREEN, media.BLUE):
        assert any(media.near(m, color) for m in means), f"no {color} frame among {len(frames)}"
    assert media.near(means[0], media.RED)
    assert (frames[0].width, frames[0].height) == (360, 800)


def test_scrcpy_over_adb_reverse_decodes_the_known_frames(
    fresh_phone: Phone,
    install_scrcpy: Callable[[str], Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = install_scrcpy("3.3.4")
    # the user's scrcpy client on PATH tells the server's version, as with a packaged install
    bindir = tmp_path / "bin"
    bindir.mkdir()
    exe = bindir / "scrcpy"
    exe.write_text("#!/bin/sh\necho 'scrcpy 3.3.4 <https://github.com/Genymobile/scrcpy>'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bindir}:{Path(sys.executable).parent}:/usr/bin:/bin")
    server = find_server({"SCRCPY_SERVER_PATH": str(path)}, paths=[])
    assert server == ScrcpyServer(path)

    source = _source(fresh_phone, server)
    frames, statuses = _mirror_until_blue([source])
    _assert_known_frames(frames)
    streaming = [s for s in statuses if s.state is MirrorState.STREAMING]
    assert streaming and streaming[-1].mode == "h264 (scrcpy)" and not streaming[-1].fallback
    assert source.version == "3.3.4" and source.pushed and source.tunnel_used == "reverse"
    assert source.header is not None
    assert (source.header.device_name, source.header.width, source.header.height) == (
        "Stand-in Pixel",
        360,
        800,
    )
    args = fresh_phone.read("scrcpy.log").split()
    assert args[0] == "3.3.4" and re.fullmatch(r"scid=[0-9a-f]{8}", args[1])
    assert {"video=true", "audio=false", "control=false", "tunnel_forward=false"} <= set(args)
    assert "scrcpy_" not in str(fresh_phone.device.reverse_list())  # tunnel removed once connected
    assert _server_ends(fresh_phone), "the server kept running after the mirror stopped"

    # a second start finds the same server already on the device and does not push it again
    again = _source(fresh_phone, server)
    frames, _ = _mirror_until_blue([again])
    assert again.pushed is False and media.near(media.mean_color(frames[0]), media.RED)


def test_scrcpy4_over_adb_forward_decodes_the_known_frames(
    fresh_phone: Phone, install_scrcpy: Callable[[str], Path]
) -> None:
    server = ScrcpyServer(install_scrcpy("4.0"), "4.0")
    source = _source(fresh_phone, server, tunnel="forward")
    frames, _ = _mirror_until_blue([source])
    _assert_known_frames(frames)
    assert source.tunnel_used == "forward"
    assert source.header is not None and source.header.protocol == 4
    assert "tunnel_forward=true" in fresh_phone.read("scrcpy.log")
    assert not [f for f in fresh_phone.device.forward_list() if "scrcpy_" in f.remote]


def test_a_mismatched_server_falls_back_to_screenrecord_and_says_why(
    fresh_phone: Phone, install_scrcpy: Callable[[str], Path]
) -> None:
    server = ScrcpyServer(install_scrcpy("3.3.4"), "3.3.3")  # client says 3.3.3, server is 3.3.4
    sources: list[Source] = [
        _source(fresh_phone, server),
        ScreenrecordSource(fresh_phone.adb, fresh_phone.serial),
    ]
    frames, statuses = media.collect_frames(
        sources, lambda fs: media.near(media.mean_color(fs[-1]), media.BLUE)
    )
    assert media.near(media.mean_color(frames[0]), media.RED)
    live = [s for s in statuses if s.state is MirrorState.STREAMING][-1]
    assert live.mode == "h264 (screenrecord)"
    assert live.message == (
        "h264 (scrcpy): scrcpy server exited: "
        "ERROR: The server version (3.3.4) does not match the client (3.3.3)"
    )
