"""Structured editors generated from our JSON Schema for the properties that are objects or lists
(`anchor`, `safeAreaPadding`, `styleWhen`, `repeat`, a selection control's `options`, a tab bar's
`items`, an app bar's `actions`, `window.placement`, a border, an offset...), instead of a line
of raw JSON.

A property's editor is made of parts, one per schema construct: an enum is a combo box, a number
a line that says its bounds, a set of enum values (`edges`) check boxes, an object a small form
of its properties, a tagged object (`type` picks the variant) a type combo and the variant's
form, a list of objects rows with add and remove, a condition the condition editor, an action
list the action-list editor, a style the property-and-value rows, a choice of shapes (a corner
radius: a number, a named size or four corners) a combo of the shapes and the chosen one's
editor. What the schema gives no structure for stays a JSON line. Each part reads and
writes a value; a typed text that is not of its kind raises `FieldError` (one line, shown at
the field, nothing applied); the validator has the last word on the whole value.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.spec import fields as F
from studio.ui.colour_editor import ColourEditor
from studio.ui.field_editors import ActionListEditor, CompoundEditor, ConditionEditor
from studio.ui.fit import compact
from studio.ui.icon_picker import attach_icon_picker

#: How deep forms nest (a selector's container holds a container...); deeper is a JSON line.
MAX_NESTING = 3


def _load(text: str) -> Any:
    try:
        return json.loads(text) if text.strip() else None
    except json.JSONDecodeError:
        return None


def _value_or_error(part: Part) -> Any:
    try:
        return part.value()
    except F.FieldError:
        return _INVALID


_INVALID = object()


def _hold(host: Part | CompoundEditor, inner: Part | CompoundEditor) -> None:
    """Make `inner` the whole of `host` (no margins), its `changed` host's."""
    layout = QVBoxLayout(host)
    layout.setContentsMargins(0, 0, 0, 0)
    inner.setParent(host)
    inner.changed.connect(host.changed)
    layout.addWidget(inner)


class Part(QWidget):
    """One piece of a structured editor: `value()` (None: not set; FieldError for a text that
    is not of its kind), `set_value(value)`, and `changed` when the user finishes an edit."""

    changed = Signal()

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError


