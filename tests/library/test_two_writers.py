"""Two processes on one library (failures.md F6): no entry or name is lost, and a writer that
cannot get the lock in time is told which process holds it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.library.errors import LibraryBusy
from studio.library.store import Library
from tests.library.helpers import spec

REPO = Path(__file__).resolve().parents[2]
WRITER = Path(__file__).with_name("shared_writer.py")
COUNT = 40


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.timeout(120)
def test_two_processes_creating_at_once_lose_nothing(tmp_path: Path) -> None:
    Library(tmp_path)  # an existing library, as in the reproduction
    writers = [_start([str(WRITER), str(tmp_path), tag, str(COUNT)]) for tag in ("A", "B")]
    try:
        for proc in writers:
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        for proc in writers:  # both go at once
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outputs = [proc.communicate(timeout=100) for proc in writers]
    finally:
        for proc in writers:
            proc.kill()
    for proc, (out, err) in zip(writers, outputs, strict=True):
        assert proc.returncode == 0, err
        assert out.strip() == "done"

    index = json.loads((tmp_path / "library" / "library.json").read_text())
    names = sorted(e["name"] for e in index["entries"])
    expected = sorted(
        f"{tag}-{i} renamed" if i % 2 else f"{tag}-{i}" for tag in "AB" for i in range(COUNT)
    )
    assert names == expected
    reopened = Library(tmp_path)
    assert reopened.problems == []  # nothing "recovered": every folder is in the index
    assert sorted(e.name for e in reopened.list_entries()) == expected


def test_a_writer_kept_waiting_names_the_holder(tmp_path: Path) -> None:
    library = Library(tmp_path, lock_wait=0.2)
    entry = library.create("Mine", spec(), "paste")
    holder = _start(
        [
            "-c",
            "import sys; from pathlib import Path; from studio.library.lock import LibraryLock\n"
            f"with LibraryLock(Path({str(tmp_path / 'library')!r})):\n"
            "    print('held', flush=True); sys.stdin.readline()\n",
        ]
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        before = (tmp_path / "library" / "library.json").read_bytes()
        with pytest.raises(LibraryBusy) as info:
            library.rename(entry.id, "Yours")
        assert info.value.pid == holder.pid
        message = str(info.value)
        assert f"pid {holder.pid}" in message and "\n" not in message
        assert (tmp_path / "library" / "library.json").read_bytes() == before
        assert library.get(entry.id).name == "Mine"
    finally:
        holder.communicate("\n", timeout=30)
    assert library.rename(entry.id, "Yours").name == "Yours"  # the lock is free again


def test_a_crashed_holder_never_leaves_the_library_locked(tmp_path: Path) -> None:
    library = Library(tmp_path, lock_wait=5)
    holder = _start(
        [
            "-c",
            "import os, sys; from pathlib import Path; from studio.library.lock import LibraryLock\n"
            f"LibraryLock(Path({str(tmp_path / 'library')!r})).__enter__()\n"
            "print('held', flush=True); sys.stdin.readline()\n",
        ]
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    holder.kill()
    holder.communicate(timeout=30)
    assert library.create("After the crash", spec(), "paste").name == "After the crash"


def test_entries_another_process_added_are_listed(tmp_path: Path) -> None:
    mine = Library(tmp_path)
    theirs = Library(tmp_path)
    added = theirs.create("Theirs", spec(), "paste")
    assert [e.name for e in mine.list_entries()] == ["Theirs"]
    mine.rename(added.id, "Renamed here")
    assert theirs.get(added.id).name == "Renamed here"
    theirs.create("Second", spec(), "paste")
    assert sorted(e.name for e in mine.list_entries()) == ["Renamed here", "Second"]
