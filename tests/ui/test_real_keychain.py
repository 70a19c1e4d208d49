"""Agent settings against a real OS keychain: Debian's gnome-keyring as the Secret Service, on a
private D-Bus session bus this test starts (and stops, by PID). The key typed in the settings
dialog is stored there, read back by a new process, and appears in no file the studio writes.

The rest of the suite uses an in-memory keychain (tests/conftest.py); this is the one place the
keyring library's real backend (`keyring.backends.SecretService`, over D-Bus) is exercised.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import keyring
import pytest
from keyring.backends import SecretService

from studio.agent.config import AgentConfig
from studio.agent.keys import KeyStore
from studio.ui.agent_settings import AgentSettingsDialog
from tests.helpers.waiting import run_until
from tests.ui.agent_helpers import collect

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

KEY = "sk-proj-REALKEYCHAIN-0123456789abcdef"
REPO = Path(__file__).resolve().parents[2]


class Bus:
    """A D-Bus session bus with gnome-keyring's Secret Service on it, unlocked."""

    def __init__(self, root: Path) -> None:
        for tool in ("dbus-daemon", "gnome-keyring-daemon"):
            if shutil.which(tool) is None:
                pytest.fail(f"{tool} is not installed: run `scripts/system-deps --tests`")
        self.home = root / "home"
        self.home.mkdir(parents=True)
        # A short path of its own: a unix socket's path is limited to ~100 bytes.
        runtime = self.runtime = Path(tempfile.mkdtemp(prefix="ps-bus-"))
        self.env = {
            **os.environ,
            "HOME": str(self.home),
            "XDG_RUNTIME_DIR": str(runtime),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
        }
        self.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        self.daemon = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1",
             f"--address=unix:path={runtime / 'bus'}"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env, text=True,
        )  # fmt: skip
        assert self.daemon.stdout is not None
        self.address = self.daemon.stdout.readline().strip()  # printed once the bus listens
        if not self.address:
            self.keyring_pid = None
            self.close()
            pytest.fail("dbus-daemon did not start a session bus")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        try:
            self.keyring_pid: int | None = self._start_keyring()
        except BaseException:
            self.close()
            raise

    def _start_keyring(self) -> int:
        """Start gnome-keyring's Secret Service and wait (on the bus's NameOwnerChanged signal,
        bounded) until it owns org.freedesktop.secrets; its PID, for the teardown."""
        from jeepney import MatchRule, message_bus
        from jeepney.io.blocking import Proxy, open_dbus_connection

        name = "org.freedesktop.secrets"
        with open_dbus_connection(self.address) as connection:
            bus = Proxy(message_bus, connection)
            rule = MatchRule(
                type="signal", sender="org.freedesktop.DBus", interface="org.freedesktop.DBus",
                member="NameOwnerChanged", path="/org/freedesktop/DBus",
            )  # fmt: skip
            rule.add_arg_condition(0, name)
            bus.AddMatch(rule)
            with connection.filter(rule) as owner_changes:
                # --unlock creates and unlocks the login keyring with the password read from
                # stdin (the file on disk is encrypted with it); --daemonize returns once the
                # daemon runs, which may be just before it has taken its bus name.
                started = subprocess.run(
                    ["gnome-keyring-daemon", "--daemonize", "--unlock", "--components=secrets"],
                    input="keychain-test-password", capture_output=True, text=True,
                    env=self.env, timeout=60,
                )  # fmt: skip
                if started.returncode != 0:
                    pytest.fail(f"gnome-keyring-daemon failed: {started.stderr.strip()}")
                if not bus.NameHasOwner(name)[0]:
                    connection.recv_until_filtered(owner_changes, timeout=60)
            return int(bus.GetConnectionUnixProcessID(name)[0])

    def close(self) -> None:
        """Stop the bus, then the keyring daemon (it exits with its bus; else by its PID)."""
        self.daemon.terminate()
        self.daemon.wait(10)
        if self.daemon.stdout is not None:
            self.daemon.stdout.close()
        pid = getattr(self, "keyring_pid", None)
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        shutil.rmtree(self.runtime, ignore_errors=True)


@pytest.fixture
def secret_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bus]:
    bus = Bus(tmp_path / "session")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
    backend = SecretService.Keyring()
    keyring.set_keyring(backend)  # the suite's in-memory keychain comes back after the test
    try:
        yield bus
    finally:
        bus.close()


@pytest.fixture(autouse=True)
def _keep_running_when_the_dialog_closes(qapp: Any) -> Iterator[None]:
    before = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    yield
    qapp.setQuitOnLastWindowClosed(before)


def read_in_new_process(bus: Bus, home: Path) -> tuple[str, str]:
    """(source, sha256 of the key) as a fresh Python process reads it through the studio's
    KeyStore with the default keyring backend (the key itself never leaves that process)."""
    code = (
        "import hashlib, keyring\n"
        "from studio.agent.keys import KeyStore\n"
        "found = KeyStore().get('openai')\n"
        "print(type(keyring.get_keyring()).__module__, found.source,"
        " hashlib.sha256((found.key or '').encode()).hexdigest())\n"
    )
    env = {**bus.env, "PROTO_STUDIO_HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("PROTO_STUDIO_API_KEY", None)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    module, source, digest = out.stdout.split()
    assert module == "keyring.backends.SecretService"
    return source, digest


def files_containing(folder: Path, secret: str) -> list[Path]:
    needle = secret.encode()
    return [p for p in folder.rglob("*") if p.is_file() and needle in p.read_bytes()]


def test_the_key_is_stored_in_the_secret_service_and_read_back_by_a_new_process(
    qtbot: Any, qloop: Any, secret_service: Bus, _isolated_home: Path
) -> None:
    http = httpx.AsyncClient()
    keys = KeyStore()
    dialog = AgentSettingsDialog(
        AgentConfig(profile="openai", model="gpt-4o-mini"), http=http, keys=keys, probe=False
    )
    qtbot.addWidget(dialog)
    dialog.show()
    run_until(qloop, lambda: dialog.key_stored is not None)
    assert dialog.key_status.text() == "No key stored: paste one above."
    assert not dialog.session_key.isVisibleTo(dialog)  # a keychain exists: nothing to offer
    dialog.key.setText(KEY)
    saved = collect(dialog.saved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved) and not dialog.isVisible())

    source, digest = read_in_new_process(secret_service, _isolated_home)
    assert (source, digest) == ("keychain", hashlib.sha256(KEY.encode()).hexdigest())
    # In no file the studio wrote (settings, library) nor anywhere in the keychain's home.
    assert (_isolated_home / "config" / "agent.json").is_file()
    assert files_containing(_isolated_home, KEY) == []
    assert files_containing(secret_service.home, KEY) == []  # the keyring file is encrypted

    # A second dialog sees the stored key without showing it; Remove key deletes it there.
    again = AgentSettingsDialog(
        AgentConfig(profile="openai", model="gpt-4o-mini"), http=http, keys=KeyStore(), probe=False
    )
    qtbot.addWidget(again)
    run_until(qloop, lambda: again.key_stored is True)
    assert again.key_status.text() == "A key is stored in the OS keychain (••••••••)."
    again.remove_key.click()
    run_until(qloop, lambda: again.key_stored is False)
    assert read_in_new_process(secret_service, _isolated_home)[0] == "None"
    qloop.run_until_complete(http.aclose())
