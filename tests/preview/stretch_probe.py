"""A child process for test_fidelity_scroll: drags a long scroll past its top in a preview scene
on the platform it is started on (xcb: OpenGL) and prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.stretch_probe`."""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtCore import QObject, QPoint
from PySide6.QtTest import QTest

from tests.preview.helpers import LEFT, NO_MOD, drag, find_items
from tests.preview.probe import run_probe, wait_for

ROWS = [
    {"type": "box", "id": f"r{i}", "children": [],
     "style": {"width": "fill", "height": {"dp": 80},
               "background": "#FF0000" if i % 2 == 0 else "#0000FF"}}
    for i in range(40)
]  # fmt: skip
SPEC: dict[str, Any] = {
    "id": "probe",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {"type": "scroll", "child": {"type": "column", "style": {"width": "fill"},
                                         "children": ROWS}},
}  # fmt: skip


def _row_edge(image: Any) -> float:
    """Where the first (red) row ends down x = 200: its last red pixel plus the red share of the
    antialiased one after it."""
    y = 2
    while image.pixelColor(200, y).red() > 247 and image.pixelColor(200, y).blue() < 8:
        y += 1
    return y + image.pixelColor(200, y).red() / 255


def body(scene: Any, out: dict[str, Any]) -> None:
    """Drag 300 px down from the top (held), then release and wait for the stretch to settle:
    the first row's end at rest, stretched and after."""
    scene.show(SPEC)
    out["rest"] = _row_edge(scene.grab())
    (flick,) = [i for i in find_items(scene.screen_item(), "") if i.inherits("QQuickFlickable")]
    stretch = flick.findChild(QObject, "edgeStretch")
    drag(scene, QPoint(200, 300), 0, 300)
    out["distance"] = float(stretch.property("distance"))
    out["stretched"] = _row_edge(scene.grab_now())
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(200, 600), 16)
    out["settled"] = wait_for(lambda: float(stretch.property("distance")) == 0)
    out["after"] = _row_edge(scene.grab())


if __name__ == "__main__":
    sys.exit(run_probe(body))
