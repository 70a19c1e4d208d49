"""The preview's event log: what the running prototype (or a phone) emitted, newest at the
bottom, with a header, the time each line arrived, a filter and Clear."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

MAX_LINES = 200


class EventLog(QWidget):
    """A strip of lines (`add_line`), each with the local time it arrived; the filter hides the
    lines without its text (case-insensitive); Clear empties it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("eventLog")
        # The header folds the strip: unchecked, only this header row stays.
        self.title = QToolButton(self)
        self.title.setObjectName("eventLogTitle")
        self.title.setText("Events")
        self.title.setCheckable(True)
        self.title.setChecked(True)
        self.title.setAutoRaise(True)
        self.title.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.title.setArrowType(Qt.ArrowType.DownArrow)
        self.title.setToolTip("Show or hide the runtime's events")
        self.filter = QLineEdit(self)
        self.filter.setObjectName("eventFilter")
        self.filter.setPlaceholderText("Filter events")
        self.filter.setClearButtonEnabled(True)
        self.clear_button = QToolButton(self)
        self.clear_button.setText("Clear")
        self.clear_button.setToolTip("Remove every line from the log")
        self.view = QTreeWidget(self)
        self.view.setObjectName("eventLines")
        self.view.setHeaderLabels(["Time", "Event"])
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setMaximumHeight(120)
        self.view.setMinimumHeight(48)
        header = self.view.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title)
        head.addWidget(self.filter, 1)
        head.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(head)
        layout.addWidget(self.view)
        self.title.toggled.connect(self._fold)
        self.filter.textChanged.connect(self._apply_filter)
        self.clear_button.clicked.connect(self.clear)

    @property
    def folded(self) -> bool:
        """Only the header shows (its lines, filter and Clear are folded away)."""
        return not self.title.isChecked()

    def _fold(self, shown: bool) -> None:
        for part in (self.filter, self.clear_button, self.view):
            part.setVisible(shown)
        self.title.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def add_line(self, text: str, when: dt.datetime | None = None) -> None:
        stamp = (when or dt.datetime.now()).strftime("%H:%M:%S.%f")[:-3]
        item = QTreeWidgetItem([stamp, text])
        item.setToolTip(1, text)
        self.view.addTopLevelItem(item)
        while self.view.topLevelItemCount() > MAX_LINES:
            self.view.takeTopLevelItem(0)
        self._show(item)
        self.view.scrollToBottom()

    def clear(self) -> None:
        self.view.clear()

    def lines(self) -> list[str]:
        """Every line's text, oldest first (filtered out or not)."""
        return [item.text(1) for item in self._items()]

    def shown(self) -> list[tuple[str, str]]:
        """(time, text) of the lines the filter lets through."""
        return [(i.text(0), i.text(1)) for i in self._items() if not i.isHidden()]

    def _items(self) -> list[QTreeWidgetItem]:
        items = (self.view.topLevelItem(i) for i in range(self.view.topLevelItemCount()))
        return [item for item in items if item is not None]

    def _show(self, item: QTreeWidgetItem) -> None:
        needle = self.filter.text().strip().casefold()
        item.setHidden(bool(needle) and needle not in item.text(1).casefold())

    def _apply_filter(self) -> None:
        for item in self._items():
            self._show(item)
