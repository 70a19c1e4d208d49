"""The inspector: the selected node's properties, one editor per property generated from our JSON
Schema (`studio.spec.fields`), and its JSON; both edit through the workspace.

A field is applied on Enter or when focus leaves it (a choice at once) as one validated revision;
while the user types, the preview shows the edit live (debounced, `Workspace.preview_node`). An
invalid value shows its message under the field, is not applied and stays in the field until
fixed; a pending edit is applied before the selection moves to another node, never lost.
"""

from __future__ import annotations

import copy
import json
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.spec import fields as F
from studio.ui.colour_editor import ColourEditor, show_theme_colours
from studio.ui.field_editors import (
    ActionListEditor,
    ButtonEditor,
    CompoundEditor,
    ConditionEditor,
    PaddingEditor,
)
from studio.ui.fit import compact
from studio.ui.icon_picker import attach_icon_picker

if TYPE_CHECKING:
    from studio.workspace import Workspace

#: The text-like field a designer edits most, in this order (the `text_edit` shortcut).
TEXT_FIELDS = ("text", "label", "title", "headline", "placeholder", "supporting")
LIVE_DELAY_MS = 250
ERROR_STYLE = "color: #b3261e;"


def _compound(
    field: F.Field, parent: QWidget, keys: list[str], node_type: str | None = None
) -> CompoundEditor | None:
    """The structured editor of an object or list property, where there is one: the
    hand-made ones first, then one generated from the schema (`studio.ui.schema_editors`)."""
    if field.name == "style.padding":
        return PaddingEditor(parent)
    if field.name == "visibleWhen":
        return ConditionEditor(parent, keys)
    if field.name == "openWhen":
        return ConditionEditor(parent, keys, ("equals",))
    if field.name in ("onTap",):
        return ActionListEditor(parent, keys)
    if field.name in ("confirm", "dismiss", "action"):
        return ButtonEditor(parent, keys)
    if field.name == "navigationIcon":
        return ButtonEditor(parent, keys, icon=True)
    if field.kind == "color":
        return ColourEditor(parent)
    if field.kind == "json":
        from studio.ui.schema_editors import SchemaEditor, structured

        part = structured(field.path[-1], F.rule_of(field, node_type), keys)
        if part is not None:
            return SchemaEditor(part, parent)
    return None


