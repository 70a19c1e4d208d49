"""A phone without a phone: Debian's real adbd in a private network namespace, reached by a real adb
server over a veth link, with the phone's programs (CtrlProxy, screenrecord, input ...) as small
stand-ins pushed with adb and run through that adbd's shell.

Everything started here is torn down by PID. Tests that need it are skipped, with the reason, only
where this machine cannot create network namespaces or we are not root.

A pytest plugin (registered in tests/conftest.py), so tests/device and tests/ui share ONE phone
per session.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import adbutils
import pytest

from studio.device.adb import CTRLPROXY_PACKAGE, CTRLPROXY_SERVICE, Adb, AdbServer
from tests.device import media

PHONE_SRC = Path(__file__).parent / "phone"
REPO = Path(__file__).resolve().parents[2]
ADBD_PORT = 6520  # outside 5555-5585, which the adb server treats as emulators
STANDINS = ("getprop", "wm", "settings", "input", "screencap", "cmd", "app_process")
PYTHON_STANDINS = ("pm", "screenrecord")  # phone/<name>.py run by a shell wrapper
#: An older CtrlProxy (before prototypes): what WebSocketServer.kt@de87f410 advertises.
PRE_PROTOTYPE_CAPABILITIES = (
    "set_hierarchy_interval",
    "node_selector_actions",
    "request_activate_accessibility_link",
    "request_insert_text",
    "request_commit_text",
)


def _namespace_problem() -> str | None:
    if os.geteuid() != 0:
        return "device tests run Debian's adbd as root in a network namespace; not root here"
    for tool in ("unshare", "nsenter", "ip"):
        if shutil.which(tool) is None:
            return (
                f"device tests need `{tool}` (util-linux / iproute2) to build a network namespace"
            )
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"this machine cannot create network namespaces: {probe.stderr.strip()}"
    return None


def _netns_pids(holder_pid: int) -> list[int]:
    """Every process in the holder's network namespace (all of them ours)."""
    try:
        target = os.readlink(f"/proc/{holder_pid}/ns/net")
    except OSError:
        return []
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{entry}/ns/net") == target:
                    pids.append(int(entry))
    return pids


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Phone:
    """The stand-in phone: its serial, the studio's Adb pointed at our adb server, its root dir."""

    serial: str
    adb: Adb
    root: Path
    holder_pid: int
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def device(self) -> adbutils.AdbDevice:
        return self.adb.device(self.serial)

    def sh(self, cmd: str) -> str:
        return str(self.device.shell(cmd, timeout=10))

    def read(self, name: str) -> str:
        return self.sh(f"cat {self.root}/{name} 2>/dev/null")

    def reset(self) -> None:
        """Installed and enabled CtrlProxy (the long component form, as Settings writes it), a
        working screenrecord, no taps, no props (a physical phone, unlocked, awake)."""
        r = self.root
        self.sh(
            f"rm -rf {r}/settings {r}/props {r}/installed {r}/taps.log {r}/ctrlproxy.log "
            f"{r}/screenrecord.log {r}/pm.log {r}/video-server.log {r}/media/screenrecord.broken "
            f"{r}/media/rotated.h264 {r}/tmp; mkdir -p {r}/installed {r}/props {r}/tmp; "
            f"touch {r}/installed/{CTRLPROXY_PACKAGE}"
        )
        self.sh(f"settings put secure enabled_accessibility_services {CTRLPROXY_SERVICE}")
        self.sh("settings put secure accessibility_enabled 1")

    def set_prop(self, name: str, value: str | None) -> None:
        """A phone property the stand-ins read (props/<name>; None removes it)."""
        path = f"{self.root}/props/{name}"
        if value is None:
            self.sh(f"rm -f {path}")
        else:
            self.device.sync.push(value.encode(), path, mode=0o644)

    def log(self, name: str) -> list[dict[str, object]]:
        """A stand-in's JSON-lines log (ctrlproxy.log)."""
        import json

        return [json.loads(line) for line in self.read(name).splitlines() if line.strip()]


