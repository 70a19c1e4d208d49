"""The icon picker of the inspector's icon fields: the editable name, with the icon it names drawn
before it, and a completion list (any part of the name, any case) that shows each icon beside its
name. The icons are drawn from the preview's own icon font as rows come into view, never all of
the names at once."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QComboBox, QCompleter, QLineEdit

from studio.spec import fields as F
from studio.ui.palette import material_icon

Index = QModelIndex | QPersistentModelIndex


class IconNames(QAbstractListModel):
    """Every icon name the format accepts, each with its icon (drawn when first shown)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._names = F.icon_names()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt's name)
        return 0 if parent.isValid() else len(self._names)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._names):
            return None
        name = self._names[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return name
        if role == Qt.ItemDataRole.DecorationRole:
            return material_icon(name)
        return None


def attach_icon_picker(combo: QComboBox) -> None:
    """Make an editable combo an icon picker: completion with icons, and the named icon shown
    at the start of the field (nothing for a name the format does not have)."""
    completer = QCompleter(IconNames(combo), combo)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    combo.setCompleter(completer)
    line = combo.lineEdit()
    assert line is not None  # an editable combo
    preview = line.addAction(material_icon(""), QLineEdit.ActionPosition.LeadingPosition)
    preview.setObjectName("iconPreview")
    preview.setToolTip("The icon this name draws")
    line.textChanged.connect(lambda text: preview.setIcon(material_icon(text.strip())))
