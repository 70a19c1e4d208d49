"""A child process for test_fidelity_ripple: presses a tappable rounded box in a preview scene on
the platform it is started on (xcb: OpenGL) and prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.ripple_probe`."""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from tests.preview.fidelity import rgb_at
from tests.preview.helpers import LEFT, NO_MOD
from tests.preview.probe import run_probe, wait_for

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


def body(scene: Any, out: dict[str, Any]) -> None:
    """Press the box's middle: the frame while held (in it, its edge, a cut corner, beside it),
    then release and wait for the ripple to go."""
    scene.show(SPEC)
    scene.grab()
    box = next(e for e in scene.visible_summary() if e["address"] == "b")["bounds"]
    x, y = box["x"], box["y"]
    press = QPoint(round(x + 80), round(y + 50))
    QTest.mousePress(scene.view, LEFT, NO_MOD, press)
    frame = scene.grab()
    out["pressed"] = rgb_at(frame, x + 80, y + 50)
    out["edge"] = rgb_at(frame, x + 40, y + 4)
    out["corner"] = rgb_at(frame, x + 3, y + 3)
    out["outside"] = rgb_at(frame, x + 163, y + 50)
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, press)
    out["cleared"] = wait_for(lambda: rgb_at(scene.grab_now(), x + 80, y + 50) == (255,) * 3)
    out["tapped"] = sum(1 for e in scene.controller.runtime.events if e.name == "tapped")
    out["onSurface"] = scene.controller.scheme.colors["onSurface"]


if __name__ == "__main__":
    sys.exit(run_probe(body))
