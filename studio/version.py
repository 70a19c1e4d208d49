"""The studio's version: pyproject.toml's `version`, read from the installed metadata."""

from __future__ import annotations

import functools
import re
from pathlib import Path

DISTRIBUTION = "proto-studio"
UNKNOWN = "0+unknown"


@functools.cache
def version() -> str:
    """The one version number, from `pyproject.toml` (the only place it is written).

    An installed studio (pip, editable, or the frozen build, whose spec bundles the metadata)
    reads it from its distribution metadata; a bare checkout reads `pyproject.toml` itself."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        return version_from_pyproject(Path(__file__).resolve().parent.parent / "pyproject.toml")


def version_from_pyproject(path: Path) -> str:
    """`[project] version` of a pyproject.toml, or UNKNOWN when the file is missing."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return UNKNOWN
    import tomllib

    try:
        value = tomllib.loads(text).get("project", {}).get("version")
    except tomllib.TOMLDecodeError:
        return UNKNOWN
    return value if isinstance(value, str) and re.fullmatch(r"[0-9A-Za-z.+!-]+", value) else UNKNOWN
