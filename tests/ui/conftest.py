"""UI tests: the one studio fixture (`make_studio`, tests/helpers/studio.py), and every UI test
fails when a top-level widget it made outlives it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.studio import leaked_widgets, make_studio, top_level_widgets

__all__ = ["make_studio"]


@pytest.fixture(autouse=True)
def _no_leaked_windows(request: pytest.FixtureRequest) -> Iterator[None]:
    """A top-level widget that outlives its test (not closed, not registered with qtbot, not
    parented) fails it; pytest-qt closes and deletes what `qtbot.addWidget` registered first."""
    if "qapp" not in request.fixturenames and "qtbot" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("qapp")
    before = top_level_widgets()
    yield
    leaked = leaked_widgets(before)
    if leaked:
        pytest.fail(f"top-level widgets outlived the test: {', '.join(leaked)}", pytrace=False)
