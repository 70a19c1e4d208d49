"""The first-run hint above the preview: where to start (select a node, edit mode, the agent),
shown until the designer dismisses it, once per user (remembered in the UI settings)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from studio.ui.labels import WrapLabel

SEEN_KEY = "hints/first_run_seen"
HINT = (
    "Start here: click a node in the Spec tree, or turn on Edit mode and click it in the preview, "
    "to select it. Change it in the Inspector, or describe a change to the agent on the right "
    "(the selected node goes with your instruction). Every change can be undone with Ctrl+Z."
)


class HintMemory(Protocol):
    def value(self, key: str, default: str = "") -> str: ...
    def set_value(self, key: str, value: str) -> None: ...


class FirstRunHint(QFrame):
    """The hint with a "Got it" button; `dismissed` once it is closed for good."""

    dismissed = Signal()

    def __init__(self, memory: HintMemory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunHint")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._memory = memory
        self.label = WrapLabel(HINT, self)
        self.close_button = QPushButton("Got it", self)
        self.close_button.setToolTip("Hide this hint (it does not come back)")
        row = QHBoxLayout(self)
        row.addWidget(self.label, 1)
        row.addWidget(self.close_button)
        self.close_button.clicked.connect(self.dismiss)
        self.setVisible(not self.seen())

    def seen(self) -> bool:
        return self._memory.value(SEEN_KEY) == "1"

    def dismiss(self) -> None:
        self._memory.set_value(SEEN_KEY, "1")
        self.hide()
        self.dismissed.emit()
