"""The app's own light/dark look, following the system colour scheme (Qt 6.5+ style hints)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def follow_system(app: QApplication) -> None:
    """Use the Fusion style, whose palette follows the system's light/dark setting live."""
    app.setStyle("Fusion")
