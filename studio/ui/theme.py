"""The app's own light/dark look, following the system colour scheme (Qt 6.5+ style hints)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


def is_dark(app: QGuiApplication | None = None) -> bool:
    app = app or QGuiApplication.instance()  # type: ignore[assignment]
    if app is None:
        return False
    scheme = app.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Unknown:
        return app.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return scheme == Qt.ColorScheme.Dark


def follow_system(app: QApplication) -> None:
    """Use the Fusion style, whose palette follows the system's light/dark setting live."""
    app.setStyle("Fusion")