class ScalarPart(Part):
    """A text, number, boolean, enum, icon, colour or state key, as the inspector's own fields
    edit them."""

    def __init__(self, field: F.Field, keys: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field = field
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.combo: QComboBox | None = None
        self.line: QLineEdit | None = None
        kind = field.kind
        if kind in ("enum", "boolean"):
            combo = compact(QComboBox(self))
            if not field.required:
                combo.addItem("(default)", "")
            for choice in ("true", "false") if kind == "boolean" else field.choices:
                combo.addItem(choice, choice)
            combo.activated.connect(lambda _i: self.changed.emit())
            self.combo = combo
            layout.addWidget(combo)
        elif kind in ("icon", "color", "stateKey", "dimension"):
            combo = compact(QComboBox(self))
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            if kind == "icon":
                attach_icon_picker(combo)
            else:
                extra = {"color": field.choices, "stateKey": keys, "dimension": ("fill", "wrap")}
                combo.addItems(["", *extra[kind]])
            combo.activated.connect(lambda _i: self.changed.emit())
            self.combo, self.line = combo, combo.lineEdit()
            layout.addWidget(combo)
        else:
            self.line = QLineEdit(self)
            if kind in ("number", "integer"):
                self.line.setPlaceholderText(F.bounds_text(field) or "a number")
            elif kind == "json":
                self.line.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
                self.line.setPlaceholderText("JSON")
            layout.addWidget(self.line)
        if self.line is not None:
            self.line.editingFinished.connect(self.changed.emit)
        self.setObjectName(f"part_{field.name}")
        self.setToolTip(f"{field.name} ({kind})")

    def text(self) -> str:
        if self.combo is not None and not self.combo.isEditable():
            return str(self.combo.currentData() or "")
        assert self.line is not None
        return self.line.text()

    def value(self) -> Any:
        text = self.text()
        if self.field.kind == "text" and text == "":
            return None  # an untouched part is not set (the validator names a required one)
        return F.parse(self.field, text)

    def set_value(self, value: Any) -> None:
        text = F.show(self.field, value)
        if self.combo is not None and not self.combo.isEditable():
            index = self.combo.findData(text)
            if index < 0:
                self.combo.addItem(text, text)
                index = self.combo.count() - 1
            self.combo.setCurrentIndex(index)
        elif self.line is not None and self.line.text() != text:
            self.line.setText(text)


class ObjectPart(Part):
    """An object as a form of its properties (`type` left to a tagged part)."""

    def __init__(
        self,
        definition: dict[str, Any],
        keys: list[str],
        parent: QWidget | None = None,
        depth: int = 0,
    ) -> None:
        super().__init__(parent)
        # Each label above its editor: a nested form beside the inspector's own labels would
        # make the inspector scroll sideways in a laptop-sized dock. (A plain column, not a
        # wrapping QFormLayout, whose height-for-width makes the inspector's scroll area
        # reorder Shift+Tab.)
        form = QVBoxLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setSpacing(2)
        required = set(definition.get("required", ()))
        self.parts: dict[str, Part] = {}
        self._required_sets: list[EnumSetPart] = []
        self._empty = True
        for name, rule in definition.get("properties", {}).items():
            if name == "type":
                continue
            part = part_for(name, rule, name in required, keys, self, depth + 1)
            part.changed.connect(self._part_changed)
            self.parts[name] = part
            if name in required and isinstance(part, EnumSetPart):
                self._required_sets.append(part)
            label = F.field_of(name, rule).label + (" *" if name in required else "")
            form.addWidget(QLabel(label, self))
            form.addWidget(part)

    def _part_changed(self) -> None:
        """The first choice in an empty object (safeAreaPadding's first edge ticked) also
        ticks the first choice of every other required set still empty (`types`:
        systemBars), so that the first click makes a valid value the designer then adjusts,
        instead of a refusal. Later clicks are left as they are."""
        if self._empty:
            for part in self._required_sets:
                if part.value() is None:
                    part.tick_first()
        self._empty = _value_or_error(self) is None
        self.changed.emit()

    def value(self) -> Any:
        out = {}
        for name, part in self.parts.items():
            inner = part.value()
            if inner is not None:
                out[name] = inner
        return out or None

    def set_value(self, value: Any) -> None:
        found = value if isinstance(value, dict) else {}
        for name, part in self.parts.items():
            part.set_value(found.get(name))
        self._empty = _value_or_error(self) is None


class TaggedPart(Part):
    """A tagged object: its `type` in a combo box, then the chosen variant's form."""

    def __init__(
        self,
        name: str,
        required: bool,
        keys: list[str],
        parent: QWidget | None = None,
        depth: int = 0,
    ) -> None:
        super().__init__(parent)
        self.name, self.keys, self.depth = name, keys, depth
        definition = F.definition(name) or {}
        variants = definition.get("properties", {}).get("type", {}).get("enum", [])
        self.kind = compact(QComboBox(self))
        self.kind.setObjectName(f"type_{name}")
        if not required:
            self.kind.addItem("(none)", "")
        for variant in variants:
            self.kind.addItem(str(variant), str(variant))
        self._box = QVBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self._box.addWidget(self.kind)
        self.body: ObjectPart | None = None
        self.kind.activated.connect(self._picked)
        self._show_variant(str(self.kind.currentData() or ""))

    def _show_variant(self, variant: str) -> None:
        if self.body is not None:
            self.body.deleteLater()
            self.body = None
        definition = F.definition(f"{self.name}.{variant}") if variant else None
        if definition is not None:
            self.body = ObjectPart(definition, self.keys, self, self.depth)
            self.body.changed.connect(self.changed)
            self._box.addWidget(self.body)

    def choose(self, variant: str) -> None:
        """Pick a variant as the combo box does (its form shows; applied with the first edit)."""
        self.kind.setCurrentIndex(self.kind.findData(variant))
        self._show_variant(variant)

    def _picked(self, _index: int) -> None:
        self._show_variant(str(self.kind.currentData() or ""))
        self.changed.emit()

    def value(self) -> Any:
        variant = str(self.kind.currentData() or "")
        if not variant:
            return None
        inner = self.body.value() if self.body is not None else None
        return {"type": variant, **(inner or {})}

    def set_value(self, value: Any) -> None:
        variant = str(value.get("type", "")) if isinstance(value, dict) else ""
        if variant != str(self.kind.currentData() or ""):
            index = self.kind.findData(variant)
            if index < 0:
                index = 0
            self.kind.setCurrentIndex(index)
            self._show_variant(str(self.kind.currentData() or ""))
        if self.body is not None:
            self.body.set_value(value)


class EnumSetPart(Part):
    """A list of distinct enum values (`edges`, `types`) as check boxes, in the schema's order."""

    def __init__(self, name: str, choices: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Two to a row, so that four edges do not widen a narrow dock.
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.boxes: dict[str, QCheckBox] = {}
        for index, choice in enumerate(choices):
            box = QCheckBox(choice, self)
            box.setObjectName(f"{name}_{choice}")
            box.clicked.connect(lambda _on: self.changed.emit())  # the user's click only
            self.boxes[choice] = box
            grid.addWidget(box, index // 2, index % 2)
        grid.setColumnStretch(2, 1)

    def tick_first(self) -> None:
        """Tick the first choice (the schema's order), as a default."""
        next(iter(self.boxes.values())).setChecked(True)

    def value(self) -> Any:
        return [c for c, box in self.boxes.items() if box.isChecked()] or None

    def set_value(self, value: Any) -> None:
        chosen = set(value) if isinstance(value, list) else set()
        for choice, box in self.boxes.items():
            box.setChecked(choice in chosen)


class ListPart(Part):
    """A list of objects: one framed form per item, with remove; add appends an empty one,
    which is part of the value once something is typed into it."""

    def __init__(
        self,
        name: str,
        item_rule: dict[str, Any],
        keys: list[str],
        parent: QWidget | None = None,
        depth: int = 0,
    ) -> None:
        super().__init__(parent)
        self.name, self.item_rule, self.keys, self.depth = name, item_rule, keys, depth
        self.rows: list[Part] = []
        self._frames: list[QFrame] = []
        self._box = QVBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self.add_button = QPushButton(f"+ {_singular(name)}", self)
        self.add_button.setObjectName(f"add_{name}")
        self.add_button.clicked.connect(self.add_row)
        self._box.addWidget(self.add_button)

    def add_row(self) -> Part:
        frame = QFrame(self)
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QHBoxLayout(frame)
        layout.setContentsMargins(4, 4, 4, 4)
        part = part_for(_singular(self.name), self.item_rule, True, self.keys, frame, self.depth)
        part.changed.connect(self.changed)
        remove = QPushButton("−", frame)
        remove.setToolTip("Remove this one")
        remove.setFixedWidth(28)
        remove.clicked.connect(lambda: self.remove_row(part))
        layout.addWidget(part, 1)
        layout.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        self._box.insertWidget(len(self.rows), frame)
        self.rows.append(part)
        self._frames.append(frame)
        return part

    def remove_row(self, part: Part) -> None:
        index = self.rows.index(part)
        self.rows.pop(index)
        self._frames.pop(index).deleteLater()
        self.changed.emit()

    def value(self) -> Any:
        items = [v for v in (p.value() for p in self.rows) if v is not None]
        return items or None

    def set_value(self, value: Any) -> None:
        items = value if isinstance(value, list) else []
        while len(self.rows) > len(items):
            self.rows.pop()
            self._frames.pop().deleteLater()
        while len(self.rows) < len(items):
            self.add_row()
        for part, item in zip(self.rows, items, strict=True):
            part.set_value(item)


def _alternative_label(rule: dict[str, Any]) -> str:
    """How the choice's combo names one alternative: "number", "named", "light and dark"."""
    if "enum" in rule:
        return "named"
    if rule.get("type") == "object":
        names = [F.field_of(n, {}).label.lower() for n in rule.get("properties", {})]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return {"number": "number", "integer": "number", "string": "text"}.get(
        str(rule.get("type")), "value"
    )


def _fits(rule: dict[str, Any], value: Any) -> bool:
    """Whether `value` is of the alternative's JSON kind (the one a choice shows it with)."""
    if "enum" in rule:
        return value in rule["enum"]
    kind = rule.get("type")
    if kind in ("number", "integer"):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    return kind == "object" and isinstance(value, dict)


class ChoicePart(Part):
    """One of several shapes (`cornerRadius`: a number, a named size or four corners; an image:
    one asset or a light and a dark one): which one in a combo box, then its editor."""

    def __init__(
        self,
        name: str,
        alternatives: list[dict[str, Any]],
        required: bool,
        keys: list[str],
        parent: QWidget | None = None,
        depth: int = 0,
    ) -> None:
        super().__init__(parent)
        self.name, self.keys, self.depth = name, keys, depth
        self.alternatives = alternatives
        self.shape = compact(QComboBox(self))
        self.shape.setObjectName(f"shape_{name}")
        if not required:
            self.shape.addItem("(default)", -1)
        for index, rule in enumerate(alternatives):
            self.shape.addItem(_alternative_label(rule), index)
        self._box = QHBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self._box.addWidget(self.shape)
        self.body: Part | None = None
        self.shape.activated.connect(self._picked)
        self._show(int(self.shape.currentData()))

    def _show(self, index: int) -> None:
        if self.body is not None:
            self.body.deleteLater()
            self.body = None
        if index >= 0:
            rule = self.alternatives[index]
            self.body = part_for(self.name, rule, True, self.keys, self, self.depth + 1)
            self.body.changed.connect(self.changed)
            self._box.addWidget(self.body, 1)

    def choose(self, label: str) -> Part:
        """Pick the alternative named `label` as the combo box does; its editor."""
        self.shape.setCurrentIndex(self.shape.findText(label))
        self._show(int(self.shape.currentData()))
        assert self.body is not None
        return self.body

    def _picked(self, _index: int) -> None:
        self._show(int(self.shape.currentData()))
        self.changed.emit()

    def value(self) -> Any:
        return self.body.value() if self.body is not None else None

    def set_value(self, value: Any) -> None:
        index = -1
        if value is not None:
            index = next((i for i, rule in enumerate(self.alternatives) if _fits(rule, value)), 0)
        if index != int(self.shape.currentData()) or (index >= 0 and self.body is None):
            found = self.shape.findData(index)
            self.shape.setCurrentIndex(max(found, 0))
            self._show(int(self.shape.currentData()))
        if self.body is not None:
            self.body.set_value(value)


def _singular(name: str) -> str:
    """`options` -> "Option", `styleWhen` -> "Style when" (the add button's and rows' name)."""
    label = F.field_of(name, {}).label
    return label[:-1] if label.endswith("s") and not label.endswith("ss") else label


class CompoundPart(Part):
    """One of the inspector's compound editors (a condition, an action list) as a part."""

    def __init__(self, editor: CompoundEditor, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        _hold(self, editor)

    def value(self) -> Any:
        return _load(self.editor.text())

    def set_value(self, value: Any) -> None:
        self.editor.set_text("" if value is None else json.dumps(value, ensure_ascii=False))


class ColourPart(CompoundPart):
    """A colour (a role, hex, or a light and dark pair) in the inspector's colour editor."""

    def __init__(self, field: F.Field, parent: QWidget | None = None) -> None:
        super().__init__(ColourEditor(), parent)
        self.field = field
        self.setObjectName(f"part_{field.name}")

    def value(self) -> Any:
        return F.parse(self.field, self.editor.text())

    def set_value(self, value: Any) -> None:
        self.editor.set_text(F.show(self.field, value))


class StylePart(Part):
    """Style overrides: rows of a style property and its value (an editor of that property's
    kind), for `styleWhen`."""

    def __init__(self, keys: list[str], parent: QWidget | None = None, depth: int = 0) -> None:
        super().__init__(parent)
        self.keys, self.depth = keys, depth
        style = F.definition("style") or {}
        self.properties: dict[str, dict[str, Any]] = dict(style.get("properties", {}))
        self.rows: list[tuple[QComboBox, QHBoxLayout, list[Part]]] = []
        self._box = QVBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self.add_button = QPushButton("+ Style property", self)
        self.add_button.clicked.connect(self.add_row)
        self._box.addWidget(self.add_button)

    def add_row(self, name: str = "") -> QComboBox:
        row = QHBoxLayout()
        pick = compact(QComboBox(self))
        pick.setObjectName("styleProperty")
        pick.addItem("", "")
        for key in self.properties:
            pick.addItem(F.field_of(key, {}).label, key)
        holder: list[Part] = []
        entry = (pick, row, holder)
        row.addWidget(pick)
        self._box.insertLayout(len(self.rows), row)
        self.rows.append(entry)
        pick.activated.connect(lambda _i: self._repick(entry))
        if name:
            pick.setCurrentIndex(pick.findData(name))
            self._repick(entry, emit=False)
        return pick

    def value_part(self, row: int) -> Part:
        """The value editor of one row (once its property is chosen)."""
        return self.rows[row][2][0]

    def _repick(self, entry: tuple[QComboBox, QHBoxLayout, list[Part]], emit: bool = True) -> None:
        pick, row, holder = entry
        for part in holder:
            part.deleteLater()
        holder.clear()
        name = str(pick.currentData() or "")
        if name:
            part = part_for(name, self.properties[name], True, self.keys, self, self.depth + 1)
            part.changed.connect(self.changed)
            holder.append(part)
            row.addWidget(part, 1)
        if emit and name == "":
            self.changed.emit()

    def value(self) -> Any:
        out: dict[str, Any] = {}
        for pick, _row, holder in self.rows:
            name = str(pick.currentData() or "")
            if name and holder:
                inner = holder[0].value()
                if inner is not None:
                    out[name] = inner
        return out or None

    def set_value(self, value: Any) -> None:
        found = value if isinstance(value, dict) else {}
        current = [str(p.currentData() or "") for p, _r, _h in self.rows]
        if current != list(found):
            for pick, row, holder in self.rows:
                for part in holder:
                    part.deleteLater()
                pick.deleteLater()
                row.deleteLater()
            self.rows = []
            for name in found:
                if name in self.properties:
                    self.add_row(name)
        for pick, _row, holder in self.rows:
            if holder:
                holder[0].set_value(found.get(str(pick.currentData())))


class RepeatPart(Part):
    """A container's `repeat`: the alias its placeholders use (`{item.name}`), its fields, and
    one table row per item (a value per field: text, a number, true or false)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self.alias = QLineEdit(self)
        self.alias.setObjectName("repeat_as")
        self.alias.setPlaceholderText("item")
        self.alias.editingFinished.connect(self.changed.emit)
        self.columns = QLineEdit(self)
        self.columns.setObjectName("repeat_fields")
        self.columns.setPlaceholderText("name, price")
        self.columns.editingFinished.connect(self._recolumn)
        self.table = QTableWidget(0, 0, self)
        self.table.setObjectName("repeat_items")
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(96)
        self.table.cellChanged.connect(self._cell)
        buttons = QHBoxLayout()
        self.add_button = QPushButton("+ Item", self)
        self.remove_button = QPushButton("− Item", self)
        self.add_button.clicked.connect(self.add_item)
        self.remove_button.clicked.connect(self._remove_item)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        form.addRow("As *", self.alias)
        form.addRow("Fields", self.columns)
        form.addRow(self.table)
        form.addRow(buttons)
        self._filling = False

    def fields(self) -> list[str]:
        return [f.strip() for f in self.columns.text().split(",") if f.strip()]

    def _recolumn(self) -> None:
        names = self.fields()
        headers = (self.table.horizontalHeaderItem(c) for c in range(self.table.columnCount()))
        current = [h.text() if h is not None else "" for h in headers]
        if names == current:
            return
        rows = self._rows(current)
        self._fill(names, rows)
        self.changed.emit()

    def add_item(self) -> None:
        self._filling = True
        self.table.insertRow(self.table.rowCount())
        self._filling = False

    def _remove_item(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            row = self.table.rowCount() - 1
        if row >= 0:
            self.table.removeRow(row)
            self.changed.emit()

    def _cell(self, _row: int, _column: int) -> None:
        if not self._filling:
            self.changed.emit()

    def _rows(self, names: list[str]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for row in range(self.table.rowCount()):
            item: dict[str, Any] = {}
            for column, name in enumerate(names):
                cell = self.table.item(row, column)
                if cell is not None and cell.text() != "":
                    item[name] = F.parse_scalar(cell.text())
            out.append(item)
        return out

    def _fill(self, names: list[str], rows: list[dict[str, Any]]) -> None:
        self._filling = True
        try:
            self.table.setColumnCount(len(names))
            self.table.setHorizontalHeaderLabels(names)
            self.table.setRowCount(len(rows))
            for r, item in enumerate(rows):
                for c, name in enumerate(names):
                    text = F.show_scalar(item[name]) if name in item else ""
                    self.table.setItem(r, c, QTableWidgetItem(text))
        finally:
            self._filling = False

    def value(self) -> Any:
        alias = self.alias.text().strip()
        items = [i for i in self._rows(self.fields()) if i]
        if not alias and not items:
            return None
        out: dict[str, Any] = {"items": items}
        if alias:
            out["as"] = alias
        return out

    def set_value(self, value: Any) -> None:
        found = value if isinstance(value, dict) else {}
        raw = found.get("items")
        items = [i for i in raw if isinstance(i, dict)] if isinstance(raw, list) else []
        names: list[str] = []
        for item in items:
            names += [k for k in item if k not in names]
        self.alias.setText(str(found.get("as", "")))
        self.columns.setText(", ".join(names))
        self._fill(names, items)


def part_for(
    name: str,
    rule: dict[str, Any],
    required: bool,
    keys: list[str],
    parent: QWidget | None = None,
    depth: int = 0,
) -> Part:
    """The part that edits a value of `rule` (a property `name` of some object)."""
    field = F.field_of(name, rule, required)
    if field.kind == "color":
        return ColourPart(field, parent)
    if field.kind != "json":
        return ScalarPart(field, keys, parent)
    ref = F.ref_name(rule)
    if ref == "condition":
        return CompoundPart(ConditionEditor(None, keys), parent)
    if ref == "style":
        return StylePart(keys, parent, depth)
    if ref == "repeat":
        return RepeatPart(parent)
    target = F.definition(ref) if ref else rule
    if target is not None and depth < MAX_NESTING:
        if isinstance(target.get("anyOf"), list):
            return ChoicePart(name, list(target["anyOf"]), required, keys, parent, depth)
        if "enum" in target:
            enum = F.Field((name,), "enum", required, tuple(str(v) for v in target["enum"]))
            return ScalarPart(enum, keys, parent)
        if ref and "allOf" in target and "type" in target.get("properties", {}):
            return TaggedPart(ref, required, keys, parent, depth)
        if target.get("type") == "object" and "properties" in target:
            return ObjectPart(target, keys, parent, depth)
        if target.get("type") == "array" and isinstance(target.get("items"), dict):
            items: dict[str, Any] = target["items"]
            inner_ref = F.ref_name(items)
            if inner_ref == "action":
                return CompoundPart(ActionListEditor(None, keys), parent)
            if "enum" in items and target.get("uniqueItems"):
                return EnumSetPart(name, [str(v) for v in items["enum"]], parent)
            inner = F.definition(inner_ref) if inner_ref else None
            if inner is not None and (inner.get("type") == "object" or "anyOf" in inner):
                return ListPart(name, items, keys, parent, depth)
    return ScalarPart(F.Field((name,), "json", required), keys, parent)


def structured(name: str, rule: dict[str, Any], keys: list[str]) -> Part | None:
    """The structured part of a property the inspector would show as JSON, else None (the
    schema gives it no structure: it stays a JSON line)."""
    part = part_for(name, rule, False, keys)
    if isinstance(part, ScalarPart):
        part.deleteLater()
        return None
    return part


class SchemaEditor(CompoundEditor):
    """The inspector's editor of one structured property (a `Part`), read and written as JSON
    text as the other editors are; `text()` raises FieldError for a typed part not of its kind."""

    def __init__(self, part: Part, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.part = part
        _hold(self, part)

    def text(self) -> str:
        value = self.part.value()
        return "" if value is None else json.dumps(value, ensure_ascii=False)

    def set_text(self, text: str) -> None:
        value = _load(text)
        if _value_or_error(self.part) == value:
            return
        self.part.set_value(value)
