"""The library panel: the prototypes (thumbnail, name, source, modified) and their commands."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QModelIndex, QObject, QSize, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction, QIcon, QKeyEvent, QKeySequence, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QMenu,
    QToolBar,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.library.entries import LibraryEntry
from studio.library.templates import Template

ID_ROLE = Qt.ItemDataRole.UserRole + 1
# Large enough to recognise a screen (a phone's 9:16, about a fifth of the list's width).
THUMB_SIZE = QSize(45, 80)
COLUMNS = ("name", "source", "modified")
#: Below this list width the Source column goes (its label stays in the name's tool tip), so that
#: a name keeps about 15 characters a line beside its thumbnail.
NARROW_LIST = 360
SOURCE_LABELS = {
    "file": "File",
    "paste": "Pasted",
    "share": "Shared bundle",
    "generated": "Generated",
    "template": "Template",
    "mcp": "AutoMobile",
}


def modified_label(stamp: str, now: dt.datetime | None = None) -> str:
    """`2026-11-30T18:52:10.123Z` as local time, as short as a mail client's date column: `19:52`
    on the day itself, `30 Nov` earlier in the year, `2025-11-30` before that (the Modified
    column then leaves the names their room in a narrow dock; `modified_tip` is the full time)."""
    when = _local(stamp)
    if when is None:
        return stamp
    today = (now or dt.datetime.now().astimezone()).astimezone(when.tzinfo)
    if when.date() == today.date():
        return when.strftime("%H:%M")
    if when.year == today.year:
        return f"{when.day} {when.strftime('%b')}"
    return when.strftime("%Y-%m-%d")


def modified_tip(stamp: str) -> str:
    """The full local time of `stamp`, `2026-11-30 19:52` (the Modified column's tool tip)."""
    when = _local(stamp)
    return when.strftime("%Y-%m-%d %H:%M") if when is not None else stamp


def _local(stamp: str) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return None


class LibraryPanel(QWidget):
    """Lists library entries. Emits requests; the controller carries them out and calls back
    `set_entries` / `set_thumbnail`. Ctrl+Z while the list has focus asks to undo a delete."""

    openRequested = Signal(str)
    #: The list's order changed: column ("name", "source", "modified"), ascending.
    sortChanged = Signal(str, bool)
    newRequested = Signal(str)  # template id
    describeRequested = Signal()  # New from description…
    importRequested = Signal()
    exportRequested = Signal(str)
    duplicateRequested = Signal(str)
    renameRequested = Signal(str, str)
    deleteRequested = Signal(str)
    undoDeleteRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("libraryPanel")
        self.list = QTreeWidget(self)
        self.list.setObjectName("libraryList")
        self.list.setHeaderLabels(["Name", "Source", "Modified"])
        self.list.setRootIsDecorated(False)
        self.list.setIconSize(THUMB_SIZE)
        # A name wraps onto the thumbnail's 80 px height instead of shrinking to "…" when the dock
        # is narrow (the walkthrough's 270 px library showed no name at all).
        self.list.setWordWrap(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)

        # Search (name or source, as typed) and sort (click a column; newest first to start).
        self.search = QLineEdit(self)
        self.search.setObjectName("librarySearch")
        self.search.setPlaceholderText("Search prototypes")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._apply_search)
        self._sort_column, self._sort_order = 2, Qt.SortOrder.DescendingOrder
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(self._sort_column, self._sort_order)
        header.sectionClicked.connect(self._sort_clicked)

        self.new_menu = QMenu("New from template", self)
        self.describe_action = QAction("New from description…", self)
        self.describe_action.setToolTip("Describe a prototype; the agent builds it as a draft")
        self.describe_action.triggered.connect(self.describeRequested)
        self.new_menu.addAction(self.describe_action)
        self.new_button = self._button("New", "New from template (Ctrl+N)")
        self.new_button.setMenu(self.new_menu)
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.import_button = self._button("Import…", "Import a spec JSON or .protobundle")
        self.export_button = self._button("Export…", "Export as .protobundle")
        self.duplicate_button = self._button("Duplicate", "Duplicate the selected prototype")
        self.rename_button = self._button("Rename", "Rename the selected prototype (F2)")
        self.delete_button = self._button("Delete", "Delete (Ctrl+Z in the list undoes it)")

        # A tool bar, not a row of buttons: when the dock is narrow the buttons that do not fit go
        # behind its » menu, so the commands never make the dock (or the window) wider.
        bar = self.toolbar = QToolBar("Library commands", self)
        bar.setObjectName("libraryToolbar")
        bar.setMovable(False)
        bar.setFloatable(False)
        for button in (
            self.new_button,
            self.import_button,
            self.export_button,
            self.duplicate_button,
            self.rename_button,
            self.delete_button,
        ):
            bar.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(bar)
        layout.addWidget(self.search)
        layout.addWidget(self.list)

        for text, signal_button in (
            ("Open", None),
            ("Duplicate", self.duplicate_button),
            ("Rename", self.rename_button),
            ("Export…", self.export_button),
            ("Delete", self.delete_button),
        ):
            action = QAction(text, self.list)
            if signal_button is None:
                action.triggered.connect(self._open_current)
            else:
                action.triggered.connect(signal_button.click)
            self.list.addAction(action)

        self._entries: dict[str, LibraryEntry] = {}
        self._thumbs: dict[str, QPixmap] = {}
        self._blank = QPixmap(THUMB_SIZE)
        self._blank.fill(Qt.GlobalColor.transparent)
        self._filling = False
        self.import_button.clicked.connect(self.importRequested)
        self.export_button.clicked.connect(lambda: self._emit_current(self.exportRequested))
        self.duplicate_button.clicked.connect(lambda: self._emit_current(self.duplicateRequested))
        self.delete_button.clicked.connect(lambda: self._emit_current(self.deleteRequested))
        self.rename_button.clicked.connect(self.edit_name)
        self.list.itemActivated.connect(lambda item, _col: self._open_item(item))
        self.list.itemChanged.connect(self._on_item_changed)
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.list.installEventFilter(self)
        self._update_buttons()

    def _button(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        return button

    # ------------------------------------------------------------------ what the controller calls

    def set_templates(self, templates: Sequence[Template]) -> None:
        self.new_menu.clear()
        self.new_menu.addAction(self.describe_action)
        self.new_menu.addSeparator()
        for template in templates:
            action = self.new_menu.addAction(template.name)
            action.setToolTip(template.description)
            action.setData(template.id)
            action.triggered.connect(
                lambda _checked=False, tid=template.id: self.newRequested.emit(tid)
            )

    def set_entries(self, entries: Sequence[LibraryEntry]) -> None:
        current = self.current_id()
        self._filling = True
        try:
            self.list.clear()
            self._entries = {e.id: e for e in entries}
            for entry in self._sorted(entries):
                source = SOURCE_LABELS.get(entry.source, entry.source)
                item = QTreeWidgetItem(
                    [
                        entry.name,
                        source,
                        modified_label(entry.modified),
                    ]
                )
                item.setData(0, ID_ROLE, entry.id)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(0, f"{entry.name} ({source})")
                item.setToolTip(2, modified_tip(entry.modified))
                # Rows without a thumbnail yet get a blank one, so every row has the same height.
                item.setIcon(0, QIcon(self._thumbs.get(entry.id, self._blank)))
                self.list.addTopLevelItem(item)
        finally:
            self._filling = False
        self._apply_search()
        if current in self._entries:
            self.select(current)
        self._update_buttons()

    def sort_by(self, column: str, order: Qt.SortOrder) -> None:
        """Sort the list by "name", "source" or "modified" (what clicking a column header does)."""
        self._sort_column, self._sort_order = COLUMNS.index(column), order
        self.list.header().setSortIndicator(self._sort_column, order)
        self.set_entries(list(self._entries.values()))
        self.sortChanged.emit(column, order == Qt.SortOrder.AscendingOrder)

    def sort_order(self) -> tuple[str, Qt.SortOrder]:
        """The column the list is sorted by and the order."""
        return COLUMNS[self._sort_column], self._sort_order

    def _sort_clicked(self, section: int) -> None:
        if section == self._sort_column:
            ascending = self._sort_order == Qt.SortOrder.AscendingOrder
            order = Qt.SortOrder.DescendingOrder if ascending else Qt.SortOrder.AscendingOrder
        else:  # names and sources A to Z first, dates newest first
            descending = section == 2
            order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        self.sort_by(COLUMNS[section], order)

    def _sorted(self, entries: Sequence[LibraryEntry]) -> list[LibraryEntry]:
        column = COLUMNS[self._sort_column]

        def key(entry: LibraryEntry) -> str:
            if column == "name":
                return entry.name.casefold()
            if column == "source":
                return SOURCE_LABELS.get(entry.source, entry.source).casefold()
            return entry.modified

        reverse = self._sort_order == Qt.SortOrder.DescendingOrder
        return sorted(entries, key=key, reverse=reverse)  # stable: ties keep their order

    def _apply_search(self) -> None:
        needle = self.search.text().strip().casefold()
        for item in self._items():
            text = f"{item.text(0)} {item.text(1)}".casefold()
            item.setHidden(bool(needle) and needle not in text)

    def shown_ids(self) -> list[str]:
        """The entries the list shows now (after the search), top to bottom."""
        return [str(i.data(0, ID_ROLE)) for i in self._items() if not i.isHidden()]

    def set_thumbnail(self, entry_id: str, png: bytes) -> None:
        pixmap = QPixmap()
        if not pixmap.loadFromData(png, "PNG"):
            return
        pixmap = pixmap.scaled(
            THUMB_SIZE,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
        self._thumbs[entry_id] = pixmap
        item = self._item(entry_id)
        if item is not None:
            self._filling = True
            try:
                item.setIcon(0, QIcon(pixmap))
            finally:
                self._filling = False

    def select(self, entry_id: str | None) -> None:
        item = self._item(entry_id) if entry_id else None
        if item is None:
            self.list.setCurrentIndex(QModelIndex())
        else:
            self.list.setCurrentItem(item)

    # ------------------------------------------------------------------ reading (tests, a11y)

    def entry_ids(self) -> list[str]:
        return [str(item.data(0, ID_ROLE)) for item in self._items()]

    def row(self, entry_id: str) -> tuple[str, str, str] | None:
        item = self._item(entry_id)
        return (item.text(0), item.text(1), item.text(2)) if item else None

    def has_thumbnail(self, entry_id: str) -> bool:
        return entry_id in self._thumbs and self._item(entry_id) is not None

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        value = item.data(0, ID_ROLE) if item is not None else None
        return str(value) if value else None

    def edit_name(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.list.editItem(item, 0)

    # ------------------------------------------------------------------ internals

    def _items(self) -> list[QTreeWidgetItem]:
        items = (self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount()))
        return [item for item in items if item is not None]

    def _item(self, entry_id: str | None) -> QTreeWidgetItem | None:
        return next((i for i in self._items() if i.data(0, ID_ROLE) == entry_id), None)

    def _emit_current(self, signal: SignalInstance) -> None:
        entry_id = self.current_id()
        if entry_id:
            signal.emit(entry_id)

    def _open_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self._open_item(item)

    def _open_item(self, item: QTreeWidgetItem) -> None:
        entry_id = item.data(0, ID_ROLE)
        if entry_id:
            self.openRequested.emit(str(entry_id))

    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0:
            return
        entry_id = str(item.data(0, ID_ROLE))
        entry = self._entries.get(entry_id)
        name = item.text(0).strip()
        if entry is not None and name != entry.name:
            self.renameRequested.emit(entry_id, name)

    def _update_buttons(self) -> None:
        on = self.current_id() is not None
        for button in (
            self.export_button,
            self.duplicate_button,
            self.rename_button,
            self.delete_button,
        ):
            button.setEnabled(on)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """In a narrow dock the names keep their room: the Source column goes, not the names."""
        narrow = self.list.width() < NARROW_LIST
        if self.list.isColumnHidden(1) != narrow:
            self.list.setColumnHidden(1, narrow)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Claim Ctrl+Z from the window's Undo while the list has focus: it restores a delete."""
        if watched is self.list and event.type() in (
            QEvent.Type.ShortcutOverride,
            QEvent.Type.KeyPress,
        ):
            key = event if isinstance(event, QKeyEvent) else None
            if key is not None and key.matches(QKeySequence.StandardKey.Undo):
                if event.type() == QEvent.Type.KeyPress:
                    self.undoDeleteRequested.emit()
                event.accept()
                return True
            if (
                key is not None
                and key.key() == Qt.Key.Key_Delete
                and event.type() == QEvent.Type.KeyPress
            ):
                self._emit_current(self.deleteRequested)
                return True
        return super().eventFilter(watched, event)
