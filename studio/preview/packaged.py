"""Data that ships inside an installed Python package (the icon and text fonts), read in place."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def data_package(name: str, marker: str, what: str) -> Path:
    """The folder of the installed package `name` that holds `marker` (a path inside it), found
    through the package's import spec without importing it (the icon package imports Tk); a
    PyInstaller build collects the folder as data under `sys._MEIPASS`. `what` names it in the
    error: `the <what> is not installed; ...`."""
    spec = importlib.util.find_spec(name)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        locations.append(str(Path(frozen) / name))
    for location in locations:
        if (Path(location) / marker).exists():
            return Path(location)
    raise FileNotFoundError(
        f"the {what} is not installed; reinstall proto-studio with its dependencies"
    )
