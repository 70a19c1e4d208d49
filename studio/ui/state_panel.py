"""The state panel (a document-level editor): the prototype's state keys with their initial
values and how many places use each; add, rename (every use follows) and remove (refused with
the uses listed) through `studio.workspace.editing`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from studio.workspace import Shown

KEY_ROLE = Qt.ItemDataRole.UserRole + 1


class StatePanel(QWidget):
    """Out: `renameRequested(old, new)`, `valueRequested(key, value)`, `addRequested()`,
    `removeRequested(key)`. In: `present(shown)`, `show_error(line)`."""

    renameRequested = Signal(str, str)
    valueRequested = Signal(str, object)
    addRequested = Signal()
    removeRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statePanel")
        self.table = QTableWidget(0, 3, self)
        self.table.setObjectName("stateTable")
        self.table.setHorizontalHeaderLabels(["Key", "Initial value", "Uses"])
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.add_button = QPushButton("Add key", self)
        self.remove_button = QPushButton("Remove", self)
        self.error = QLabel("", self)
        self.error.setObjectName("stateError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b3261e;")
        self.error.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.table)
        layout.addWidget(self.error)
        layout.addLayout(buttons)
        self._filling = False
        self._spec: dict[str, Any] | None = None
        self.table.itemChanged.connect(self._on_changed)
        self.add_button.clicked.connect(self.addRequested.emit)
        self.remove_button.clicked.connect(self._remove)

    def present(self, shown: Shown) -> None:
        if shown.spec is self._spec:
            return
        from studio.spec.statekeys import uses_by_key

        self._spec = shown.spec
        declared = shown.spec.get("state")
        state = declared if isinstance(declared, dict) else {}
        counts = uses_by_key(shown.spec) if state else {}
        self._filling = True
        try:
            self.table.setRowCount(len(state))
            for row, (key, value) in enumerate(state.items()):
                key_item = QTableWidgetItem(key)
                value_item = QTableWidgetItem(json.dumps(value, ensure_ascii=False))
                uses = counts.get(key, [])
                uses_item = QTableWidgetItem(str(len(uses)))
                uses_item.setFlags(uses_item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                uses_item.setToolTip("\n".join(f"{u.path} ({u.where})" for u in uses))
                for column, item in enumerate((key_item, value_item, uses_item)):
                    item.setData(KEY_ROLE, key)
                    self.table.setItem(row, column, item)
        finally:
            self._filling = False
        self.error.hide()

    def keys(self) -> list[str]:
        items = (self.table.item(r, 0) for r in range(self.table.rowCount()))
        return [item.text() for item in items if item is not None]

    def row_of(self, key: str) -> int:
        return self.keys().index(key)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _on_changed(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        key = str(item.data(KEY_ROLE))
        if item.column() == 0:
            new = item.text().strip()
            if new != key:
                self.renameRequested.emit(key, new)
        elif item.column() == 1:
            try:
                value = json.loads(item.text())
            except json.JSONDecodeError:
                value = item.text()  # plain text is a string value
            self.valueRequested.emit(key, value)
        # What the workspace then shows is drawn again; a refusal restores the old text.
        spec, self._spec = self._spec, None
        if spec is not None:
            from studio.workspace import Shown

            self.present(Shown(spec, "document"))

    def _remove(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.removeRequested.emit(self.keys()[row])
