"""Proto Studio: author AutoMobile prototype specs with an AI agent, preview them, demo them."""

from typing import Any


def __getattr__(name: str) -> Any:
    # `studio.__version__` is read lazily: importlib.metadata costs start-up time.
    if name == "__version__":
        from studio.version import version

        return version()
    raise AttributeError(f"module 'studio' has no attribute {name!r}")
