"""Parts of the agent sheet about the run itself: the model's reasoning (collapsed, never part
of the answer), which model took the run and why, and the offer to continue an unfinished run
saved before a restart (studio.agent.resume)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

MAX_REASONING = 200_000
"""Characters of reasoning kept in the panel (a long think keeps its end)."""


class ReasoningPanel(QWidget):
    """The run's reasoning, collapsed behind a toggle; hidden while a run has none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("reasoningToggle")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("reasoning")
        self.text.setReadOnly(True)
        self.text.setMaximumHeight(160)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.text)
        self.toggle.toggled.connect(self._show)
        self._chars = 0
        self.clear()

    def clear(self) -> None:
        self.text.clear()
        self._chars = 0
        self.toggle.setChecked(False)
        self._show(False)
        self.hide()

    def add(self, piece: str) -> None:
        if not piece:
            return
        self._chars += len(piece)
        current = self.text.toPlainText() + piece
        if len(current) > MAX_REASONING:
            current = current[-MAX_REASONING:]
        self.text.setPlainText(current)
        self.show()
        self._label()

    def _show(self, open_: bool) -> None:
        self.text.setVisible(open_)
        self._label()

    def _label(self) -> None:
        arrow = "▾" if self.toggle.isChecked() else "▸"
        self.toggle.setText(f"{arrow} Reasoning ({self._chars} characters)")


class RouteLabel(QLabel):
    """Which model took the run, and why (the router's reason)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("route")
        self.setWordWrap(True)
        self.hide()

    def show_route(self, model: str, local: bool, why: str) -> None:
        where = "local" if local else "cloud"
        self.setText(f"{model} ({where}) took this run: {why}" if why else f"{model} ({where})")
        self.show()


class ResumeOffer(QFrame):
    """“An unfinished run …: Continue / Dismiss” for a run record of the open prototype."""

    continueRequested = Signal(object, bool)  # the RunRecord; whether tool changes are allowed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resumeOffer")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.continue_button = QPushButton("Continue", self)
        self.dismiss_button = QPushButton("Dismiss", self)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 6, 4)
        row.addWidget(self.label, 1)
        row.addWidget(self.continue_button)
        row.addWidget(self.dismiss_button)
        self.record: Any = None
        self.anyway = False
        self.continue_button.clicked.connect(self._continue)
        self.dismiss_button.clicked.connect(self.clear)
        self.hide()

    def offer(self, record: Any, *, anyway: str = "") -> None:
        """Offer `record`; with `anyway` (why it was refused: the tools changed) the button
        continues with the current tools."""
        self.record = record
        self.anyway = bool(anyway)
        self.continue_button.setText("Continue anyway" if anyway else "Continue")
        instruction = " ".join(str(record.instruction).split())
        if len(instruction) > 80:
            instruction = instruction[:77] + "..."
        why = (
            "it waits for your answer"
            if record.status == "needs_input"
            else (
                f"it stopped: {record.reason}" if record.reason else "the studio closed during it"
            )
        )
        self.label.setText(f"{anyway}" if anyway else f"An unfinished run, “{instruction}”: {why}.")
        self.show()

    def clear(self) -> None:
        self.record = None
        self.hide()

    def _continue(self) -> None:
        record, anyway = self.record, self.anyway
        self.clear()
        if record is not None:
            self.continueRequested.emit(record, anyway)