@pytest.fixture(scope="session")
def phone() -> Iterator[Phone]:
    problem = _namespace_problem()
    if problem:
        pytest.skip(problem)
    adbd = shutil.which("adbd") or "/usr/lib/android-sdk/platform-tools/adbd"
    if not os.path.exists(adbd):
        pytest.fail(
            "adbd is not installed: run `scripts/system-deps --tests` (adbd from bookworm-backports)"
        )
    root = Path(tempfile.mkdtemp(prefix="proto-studio-phone-"))
    (root / "bin").mkdir()
    holder = subprocess.Popen(["unshare", "-n", "sleep", "3600"])
    pid = holder.pid
    host_if, dev_if = f"psh{pid}"[:15], f"psd{pid}"[:15]
    b, c, d = 200 + (pid >> 14) % 50, (pid >> 6) % 256, (pid % 64) * 4
    host_ip, dev_ip = f"10.{b}.{c}.{d + 1}", f"10.{b}.{c}.{d + 2}"
    server = AdbServer(host="127.0.0.1", port=_free_port())
    adb = Adb(server, device_tmp=f"{root}/tmp")  # the phone's /data/local/tmp
    started: list[subprocess.Popen[bytes]] = [holder]
    adbd_log = open(root / "adbd.log", "wb")  # noqa: SIM115 (closed at teardown)
    try:
        for _ in range(100):  # unshare has exec'd sleep in the new namespace
            if os.readlink(f"/proc/{pid}/ns/net") != os.readlink("/proc/self/ns/net"):
                break
            time.sleep(0.01)

        def ip(*args: str, netns: bool = False) -> None:
            cmd = (["nsenter", "-t", str(pid), "-n"] if netns else []) + ["ip", *args]
            subprocess.run(cmd, check=True, capture_output=True)

        ip("link", "add", host_if, "type", "veth", "peer", "name", dev_if, "netns", str(pid))
        ip("addr", "add", f"{host_ip}/30", "dev", host_if)
        ip("link", "set", host_if, "up")
        ip("link", "set", "lo", "up", netns=True)
        ip("addr", "add", f"{dev_ip}/30", "dev", dev_if, netns=True)
        ip("link", "set", dev_if, "up", netns=True)
        env_path = f"{root}/bin:{os.environ.get('PATH', '/usr/bin:/bin')}"
        started.append(
            subprocess.Popen(
                [
                    "nsenter",
                    "-t",
                    str(pid),
                    "-n",
                    "env",
                    f"ADBD_PORT={ADBD_PORT}",
                    f"PATH={env_path}",
                    f"PHONE_PYTHON={sys.executable}",
                    adbd,
                ],
                stdout=adbd_log,
                stderr=subprocess.STDOUT,
            )
        )
        exe = shutil.which("adb") or str(adbutils.adb_path())
        subprocess.run(
            [exe, "-P", str(server.port), "start-server"], check=True, capture_output=True
        )
        serial = f"{dev_ip}:{ADBD_PORT}"
        deadline = time.monotonic() + 10
        while True:
            reply = adb.client.connect(serial, timeout=5)
            if "connected" in reply and "unable" not in reply and "failed" not in reply:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"adb connect {serial}: {reply}")
            time.sleep(0.1)
        while not any(i.serial == serial and i.state == "device" for i in adb.client.list()):
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{serial} never became `device`: {(root / 'adbd.log').read_text()[-500:]}"
                )
            time.sleep(0.05)
        ph = Phone(serial, adb, root, pid, started)
        dev = ph.device
        for name in STANDINS:  # the phone's programs arrive the way an app would: adb push
            dev.sync.push(str(PHONE_SRC / name), f"{root}/bin/{name}", mode=0o755)
        for name in PYTHON_STANDINS:
            dev.sync.push(str(PHONE_SRC / f"{name}.py"), f"{root}/bin/{name}.py", mode=0o644)
            wrapper = f'#!/bin/sh\nexec {sys.executable} "$(dirname "$0")/{name}.py" "$@"\n'
            dev.sync.push(wrapper.encode(), f"{root}/bin/{name}", mode=0o755)
        dev.sync.push(
            str(PHONE_SRC / "ctrlproxy_standin.py"), f"{root}/app/ctrlproxy_standin.py", mode=0o644
        )
        clip, _ = media.color_clip()
        dev.sync.push(clip, f"{root}/media/screen.h264", mode=0o644)
        dev.sync.push(b"360x800", f"{root}/media/screen.h264.size", mode=0o644)
        dev.sync.push(
            media.png(media.solid(360, 800, media.GREEN)), f"{root}/media/screen.png", mode=0o644
        )
        yield ph
    finally:
        with contextlib.suppress(Exception):
            subprocess.run(
                [
                    shutil.which("adb") or str(adbutils.adb_path()),
                    "-P",
                    str(server.port),
                    "kill-server",
                ],
                capture_output=True,
                timeout=10,
            )
        for p in _netns_pids(pid):  # adbd, the stand-ins it ran, the namespace holder
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, signal.SIGKILL)
        for proc in started:
            with contextlib.suppress(Exception):
                proc.kill()
                proc.wait(5)
        adbd_log.close()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def fresh_phone(phone: Phone) -> Phone:
    phone.reset()
    return phone


