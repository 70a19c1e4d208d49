"""What keeps the window on a laptop screen: a dock's panel scrolls inside its dock when the dock
is smaller than the panel's minimum, instead of setting the dock's (and the window's) minimum."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class DockBody(QScrollArea):
    """The one child of a dock: `panel()`, resized to the dock while the dock is large enough
    for it, and scrolled (never squeezed, never widening the dock) when it is not."""

    def __init__(self, panel: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"{panel.objectName() or 'panel'}Body")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidget(panel)
        # Focus moves into the panel, never stops on the scroll area itself.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def panel(self) -> QWidget:
        widget = self.widget()
        assert widget is not None  # set in __init__ and never taken
        return widget

    def scrolls(self) -> bool:
        """Whether the dock is too small for the panel now (it scrolls instead of shrinking)."""
        bars = (self.horizontalScrollBar(), self.verticalScrollBar())
        return any(bar.isVisible() and bar.maximum() > 0 for bar in bars)
