"""The revision list: every change with its author, summary and time; undo and redo."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.library.revisions import RevisionLog


class RevisionsPanel(QWidget):
    """Lists a RevisionLog (newest first). Undone revisions stay listed, greyed, until replaced."""

    undoRequested = Signal()
    redoRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("revisions")
        self.list = QListWidget(self)
        self.undo_button = QPushButton("Undo", self)
        self.redo_button = QPushButton("Redo", self)
        self.undo_button.clicked.connect(self.undoRequested)
        self.redo_button.clicked.connect(self.redoRequested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.redo_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(buttons)
        layout.addWidget(self.list)
        self.show_log(None)

    def show_log(self, log: RevisionLog | None) -> None:
        self.list.clear()
        if log is None:
            self.undo_button.setEnabled(False)
            self.redo_button.setEnabled(False)
            return
        revisions = log.revisions
        for index in range(len(revisions) - 1, -1, -1):
            revision = revisions[index]
            when = dt.datetime.fromtimestamp(revision.time).strftime("%H:%M:%S")
            item = QListWidgetItem(f"{revision.summary}\n{revision.author} · {when}")
            item.setData(Qt.ItemDataRole.UserRole, revision.id)
            tip = revision.instruction or revision.summary
            item.setToolTip(tip)
            if index >= log.cursor:
                item.setForeground(QBrush(QColor(128, 128, 128)))
            self.list.addItem(item)
        base = QListWidgetItem("Opened\nbase")
        base.setForeground(QBrush(QColor(128, 128, 128)))
        self.list.addItem(base)
        self.undo_button.setEnabled(log.can_undo())
        self.redo_button.setEnabled(log.can_redo())

    def entries(self) -> list[str]:
        """The visible lines (first line of each item), newest first, for tests and accessibility."""
        return [self.list.item(i).text().split("\n")[0] for i in range(self.list.count())]
