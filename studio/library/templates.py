"""The templates shipped with the studio (`resources/templates/`): their index and their specs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.resources import resource_path


@dataclass(frozen=True)
class Template:
    """One shipped template: `id` (also its file name), display name and description."""

    id: str
    name: str
    description: str

    def path(self, folder: Path | None = None) -> Path:
        return (folder or templates_dir()) / f"{self.id}.json"

    def load_spec(self, folder: Path | None = None) -> dict[str, Any]:
        spec = json.loads(self.path(folder).read_text(encoding="utf-8"))
        if not isinstance(spec, dict):
            raise ValueError(f"template {self.id}: not a JSON object")
        return spec


def templates_dir() -> Path:
    return resource_path("templates")


def list_templates(folder: Path | None = None) -> list[Template]:
    """The templates in `index.json` order."""
    index = json.loads(((folder or templates_dir()) / "index.json").read_text(encoding="utf-8"))
    return [
        Template(id=str(t["id"]), name=str(t["name"]), description=str(t["description"]))
        for t in index["templates"]
    ]
