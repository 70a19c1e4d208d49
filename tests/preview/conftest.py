"""Fixtures of the preview tests: the Qt Quick set-up, a headless scene and the preview widget."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "build" / "screenshots"
#: The device's date in the preview fixtures (`PreviewController.set_today`): a date picker marks
#: it as today, so the fixtures fix it rather than read the real clock. No test's picker shows it
#: unless the test means to.
TODAY = date(2030, 6, 15)


@pytest.fixture(scope="session")
def quick(qapp: Any) -> Any:
    """Qt Quick ready: Material style, software scene graph on the offscreen platform."""
    from studio.preview.scene import prepare_quick

    prepare_quick()
    return qapp


@pytest.fixture
def scene(quick: Any) -> Iterator[Any]:
    """A frameless 412x915 preview scene (light) without the device chrome, so the prototype's
    window starts at the screen's top-left corner (the window tests turn the chrome on)."""
    from studio.preview.render import HeadlessScene

    made = HeadlessScene(412, 915, "light", chrome=False)
    made.controller.set_today(TODAY)
    yield made
    made.close()


@pytest.fixture
def rtl(quick: Any) -> Iterator[Any]:
    """The `scene` fixture's frameless 412x915 scene, laid out right to left."""
    from studio.preview.render import HeadlessScene

    made = HeadlessScene(412, 915, "light", chrome=False, rtl=True)
    made.controller.set_today(TODAY)
    yield made
    made.close()


@pytest.fixture
def preview(quick: Any, qtbot: Any) -> Iterator[Any]:
    """The PreviewWidget the studio embeds, shown at 412x915 without the phone frame scaling."""
    from studio.preview.widget import PreviewWidget

    widget = PreviewWidget(show_frame=False)
    # Without the device chrome (as the `scene` fixture): the window is the whole screen.
    widget.set_device_chrome(False)
    widget.set_today(TODAY)
    widget.resize(412, 915)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.close()


def load_spec(path: Path) -> dict[str, Any]:
    """A corpus spec, components expanded (what the preview is given)."""
    from studio.spec import expand

    spec = expand(json.loads(path.read_text(encoding="utf-8")))
    assert isinstance(spec, dict)
    return spec
