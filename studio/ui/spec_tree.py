"""The spec tree panel: the outline of the shown spec with the workspace's (multi-)selection, its
context menu and keys (the window's edit actions), and drag and drop to reorder, re-parent and
insert from the palette, with a drop indicator that shows a refusal before the drop."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QMimeData,
    QModelIndex,
    QPoint,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QDrag,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QFont,
    QPainter,
    QPaintEvent,
    QPen,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QMenu,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from studio.spec.catalog import container
from studio.ui.palette import TYPE_MIME

if TYPE_CHECKING:
    from studio.workspace import Selection, Shown

ADDRESS_ROLE = Qt.ItemDataRole.UserRole + 1
PATH_ROLE = Qt.ItemDataRole.UserRole + 2
TYPE_ROLE = Qt.ItemDataRole.UserRole + 3
#: A drag of tree rows: the node paths as a JSON list.
NODES_MIME = "application/x-proto-studio-node-paths"

#: (target path, position, dragged paths, new node type) -> why it would be refused, or None.
Refusal = Callable[[str, str, list[str], str | None], str | None]
MenuItem = QAction | QMenu | None  # None: a separator


def fill_menu(menu: QMenu, items: Sequence[MenuItem]) -> None:
    """Add actions, submenus and separators (None) to `menu`, in order."""
    for entry in items:
        if entry is None:
            menu.addSeparator()
        elif isinstance(entry, QMenu):
            menu.addMenu(entry)
        else:
            menu.addAction(entry)


def nodes_mime(paths: list[str]) -> QMimeData:
    """The drag payload of spec nodes being moved (tree rows, or nodes dragged on the preview)."""
    data = QMimeData()
    data.setData(NODES_MIME, json.dumps(paths).encode())
    return data


def drag_payload(data: QMimeData) -> tuple[list[str], str | None] | None:
    """(paths, None) for dragged tree rows, ([], type) for a palette entry, None otherwise."""
    if data.hasFormat(NODES_MIME):
        try:
            paths = json.loads(bytes(data.data(NODES_MIME).data()).decode())
        except (ValueError, UnicodeDecodeError):
            return None
        return ([str(p) for p in paths], None) if isinstance(paths, list) and paths else None
    if data.hasFormat(TYPE_MIME):
        return [], bytes(data.data(TYPE_MIME).data()).decode() or None
    return None


class _TreeView(QTreeView):
    """The view: starts drags of the selected rows and shows where a drop would go."""

    def __init__(self, panel: SpecTreePanel) -> None:
        super().__init__(panel)
        self._panel = panel
        #: (the row's rect, position, refusal) of the drop under the cursor.
        self._drop: tuple[QRect, str, str | None] | None = None

    def startDrag(self, _actions: Qt.DropAction) -> None:
        paths = self._panel.selected_paths()
        if not paths:
            return
        drag = QDrag(self)
        drag.setMimeData(nodes_mime(paths))
        drag.exec(Qt.DropAction.MoveAction)

    def drop_place(self, point: QPoint) -> tuple[str, str, QRect]:
        """(target path, "before" | "after" | "inside", the target row's rect) at `point`."""
        index = self.indexAt(point)
        if not index.isValid():
            root = self._panel.item_at_path("root")
            rect = self.visualRect(root.index()) if root is not None else QRect()
            return "root", "inside", rect
        index = index.siblingAtColumn(0)
        rect = self.visualRect(index)
        rect.setRight(self.viewport().width() - 1)
        path = str(index.data(PATH_ROLE))
        holds = container(index.data(TYPE_ROLE)) is not None
        offset = point.y() - rect.top()
        if path == "root":
            return path, "inside", rect
        if holds:
            if offset < rect.height() / 4:
                return path, "before", rect
            if offset > rect.height() * 3 / 4:
                return path, "after", rect
            return path, "inside", rect
        return path, ("before" if offset < rect.height() / 2 else "after"), rect

    def _judge(self, event: QDragMoveEvent | QDropEvent) -> tuple[str, str, str | None] | None:
        payload = drag_payload(event.mimeData())
        if payload is None:
            return None
        paths, type_ = payload
        target, position, rect = self.drop_place(event.position().toPoint())
        refusal = self._panel.refusal(target, position, paths, type_)
        self._drop = (rect, position, refusal)
        self._panel.show_drop_hint(target, position, refusal)
        self.viewport().update()
        return target, position, refusal

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if drag_payload(event.mimeData()) is None:
            event.ignore()
            return
        event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        judged = self._judge(event)
        if judged is None or judged[2] is not None:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()

    def dragLeaveEvent(self, event: Any) -> None:
        self._clear_drop()
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        judged = self._judge(event)
        payload = drag_payload(event.mimeData())
        self._clear_drop()
        if judged is None or payload is None or judged[2] is not None:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()
        target, position, _ = judged
        self._panel.dropRequested.emit(payload[0], payload[1] or "", target, position)

    def _clear_drop(self) -> None:
        self._drop = None
        self._panel.show_drop_hint(None, "", None)
        self.viewport().update()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._drop is None:
            return
        rect, position, refusal = self._drop
        painter = QPainter(self.viewport())
        pen = QPen(QColor("#b3261e" if refusal else "#0061a4"))
        pen.setWidth(2)
        painter.setPen(pen)
        if position == "inside":
            painter.drawRect(rect.adjusted(1, 1, -1, -1))
        else:
            y = rect.top() if position == "before" else rect.bottom()
            painter.drawLine(rect.left(), y, rect.right(), y)
        painter.end()


class SpecTreePanel(QWidget):
    """Shows `studio.spec.outline(spec)` as a tree.

    Out: `selectionRequested(addresses, primary)` on a user selection (several rows with Ctrl
    or Shift), `nodeSelected(address)` for its primary row, `dropRequested(paths, type, target,
    position)` for a drop the refusal callback allowed. In: `present(shown)`,
    `select_nodes(selection)`, `highlight(addresses)`; `set_context_menu(items)`."""

    nodeSelected = Signal(str)
    selectionRequested = Signal(list, str)  # addresses in document order, the primary one
    dropRequested = Signal(list, str, str, str)  # paths, new node type ("": a move), target, pos

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("specTree")
        self._model = QStandardItemModel(self)
        self._model.setHorizontalHeaderLabels(["Node", "Type"])
        self._view = _TreeView(self)
        self._view.setObjectName("specTreeView")
        self._view.setModel(self._model)
        self._view.setUniformRowHeights(True)
        self._view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self._view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self._view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self._view.setDragEnabled(True)
        self._view.setAcceptDrops(True)
        self._view.setDropIndicatorShown(False)  # ours, which shows a refusal too
        self._view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self._view.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self._view.header().setStretchLastSection(False)
        self._view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.drop_hint = QLabel("", self)
        self.drop_hint.setObjectName("dropHint")
        self.drop_hint.setWordWrap(True)
        self.drop_hint.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._view)
        layout.addWidget(self.drop_hint)
        self._items: dict[str, QStandardItem] = {}
        self._by_path: dict[str, QStandardItem] = {}
        self._highlighted: set[str] = set()
        self._syncing = False
        self._spec: dict[str, Any] | None = None
        self._last: tuple[tuple[str, ...], str] | None = None
        self._menu_items: list[MenuItem] = []
        self.refusal: Refusal = lambda *_args: None
        self.menu: QMenu | None = None
        selection_model = self._view.selectionModel()
        selection_model.currentChanged.connect(self._on_current_changed)
        selection_model.selectionChanged.connect(self._on_selection_changed)
        self._view.customContextMenuRequested.connect(self.open_context_menu)

    @property
    def view(self) -> QTreeView:
        return self._view

    # -- in ---------------------------------------------------------------------------------
    def present(self, shown: Shown) -> None:
        """Show what the workspace shows (the document, or the draft under review) and mark
        what it highlights; the outline is rebuilt only when the spec changed."""
        if shown.spec is not self._spec:
            self.set_spec(shown.spec)
        self.highlight(shown.highlight)

    def select_nodes(self, selection: Selection) -> None:
        """Follow the workspace's selection: every selected row, the primary one current."""
        self._select(selection.addresses, selection.primary)

    def set_spec(self, spec: dict[str, Any]) -> None:
        """Rebuild from the spec's outline, keeping the selection when its address still exists."""
        from studio.spec.names import name_at
        from studio.spec.outline import outline

        self._spec = spec
        selected = self.selected_addresses()
        primary = self.selected_address()
        self._syncing = True
        try:
            self._model.removeRows(0, self._model.rowCount())
            self._items.clear()
            self._by_path.clear()
            parents: list[QStandardItem] = [self._model.invisibleRootItem()]
            for entry in outline(spec):
                depth = int(entry.get("depth", 0))
                del parents[depth + 1 :]
                label = entry.get("label") or ""
                node_id = entry.get("id")
                title = node_id or entry["type"]
                if label:
                    title = f"{title} — {label}"
                path = str(entry.get("path", entry["address"]))
                item = QStandardItem(title)
                for role, value in (
                    (ADDRESS_ROLE, entry["address"]),
                    (PATH_ROLE, path),
                    (TYPE_ROLE, entry["type"]),
                ):
                    item.setData(value, role)
                name = name_at(spec, path)
                item.setToolTip(name.breadcrumb if name is not None else path)
                type_item = QStandardItem(entry["type"])
                type_item.setData(entry["address"], ADDRESS_ROLE)
                type_item.setData(path, PATH_ROLE)
                type_item.setData(entry["type"], TYPE_ROLE)
                parents[-1].appendRow([item, type_item])
                parents.append(item)
                self._items[entry["address"]] = item
                self._by_path[path] = item
            self._view.expandAll()
        finally:
            self._syncing = False
        self._apply_highlight()
        kept = [a for a in selected if a in self._items]
        if kept:
            self._select(kept, primary if primary in kept else kept[-1])

    def select(self, address: str | None) -> None:
        """Select one node without emitting (the change came from elsewhere)."""
        self._select((address,) if address else (), address)

    def _select(self, addresses: Sequence[str], primary: str | None) -> None:
        self._syncing = True
        try:
            model = self._view.selectionModel()
            chosen = QItemSelection()
            for address in addresses:
                item = self._items.get(address)
                if item is not None:
                    chosen.select(item.index(), item.index().siblingAtColumn(1))
            flags = QItemSelectionModel.SelectionFlag
            item = self._items.get(primary) if primary else None
            if item is None:
                self._view.setCurrentIndex(QModelIndex())
            else:
                model.setCurrentIndex(item.index(), flags.NoUpdate)
                self._view.scrollTo(item.index())
            model.select(chosen, flags.ClearAndSelect | flags.Rows)
            self._last = (tuple(a for a in addresses if a in self._items), primary or "")
        finally:
            self._syncing = False

    def highlight(self, addresses: Iterable[str]) -> None:
        """Mark nodes (e.g. those a revision changed) in bold with a tint."""
        self._highlighted = set(addresses)
        self._apply_highlight()

    def set_context_menu(self, items: Sequence[MenuItem]) -> None:
        """What the context menu holds: the window's edit actions and submenus."""
        self._menu_items = list(items)

    # -- reading ----------------------------------------------------------------------------
    def selected_address(self) -> str | None:
        """The primary (current) selected row's address."""
        index = self._view.currentIndex()
        if not index.isValid() or not self._view.selectionModel().isSelected(index):
            selected = self.selected_addresses()
            return selected[-1] if selected else None
        value = index.data(ADDRESS_ROLE)
        return str(value) if value else None

    def selected_addresses(self) -> list[str]:
        """The selected rows' addresses, in document order."""
        rows = {str(i.data(ADDRESS_ROLE)) for i in self._view.selectionModel().selectedRows(0)}
        return [a for a in self._items if a in rows]

    def selected_paths(self) -> list[str]:
        return [str(self._items[a].data(PATH_ROLE)) for a in self.selected_addresses()]

    def item_at_path(self, path: str) -> QStandardItem | None:
        return self._by_path.get(path)

    def rect_of(self, path: str) -> QRect:
        """Where the row of the node at `path` is in the view's viewport."""
        item = self._by_path.get(path)
        return self._view.visualRect(item.index()) if item is not None else QRect()

    def highlighted(self) -> set[str]:
        return {a for a in self._highlighted if a in self._items}

    def show_drop_hint(self, target: str | None, position: str, refusal: str | None) -> None:
        """What a drop here would do, or why it cannot (shown under the tree while dragging)."""
        if target is None:
            self.drop_hint.hide()
            self.drop_hint.setText("")
            return
        if refusal:
            self.drop_hint.setText(f"Cannot drop here: {refusal}")
            self.drop_hint.setStyleSheet("color: #b3261e;")
        else:
            item = self._by_path.get(target)
            name = item.text() if item is not None else target
            where = "into" if position == "inside" else position
            self.drop_hint.setText(f"Drop {where} {name}")
            self.drop_hint.setStyleSheet("")
        self.drop_hint.show()

    # -- the context menu -------------------------------------------------------------------
    def open_context_menu(self, point: QPoint) -> QMenu:
        """The context menu at `point` (viewport coordinates); a right click on a row that is
        not selected selects it first."""
        index = self._view.indexAt(point)
        if index.isValid():
            address = str(index.data(ADDRESS_ROLE))
            if address not in self.selected_addresses():
                self._select((address,), address)
                self._last = None
                self._emit_selection()
        if self.menu is not None:
            self.menu.deleteLater()
        self.menu = menu = QMenu(self)
        menu.setObjectName("specTreeMenu")
        fill_menu(menu, self._menu_items)
        menu.popup(self._view.viewport().mapToGlobal(point))
        return menu

    # -- out --------------------------------------------------------------------------------
    def _apply_highlight(self) -> None:
        tint = QBrush(QColor(255, 193, 7, 70))
        for address, item in self._items.items():
            on = address in self._highlighted
            font = QFont(item.font())
            font.setBold(on)
            item.setFont(font)
            item.setBackground(tint if on else QBrush())

    def _emit_selection(self) -> None:
        addresses = tuple(self.selected_addresses())
        primary = self.selected_address() or ""
        if (addresses, primary) == self._last:
            return
        self._last = (addresses, primary)
        self.selectionRequested.emit(list(addresses), primary)

    def _on_selection_changed(self, *_args: Any) -> None:
        if not self._syncing:
            self._emit_selection()

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        self._emit_selection()
        address = current.data(ADDRESS_ROLE)
        if address:
            self.nodeSelected.emit(str(address))
