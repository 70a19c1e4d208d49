"""Which platform modules a spec declares (`requires.platform`): read without loading the
registry, so the studio can tell that a prototype needs none cheaply."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def required_modules(spec: Mapping[str, Any]) -> list[str]:
    """The platform modules a spec declares in `requires.platform` (strings only, in order)."""
    requires = spec.get("requires")
    found = requires.get("platform") if isinstance(requires, Mapping) else None
    return [m for m in found if isinstance(m, str)] if isinstance(found, list) else []
