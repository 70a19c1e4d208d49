"""Where the shipped resources (schema, QML, templates) live, from a checkout or a frozen build."""

from __future__ import annotations

import sys
from pathlib import Path


def resource_root() -> Path:
    """The `resources/` folder: next to the package in a checkout, inside the bundle when frozen."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    """A path under `resources/`, e.g. `resource_path("schema", "prototype-spec.schema.json")`."""
    return resource_root().joinpath(*parts)
