"""Atomic image writes (temp file, fsync, os.replace) for renders and screenshots, and the check
of where they go: only ever a regular file (or a new one), never the input, never a FIFO,
device or folder (nor a symlink to one: a symlink to a regular file is written through)."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage


class OutputRefused(ValueError):
    """The output path is not somewhere an image may be written; one line naming it."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def check_output(out: Path, inputs: Sequence[Path] = ()) -> Path:
    """The file to replace for `out`: `out` itself, or the regular file its symlink points
    to. OutputRefused when that is not a regular file or is one of `inputs` (also by another
    name: a hard link, a symlink, a relative path)."""
    out = Path(out)
    target = Path(os.path.realpath(out)) if out.is_symlink() else out
    try:
        info = target.stat()
    except FileNotFoundError:
        return target  # a new file (a dangling symlink: its target is created)
    except OSError as exc:
        raise OutputRefused(f"{out}: cannot check the output ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        via = f" (through the symlink {out})" if target != out else ""
        raise OutputRefused(
            f"{out}: not a regular file: {_kind(info.st_mode)}{via}; choose a file to write"
        )
    for source in inputs:
        try:
            if os.path.samefile(source, target):
                raise OutputRefused(f"{out}: this is the input spec; choose another file")
        except OSError:
            continue
    return target


def save_image_atomic(
    image: QImage, out: Path, fmt: str = "PNG", *, inputs: Sequence[Path] = ()
) -> None:
    """Write `image` to `out` so that `out` is either the old file or the complete new one;
    OutputRefused (before and again just before the rename) for a target `check_output`
    refuses. The file gets the permissions a new file gets (0666 less the umask)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, fmt):  # type: ignore[call-overload]
        raise OSError(f"{out}: could not encode the image as {fmt}")
    buffer.close()
    target = check_output(Path(out), inputs)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(bytes(data.data()))
            handle.flush()
            if hasattr(os, "fchmod"):  # mkstemp makes it 0600
                os.fchmod(handle.fileno(), 0o666 & ~_umask())
            os.fsync(handle.fileno())
        if check_output(Path(out), inputs) != target:  # the path changed meanwhile
            raise OutputRefused(f"{out}: changed while the image was written; not replaced")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask, read without changing it where Linux says it (setting it to read
    it back would race with other threads creating files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
