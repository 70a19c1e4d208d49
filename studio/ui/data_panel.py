"""The data panel (a document-level editor): the prototype's `data` (studio extension) as a tree
of keys, kinds and values; objects and lists are rows with their members nested, and each row
says how many places read or write it (texts' `{/data/...}` placeholders, platform arguments,
calls' `into`). Add, rename,
remove, change a value's kind or edit a value (typed as its kind: a number must be one); each
change is the whole new `data` handed out as one request, which the window applies through the
workspace (`studio.workspace.editing.set_data`) as one validated, undoable revision. Input that
is not of its kind is one line under the tree, and nothing changes. The reading and writing is
`studio.spec.data_edit`'s.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.spec import data_edit as D

if TYPE_CHECKING:
    from studio.workspace import Shown

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
KEY, KIND, VALUE, USES = 0, 1, 2, 3
Index = QModelIndex | QPersistentModelIndex


class _ChoiceDelegate(QStyledItemDelegate):
    """A combo box as the editor of the kind column, and of a boolean's value."""

    def _choices(self, index: Index) -> tuple[str, ...] | None:
        if index.column() == KIND:
            return D.KINDS
        kind = index.siblingAtColumn(KIND).data()
        return ("true", "false") if index.column() == VALUE and kind == "boolean" else None

    def createEditor(  # noqa: N802 (Qt's name)
        self, parent: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> QWidget | None:
        if index.column() == USES:
            return None  # counted, not typed
        choices = self._choices(index)
        if choices is None:
            return super().createEditor(parent, option, index)
        combo = QComboBox(parent)
        combo.addItems(list(choices))
        return combo

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # noqa: N802 (Qt's name)
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(index.data()))
        else:
            super().setEditorData(editor, index)


