"""Drag and drop of spec JSON and .protobundle files onto the window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent

ACCEPTED_SUFFIXES = (".json", ".protobundle")


def dropped_files(mime: QMimeData | None) -> list[Path]:
    """The local .json/.protobundle files in a drag (others ignored)."""
    if mime is None or not mime.hasUrls():
        return []
    paths: list[Path] = []
    for url in mime.urls():
        if url.isLocalFile():
            path = Path(url.toLocalFile())
            if path.suffix.lower() in ACCEPTED_SUFFIXES:
                paths.append(path)
    return paths


class FileDropFilter(QObject):
    """Installed on a widget: accepts drags that carry spec files and emits `filesDropped`."""

    filesDropped = Signal(list)  # list[str]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, (QDragEnterEvent, QDragMoveEvent))
            if dropped_files(event.mimeData()):
                event.acceptProposedAction()
                return True
            return False
        if kind == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            paths = dropped_files(event.mimeData())
            if paths:
                event.acceptProposedAction()
                self.filesDropped.emit([str(p) for p in paths])
                return True
        return super().eventFilter(watched, event)
