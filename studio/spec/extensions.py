"""The seam between the validator and the platform module registry (studio extensions, decision 2).

A spec that uses the studio extensions (`requires.platform`, `data`, the `platform` action) is
checked against a catalog of the modules this build has. The validator depends only on this
protocol and never imports `studio.platform` (a higher layer): a caller passes a catalog, or the
package root registers the default one (`studio/__init__.py`: the registry of shipped modules).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class PlatformCatalog(Protocol):
    """What the validator needs to know about the platform modules of this build."""

    def has_module(self, module: str) -> bool:
        """True when this build has the module (e.g. `"units"`)."""
        ...

    def call_schema(self, call: str) -> dict[str, Any] | None:
        """The JSON Schema (draft 2020-12, an object schema) of a call's `args`, e.g. for
        `"units.convert"`, or None when the module has no such call."""
        ...


class _NoModules:
    """The catalog when none is registered: this build has no platform modules."""

    def has_module(self, module: str) -> bool:
        return False

    def call_schema(self, call: str) -> dict[str, Any] | None:
        return None


_default: Callable[[], PlatformCatalog] | None = None


def use_default_catalog(factory: Callable[[], PlatformCatalog]) -> None:
    """Make `factory()` the catalog of every validation that is given none."""
    global _default
    _default = factory


def default_catalog() -> PlatformCatalog:
    """The registered default catalog (the platform modules shipped with this build)."""
    return _default() if _default is not None else _NoModules()
