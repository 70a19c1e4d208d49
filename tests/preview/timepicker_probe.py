"""A child process for test_fidelity_timepicker: taps and drags a time picker's dial in a preview
scene on the platform it is started on (xcb: OpenGL) and prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.timepicker_probe`."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from tests.preview.ripple_probe import _wait_for

SPEC: dict[str, Any] = {
    "id": "probe",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"h": 9, "m": 41},
    "root": {
        "type": "column",
        "style": {"width": "fill"},
        "children": [
            {
                "type": "timePicker",
                "hourKey": "h",
                "minuteKey": "m",
                "is24Hour": True,
                "onTap": [{"type": "emit", "name": "tapped"}],
            },
        ],  # fmt: skip
    },
}


def _named(root: Any, name: str) -> Any:
    stack = [root]
    while stack:
        item = stack.pop()
        if item.objectName() == name:
            return item
        stack.extend(item.childItems())
    raise LookupError(name)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from studio.preview.render import HeadlessScene, captured_messages, graphics_api
    from studio.preview.scene import prepare_quick

    prepare_quick(None)
    out: dict[str, Any] = {}
    left, no_mod = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    with captured_messages() as messages:
        scene = HeadlessScene(412, 915, "light", chrome=False)
        try:
            scene.show(SPEC)
            scene.grab()
            picker = _named(scene.screen_item(), "timePicker")
            dial = _named(scene.screen_item(), "dial")
            spring = _named(scene.screen_item(), "selectorSpring")
            centre = dial.mapToScene(dial.boundingRect().center())
            runtime = scene.controller.runtime

            def point(turn: float, radius: float) -> QPoint:
                a = turn * 2 * math.pi
                return QPoint(
                    round(centre.x() + radius * math.sin(a)),
                    round(centre.y() - radius * math.cos(a)),
                )

            out["api"] = graphics_api(scene)
            QTest.mouseClick(scene.view, left, no_mod, point(3 / 12, 69))  # inner ring: 15
            out["hour"] = runtime.value("h")
            out["switched"] = _wait_for(
                lambda: picker.property("selection") == "minute" and not spring.property("running")
            )
            press = point(5 / 60, 40)
            QTest.mousePress(scene.view, left, no_mod, press)
            for r in (50, 60, 70, 80, 90, 101):
                QTest.mouseMove(scene.view, point(5 / 60, r))
            QTest.mouseMove(scene.view, point(7 / 60, 101))
            QTest.mouseRelease(scene.view, left, no_mod, point(7 / 60, 101))
            out["settled"] = _wait_for(lambda: not spring.property("running"))
            out["minute"] = runtime.value("m")
            out["angle"] = float(dial.property("selectorAngle"))
            out["tapped"] = sum(1 for e in runtime.events if e.name == "tapped")
            scene.grab()
        finally:
            scene.close()
    out["messages"] = messages
    print(json.dumps(out))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
