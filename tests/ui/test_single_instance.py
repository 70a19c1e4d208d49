"""One window per library (issue 14; failures.md F6): a second `proto-studio FILE` hands FILE to the
studio already running on that library and exits 0, and a crashed studio's lock and socket are
taken over. With real processes of the app (offscreen)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLockFile
from PySide6.QtNetwork import QLocalServer

from studio.ui.single_instance import LOCK_NAME, claim, server_name

REPO = Path(__file__).resolve().parents[2]


def spec(spec_id: str, text: str) -> dict[str, Any]:
    return {
        "id": spec_id,
        "window": {"placement": {"type": "fullscreen"}},
        "root": {"type": "column", "children": [{"type": "text", "text": text}]},
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def app_env(tmp_path: Path) -> dict[str, str]:
    """The app as a user starts it, on a library of its own, offscreen; adb points at a port
    nothing listens on and at `false`, so no adb server is ever started."""
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PROTO_STUDIO_HOME": str(tmp_path / "home"),
        "ANDROID_ADB_SERVER_PORT": str(_free_port()),
        "ADBUTILS_ADB_PATH": "/bin/false",
        "PYTHONPATH": str(REPO),
    }


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)


def _start(env: dict[str, str], started: list[subprocess.Popen[str]]) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "studio.cli"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO,
    )  # fmt: skip
    started.append(proc)
    return proc


def _launch(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studio.cli", *args],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=90,
    )  # fmt: skip


def _names(home: Path) -> list[str]:
    index = home / "library" / "library.json"
    if not index.exists():
        return []
    return [e["name"] for e in json.loads(index.read_text())["entries"]]


def _holds_the_lock(home: Path, proc: subprocess.Popen[str]) -> bool:
    """The studio `proc` took the library's lock (QLockFile writes its pid on the first line)."""
    try:
        return (home / "library" / LOCK_NAME).read_text().split("\n")[0] == str(proc.pid)
    except OSError:
        return False


def _until(condition: Callable[[], bool], what: str, proc: subprocess.Popen[str]) -> None:
    """Poll another process's visible state (its library) with a bound."""
    deadline = time.monotonic() + 90
    while not condition():
        assert proc.poll() is None, f"the studio exited ({proc.returncode}) before {what}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.mark.timeout(300)
def test_a_second_launch_hands_its_file_to_the_running_studio(
    tmp_path: Path, app_env: dict[str, str], processes: list[subprocess.Popen[str]]
) -> None:
    home = Path(app_env["PROTO_STUDIO_HOME"])
    first = _start(app_env, processes)
    # Launched together, either could become the studio (the other hands over to it); here
    # the first one is, so the test waits until it holds the library.
    _until(lambda: _holds_the_lock(home, first), "the first studio to take the library", first)
    handed = tmp_path / "handed-over.json"
    handed.write_text(json.dumps(spec("handed", "from the second launch")))

    second = _launch(app_env, str(handed))
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == (
        f"proto-studio: opened {handed} in the running studio (pid {first.pid})"
    )
    _until(lambda: "handed-over" in _names(home), "the file to be imported", first)
    assert first.poll() is None  # still the one studio on this library

    # A launch without a file only brings the running studio to the front.
    raised = _launch(app_env)
    assert raised.returncode == 0, raised.stderr
    assert raised.stdout.strip() == f"proto-studio: raised the running studio (pid {first.pid})"

    # The studio crashes: its lock names a dead process and its socket is left behind.
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=30)
    assert (home / "library" / LOCK_NAME).exists()
    third = _start(app_env, processes)
    _until(lambda: _holds_the_lock(home, third), "the new studio to take over the lock", third)
    again = tmp_path / "after-the-crash.json"
    again.write_text(json.dumps(spec("again", "after the crash")))
    fourth = _launch(app_env, str(again))
    assert fourth.returncode == 0, fourth.stderr
    assert f"(pid {third.pid})" in fourth.stdout
    _until(lambda: "after-the-crash" in _names(home), "the second file to be imported", third)
    assert sorted(n for n in _names(home) if n in ("handed-over", "after-the-crash")) == [
        "after-the-crash",
        "handed-over",
    ]  # every entry kept: one writer at a time


def test_a_stale_lock_and_socket_are_taken_over(qapp: Any, tmp_path: Path) -> None:
    folder = tmp_path / "library"
    folder.mkdir()
    # A lock file left by a process that is gone (its pid is reaped, so nothing runs under it).
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    pid = int(dead.stdout)
    (folder / LOCK_NAME).write_text(f"{pid}\npython\n{os.uname().nodename}\n")
    # ... and the socket file of its server, which nobody accepts on any more.
    name = server_name(folder)
    probe = QLocalServer()
    assert probe.listen(name)
    path = probe.fullServerName()
    probe.close()
    if sys.platform != "win32":
        stale = socket.socket(socket.AF_UNIX)
        stale.bind(path)
        stale.close()  # the file stays, as after a crash
        assert Path(path).exists()

    instance = claim(folder, None)
    try:
        assert instance is not None
        instance.serve(lambda _path: None)
        assert instance.server is not None and instance.server.isListening()
        lock = QLockFile(str(folder / LOCK_NAME))
        assert not lock.tryLock(0)  # held by this process now
        info = lock.getLockInfo()
        assert info[0] == os.getpid()
    finally:
        if instance is not None:
            instance.close()


@pytest.mark.timeout(300)
def test_two_launches_at_once_make_one_studio(
    tmp_path: Path, app_env: dict[str, str], processes: list[subprocess.Popen[str]]
) -> None:
    home = Path(app_env["PROTO_STUDIO_HOME"])
    handed = tmp_path / "together.json"
    handed.write_text(json.dumps(spec("together", "launched together")))
    plain = _start(app_env, processes)
    with_file = subprocess.Popen(
        [sys.executable, "-m", "studio.cli", str(handed)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=app_env, cwd=REPO,
    )  # fmt: skip
    processes.append(with_file)
    pair = (plain, with_file)
    deadline = time.monotonic() + 90
    while all(p.poll() is None for p in pair):  # one of them must hand over and exit
        assert time.monotonic() < deadline, "neither launch handed over to the other"
        time.sleep(0.1)
    (gone,) = [p for p in pair if p.poll() is not None]
    (studio,) = [p for p in pair if p is not gone]
    out, err = gone.communicate(timeout=30)
    assert gone.returncode == 0, err
    assert out.strip().endswith(f"the running studio (pid {studio.pid})")
    _until(lambda: "together" in _names(home), "the file to be imported", studio)
    assert studio.poll() is None
