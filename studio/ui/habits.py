"""Remembered habits: the preview's device (a preset or the custom size), landscape, zoom, theme,
right-to-left and event strip, and the library's sort, restored when the window is built and written to the
UI settings as they change, so the studio opens the way the designer left it."""

from __future__ import annotations

import contextlib
from typing import Protocol

from PySide6.QtCore import Qt

from studio.ui.library_panel import COLUMNS, LibraryPanel
from studio.ui.preview_pane import ZOOM_LEVELS, PreviewPane

DEVICE_KEY = "preview/device"  # "360x800" (a preset's size) or "custom"
CUSTOM_KEY = "preview/custom_size"  # "600x960" (dp)
LANDSCAPE_KEY = "preview/landscape"  # "true" / "false"
ZOOM_KEY = "preview/zoom"  # "fit" or a level, "2.0"
THEME_KEY = "preview/theme"  # "light", "dark", "system"
RTL_KEY = "preview/rtl"  # "true" / "false": the device's layout direction
EVENTS_KEY = "preview/events_shown"  # "true" / "false"
ANIMATOR_KEY = "preview/animator_scale"  # "1.0": the device's animator duration scale
SORT_KEY = "library/sort"  # "name ascending", "modified descending"


class Memory(Protocol):
    """Where habits are kept (the UI settings)."""

    def value(self, key: str, default: str = "") -> str: ...
    def set_value(self, key: str, value: str) -> None: ...


def _size(text: str) -> tuple[int, int] | None:
    """ "412x915" as (412, 915); None where it is not two whole numbers."""
    width, _, height = text.partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        return None


def _flag(text: str) -> bool | None:
    return {"true": True, "false": False}.get(text.strip().lower())


def remember_preview(pane: PreviewPane, memory: Memory) -> None:
    """Restore the preview's choices (a value that no longer means anything, from an older or
    hand-edited file, keeps the default) and keep them as they change."""
    _restore_preview(pane, memory)

    def device() -> None:
        data = pane.device_combo.currentData()
        memory.set_value(DEVICE_KEY, "custom" if data is None else f"{data[0]}x{data[1]}")

    def custom() -> None:
        memory.set_value(CUSTOM_KEY, f"{pane.custom_width.value()}x{pane.custom_height.value()}")

    def zoom() -> None:
        chosen = pane.zoom()
        memory.set_value(ZOOM_KEY, "fit" if chosen is None else str(chosen))

    pane.device_combo.currentIndexChanged.connect(lambda _i: device())
    pane.custom_width.valueChanged.connect(lambda _v: custom())
    pane.custom_height.valueChanged.connect(lambda _v: custom())
    pane.landscape_action.toggled.connect(lambda on: memory.set_value(LANDSCAPE_KEY, _text(on)))
    pane.zoom_combo.currentIndexChanged.connect(lambda _i: zoom())
    pane.theme_combo.currentIndexChanged.connect(
        lambda _i: memory.set_value(THEME_KEY, pane.theme())
    )
    pane.rtl_action.toggled.connect(lambda on: memory.set_value(RTL_KEY, _text(on)))
    pane.log_toggle.toggled.connect(lambda on: memory.set_value(EVENTS_KEY, _text(on)))
    pane.animator_group.triggered.connect(
        lambda _a: memory.set_value(ANIMATOR_KEY, str(pane.animator_scale()))
    )


def _restore_preview(pane: PreviewPane, memory: Memory) -> None:
    custom = _size(memory.value(CUSTOM_KEY))
    if custom is not None:
        pane.custom_width.setValue(custom[0])  # clamped to the spin boxes' range
        pane.custom_height.setValue(custom[1])
    device = memory.value(DEVICE_KEY)
    preset = _size(device)
    for index in range(pane.device_combo.count()):
        data = pane.device_combo.itemData(index)
        if (data is None and device == "custom") or (data is not None and tuple(data) == preset):
            pane.device_combo.setCurrentIndex(index)
    landscape = _flag(memory.value(LANDSCAPE_KEY))
    if landscape is not None:
        pane.landscape_action.setChecked(landscape)
    zoom = memory.value(ZOOM_KEY)
    if zoom == "fit":
        pane.set_zoom(None)
    else:
        with contextlib.suppress(ValueError):
            level = float(zoom)
            if level in ZOOM_LEVELS:
                pane.set_zoom(level)
    theme = pane.theme_combo.findData(memory.value(THEME_KEY))
    if theme >= 0:
        pane.theme_combo.setCurrentIndex(theme)
    rtl = _flag(memory.value(RTL_KEY))
    if rtl is not None:
        pane.rtl_action.setChecked(rtl)
    events = _flag(memory.value(EVENTS_KEY))
    if events is not None:
        pane.log_toggle.setChecked(events)
    with contextlib.suppress(ValueError):
        pane.set_animator_scale(float(memory.value(ANIMATOR_KEY)))  # one of the menu's only


def remember_library_sort(panel: LibraryPanel, memory: Memory) -> None:
    """Restore the library's sort column and order and keep them as the designer changes them."""
    column, _, order = memory.value(SORT_KEY).partition(" ")
    if column in COLUMNS and order in ("ascending", "descending"):
        ascending = Qt.SortOrder.AscendingOrder
        panel.sort_by(column, ascending if order == "ascending" else Qt.SortOrder.DescendingOrder)
    panel.sortChanged.connect(
        lambda column, up: memory.set_value(
            SORT_KEY, f"{column} {'ascending' if up else 'descending'}"
        )
    )


def _text(on: bool) -> str:
    return "true" if on else "false"
