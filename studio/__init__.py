"""Proto Studio: author AutoMobile prototype specs with an AI agent, preview them, demo them."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from studio.spec.extensions import PlatformCatalog


def __getattr__(name: str) -> Any:
    # `studio.__version__` is read lazily: importlib.metadata costs start-up time.
    if name == "__version__":
        from studio.version import version

        return version()
    raise AttributeError(f"module 'studio' has no attribute {name!r}")


@cache
def _shipped_platform_modules() -> PlatformCatalog:
    """The validator's default platform catalog: the modules this build ships. Wired here, at the
    package root, so that `studio.spec` (the lowest layer) never imports `studio.platform`."""
    from studio.platform.registry import default_registry

    return default_registry()


from studio.spec.extensions import use_default_catalog  # noqa: E402 - after the factory it wires

use_default_catalog(_shipped_platform_modules)
