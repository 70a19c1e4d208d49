"""Remembered UI state (window layout, recent files, preview choices) in a QSettings INI file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from studio.platform.paths import config_dir

MAX_RECENT = 10


class UiSettings:
    """A thin, typed wrapper over QSettings (INI under the user config dir, or PROTO_STUDIO_HOME).

    Writes go to QSettings' memory (other QSettings on the same file in this process see them at
    once); Qt writes the file itself from time to time and when the settings object goes, never
    after every write on the GUI thread. `flush()` writes it now (the studio's shutdown)."""

    def __init__(self, path: Path | None = None) -> None:
        path = path or config_dir() / "ui.ini"
        path.parent.mkdir(parents=True, exist_ok=True)
        self._qs = QSettings(str(path), QSettings.Format.IniFormat)

    def window_state(self) -> tuple[QByteArray | None, QByteArray | None]:
        geometry = self._qs.value("window/geometry")
        state = self._qs.value("window/state")
        return (
            geometry if isinstance(geometry, QByteArray) else None,
            state if isinstance(state, QByteArray) else None,
        )

    def set_window_state(self, geometry: QByteArray, state: QByteArray) -> None:
        self._qs.setValue("window/geometry", geometry)
        self._qs.setValue("window/state", state)

    def recent_files(self) -> list[str]:
        value = self._qs.value("recent/files", [])
        if isinstance(value, str):
            return [value] if value else []
        if not isinstance(value, list | tuple):
            return []
        return [str(v) for v in value if v]

    def add_recent_file(self, path: str) -> list[str]:
        files = [path] + [f for f in self.recent_files() if f != path]
        files = files[:MAX_RECENT]
        self._qs.setValue("recent/files", files)
        return files

    def value(self, key: str, default: str = "") -> str:
        value = self._qs.value(key, default)
        return str(value) if value is not None else default

    def set_value(self, key: str, value: str) -> None:
        self._qs.setValue(key, value)

    def flush(self) -> None:
        """Write the file now (at shutdown)."""
        self._qs.sync()
