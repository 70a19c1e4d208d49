"""`proto-studio device list|show`: output, exit codes and one-line errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.cli import main
from tests.device.conftest import Phone, StandIn
from tests.device.fake_adb_server import FakeAdbServer, FakeDevice
from tests.device.test_adb_listing import android_shell
from tests.device.test_real_adb import SPEC


def test_list_prints_each_device_and_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server = FakeAdbServer()
    try:
        server.set_devices(
            [FakeDevice("R5CT", shell=android_shell()), FakeDevice("X1", "unauthorized")]
        )
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(server.port))
        assert main(["device", "list"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0] == "R5CT  ready  Pixel 8  Android 14  1080x2400  420dpi"
        assert out[1] == "X1  unauthorized"
        assert "USB debugging" in out[2]
        assert main(["device", "list", "--json"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert rows[0]["screen"] == [1080, 2400] and rows[1]["state"] == "unauthorized"
    finally:
        server.close()


def _show(phone: Phone, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: str) -> int:
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(phone.adb.server.port))
    spec_file = tmp_path / "likes.json"
    spec_file.write_text(json.dumps(SPEC))
    return main(["device", "show", str(spec_file), "--serial", phone.serial, "--seconds", seconds])


def test_show_puts_the_spec_on_the_phone(
    fresh_phone: Phone,
    start_ctrlproxy: Callable[..., StandIn],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    start_ctrlproxy()
    assert _show(fresh_phone, tmp_path, monkeypatch, "0.3") == 0
    log = fresh_phone.log("ctrlproxy.log")
    assert [e["shown"] for e in log if "shown" in e] == [SPEC]
    assert {"dismissed": "likes", "reason": "agent"} in log
    err = capsys.readouterr().err
    assert f"showing 'likes' on {fresh_phone.serial}" in err
    assert err.startswith(
        "CtrlProxy: prototypes, in-place re-show, appearance"
    )  # what it advertises


def test_show_puts_it_back_after_the_phones_idle_timeout(
    fresh_phone: Phone,
    start_ctrlproxy: Callable[..., StandIn],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    start_ctrlproxy(ttl_ms=400)
    assert _show(fresh_phone, tmp_path, monkeypatch, "1.5") == 0
    log = fresh_phone.log("ctrlproxy.log")
    assert len([e for e in log if "shown" in e]) >= 2
    assert {"dismissed": "likes", "reason": "ttl"} in log
    assert "dismissed on the phone after 5 idle minutes; shown again" in capsys.readouterr().err


def test_show_errors_are_one_line(
    fresh_phone: Phone,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(fresh_phone.adb.server.port))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**SPEC, "root": {"type": "text"}}))
    assert main(["device", "show", str(bad), "--serial", fresh_phone.serial]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "root" in err and str(bad) in err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SPEC))
    assert main(["device", "show", str(good), "--serial", "nope:1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no device 'nope:1'" in err
    # CtrlProxy is "enabled" in settings but not running: the error says what to check
    assert main(["device", "show", str(good), "--serial", fresh_phone.serial]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did not answer" in err and "unlocked" in err
