"""The document panel (a document-level editor): the prototype's theme (mode, seed colour,
typography, shapes) and window (placement: its type and that type's options, opacity, layer,
persistence), one editor per property from our JSON Schema (`studio.spec.fields.document_fields`); each applied on Enter,
focus-out or a choice as one validated revision, a refusal shown at the field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QVBoxLayout, QWidget

from studio.spec import fields as F
from studio.ui.colour_editor import show_theme_colours
from studio.ui.inspector import FieldEditor

if TYPE_CHECKING:
    from studio.workspace import Shown


class DocumentPanel(QWidget):
    """Out: `changeRequested(spec, summary, field name)`; in: `present(shown)`,
    `show_error(name, line)`."""

    changeRequested = Signal(dict, str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentPanel")
        self._spec: dict[str, Any] | None = None
        self._editors: dict[str, FieldEditor] = {}
        form = QFormLayout()
        group = ""
        for field in F.document_fields():
            if field.path[0] != group:
                group = field.path[0]
                form.addRow(QLabel(f"<b>{group.capitalize()}</b>", self))
            editor = FieldEditor(field, self, [])
            holder = QWidget(self)
            column = QVBoxLayout(holder)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(editor.widget)
            column.addWidget(editor.error)
            form.addRow(field.label, holder)
            self._editors[field.name] = editor
            if editor.compound is not None:
                editor.compound.changed.connect(lambda n=field.name: self.apply(n))
            elif editor.combo is not None and not editor.combo.isEditable():
                editor.combo.activated.connect(lambda _i, n=field.name: self.apply(n))
            elif editor.line is not None:
                editor.line.editingFinished.connect(lambda n=field.name: self.apply(n))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(form)
        layout.addStretch(1)
        self.setEnabled(False)

    def editor(self, name: str) -> QWidget:
        return self._editors[name].widget

    def field_error(self, name: str) -> str:
        editor = self._editors[name]
        return editor.error.text() if not editor.error.isHidden() else ""

    def present(self, shown: Shown) -> None:
        if shown.spec is self._spec:
            return
        self._spec = shown.spec
        self.setEnabled(shown.source == "document")
        for editor in self._editors.values():
            editor.set_text(F.show(editor.field, F.get_value(shown.spec, editor.field)))
            editor.show_error("")
        show_theme_colours(self, shown.spec)

    def show_error(self, name: str, text: str) -> None:
        editor = self._editors.get(name)
        if editor is not None:
            editor.show_error(text)

    def apply(self, name: str) -> None:
        spec = self._spec
        if spec is None:
            return
        editor = self._editors[name]
        try:
            value = F.parse(editor.field, editor.text())  # a structured one may raise too
        except F.FieldError as exc:
            editor.show_error(str(exc))
            return
        new = F.set_value(spec, editor.field, value)
        if new == spec:
            editor.show_error("")
            return
        summary = f"Set {editor.field.path[0]} {editor.field.label.lower()}"
        self.changeRequested.emit(new, summary, name)