@dataclass
class StandIn:
    conn: adbutils.AdbConnection
    pid: int

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self.conn.close()


@pytest.fixture
def start_ctrlproxy(fresh_phone: Phone) -> Iterator[Callable[..., StandIn]]:
    """Start the CtrlProxy stand-in on the phone's loopback 127.0.0.1:8765 (through adbd's shell).

    `only`: the capabilities it advertises (default: everything AutoMobile's CtrlProxy lists);
    `without`: names taken out of that; `ttl_ms`: its idle TTL (AutoMobile's 5 minutes by
    default); `hierarchy_ms`: push `hierarchy_update` frames that often."""
    running: list[StandIn] = []

    def start(
        only: tuple[str, ...] = (),
        *,
        without: tuple[str, ...] = (),
        ttl_ms: int | None = None,
        hierarchy_ms: int = 0,
    ) -> StandIn:
        r = fresh_phone.root
        cmd = (
            f"PYTHONPATH={REPO} {sys.executable} {r}/app/ctrlproxy_standin.py --port 8765 "
            f"--root {r} --pidfile {r}/ctrlproxy.pid"
        )
        if only or without:
            names = only or _standin_default_capabilities()
            cmd += " --supported " + ",".join(n for n in names if n not in without)
        if ttl_ms is not None:
            cmd += f" --ttl-ms {ttl_ms}"
        if hierarchy_ms:
            cmd += f" --hierarchy-ms {hierarchy_ms}"
        conn = fresh_phone.device.shell(cmd, stream=True)
        conn.conn.settimeout(20)
        line = b""
        while b"listening" not in line:  # kept open afterwards, like a real server
            chunk = conn.conn.recv(256)
            if not chunk:
                raise RuntimeError(
                    f"CtrlProxy stand-in did not start: {line.decode(errors='replace')}"
                )
            line += chunk
        standin = StandIn(conn, int(fresh_phone.read("ctrlproxy.pid")))
        running.append(standin)
        return standin

    yield start
    for standin in running:
        standin.stop()


def _standin_default_capabilities() -> tuple[str, ...]:
    """The stand-in's own full list (REQUEST_TYPES + FLAGS), read from its source."""
    import ast

    tree = ast.parse((PHONE_SRC / "ctrlproxy_standin.py").read_text())
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") in {
            "REQUEST_TYPES",
            "FLAGS",
        }:
            names += [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    return tuple(names)


ALL_CAPABILITIES = _standin_default_capabilities()
