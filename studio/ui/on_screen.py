"""Panels that draw only while a user can see them.

A dock in a background tab (the Data, State, Theme and window, Platform modules and Revisions
tabs behind the inspector) stays "visible" to Qt: QMainWindow moves it off-screen instead of
hiding it, so `isVisible()` and `showEvent` cannot tell. Redrawing those panels on every opened
prototype and every revision cost start-up its first preview frame (the Platform modules panel
alone builds the platform registry, ~90 ms) and every edit a few ms per panel. `WhileOnScreen`
holds the newest value instead and hands it over when the dock's tab is raised, it is made
floating or it is shown again (QDockWidget.visibilityChanged, which Qt emits for all three).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDockWidget

T = TypeVar("T")
_UNSET = object()


class WhileOnScreen(QObject, Generic[T]):
    """Calls `present(value)` with the newest value given while `dock` is on screen, and once
    more when the dock comes on screen after values arrived while it was not. Until the window
    is first shown every value is handed over at once."""

    def __init__(self, dock: QDockWidget, present: Callable[[T], None]) -> None:
        super().__init__(dock)
        self._present = present
        self._pending: object = _UNSET
        # Made after the window was shown, the dock has reported already: read where it is.
        shown = dock.window().isVisible()
        self._on_screen: bool | None = not dock.visibleRegion().isEmpty() if shown else None
        dock.visibilityChanged.connect(self._visibility)

    @property
    def waiting(self) -> bool:
        """A value arrived while the dock was off screen and has not been drawn."""
        return self._pending is not _UNSET

    def __call__(self, value: T) -> None:
        if self._on_screen is False:
            self._pending = value
        else:
            self._present(value)

    def _visibility(self, on: bool) -> None:
        self._on_screen = on
        if on and self._pending is not _UNSET:
            value, self._pending = self._pending, _UNSET
            self._present(value)  # type: ignore[arg-type]
