"""Who the running studio is to the desktop: its icon, version, desktop entry, and the files the
OS asks it to open (macOS sends a double-clicked .protobundle as an event, not an argument)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFileOpenEvent, QGuiApplication, QIcon

from studio.resources import resource_path
from studio.version import version

#: The installed desktop entry (proto-studio.desktop): Wayland compositors match windows to it.
DESKTOP_FILE = "proto-studio"
ICON = ("icons", "proto-studio.svg")


def app_icon() -> QIcon:
    """The studio's icon, drawn from its SVG at whatever size a window or dialog asks."""
    return QIcon(str(resource_path(*ICON)))


class FileOpens(QObject):
    """Collects the OS's file-open requests (QFileOpenEvent) and hands them to `deliver`'s
    callback; requests that arrive before the studio is ready are kept until then."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: list[str] = []
        self._open: Callable[[Sequence[str]], None] | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent):
            path = event.file() or event.url().toLocalFile()
            if path:
                if self._open is None:
                    self._pending.append(path)
                else:
                    self._open([path])
                return True
        return False

    def deliver(self, open_files: Callable[[Sequence[str]], None]) -> None:
        """From now on, requests go to `open_files`; the ones kept so far go at once."""
        self._open = open_files
        pending, self._pending = self._pending, []
        if pending:
            open_files(pending)


def identify_version(app: QGuiApplication) -> None:
    """The application's version: read from the installed metadata, whose import
    (importlib.metadata, ~20 ms) the first frame does not wait for."""
    app.setApplicationVersion(version())


def identify(app: QGuiApplication) -> FileOpens:
    """Name, icon and desktop entry of the application; returns the file-open filter
    (installed on `app`) for the composition root to connect once the library is open. The
    version follows after the first frame (`identify_version`)."""
    app.setDesktopFileName(DESKTOP_FILE)
    app.setWindowIcon(app_icon())
    opens = FileOpens(app)
    app.installEventFilter(opens)
    return opens
