"""Atomic file writes: temp file in the same folder, flush, fsync, os.replace, fsync the folder.

Hand-written (a dozen lines) because the well-known packages (atomicwrites) are unmaintained and
none fsyncs the folder after the rename, which is what makes the rename itself durable.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

TEMP_MARK = ".tmp-"
"""Every temp file or folder the library writes has this in its name (and starts with a dot)."""


def temp_name(final: Path) -> Path:
    """A fresh hidden temp path next to `final` (same folder, so os.replace stays atomic)."""
    return final.with_name(f".{final.name}{TEMP_MARK}{secrets.token_hex(6)}")


def fsync_dir(folder: Path) -> None:
    """Make the folder's entries (renames, new files) durable. A no-op where folders cannot be
    opened (Windows), where NTFS orders the metadata itself."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` atomically: readers see the old or the new file, never a mix."""
    tmp = temp_name(path)
    try:
        with open(tmp, "xb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def dumps(value: Any, *, compact: bool = False) -> bytes:
    """The library's JSON text: UTF-8, key order kept, a final newline; 2-space indented for
    files people read (specs, the index), compact for bulky ones (drafts: the C encoder is
    several times faster than the indenting one)."""
    if compact:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    else:
        text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    return (text + "\n").encode()


def write_json(path: Path, value: Any) -> None:
    """Atomically replace `path` with `value` as JSON."""
    write_bytes(path, dumps(value))


def move(src: Path, dst: Path) -> None:
    """Rename a file or folder inside the library (same file system) and make it durable."""
    os.rename(src, dst)
    fsync_dir(dst.parent)
    if src.parent != dst.parent:
        fsync_dir(src.parent)


def remove_tree(path: Path) -> None:
    """Delete a folder (or file) if present; first renamed aside so a crash never leaves half."""
    if not path.exists() and not path.is_symlink():
        return
    aside = temp_name(path)
    os.rename(path, aside)
    if aside.is_dir() and not aside.is_symlink():
        shutil.rmtree(aside, ignore_errors=True)
    else:
        aside.unlink(missing_ok=True)


def remove_stale_temps(folder: Path, older_than: float = 3600.0) -> int:
    """Delete temp files/folders left by a killed process (older than `older_than` seconds, so a
    write in progress in another process is never touched). Returns how many were removed."""
    removed = 0
    now = time.time()
    try:
        children = list(folder.iterdir())
    except OSError:
        return 0
    for child in children:
        if not (child.name.startswith(".") and TEMP_MARK in child.name):
            continue
        try:
            if now - child.lstat().st_mtime < older_than:
                continue
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
            removed += 1
        except OSError:
            continue
    return removed
