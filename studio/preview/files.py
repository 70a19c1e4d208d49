"""Atomic image writes (temp file, fsync, os.replace) for renders and screenshots."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage


def save_image_atomic(image: QImage, out: Path, fmt: str = "PNG") -> None:
    """Write `image` to `out` so that `out` is either the old file or the complete new one."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, fmt):  # type: ignore[call-overload]
        raise OSError(f"{out}: could not encode the image as {fmt}")
    buffer.close()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(bytes(data.data()))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
