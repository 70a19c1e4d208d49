"""Which platform modules a spec declares (`requires.platform`): read without loading the
registry, so the studio can tell that a prototype needs none cheaply; and which modules this
build has to offer (`available_modules`, which does load it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def required_modules(spec: Mapping[str, Any]) -> list[str]:
    """The platform modules a spec declares in `requires.platform` (strings only, in order)."""
    requires = spec.get("requires")
    found = requires.get("platform") if isinstance(requires, Mapping) else None
    return [m for m in found if isinstance(m, str)] if isinstance(found, list) else []


@dataclass(frozen=True)
class ModuleInfo:
    """A platform module this build has, as the platform panel lists it."""

    name: str
    description: str
    calls: tuple[str, ...]
    permissions: tuple[str, ...]


def available_modules() -> list[ModuleInfo]:
    """The modules this build ships (the validator's default catalog), by name."""
    from studio.platform.registry import PlatformRegistry
    from studio.spec.extensions import default_catalog

    catalog = default_catalog()
    if not isinstance(catalog, PlatformRegistry):
        return []
    return [
        ModuleInfo(
            str(m["module"]),
            str(m["description"]),
            tuple(str(c["call"]) for c in m["calls"]),
            tuple(str(p) for p in m["permissions"]),
        )
        for m in catalog.modules()
    ]
