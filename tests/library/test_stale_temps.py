"""Temp files a killed process left (failures.md F12) are removed on open, anywhere in the
library's tree, once they are old; a fresh one (a write in progress) and symlinks' targets are
never touched."""

from __future__ import annotations

import os
import time
from pathlib import Path

from studio.library.store import Library
from tests.library.helpers import png, spec

HOURS_AGO = time.time() - 3 * 3600


def _leftover(path: Path, *, old: bool, folder: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if folder:
        path.mkdir()
        (path / "spec.json").write_text("{}")
    else:
        path.write_bytes(b"half a write")
    if old:
        os.utime(path, (HOURS_AGO, HOURS_AGO), follow_symlinks=False)
    return path


def test_stale_temp_files_are_cleaned_everywhere_on_open(tmp_path: Path) -> None:
    library = Library(tmp_path)
    entry = library.create("Kept", spec(), "paste", {"logo": png()})
    trashed = library.create("Trashed", spec(), "paste")
    library.delete(trashed.id)
    folder = library.folder
    stale = [
        _leftover(folder / entry.id / ".spec.json.tmp-0123456789ab", old=True),
        _leftover(folder / entry.id / ".thumbnail.png.tmp-0123456789ab", old=True),
        _leftover(folder / entry.id / "assets" / ".logo.png.tmp-0123456789ab", old=True),
        _leftover(folder / ".trash" / trashed.id / ".spec.json.tmp-00aa00aa00aa", old=True),
        _leftover(folder / f".{entry.id}.draft.json.tmp-0123456789ab", old=True),
        _leftover(folder / ".abcdefabcdef.tmp-0123456789ab", old=True, folder=True),
    ]
    fresh = _leftover(folder / entry.id / ".spec.json.tmp-fedcba987654", old=False)
    outside = tmp_path / "outside" / ".x.tmp-0123456789ab"
    _leftover(outside, old=True)
    link = folder / entry.id / "assets" / "linked"
    link.symlink_to(outside.parent, target_is_directory=True)

    reopened = Library(tmp_path)
    assert [p for p in stale if p.exists()] == []
    assert fresh.exists()  # another process may be writing it right now
    assert outside.exists()  # symlinks are never followed
    assert reopened.problems == []
    assert reopened.load_spec(entry.id) == spec()
    assert reopened.trashed()[0].id == trashed.id
