"""Where the studio keeps user data: PROTO_STUDIO_HOME when set, else the platform's data folder."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "proto-studio"
HOME_ENV = "PROTO_STUDIO_HOME"


def data_root() -> Path:
    """The user data root (`$PROTO_STUDIO_HOME`, or e.g. `~/.local/share/proto-studio`)."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def library_dir(root: Path | None = None) -> Path:
    """The library folder: `<root>/library/` (holds library.json and one folder per prototype)."""
    return (data_root() if root is None else Path(root)) / "library"