class DataPanel(QWidget):
    """Out: `dataRequested(data, summary)`. In: `present(shown)`, `show_error(line)`."""

    dataRequested = Signal(dict, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dataPanel")
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("dataTree")
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["Key", "Kind", "Value", "Uses"])
        self.tree.header().setSectionResizeMode(VALUE, QHeaderView.ResizeMode.Stretch)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.tree.setItemDelegate(_ChoiceDelegate(self.tree))
        self.add_button = QPushButton("Add", self)
        self.add_button.setToolTip(
            "Add a value inside the selected object or list (else beside the selected value)"
        )
        self.remove_button = QPushButton("Remove", self)
        self.copy_button = QPushButton("Copy placeholder", self)
        self.copy_button.setToolTip("Copy {/data/...} for the selected value, to show it in a text")
        self.pointer = QLabel("", self)
        self.pointer.setObjectName("dataPointer")
        self.pointer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = QLabel("", self)
        self.error.setObjectName("dataError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b3261e;")
        self.error.hide()
        # After a removal: the places that still read the value.
        self.note = QLabel("", self)
        self.note.setObjectName("dataNote")
        self.note.setWordWrap(True)
        self.note.hide()
        buttons = QHBoxLayout()
        for button in (self.add_button, self.remove_button, self.copy_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tree)
        layout.addWidget(self.pointer)
        layout.addWidget(self.error)
        layout.addWidget(self.note)
        layout.addLayout(buttons)
        self._filling = False
        self._spec: dict[str, Any] | None = None
        self._data: dict[str, Any] = {}
        self._items: dict[D.Path, QTreeWidgetItem] = {}
        self._uses: list[D.DataUse] = []
        self.tree.itemChanged.connect(self._on_changed)
        self.tree.currentItemChanged.connect(lambda *_: self._show_pointer())
        self.add_button.clicked.connect(self.add)
        self.remove_button.clicked.connect(self.remove)
        self.copy_button.clicked.connect(self.copy_placeholder)
        self.setEnabled(False)

    # -- reading ----------------------------------------------------------------------------
    def item(self, *path: str | int) -> QTreeWidgetItem:
        """The row of the value at `path` (`item("profile", "tags", 0)`)."""
        return self._items[tuple(path)]

    def paths(self) -> list[D.Path]:
        return list(self._items)

    def current_path(self) -> D.Path | None:
        item = self.tree.currentItem()
        return self._path(item) if item is not None else None

    def select(self, *path: str | int) -> None:
        self.tree.setCurrentItem(self.item(*path))

    def error_text(self) -> str:
        return self.error.text() if not self.error.isHidden() else ""

    @staticmethod
    def _path(item: QTreeWidgetItem) -> D.Path:
        return tuple(json.loads(str(item.data(KEY, PATH_ROLE))))

    # -- showing ----------------------------------------------------------------------------
    def present(self, shown: Shown) -> None:
        if shown.spec is self._spec:
            return
        self._spec = shown.spec
        self.setEnabled(shown.source == "document")
        found = shown.spec.get("data")
        self._data = found if isinstance(found, dict) else {}
        self._uses = D.uses(shown.spec) if self._data else []
        self._fill()
        self.error.hide()
        self.note.hide()

    def _fill(self) -> None:
        expanded = {p for p, item in self._items.items() if item.isExpanded()}
        current = self.current_path()
        self._filling = True
        try:
            self.tree.clear()
            self._items = {}
            for key, value in self._data.items():
                self._add_row(self.tree.invisibleRootItem(), (key,), value, expanded)
        finally:
            self._filling = False
        if current is not None:
            # The same value, else its parent (after a removal), stays selected.
            while current and current not in self._items:
                current = current[:-1]
            if current in self._items:
                self.tree.setCurrentItem(self._items[current])
        self._show_pointer()

    def _add_row(
        self, parent: QTreeWidgetItem, path: D.Path, value: Any, expanded: set[D.Path]
    ) -> None:
        step = path[-1]
        kind = D.kind_of(value)
        item = QTreeWidgetItem(parent, [f"[{step}]" if isinstance(step, int) else step, kind])
        item.setData(KEY, PATH_ROLE, json.dumps(list(path)))
        item.setText(VALUE, D.show_value(value))
        item.setToolTip(KEY, D.placeholder(path))
        reach = D.uses_of(self._uses, path)
        item.setText(USES, str(len(reach)) if reach else "")
        item.setToolTip(USES, "\n".join(f"{u.path} ({u.where}, {u.how})" for u in reach))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        if kind in ("object", "list", "null"):
            item.setForeground(VALUE, Qt.GlobalColor.gray)
        self._items[path] = item
        if isinstance(value, dict):
            for key, inner in value.items():
                self._add_row(item, (*path, key), inner, expanded)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                self._add_row(item, (*path, index), inner, expanded)
        item.setExpanded(path in expanded or len(path) == 1)

    def _show_pointer(self) -> None:
        path = self.current_path()
        self.pointer.setText(f"Shown in a text as {D.placeholder(path)}" if path else "")
        self.copy_button.setEnabled(path is not None)
        self.remove_button.setEnabled(path is not None)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    # -- editing ----------------------------------------------------------------------------
    def _request(self, data: dict[str, Any], summary: str) -> None:
        self.error.hide()
        self.dataRequested.emit(data, summary)

    def _refuse(self, text: str) -> None:
        """One line under the tree; the rows show the data as it is again."""
        self.show_error(text)
        self._fill()
        self.show_error(text)

    def _on_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling:
            return
        # After the view has finished with the item: the edit rebuilds the rows.
        path, text = self._path(item), item.text(column)
        QTimer.singleShot(0, self, lambda: self._edited(path, column, text))

    def _edited(self, path: D.Path, column: int, text: str) -> None:
        if column == USES:
            return
        try:
            value = D.get_at(self._data, path)
            if column == KEY:
                new = text.strip()
                if isinstance(path[-1], int) or new == path[-1]:
                    self._fill()
                    return
                data = D.rename(self._data, path, new)
                summary = f"Rename {D.where(path)} to '{new}'"
            elif column == KIND:
                if text == D.kind_of(value):
                    return
                kind: D.Kind = text  # type: ignore[assignment]  # one of the combo's KINDS
                data = D.set_at(self._data, path, D.convert(value, kind))
                summary = f"Make {D.where(path)} a {kind}"
            else:
                kind = D.kind_of(value)
                if kind in ("object", "list", "null"):
                    self._fill()  # a count or null is not typed over: add members, or change kind
                    return
                new_value = D.parse_value(kind, text, path)
                if new_value == value and D.kind_of(new_value) == kind:
                    self._fill()
                    return
                data = D.set_at(self._data, path, new_value)
                summary = f"Set {D.where(path)}"
        except D.DataError as exc:
            self._refuse(str(exc))
            return
        self._request(data, summary)
        self._fill()  # a refusal leaves the data as it was: show it so

    def add(self) -> None:
        """Add a text value inside the selected object or list, else beside the selected value,
        else at the top level."""
        path = self.current_path() or ()
        if path and not isinstance(D.get_at(self._data, path), dict | list):
            path = path[:-1]
        try:
            data, made = D.add(self._data, path)
        except D.DataError as exc:
            self._refuse(str(exc))
            return
        self._request(data, f"Add {D.where(made)}")
        if made in self._items:
            self.tree.setCurrentItem(self._items[made])

    def remove(self) -> None:
        path = self.current_path()
        if not path:
            return
        try:
            data = D.remove(self._data, path)
        except D.DataError as exc:
            self._refuse(str(exc))
            return
        # Not refused, unlike a used state key: a platform call's `into` may write the value
        # back at run time. The places that read it are named instead.
        readers = [u for u in D.uses_of(self._uses, path) if u.how != "into"]
        self._request(data, f"Remove {D.where(path)}")
        if readers and path not in self._items:  # removed: the revision went through
            places = ", ".join(f"{u.path} ({u.where})" for u in readers[:3])
            more = f" and {len(readers) - 3} more" if len(readers) > 3 else ""
            self.note.setText(
                f"Removed {D.where(path)}, which {places}{more} still read (a text then "
                "shows its placeholder as written). Undo brings it back."
            )
            self.note.show()

    def copy_placeholder(self) -> None:
        path = self.current_path()
        if path:
            QGuiApplication.clipboard().setText(D.placeholder(path))
