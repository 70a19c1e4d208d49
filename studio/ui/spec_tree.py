"""The spec tree panel: the outline of the open prototype, selection synced with the preview."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from studio.workspace import Selection, Shown

ADDRESS_ROLE = Qt.ItemDataRole.UserRole + 1


class SpecTreePanel(QWidget):
    """Shows `studio.spec.outline(spec)` as a tree. Emits `nodeSelected(address)` on user selection;
    `select(address)` and `highlight(addresses)` reflect selection and changes made elsewhere."""

    nodeSelected = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("specTree")
        self._model = QStandardItemModel(self)
        self._model.setHorizontalHeaderLabels(["Node", "Type"])
        self._view = QTreeView(self)
        self._view.setModel(self._model)
        self._view.setUniformRowHeights(True)
        self._view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self._view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self._view.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self._view.header().setStretchLastSection(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._view)
        self._items: dict[str, QStandardItem] = {}
        self._highlighted: set[str] = set()
        self._syncing = False
        self._spec: dict[str, Any] | None = None
        self._view.selectionModel().currentChanged.connect(self._on_current_changed)

    @property
    def view(self) -> QTreeView:
        return self._view

    def present(self, shown: Shown) -> None:
        """Show what the workspace shows (the document, or the draft under review) and mark
        what it highlights; the outline is rebuilt only when the spec changed."""
        if shown.spec is not self._spec:
            self.set_spec(shown.spec)
        self.highlight(shown.highlight)

    def select_nodes(self, selection: Selection) -> None:
        """Follow the workspace's selection (its primary node)."""
        self.select(selection.primary)

    def set_spec(self, spec: dict[str, Any]) -> None:
        """Rebuild from the spec's outline, keeping the selection when its address still exists."""
        from studio.spec.outline import outline

        self._spec = spec
        selected = self.selected_address()
        self._syncing = True
        try:
            self._model.removeRows(0, self._model.rowCount())
            self._items.clear()
            parents: list[QStandardItem] = [self._model.invisibleRootItem()]
            for entry in outline(spec):
                depth = int(entry.get("depth", 0))
                del parents[depth + 1 :]
                label = entry.get("label") or ""
                node_id = entry.get("id")
                title = node_id or entry["type"]
                if label:
                    title = f"{title} — {label}"
                item = QStandardItem(title)
                item.setData(entry["address"], ADDRESS_ROLE)
                item.setToolTip(entry.get("path", entry["address"]))
                type_item = QStandardItem(entry["type"])
                type_item.setData(entry["address"], ADDRESS_ROLE)
                parents[-1].appendRow([item, type_item])
                parents.append(item)
                self._items[entry["address"]] = item
            self._view.expandAll()
        finally:
            self._syncing = False
        self._apply_highlight()
        if selected and selected in self._items:
            self.select(selected)

    def selected_address(self) -> str | None:
        index = self._view.currentIndex()
        value = index.data(ADDRESS_ROLE) if index.isValid() else None
        return str(value) if value else None

    def select(self, address: str | None) -> None:
        """Select without emitting `nodeSelected` (the change came from elsewhere)."""
        self._syncing = True
        try:
            item = self._items.get(address) if address else None
            if item is None:
                self._view.selectionModel().clearSelection()
                self._view.setCurrentIndex(QModelIndex())
                return
            index = item.index()
            self._view.selectionModel().setCurrentIndex(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
            self._view.scrollTo(index)
        finally:
            self._syncing = False

    def highlight(self, addresses: Iterable[str]) -> None:
        """Mark nodes (e.g. those a revision changed) in bold with a tint."""
        self._highlighted = set(addresses)
        self._apply_highlight()

    def highlighted(self) -> set[str]:
        return {a for a in self._highlighted if a in self._items}

    def _apply_highlight(self) -> None:
        tint = QBrush(QColor(255, 193, 7, 70))
        for address, item in self._items.items():
            on = address in self._highlighted
            font = QFont(item.font())
            font.setBold(on)
            item.setFont(font)
            item.setBackground(tint if on else QBrush())

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        address = current.data(ADDRESS_ROLE)
        if address:
            self.nodeSelected.emit(str(address))
