"""Remembered UI state (window layout, recent files, preview choices) in a QSettings INI file."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT = 10


def config_dir() -> Path:
    home = os.environ.get("PROTO_STUDIO_HOME")
    if home:
        return Path(home) / "config"
    return Path(platformdirs.user_config_dir("proto-studio", appauthor=False))


class UiSettings:
    """A thin, typed wrapper over QSettings (INI under the user config dir, or PROTO_STUDIO_HOME)."""

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
        self._qs.sync()

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
        self._qs.sync()
        return files

    def value(self, key: str, default: str = "") -> str:
        value = self._qs.value(key, default)
        return str(value) if value is not None else default

    def set_value(self, key: str, value: str) -> None:
        self._qs.setValue(key, value)
        self._qs.sync()