class FieldEditor:
    """One property's editor (a line edit or a combo box) and its error line."""

    def __init__(
        self,
        field: F.Field,
        parent: QWidget,
        state_keys: list[str],
        node_type: str | None = None,
    ) -> None:
        """`node_type` is the node's (None: a document field such as `window.placement`)."""
        self.field = field
        self.error = QLabel("", parent)
        self.error.setObjectName(f"error_{field.name}")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.hide()
        kind = field.kind
        self.combo: QComboBox | None = None
        self.widget: QWidget
        self.line: QLineEdit | None = None
        self.compound: CompoundEditor | None = _compound(field, parent, state_keys, node_type)
        if self.compound is not None:
            self.widget, self.line = self.compound, None
        elif kind in ("enum", "boolean"):
            combo = compact(QComboBox(parent))
            choices = ("true", "false") if kind == "boolean" else field.choices
            if not field.required:
                combo.addItem("(default)", "")
            for choice in choices:
                combo.addItem(choice, choice)
            self.combo, self.widget = combo, combo
        elif kind in ("icon", "stateKey", "color", "dimension"):
            combo = compact(QComboBox(parent))
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            if kind == "stateKey":
                combo.addItems(state_keys)
            elif kind == "color":
                combo.addItems(["", *field.choices])
            elif kind == "dimension":
                combo.addItems(["", "fill", "wrap"])
            elif kind == "icon":
                attach_icon_picker(combo)
            self.combo, self.widget = combo, combo
            self.line = combo.lineEdit()
        else:
            self.line = QLineEdit(parent)
            self.widget = self.line
            if kind in ("number", "integer"):
                self.line.setPlaceholderText(F.bounds_text(field) or "a number")
            elif kind == "json":
                self.line.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.widget.setObjectName(f"field_{field.name}")
        self.widget.setToolTip(f"{field.name} ({kind})")

    def text(self) -> str:
        if self.compound is not None:
            return self.compound.text()
        if self.combo is not None and not self.combo.isEditable():
            return str(self.combo.currentData() or "")
        assert self.line is not None
        return self.line.text()

    def typed(self) -> str | None:
        """`text()`, or None when a structured editor holds a part that does not parse."""
        try:
            return self.text()
        except F.FieldError:
            return None

    def set_text(self, text: str) -> None:
        if self.compound is not None:
            self.compound.set_text(text)
            return
        if self.combo is not None and not self.combo.isEditable():
            index = self.combo.findData(text)
            if index < 0:
                self.combo.addItem(text, text)  # a value the schema does not list: shown as is
                index = self.combo.count() - 1
            self.combo.setCurrentIndex(index)
            return
        assert self.line is not None
        if self.line.text() != text:
            self.line.setText(text)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))


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
        self._type: str | None = None
        self._editors: dict[str, FieldEditor] = {}
        self._dirty: set[str] = set()
        self._applying = False

        self.title = QLabel("Nothing selected", self)
        self.title.setObjectName("inspectorTitle")
        self.title.setWordWrap(True)  # a long name wraps; it never widens the dock
        self.breadcrumb = QLabel("", self)
        self.breadcrumb.setObjectName("inspectorBreadcrumb")
        self.breadcrumb.setWordWrap(True)
        self.error = QLabel("", self)
        self.error.setObjectName("inspectorError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.hide()

        # One form page per node type (and declared state keys), built on the first node of
        # that type and kept: selecting another node shows its values in the kept editors
        # instead of building 30 to 40 editors again (about 40 ms).
        self._pages: dict[tuple[str, tuple[str, ...]], _Page] = {}
        self._empty = _Page(self)  # nothing selected
        self._page = self._empty
        self.form_page, self.form = self._page.widget, self._page.form
        scroll = QScrollArea(self)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the fields, not the frame
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form_page)
        self._scroll = scroll
        self.apply_form_button = QPushButton("Apply", self)
        self.apply_form_button.setToolTip("Apply the fields (Enter or leaving a field does too)")
        fields_page = QWidget(self)
        fields_layout = QVBoxLayout(fields_page)
        fields_layout.setContentsMargins(0, 0, 0, 0)
        fields_layout.addWidget(scroll)
        fields_layout.addWidget(self.apply_form_button)

        json_page = QWidget(self)
        json_layout = QVBoxLayout(json_page)
        self.json_edit = QPlainTextEdit(json_page)
        self.json_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.json_edit.setTabChangesFocus(True)  # Tab leaves the editor (never a tab character)
        self.apply_json_button = QPushButton("Apply JSON", json_page)
        json_layout.addWidget(self.json_edit)
        json_layout.addWidget(self.apply_json_button)

        self.tabs = QTabWidget(self)
        self.tabs.addTab(fields_page, "Fields")
        self.tabs.addTab(json_page, "JSON")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.breadcrumb)
        layout.addWidget(self.error)
        layout.addWidget(self.tabs)

        self._live = QTimer(self)
        self._live.setSingleShot(True)
        self._live.setInterval(LIVE_DELAY_MS)
        self._live.timeout.connect(self._preview_live)
        self.apply_form_button.clicked.connect(self.apply_form)
        self.apply_json_button.clicked.connect(self.apply_json)
        self.show_node(None, None)

    # -- reading ----------------------------------------------------------------------------
    def editor(self, name: str) -> QWidget:
        """The editor of the property `name` (`label`, `style.width`)."""
        return self._editors[name].widget

    def field_names(self) -> list[str]:
        return list(self._editors)

    def field_error(self, name: str) -> str:
        editor = self._editors.get(name)
        return editor.error.text() if editor is not None and not editor.error.isHidden() else ""

    def error_text(self) -> str:
        return self.error.text() if not self.error.isHidden() else ""

    @property
    def text_edit(self) -> QLineEdit:
        """The line edit of the node's main text property (its text, label, title...)."""
        for name in TEXT_FIELDS:
            editor = self._editors.get(name)
            if editor is not None and editor.line is not None:
                return editor.line
        raise LookupError("the selected node has no text property")

    # -- showing ----------------------------------------------------------------------------
    def show_node(self, workspace: Workspace | None, address: str | None) -> None:
        """Show the shown node at `address` (None clears the panel). A pending field edit of the
        node shown before is applied first."""
        if self._applying:
            return
        if self._dirty and (workspace is not self._workspace or address != self._address):
            self.apply_form()
        same = workspace is self._workspace and address == self._address
        self._workspace, self._address = workspace, address
        if workspace is not None and workspace.shown.pending and same:
            return  # the live edit: the user is typing, leave the fields (and the node) alone
        node = workspace.node(address) if workspace is not None and address else None
        self._node = node
        self.error.hide()
        if not same:
            self._dirty.clear()
        locked = workspace.locked(address) if workspace is not None and address else None
        if locked:
            self._show_error(locked)
        self.tabs.setEnabled(node is not None)
        if node is None:
            self.title.setText("Nothing selected")
            self.breadcrumb.setText("")
            self.json_edit.setPlainText("")
            self._build(None)
            return
        from studio.spec.names import name_of

        assert workspace is not None and address is not None
        name = name_of(workspace.shown.spec, address)
        self.title.setText(f"{node.get('type')} · {name.short if name else address}")
        self.breadcrumb.setText(name.breadcrumb if name else "")
        node_type = str(node.get("type"))
        if node_type != self._type or not same:
            self._build(node_type)
        for field_name, editor in self._editors.items():
            if field_name in self._dirty:
                continue
            if not same and editor.compound is not None:
                # A kept page's structured editors may hold rows of the node shown before that
                # were never part of its value (an added, still empty row): start them empty.
                editor.compound.set_text("")
            editor.set_text(F.show(editor.field, F.get_value(node, editor.field)))
            editor.show_error("")
        show_theme_colours(self.form_page, workspace.shown.spec)
        self.json_edit.setPlainText(json.dumps(node, indent=2, ensure_ascii=False))

    def _build(self, node_type: str | None) -> None:
        """Show the editors of one node type, grouped (Node, Content, Behaviour, Style): the
        kept page of that type and state keys, else a new one."""
        self._type = node_type
        workspace = self._workspace
        declared = workspace.shown.spec.get("state") if workspace is not None else None
        keys = sorted(declared) if isinstance(declared, dict) else []
        page = self._empty if node_type is None else self._pages.get((node_type, tuple(keys)))
        if page is None:
            assert node_type is not None
            page = _Page(self)
            self._fill_page(page, node_type, keys)
            self._pages[(node_type, tuple(keys))] = page
        if page is not self._page:
            self._scroll.takeWidget()
            self._page.widget.setParent(self)  # kept (hidden) for the next node of its type
            self._page.widget.hide()
            self._page = page
            self._scroll.setWidget(page.widget)
            self.form_page, self.form = page.widget, page.form
        self._editors = page.editors
        self._scroll.verticalScrollBar().setValue(0)
        # Pages made for other state keys offer keys the prototype no longer has: dropped.
        for key in [k for k in self._pages if k[1] != tuple(keys)]:
            self._pages.pop(key).widget.deleteLater()

    def _fill_page(self, page: _Page, node_type: str, keys: list[str]) -> None:
        group = ""
        for field in F.fields_for(node_type):
            if field.group != group:
                group = field.group
                page.form.addRow(QLabel(f"<b>{group}</b>", page.widget))
            editor = FieldEditor(field, page.widget, keys, node_type)
            label = field.label + (" *" if field.required else "")
            holder = QWidget(page.widget)
            column = QVBoxLayout(holder)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(0)
            column.addWidget(editor.widget)
            column.addWidget(editor.error)
            page.form.addRow(label, holder)
            page.editors[field.name] = editor
            self._wire(editor)

    def _wire(self, editor: FieldEditor) -> None:
        name = editor.field.name
        if editor.compound is not None:
            editor.compound.changed.connect(lambda n=name: self._apply_one(n))
            return
        if editor.combo is not None and not editor.combo.isEditable():
            editor.combo.activated.connect(lambda _i, n=name: self._apply_one(n))
            return
        assert editor.line is not None
        editor.line.textEdited.connect(partial(self._typed, name))
        editor.line.editingFinished.connect(partial(self._finished, name))
        if editor.combo is not None:
            editor.combo.activated.connect(lambda _i, n=name: self._apply_one(n))

    # -- editing ----------------------------------------------------------------------------
    def _typed(self, name: str, _text: str) -> None:
        self._dirty.add(name)
        self._live.start()

    def _finished(self, name: str) -> None:
        if name in self._dirty:
            self._apply_one(name)

    def _edited_node(self, names: list[str]) -> dict[str, Any] | None:
        """The node with the typed values of `names`; None (errors shown) when one does not
        parse."""
        if self._node is None:
            return None
        node = copy.deepcopy(self._node)
        ok = True
        for name in names:
            editor = self._editors[name]
            try:
                value = F.parse(editor.field, editor.text())
            except F.FieldError as exc:
                editor.show_error(str(exc))
                ok = False
                continue
            node = F.set_value(node, editor.field, value)
        return node if ok else None

    def _preview_live(self) -> None:
        workspace, address = self._workspace, self._address
        if workspace is None or address is None or not self._dirty:
            return
        node = self._edited_node(sorted(self._dirty))
        if node is None or node == self._node:
            return
        result = workspace.preview_node(address, node)
        if not result.ok:
            self._error_at(result.path or "", result.message or "")

    def _apply_one(self, name: str) -> None:
        self._dirty.add(name)
        self._apply([name])

    def apply_form(self) -> None:
        """Apply every field whose text differs from the node (the Apply button)."""
        if self._node is None:
            return
        changed = [
            name
            for name, editor in self._editors.items()
            if name in self._dirty
            or editor.typed() != F.show(editor.field, F.get_value(self._node, editor.field))
        ]
        if changed:
            self._apply(changed)

    def _apply(self, names: list[str]) -> None:
        self._live.stop()
        node = self._edited_node(names)
        if node is None:
            return
        if node == self._node:
            self._dirty.difference_update(names)
            for name in names:
                self._editors[name].show_error("")
            return
        from studio.spec.names import phrase

        assert self._node is not None
        what = self._editors[names[0]].field.label.lower() if len(names) == 1 else "properties"
        if self._commit(node, f"Set {what} of {phrase(self._node)}", names):
            self._dirty.difference_update(names)

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
        from studio.spec.names import phrase

        self._commit(node, f"Edit {phrase(self._node)} (JSON)", [])

    def _commit(self, node: dict[str, Any], summary: str, names: list[str]) -> bool:
        workspace, address = self._workspace, self._address
        if workspace is None or address is None or node == self._node:
            return False
        from studio.spec.address import resolve
        from studio.spec.errors import SpecError
        from studio.spec.patch import PatchError
        from studio.workspace import ReviewConflict

        try:
            path = resolve(workspace.shown.spec, address)[0]
        except ValueError:
            path = address
        self._applying = True
        try:
            workspace.edit_node(address, node, summary=summary)
        except ReviewConflict as exc:
            workspace.end_preview()
            self._show_error(str(exc))
            return False
        except (PatchError, SpecError) as exc:
            workspace.end_preview()
            if names:
                self._error_at(exc.path or "", exc.message, names)
            else:  # the JSON tab: the message goes above it
                self._show_error(f"{exc.path}: {exc.message}")
            return False
        finally:
            self._applying = False
        for name in names:
            self._editors[name].show_error("")
        self.error.hide()
        new_id = node.get("id")  # the node's address after the edit: its new id, or its path
        self.show_node(workspace, str(new_id) if isinstance(new_id, str) and new_id else path)
        self.edited.emit(summary)
        return True

    def _error_at(self, path: str, message: str, names: list[str] | None = None) -> None:
        """Show the validator's message under the field it names (else under the one edited,
        else at the top)."""
        text = f"{path}: {message}" if path else message
        for name, editor in self._editors.items():
            if path.endswith(f".{name}") or f".{name}." in path or f".{name}[" in path:
                editor.show_error(text)
                return
        if names:
            self._editors[names[0]].show_error(text)
            return
        self._show_error(text)

    def _show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()


class _Page:
    """One node type's form: its widget, layout and editors by property name."""

    def __init__(self, parent: QWidget) -> None:
        self.widget = QWidget(parent)
        self.form = QFormLayout(self.widget)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.editors: dict[str, FieldEditor] = {}
