"""A child process for test_fidelity_scroll: drags a long scroll past its top in a preview scene
on the platform it is started on (xcb: OpenGL) and prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.stretch_probe`."""

from __future__ import annotations

import json
import sys
from typing import Any

from PySide6.QtCore import QObject, QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from tests.preview.ripple_probe import _wait_for

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


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from studio.preview.render import HeadlessScene, captured_messages, graphics_api
    from studio.preview.scene import prepare_quick
    from tests.preview.helpers import find_items

    prepare_quick(None)
    out: dict[str, Any] = {}
    with captured_messages() as messages:
        scene = HeadlessScene(412, 915, "light", chrome=False)
        try:
            scene.show(SPEC)
            out["rest"] = _row_edge(scene.grab())
            out["api"] = graphics_api(scene)
            (flick,) = [
                i for i in find_items(scene.screen_item(), "") if i.inherits("QQuickFlickable")
            ]
            stretch = flick.findChild(QObject, "edgeStretch")
            left, no_mod = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
            QTest.mousePress(scene.view, left, no_mod, QPoint(200, 300))
            for i in range(1, 21):
                QTest.mouseMove(scene.view, QPoint(200, 300 + 15 * i), 16)
            out["distance"] = float(stretch.property("distance"))
            out["stretched"] = _row_edge(scene.grab_now())
            QTest.mouseRelease(scene.view, left, no_mod, QPoint(200, 600), 16)
            out["settled"] = _wait_for(lambda: float(stretch.property("distance")) == 0)
            out["after"] = _row_edge(scene.grab())
        finally:
            scene.close()
    out["messages"] = messages
    print(json.dumps(out))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
