"""`proto-studio serve` and `proto-studio client` as a user runs them: two processes, the agent
settings and library of the user's folder, a model server on 127.0.0.1 (the scripted local
server), the token made and shown once, the terminal client streaming a turn and applying it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from studio.agent.testing import calls, reply
from studio.library.store import Library
from studio.service.server import bind_warning
from tests.agent.server import ModelServer
from tests.agent.test_cli import to_chat_reply
from tests.helpers.demo import RENAME_GO
from tests.service.helpers import make_library

pytestmark = pytest.mark.slow


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PROTO_STUDIO_HOME=str(home),
        # No OS keychain in the child: the token is made for that run only (and said so).
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
        PYTHONUNBUFFERED="1",
    )
    env.pop("PROTO_STUDIO_SERVE_TOKEN", None)
    return env


class Serve:
    """`proto-studio serve --port 0` in a child process; its stdout lines, read as they come."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "studio.cli", "serve", "--port", "0", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.ready.wait(60), f"serve did not get ready: {self.lines}"

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if "ready" in line:
                self.ready.set()
        self.ready.set()

    def value(self, marker: str) -> str:
        line = next(ln for ln in self.lines if marker in ln)
        return line.rsplit(" ", 1)[-1]

    def stop(self) -> tuple[int, str]:
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return self.proc.returncode, err


def test_serve_and_the_terminal_client_run_a_turn_and_apply_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("PROTO_STUDIO_HOME", str(home))  # this process writes the same library
    _, entry_id = make_library("Checkout")
    with ModelServer() as model:
        model.queue(
            to_chat_reply(calls(("patch", RENAME_GO), text="Renaming the button.")),
            to_chat_reply(reply("Renamed it to Send.")),
        )
        from studio.agent.config import AgentConfig, save_config

        # The agent settings the studio's window saved: a local llama.cpp server, with the
        # standard tool set chosen for it (the scripted model writes `patch` calls).
        save_config(
            AgentConfig(
                profile="llamacpp",
                base_url=model.base_url,
                model="tiny",
                tool_sets={"tiny": "standard"},
            )
        )
        env = _env(home)
        serve = Serve(env)
        try:
            token = serve.value("token (shown once")
            ws_url = serve.value("thin clients connect to")
            assert ws_url.startswith("ws://127.0.0.1:")
            assert any(f"#token={token}" in ln for ln in serve.lines)
            listed = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "studio.cli",
                    "client",
                    "--url",
                    ws_url,
                    "--token",
                    token,
                    "--list",
                ],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert listed.returncode == 0, listed.stderr
            assert f"{entry_id}\tCheckout" in listed.stdout
            done = subprocess.run(
                [
                    sys.executable, "-m", "studio.cli", "client", "--url", ws_url, "--token", token,
                    "--prototype", "Checkout", "--apply", "Rename the button to Send",
                ],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            )  # fmt: skip
            assert done.returncode == 0, done.stdout + done.stderr
            out = done.stdout
            assert "▶ Checkout: Rename the button to Send" in out
            assert "Renaming the button." in out
            assert "✎ Rename the button to Send (1 in the draft)" in out
            assert "■ completed: Renamed it to Send." in out
            assert "✔ applied: Rename the button to Send" in out
            wrong = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "studio.cli",
                    "client",
                    "--url",
                    ws_url,
                    "--token",
                    "nope",
                    "--list",
                ],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert wrong.returncode == 2
            assert "wrong token" in wrong.stderr
        finally:
            code, err = serve.stop()
    assert code == 0, err
    assert "no usable OS keychain" in err  # the token was for that run only, and it said so
    assert token not in err
    assert Library().load_spec(entry_id)["root"]["children"][1]["label"] == "Send"


def test_a_server_bound_beyond_loopback_warns() -> None:
    assert bind_warning("127.0.0.1") is None
    assert bind_warning("::1") is None
    assert bind_warning("localhost") is None
    warning = bind_warning("0.0.0.0")
    assert warning is not None
    assert "anyone on the network who has the token" in warning
    assert bind_warning("192.168.1.20") is not None


def test_the_token_is_made_once_and_kept_in_the_keychain() -> None:
    from studio.service.token import server_token, stored_token

    first = server_token()
    assert first.new and first.kept
    again = server_token()
    assert not again.new
    assert again.value == first.value == stored_token()
    assert first.value not in repr(first)
    renewed = server_token(renew=True)
    assert renewed.new and renewed.value != first.value
    assert stored_token() == renewed.value


def test_a_new_token_is_always_usable_on_the_command_line() -> None:
    """`proto-studio client --token TOKEN` takes every token the server makes (none reads as an
    option), and each is new."""
    import argparse

    from studio.service import token as token_module

    seen = set()
    for _ in range(200):
        value = token_module.server_token(renew=True).value
        parser = argparse.ArgumentParser()
        parser.add_argument("--token")
        assert parser.parse_args(["--token", value]).token == value
        seen.add(value)
    assert len(seen) == 200
