"""A child process for test_fidelity_datepicker: shows a date picker in a preview scene on the
platform it is started on (xcb: OpenGL), left to right and right to left, opens its year list and
taps a year, and prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.datepicker_probe`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import date
from typing import Any

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

SPEC: dict[str, Any] = {
    "id": "probe",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"d": "2026-02-10"},
    "root": {
        "type": "column",
        "style": {"width": "fill"},
        "children": [{"type": "datePicker", "id": "dp", "stateKey": "d"}],
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


def _named(scene: Any, name: str) -> Any:
    stack = [scene.screen_item()]
    while stack:
        item = stack.pop()
        if item.objectName() == name and item.isVisible():
            return item
        stack.extend(item.childItems())
    return None


def _rgb(image: Any, x: float, y: float) -> list[int]:
    c = image.pixelColor(round(x), round(y))
    return [c.red(), c.green(), c.blue()]


def _click(scene: Any, item: Any) -> None:
    at = item.mapToScene(item.boundingRect().center()).toPoint()
    QTest.mouseClick(scene.view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)


def _probe(rtl: bool) -> dict[str, Any]:
    from studio.preview.render import HeadlessScene

    out: dict[str, Any] = {}
    scene = HeadlessScene(412, 915, "light", chrome=False, rtl=rtl)
    scene.controller.set_today(date(2026, 2, 18))
    try:
        scene.show(SPEC)
        image = scene.grab()
        ring = _named(scene, "todayRing")
        centre = ring.mapToScene(ring.boundingRect().center())
        out["ring"] = _rgb(image, centre.x() - 19.5, centre.y())
        out["inside_ring"] = _rgb(image, centre.x() - 17.5, centre.y())
        _click(scene, _named(scene, "yearMenuButton"))

        def open_() -> bool:
            clip = _named(scene, "yearPickerClip")
            return _named(scene, "yearGrid") is not None and clip.height() == 336

        _wait_for(open_)
        image = scene.grab()
        year = _named(scene, "year2026")
        top = year.mapToScene(year.boundingRect().topLeft())
        out["selected_year"] = _rgb(image, top.x() + 10, top.y() + 18)
        _click(scene, _named(scene, "year2028"))
        _wait_for(lambda: _named(scene, "yearGrid") is None)
        scene.grab()
        out["after_year_tap"] = str(_named(scene, "datePickerMonthYear").property("text"))
        out["picked"] = scene.controller.runtime.value("d")
        out["primary"] = scene.controller.scheme.colors["primary"]
        out["container"] = scene.controller.scheme.colors["surfaceContainerHigh"]
    finally:
        scene.close()
    return out


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from studio.preview.render import HeadlessScene, captured_messages, graphics_api
    from studio.preview.scene import prepare_quick

    prepare_quick(None)
    out: dict[str, Any] = {}
    with captured_messages() as messages:
        out["ltr"] = _probe(False)
        out["rtl"] = _probe(True)
        scene = HeadlessScene(412, 915, "light", chrome=False)
        try:
            scene.show(SPEC)
            out["api"] = graphics_api(scene)
        finally:
            scene.close()
    out["messages"] = messages
    print(json.dumps(out))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
