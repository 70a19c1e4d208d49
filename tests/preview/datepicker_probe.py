"""A child process for test_fidelity_datepicker: shows a date picker in a preview scene on the
platform it is started on (xcb: OpenGL), left to right and right to left, opens its year list and
taps a year; left to right it also drags the months past half a month and taps a day (the snap
and the colour fade on frame clocks); it prints one JSON line with what it saw.

Run: `QT_QPA_PLATFORM=xcb DISPLAY=:N python -m tests.preview.datepicker_probe`."""

from __future__ import annotations

import sys
from datetime import date
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from tests.preview.fidelity import rgb_at
from tests.preview.helpers import LEFT, NO_MOD, click_item, drag, find_named, item_rect
from tests.preview.probe import open_scene, run_probe, wait_for

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


def _shown(scene: Any, name: str) -> Any:
    """The visible item of that objectName on the shown screen, or None."""
    return find_named(scene.screen_item(), name, visible=True)


def _pick(scene: Any) -> dict[str, Any]:
    """Today's ring and the picked day, the year list opened, then a year tapped."""
    out: dict[str, Any] = {}
    scene.controller.set_today(date(2026, 2, 18))
    scene.show(SPEC)
    image = scene.grab()
    ring = _shown(scene, "todayRing")
    centre = ring.mapToScene(ring.boundingRect().center())
    out["ring"] = rgb_at(image, centre.x() - 19.5, centre.y())
    out["inside_ring"] = rgb_at(image, centre.x() - 17.5, centre.y())
    click_item(scene, _shown(scene, "yearMenuButton"))

    def open_() -> bool:
        clip = _shown(scene, "yearPickerClip")
        return _shown(scene, "yearGrid") is not None and clip.height() == 336

    wait_for(open_)
    image = scene.grab()
    year = _shown(scene, "year2026")
    top = year.mapToScene(year.boundingRect().topLeft())
    out["selected_year"] = rgb_at(image, top.x() + 10, top.y() + 18)
    click_item(scene, _shown(scene, "year2028"))
    wait_for(lambda: _shown(scene, "yearGrid") is None)
    scene.grab()
    out["after_year_tap"] = str(_shown(scene, "datePickerMonthYear").property("text"))
    out["picked"] = scene.controller.runtime.value("d")
    out["primary"] = scene.controller.scheme.colors["primary"]
    out["container"] = scene.controller.scheme.colors["surfaceContainerHigh"]
    return out


def _snap_and_fade(scene: Any) -> dict[str, Any]:
    """A slow drag 60 % of a month on and released still, then a tap on the 20th of the month
    it settled on: where the list rests, whether the snap and the fade ran and ended."""
    out: dict[str, Any] = {}
    scene.show(SPEC)
    scene.grab()
    months = _shown(scene, "monthsList")
    picker = _shown(scene, "datePicker")
    r = item_rect(months)
    y = round(r.center().y())
    drag(scene, QPoint(round(r.left()) + 320, y), -250, 0, steps=10, ms=40)
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(round(r.left()) + 70, y), 300)
    out["snapping"] = bool(months.property("settling"))
    out["snap_ended"] = wait_for(lambda: not months.property("settling"))
    out["month"] = str(_shown(scene, "datePickerMonthYear").property("text"))
    out["at_month_start"] = float(months.property("contentX")) % float(months.property("width"))
    scene.grab()
    stack, days = [months], []
    while stack:
        item = stack.pop()
        if item.objectName() == "monthDays" and item.isVisible():
            days.append(item)
        stack.extend(item.childItems())
    (shown,) = days  # the month on screen only
    (twenty,) = [c for c in shown.childItems() if c.property("day") == 20]
    click_item(scene, twenty)
    out["fading"] = bool(picker.property("dayFading"))
    out["fade_ended"] = wait_for(lambda: not picker.property("dayFading"))
    image = scene.grab()
    out["picked"] = scene.controller.runtime.value("d")
    circle = _shown(scene, "pickedDay")
    out["picked_circle"] = None
    if circle is not None:
        centre = circle.mapToScene(circle.boundingRect().center())
        out["picked_circle"] = rgb_at(image, centre.x() - 14, centre.y())
    return out


def body(scene: Any, out: dict[str, Any]) -> None:
    """The picker left to right on the harness's scene, then right to left on a second one."""
    out["ltr"] = _pick(scene)
    out["motion"] = _snap_and_fade(scene)
    with open_scene(rtl=True) as rtl:
        out["rtl"] = _pick(rtl)


if __name__ == "__main__":
    sys.exit(run_probe(body))
