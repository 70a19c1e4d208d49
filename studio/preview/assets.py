"""Asset resolvers for the preview: an asset id -> a local file, or None when it is missing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

_EXTENSIONS = ("", ".png", ".jpg", ".jpeg", ".webp", ".ttf", ".otf")


def directory_resolver(folder: Path) -> Callable[[str], Path | None]:
    """Resolves an id to `folder/<id>` or `folder/<id>.<png|jpg|jpeg|webp|ttf|otf>`."""
    root = folder.resolve()

    def resolve(asset_id: str) -> Path | None:
        for ext in _EXTENSIONS:
            candidate = (root / f"{asset_id}{ext}").resolve()
            # Ids are names, never paths out of the folder.
            if candidate.parent == root and candidate.is_file():
                return candidate
        return None

    return resolve
