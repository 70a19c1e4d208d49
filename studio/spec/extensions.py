"""The seam between the validator and the platform module registry (studio extensions, decision 2).

A spec that uses the studio extensions (`requires.platform`, `data`, the `platform` action) is
checked against a catalog of the modules this build has. The validator depends only on this
protocol; `studio.platform.registry` provides the real catalog.
"""

from __future__ import annotations

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


def default_catalog() -> PlatformCatalog:
    """The catalog of the platform modules shipped with this build."""
    from studio.platform.registry import default_registry

    return default_registry()
