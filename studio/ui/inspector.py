"""The inspector: a form for the selected node's common fields and its JSON, both editable.

It shows the node as the workspace shows it (the draft while one is under review). Every edit
goes through `Workspace.edit_node` and becomes one validated revision of the document; an invalid
edit, or one the review refuses, shows the reason inline in one line and changes nothing.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from studio.workspace import Workspace

# The text-like field a designer edits most, per node type.
TEXT_FIELDS = ("text", "label", "title", "headline", "placeholder", "supporting")
VARIANTS: dict[str, list[str]] = {
    "button": ["filled", "tonal", "elevated", "outlined", "text"],
    "chip": ["assist", "filter", "input", "suggestion"],
    "card": ["filled", "elevated", "outlined"],
    "iconButton": ["standard", "filled", "tonal", "outlined"],
    "topAppBar": ["small", "centerAligned", "medium", "large"],
    "progress": ["linear", "circular"],
    "icon": ["filled", "outlined", "rounded", "sharp", "twoTone"],
}


class InspectorPanel(QWidget):
    """Edits the shown node at `address` of a Workspace. Emits `edited(summary)` after a revision
    lands."""

    edited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self._workspace: Workspace | None = None
        self._address: str | None = None
        self._node: dict[str, Any] | None = None

        self.title = QLabel("Nothing selected", self)
        self.error = QLabel("", self)
        self.error.setObjectName("inspectorError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b3261e;")
        self.error.hide()

        form_page = QWidget(self)
        self.form = QFormLayout(form_page)
        self.id_edit = QLineEdit(form_page)
        self.text_edit = QLineEdit(form_page)
        self.text_label = QLabel("Text", form_page)
        self.variant_combo = QComboBox(form_page)
        self.state_key_edit = QLineEdit(form_page)
        self.form.addRow("Id", self.id_edit)
        self.form.addRow(self.text_label, self.text_edit)
        self.form.addRow("Variant", self.variant_combo)
        self.form.addRow("State key", self.state_key_edit)
        self.apply_form_button = QPushButton("Apply", form_page)
        self.form.addRow(self.apply_form_button)

        json_page = QWidget(self)
        json_layout = QVBoxLayout(json_page)
        self.json_edit = QPlainTextEdit(json_page)
        self.json_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.apply_json_button = QPushButton("Apply JSON", json_page)
        json_layout.addWidget(self.json_edit)
        json_layout.addWidget(self.apply_json_button)

        self.tabs = QTabWidget(self)
        self.tabs.addTab(form_page, "Fields")
        self.tabs.addTab(json_page, "JSON")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.error)
        layout.addWidget(self.tabs)

        self.apply_form_button.clicked.connect(self.apply_form)
        self.apply_json_button.clicked.connect(self.apply_json)
        for edit in (self.id_edit, self.text_edit, self.state_key_edit):
            edit.returnPressed.connect(self.apply_form)
        self.show_node(None, None)

    def show_node(self, workspace: Workspace | None, address: str | None) -> None:
        """Show the shown node at `address` (None clears the panel)."""
        self._workspace = workspace
        self._address = address
        self._node = None
        self.error.hide()
        if workspace is not None and address:
            self._node = workspace.node(address)
            locked = workspace.locked(address)
            if locked:
                self._show_error(locked)
        node = self._node
        enabled = node is not None
        self.tabs.setEnabled(enabled)
        if node is None:
            self.title.setText("Nothing selected")
            self.json_edit.setPlainText("")
            for edit in (self.id_edit, self.text_edit, self.state_key_edit):
                edit.clear()
            self.variant_combo.clear()
            return
        self.title.setText(f"{node.get('type')} · {address}")
        self.id_edit.setText(str(node.get("id", "")))
        field = next((f for f in TEXT_FIELDS if f in node), None) or _default_text_field(node)
        self.text_label.setText(field.capitalize() if field else "Text")
        self.text_edit.setEnabled(field is not None)
        self.text_edit.setText(str(node.get(field, "")) if field else "")
        self.variant_combo.clear()
        variants = VARIANTS.get(str(node.get("type")), [])
        self.variant_combo.setEnabled(bool(variants))
        if variants:
            self.variant_combo.addItem("(default)", None)
            for value in variants:
                self.variant_combo.addItem(value, value)
            current = node.get("variant")
            self.variant_combo.setCurrentIndex(
                variants.index(current) + 1 if current in variants else 0
            )
        self.state_key_edit.setEnabled("stateKey" in node)
        self.state_key_edit.setText(str(node.get("stateKey", "")))
        self.json_edit.setPlainText(json.dumps(node, indent=2, ensure_ascii=False))

    def apply_form(self) -> None:
        if self._node is None:
            return
        node = copy.deepcopy(self._node)
        _set_or_drop(node, "id", self.id_edit.text().strip())
        field = next((f for f in TEXT_FIELDS if f in node), None) or _default_text_field(node)
        if field is not None and self.text_edit.isEnabled():
            node[field] = self.text_edit.text()
        if self.variant_combo.isEnabled():
            _set_or_drop(node, "variant", self.variant_combo.currentData() or "")
        if "stateKey" in node:
            node["stateKey"] = self.state_key_edit.text().strip()
        self._commit(node, "form")

    def apply_json(self) -> None:
        if self._node is None:
            return
        try:
            node = json.loads(self.json_edit.toPlainText())
        except json.JSONDecodeError as exc:
            self._show_error(f"JSON line {exc.lineno} column {exc.colno}: {exc.msg}")
            return
        if not isinstance(node, dict):
            self._show_error("$: a node must be a JSON object")
            return
        self._commit(node, "JSON")

    def _commit(self, node: dict[str, Any], how: str) -> None:
        workspace, address = self._workspace, self._address
        if workspace is None or address is None or node == self._node:
            return
        from studio.spec.errors import SpecError
        from studio.spec.patch import PatchError
        from studio.workspace import ReviewConflict

        summary = f"Edit {node.get('id') or node.get('type')} ({how})"
        try:
            workspace.edit_node(address, node, summary=summary)
        except ReviewConflict as exc:
            self._show_error(str(exc))
            return
        except (PatchError, SpecError) as exc:
            self._show_error(f"{exc.path}: {exc.message}")
            return
        self.show_node(workspace, str(node["id"]) if node.get("id") else address)
        self.edited.emit(summary)

    def _show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def error_text(self) -> str:
        return self.error.text() if self.error.isVisible() or not self.error.isHidden() else ""


def _default_text_field(node: dict[str, Any]) -> str | None:
    return {"text": "text", "button": "label", "chip": "label", "topAppBar": "title"}.get(
        str(node.get("type"))
    )


def _set_or_drop(node: dict[str, Any], key: str, value: str) -> None:
    if value:
        node[key] = value
    else:
        node.pop(key, None)
