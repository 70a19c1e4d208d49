"""Top-level widgets that outlive a test (napari's viewer fixture checks the same): what exists
now and did not before, once pending deletes have run."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication


def top_level_widgets() -> dict[int, str]:
    """The application's top-level widgets now, by C++ address, with a name to report."""
    import shiboken6

    out: dict[int, str] = {}
    for widget in QApplication.topLevelWidgets():
        if shiboken6.isValid(widget):
            name = widget.objectName() or "(no name)"
            out[shiboken6.getCppPointer(widget)[0]] = f"{type(widget).__name__} {name}"
    return out


def leaked_widgets(before: dict[int, str]) -> list[str]:
    """Top-level widgets that exist now and did not before (after pending deletes ran)."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return sorted(name for key, name in top_level_widgets().items() if key not in before)
