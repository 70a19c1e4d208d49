"""A child process for test_fidelity_ripple: presses a tappable rounded box in a preview scene on
the platform it is started on (xcb: OpenGL) and prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.ripple_probe`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEventLoop, QPoint, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

SPEC: dict[str, Any] = {
    "id": "probe",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {
        "type": "column",
        "style": {
            "width": "fill",
            "height": "fill",
            "background": "#FFFFFF",
            "padding": {"top": 40, "start": 40},
        },  # fmt: skip
        "children": [
            {
                "type": "box",
                "id": "b",
                "onTap": [{"type": "emit", "name": "tapped"}],
                "children": [],
                "style": {"width": {"dp": 160}, "height": {"dp": 100}, "cornerRadius": 32},
            },  # fmt: skip
        ],
    },
}


def _wait_for(condition: Callable[[], bool], timeout_s: float = 5.0) -> bool:
    """Runs the event loop until `condition` holds (True) or the time is up (False)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        loop = QEventLoop()
        QTimer.singleShot(10, loop.quit)
        loop.exec()
    return True


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from studio.preview.render import HeadlessScene, captured_messages, graphics_api
    from studio.preview.scene import prepare_quick

    prepare_quick(None)
    out: dict[str, Any] = {}
    with captured_messages() as messages:
        scene = HeadlessScene(412, 915, "light", chrome=False)
        try:
            scene.show(SPEC)
            scene.grab()
            box = next(e for e in scene.visible_summary() if e["address"] == "b")["bounds"]
            x, y = box["x"], box["y"]

            def rgb(image: Any, px: float, py: float) -> list[int]:
                c = image.pixelColor(round(px), round(py))
                return [c.red(), c.green(), c.blue()]

            press = QPoint(round(x + 80), round(y + 50))
            left, no_mod = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
            QTest.mousePress(scene.view, left, no_mod, press)
            frame = scene.grab()
            out["api"] = graphics_api(scene)
            out["pressed"] = rgb(frame, x + 80, y + 50)
            out["edge"] = rgb(frame, x + 40, y + 4)
            out["corner"] = rgb(frame, x + 3, y + 3)
            out["outside"] = rgb(frame, x + 163, y + 50)
            QTest.mouseRelease(scene.view, left, no_mod, press)
            out["cleared"] = _wait_for(lambda: rgb(scene.grab_now(), x + 80, y + 50) == [255] * 3)
            out["tapped"] = sum(1 for e in scene.controller.runtime.events if e.name == "tapped")
            out["onSurface"] = scene.controller.scheme.colors["onSurface"]
        finally:
            scene.close()
    out["messages"] = messages
    print(json.dumps(out))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
