"""The library's inter-process lock: one writer of `library.json` at a time, across processes.

Every update of the index (and the file writes that go with it) runs holding `library.lock` in
the library folder, an OS file lock (`flock` on Unix, `LockFileEx` on Windows, through the
well-kept `filelock` package): the OS drops it when its holder dies, so a crash never leaves
the library locked. The holder writes its pid into the file, so a second writer that waited
in vain names it. Within one process `Library` serialises its threads itself; this lock is
re-entrant for the process that holds it.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from filelock import FileLock, Timeout

from studio.library.errors import LibraryBusy, LibraryError

LOCK_NAME = "library.lock"
#: How long a writer waits for another process's update (they take milliseconds).
WAIT = 5.0


def _write_pid(fd: int) -> None:
    """Record the holder (fixed width, so an existing file is overwritten in place and a full
    disk rarely matters; when it does, the lock is still held, only its holder is unnamed)."""
    try:
        os.pwrite(fd, f"{os.getpid():<20}\n".encode("ascii"), 0)
    except OSError:
        pass


class LibraryLock:
    """`with lock:` holds the library's file lock (waiting up to `wait` seconds for another
    process), else raises `LibraryBusy` naming the holder's pid."""

    def __init__(self, folder: Path, *, wait: float = WAIT):
        self.path = folder / LOCK_NAME
        self.wait = wait
        self._lock = FileLock(
            str(self.path),
            timeout=wait,
            thread_local=False,
            on_acquired=_write_pid if hasattr(os, "pwrite") else None,
        )

    def holder(self) -> int | None:
        """The pid written by the last process that took the lock (None if unknown)."""
        try:
            text = self.path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def __enter__(self) -> LibraryLock:
        try:
            self._lock.acquire()
        except Timeout:
            pid = self.holder()
            who = f"another process (pid {pid})" if pid else "another process"
            raise LibraryBusy(
                f"{self.path.parent}: the library is being changed by {who}; waited "
                f"{self.wait:g} s (close the other Proto Studio, then try again)",
                pid,
            ) from None
        except OSError as exc:
            raise LibraryError(
                f"{self.path}: cannot lock the library ({exc.strerror or exc})"
            ) from None
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._lock.release()

    @property
    def held(self) -> bool:
        return bool(self._lock.is_locked)
