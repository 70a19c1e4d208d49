"""A full disk (failures.md F12), for real: a small tmpfs mounted in a private mount namespace.
Every library operation either works or says "not enough space to save <what> in <where>" in
one line (a LibraryError), and then nothing changed and no temp file is left."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("full_disk_child.py")
OPERATIONS = {
    "save_spec", "set_thumbnail", "set_thumbnail (first)", "save_revisions", "create",
    "import file", "import bundle", "rename", "duplicate", "export", "delete", "restore",
}  # fmt: skip
ONE_LINE = re.compile(r"^not enough space to save .+ in /\S+$")


def _namespace_command() -> list[str]:
    """`unshare` for a private mount namespace: as root directly, else in a user namespace
    (where the kernel allows unprivileged ones). Skips with the reason when neither works."""
    if sys.platform != "linux" or shutil.which("unshare") is None:
        pytest.skip("needs Linux and util-linux's unshare (scripts/system-deps --tests)")
    for command in (["unshare", "-m"], ["unshare", "-r", "-m"]):
        if command == ["unshare", "-m"] and os.geteuid() != 0:
            continue
        probe = subprocess.run(
            [*command, "--", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0:
            return command
    pytest.skip(f"cannot mount a tmpfs in a private mount namespace here: {probe.stderr.strip()}")


@pytest.mark.timeout(240)
def test_every_operation_on_a_full_disk_fails_cleanly_in_one_line(tmp_path: Path) -> None:
    unshare = _namespace_command()
    disk, outside = tmp_path / "disk", tmp_path / "outside"
    disk.mkdir()
    outside.mkdir()
    script = 'mount -t tmpfs -o size=4m tmpfs "$1" && exec "$2" "$3" "$1" "$4"'
    run = subprocess.run(
        [*unshare, "--", "sh", "-c", script, "sh", str(disk), sys.executable, str(CHILD),
         str(outside)],
        capture_output=True, text=True, timeout=200,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert not [line for line in lines if "problems" in line]  # reopened cleanly every time
    refused = [line for line in lines if line["outcome"] == "refused"]
    worked = [line for line in lines if line["outcome"] == "ok"]
    for line in refused:
        where = f"{line['op']} with {line['free']} bytes free"
        assert line["type"] == "NotEnoughSpace", (where, line.get("traceback"))
        assert ONE_LINE.match(line["message"]), (where, line["message"])
        assert line["unchanged"], f"{where}: the library changed"
        assert line["temps"] == [], f"{where}: temp files left: {line['temps']}"
        assert line["export unchanged"], f"{where}: the export target changed"
    assert {line["op"] for line in refused} == OPERATIONS  # each one failed at least once
    assert {line["op"] for line in worked} == OPERATIONS  # and worked once there was room
    # The file is written but the index after it is not: the old file is put back.
    assert any(
        line["op"] == "save_spec" and "spec of" in line["message"] and line["free"] > 0
        for line in refused
    )
    assert all(str(disk) in line["message"] for line in refused)
