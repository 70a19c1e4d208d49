"""Atomic file writes: temp file in the same folder, flush, fsync, os.replace, fsync the folder.

Hand-written (a dozen lines) because the well-known packages (atomicwrites) are unmaintained and
none fsyncs the folder after the rename, which is what makes the rename itself durable.
"""

from __future__ import annotations

import os
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

from studio.library.storable import json_bytes

TEMP_MARK = ".tmp-"
"""Every temp file or folder the library writes has this in its name (and starts with a dot)."""
STALE_AFTER = 3600.0
"""A temp file older than this (seconds) was left by a killed process: removed on open."""


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


def dumps(value: Any, *, compact: bool = False, where: str = "") -> bytes:
    """The library's JSON text: UTF-8, key order kept, a final newline; 2-space indented for
    files people read (specs, the index), compact for bulky ones (drafts: the C encoder is
    several times faster than the indenting one). A value that cannot be written (a lone
    surrogate, NaN, nesting too deep) raises `UnstorableText` naming `where` and the path."""
    return json_bytes(value, compact=compact, where=where)


def write_json(path: Path, value: Any) -> None:
    """Atomically replace `path` with `value` as JSON (encoded before anything is written)."""
    write_bytes(path, dumps(value, where=path.name))


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


def remove_stale_temps(folder: Path, older_than: float = STALE_AFTER) -> int:
    """Delete the temp files and folders a killed process left anywhere under `folder` (the
    library: top level, trash, prototype folders, their assets), never following symlinks.
    Only those older than `older_than` seconds go: a write in progress (here or in another
    process) lasts milliseconds and its temp file is fresh, so it is never touched. Returns
    how many were removed."""
    removed = 0
    now = time.time()
    for parent, dirs, files in os.walk(folder, followlinks=False):
        base = Path(parent)
        keep: list[str] = []
        for name in [*dirs, *files]:
            if not (name.startswith(".") and TEMP_MARK in name):
                if name in dirs:
                    keep.append(name)
                continue
            child = base / name
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
        dirs[:] = keep  # never walk into a temp folder (it went, or it is fresh)
    return removed
