"""A child process for test_fidelity_timepicker: taps and drags a time picker's dial in a preview
scene on the platform it is started on (xcb: OpenGL) and prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.timepicker_probe`."""

from __future__ import annotations

import math
import sys
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from tests.preview.helpers import LEFT, NO_MOD, named
from tests.preview.probe import run_probe, wait_for

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


def body(scene: Any, out: dict[str, Any]) -> None:
    """Tap 15 on the inner ring, wait for the minutes, then drag the selector from :05 out to the
    ring and round to :07 and wait for it to settle."""
    scene.show(SPEC)
    scene.grab()
    picker = named(scene.screen_item(), "timePicker")
    dial = named(scene.screen_item(), "dial")
    spring = named(scene.screen_item(), "selectorSpring")
    centre = dial.mapToScene(dial.boundingRect().center())
    runtime = scene.controller.runtime

    def point(turn: float, radius: float) -> QPoint:
        a = turn * 2 * math.pi
        return QPoint(
            round(centre.x() + radius * math.sin(a)),
            round(centre.y() - radius * math.cos(a)),
        )

    QTest.mouseClick(scene.view, LEFT, NO_MOD, point(3 / 12, 69))  # inner ring: 15
    out["hour"] = runtime.value("h")
    out["switched"] = wait_for(
        lambda: picker.property("selection") == "minute" and not spring.property("running")
    )
    press = point(5 / 60, 40)
    QTest.mousePress(scene.view, LEFT, NO_MOD, press)
    for r in (50, 60, 70, 80, 90, 101):
        QTest.mouseMove(scene.view, point(5 / 60, r))
    QTest.mouseMove(scene.view, point(7 / 60, 101))
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, point(7 / 60, 101))
    out["settled"] = wait_for(lambda: not spring.property("running"))
    out["minute"] = runtime.value("m")
    out["angle"] = float(dial.property("selectorAngle"))
    out["tapped"] = sum(1 for e in runtime.events if e.name == "tapped")
    scene.grab()


if __name__ == "__main__":
    sys.exit(run_probe(body))
