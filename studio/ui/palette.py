"""The palette: every node type (its Material icon, name and one-line description), searchable;
double-click inserts one, dragging one drops it into the tree or onto the preview."""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QMimeData, QModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.spec.catalog import KINDS, NodeKind

#: The drag's MIME type: the node type to insert (text, e.g. "button").
TYPE_MIME = "application/x-proto-studio-node-type"
TYPE_ROLE = Qt.ItemDataRole.UserRole + 1
ICON_PX = 24


@cache
def _icon_family() -> str:
    """The Material Icons font (the one the preview draws icons with), loaded once."""
    from studio.preview import icons

    font_id = QFontDatabase.addApplicationFont(str(icons.font_path("filled")))
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    return families[0] if families else ""


@cache
def material_icon(name: str) -> QIcon:
    """A Material icon by its spec name, drawn from the icon font the preview uses (an empty
    icon for a name the font does not have)."""
    from studio.preview import icons

    char, family = icons.glyph(name), _icon_family()
    if not char or not family:
        return QIcon()
    pixmap = QPixmap(ICON_PX * 2, ICON_PX * 2)
    pixmap.setDevicePixelRatio(2.0)
    pixmap.fill(QColor(0, 0, 0, 0))
    painter = QPainter(pixmap)
    font = QFont(family)
    font.setPixelSize(ICON_PX - 4)
    painter.setFont(font)
    painter.setPen(QColor("#41484d"))
    painter.drawText(0, 0, ICON_PX, ICON_PX, Qt.AlignmentFlag.AlignCenter, char)
    painter.end()
    return QIcon(pixmap)


def kind_icon(kind: NodeKind) -> QIcon:
    """The node type's Material icon (an empty icon when it is missing)."""
    return material_icon(kind.icon)


class _KindList(QListWidget):
    """The entries; a drag carries the node type under `TYPE_MIME`."""

    def mimeTypes(self) -> list[str]:
        return [TYPE_MIME]

    def mimeData(self, items: list[QListWidgetItem]) -> QMimeData:  # type: ignore[override]  # PySide6 stub takes a Sequence
        data = QMimeData()
        if items:
            data.setData(TYPE_MIME, str(items[0].data(TYPE_ROLE)).encode())
            data.setText(str(items[0].data(TYPE_ROLE)))
        return data


class PalettePanel(QWidget):
    """Emits `insertRequested(type)` on a double-click or Enter (the window inserts it into the
    selected container, or after the selected node)."""

    insertRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("palette")
        self.search = QLineEdit(self)
        self.search.setObjectName("paletteSearch")
        self.search.setPlaceholderText("Search nodes")
        self.search.setClearButtonEnabled(True)
        self.list = _KindList(self)
        self.list.setObjectName("paletteList")
        self.list.setIconSize(QSize(ICON_PX, ICON_PX))
        self.list.setDragEnabled(True)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setAlternatingRowColors(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.search)
        layout.addWidget(self.list)
        group = ""
        for kind in KINDS:
            if kind.group != group:
                group = kind.group
                header = QListWidgetItem(group)
                header.setFlags(Qt.ItemFlag.NoItemFlags)
                bold = QFont(header.font())
                bold.setBold(True)
                header.setFont(bold)
                self.list.addItem(header)
            item = QListWidgetItem(kind_icon(kind), f"{kind.name}\n{kind.description}")
            item.setData(TYPE_ROLE, kind.type)
            item.setToolTip(f"{kind.type}: {kind.description}")
            item.setFlags(
                Qt.ItemFlag.ItemIsEnabled
                | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsDragEnabled
            )
            self.list.addItem(item)
        self.search.textChanged.connect(self.filter)
        self.search.returnPressed.connect(self._insert_current)
        self.list.itemActivated.connect(self._insert_item)

    def filter(self, text: str) -> None:
        """Show the entries whose name, type or description holds every word of `text`; a
        group's header shows while one of its entries does."""
        words = text.lower().split()
        header: QListWidgetItem | None = None
        header_shown = False
        for row in range(self.list.count()):
            item = self.list.item(row)
            kind_type = item.data(TYPE_ROLE)
            if kind_type is None:
                if header is not None:
                    header.setHidden(not header_shown)
                header, header_shown = item, False
                continue
            haystack = f"{item.text()} {kind_type}".lower()
            hidden = not all(w in haystack for w in words)
            item.setHidden(hidden)
            header_shown = header_shown or not hidden
        if header is not None:
            header.setHidden(not header_shown)
        first = self.visible_types()
        current = self._item(first[0]) if first else None
        if current is not None:
            self.list.setCurrentItem(current)

    def visible_types(self) -> list[str]:
        return [
            str(item.data(TYPE_ROLE))
            for row in range(self.list.count())
            if (item := self.list.item(row)).data(TYPE_ROLE) is not None and not item.isHidden()
        ]

    def index_of(self, type_: str) -> QModelIndex:
        item = self._item(type_)
        return self.list.indexFromItem(item) if item is not None else QModelIndex()

    def _item(self, type_: str) -> QListWidgetItem | None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(TYPE_ROLE) == type_:
                return item
        return None

    def _insert_current(self) -> None:
        item = self.list.currentItem()
        if item is not None and not item.isHidden():
            self._insert_item(item)

    def _insert_item(self, item: QListWidgetItem) -> None:
        kind_type = item.data(TYPE_ROLE)
        if kind_type is not None:
            self.insertRequested.emit(str(kind_type))


__all__ = ["TYPE_MIME", "PalettePanel", "kind_icon"]
