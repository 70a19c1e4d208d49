"""Crash consistency: a writer killed (SIGKILL) at random moments never damages the library."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from studio.library.store import Library
from tests.library.helpers import spec

WRITER = Path(__file__).with_name("crash_writer.py")
REPO = Path(__file__).resolve().parents[2]


def wait_for_temp_file(folders: list[Path], polls: int = 200_000) -> bool:
    """Poll until one of the folders holds a library temp file (a write in flight)."""
    for _ in range(polls):
        for folder in folders:
            with os.scandir(folder) as it:
                if any(".tmp-" in e.name for e in it):
                    return True
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL semantics are POSIX")
def test_killed_writer_leaves_the_last_completed_revision(_isolated_home: Path) -> None:
    entry = Library().create("Crash test", spec(), "generated")
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = {"revisions": 0, "spec": 0}

    def record(line: str) -> None:
        kind, number = line.split()
        done[kind] = max(done[kind], int(number))

    library_dir = _isolated_home / "library"
    for round_ in range(8):
        proc = subprocess.Popen(
            [sys.executable, str(WRITER), entry.id],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        try:
            for _ in range(rng.randint(1, 16)):
                line = proc.stdout.readline()
                assert line, (
                    f"writer died (seed {seed}): {proc.stderr.read() if proc.stderr else ''}"
                )
                record(line)
            if round_ % 2:
                # Odd rounds: kill while a write is in flight (its temp file exists), so the
                # kill lands inside write/fsync/replace rather than just after a print.
                wait_for_temp_file([library_dir, library_dir / entry.id])
        finally:
            proc.kill()
            proc.wait(timeout=30)
        for line in proc.stdout.read().splitlines():  # printed before the kill landed
            record(line)
        proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()

        library = Library()
        assert library.problems == [], f"round {round_} (seed {seed})"
        log = library.load_revisions(entry.id)
        assert log is not None, f"round {round_} (seed {seed})"
        saved = int(log.current["state"]["count"])
        # the last completed save is there; at most one more finished before the print
        assert done["revisions"] <= saved <= done["revisions"] + 1, (seed, done, saved)
        assert log.revisions[-1].summary == f"rev {saved}"
        assert [r.summary for r in log.revisions] == [f"rev {i}" for i in range(1, saved + 1)]
        stored = int(library.load_spec(entry.id)["state"]["count"])
        assert done["spec"] <= stored <= done["spec"] + 1, (seed, done, stored)
        done["revisions"], done["spec"] = saved, stored
    assert done["revisions"] >= 6
