"""UI tests: the one studio fixture, `make_studio` (tests/helpers/studio.py)."""

from __future__ import annotations

from tests.helpers.studio import make_studio

__all__ = ["make_studio"]
