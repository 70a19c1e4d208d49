"""The inspector's compound editors, for properties that are objects or lists: padding (four
sides), a condition (`visibleWhen`, `openWhen`: rows of key, operator and value, all or any of
them) and an action list (`onTap`: one row per action, its fields from the schema's action
type). Each reads and writes its value as JSON text (`text`/`set_text`, as the line editors do)
and emits `changed` when the user finishes an edit in it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.spec import fields as F
from studio.ui.fit import compact

SIDES = ("top", "bottom", "start", "end")


def _key_picker(parent: QWidget, keys: list[str]) -> QComboBox:
    combo = compact(QComboBox(parent))
    combo.setEditable(True)
    combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    combo.addItems(["", *keys])
    return combo


def _load(text: str) -> Any:
    try:
        return json.loads(text) if text.strip() else None
    except json.JSONDecodeError:
        return None


class CompoundEditor(QWidget):
    changed = Signal()

    def text(self) -> str:
        raise NotImplementedError

    def set_text(self, text: str) -> None:
        raise NotImplementedError

    def _line(self, parent: QWidget, placeholder: str) -> QLineEdit:
        line = QLineEdit(parent)
        line.setPlaceholderText(placeholder)
        line.editingFinished.connect(self._finished)
        return line

    def _finished(self) -> None:
        self.changed.emit()


class PaddingEditor(CompoundEditor):
    """Top, bottom, start and end in dp (an empty side is not set)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.sides = {side: self._line(self, side) for side in SIDES}
        for line in self.sides.values():
            row.addWidget(line)

    def text(self) -> str:
        out: dict[str, Any] = {}
        for side, line in self.sides.items():
            if line.text().strip():
                out[side] = F.parse_scalar(line.text())
        return json.dumps(out, ensure_ascii=False) if out else ""

    def set_text(self, text: str) -> None:
        value = _load(text)
        value = value if isinstance(value, dict) else {}
        for side, line in self.sides.items():
            shown = F.show_scalar(value[side]) if side in value else ""
            if line.text() != shown:
                line.setText(shown)


class _Rows(CompoundEditor):
    """Rows of small editors with an add and a remove button each."""

    def __init__(self, parent: QWidget | None, keys: list[str], add_text: str) -> None:
        super().__init__(parent)
        self.keys = keys
        self.rows: list[dict[str, QWidget]] = []
        self._box = QVBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self._grid_host = QWidget(self)
        self.grid = QGridLayout(self._grid_host)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self._box.addWidget(self._grid_host)
        self.add_button = QPushButton(add_text, self)
        self.add_button.clicked.connect(self.add_row)
        self._box.addWidget(self.add_button)

    def add_row(self) -> dict[str, QWidget]:
        row = self._make_row()
        self.rows.append(row)
        self._place()
        return row

    def remove_row(self, row: dict[str, QWidget]) -> None:
        self.rows.remove(row)
        for widget in row.values():
            widget.deleteLater()
        self._place()
        self.changed.emit()

    def _clear(self) -> None:
        for row in self.rows:
            for widget in row.values():
                widget.deleteLater()
        self.rows = []

    def _place(self) -> None:
        for number, row in enumerate(self.rows):
            for column, widget in enumerate(row.values()):
                self.grid.addWidget(widget, number, column)

    def _remove_button(self, row: dict[str, QWidget]) -> QPushButton:
        button = QPushButton("−", self._grid_host)
        button.setToolTip("Remove this row")
        button.setFixedWidth(28)
        button.clicked.connect(lambda: self.remove_row(row))
        return button

    def _make_row(self) -> dict[str, QWidget]:
        raise NotImplementedError


class ConditionEditor(_Rows):
    """A condition as rows of (state key, operator, value), combined with all or any; a single
    row is the condition itself. `operators` limits the choice (a modal's `openWhen`: equals)."""

    def __init__(
        self, parent: QWidget | None, keys: list[str], operators: tuple[str, ...] = F.OPERATORS
    ) -> None:
        self.operators = operators
        super().__init__(parent, keys, "+ Condition")
        self.combine = compact(QComboBox(self))
        self.combine.addItem("all of", "all")
        self.combine.addItem("any of", "any")
        self.combine.addItem("not all of", "notAll")
        self.combine.addItem("none of", "notAny")
        self.combine.activated.connect(lambda _i: self.changed.emit())
        self._box.insertWidget(0, self.combine)
        self.combine.setVisible(len(operators) > 1)

    def _make_row(self) -> dict[str, QWidget]:
        row: dict[str, QWidget] = {}
        key = _key_picker(self._grid_host, self.keys)
        key.lineEdit().editingFinished.connect(self._finished)  # type: ignore[union-attr]  # editable
        operator = compact(QComboBox(self._grid_host))
        for name in self.operators:
            operator.addItem(name, name)
        operator.activated.connect(lambda _i: self.changed.emit())
        value = self._line(self._grid_host, "value")
        row.update(key=key, operator=operator, value=value)
        row["remove"] = self._remove_button(row)
        return row

    def _row_value(self, row: dict[str, QWidget]) -> dict[str, Any] | None:
        key, operator, value = row["key"], row["operator"], row["value"]
        assert isinstance(key, QComboBox) and isinstance(operator, QComboBox)
        assert isinstance(value, QLineEdit)
        name = key.currentText().strip()
        if not name:
            return None
        return {"key": name, str(operator.currentData()): F.parse_scalar(value.text())}

    def text(self) -> str:
        parts = [p for p in (self._row_value(r) for r in self.rows) if p is not None]
        if not parts:
            return ""
        combine = str(self.combine.currentData())
        inner = combine.removeprefix("not").lower()
        value: dict[str, Any] = parts[0] if len(parts) == 1 else {inner: parts}
        if combine.startswith("not"):
            value = {"not": value}
        return json.dumps(value, ensure_ascii=False)

    def set_text(self, text: str) -> None:
        value = _load(text)
        parts: list[dict[str, Any]] = []
        combine = "all"
        negated = isinstance(value, dict) and set(value) == {"not"}
        if negated:
            value = value["not"]
        if isinstance(value, dict) and ("all" in value or "any" in value):
            combine = "all" if "all" in value else "any"
            raw = value[combine]
            parts = [p for p in raw if isinstance(p, dict)] if isinstance(raw, list) else []
        elif isinstance(value, dict):
            parts = [value]
        if text == self.text():
            return
        self._clear()
        if negated:
            combine = "notAll" if combine == "all" else "notAny"
        self.combine.setCurrentIndex(self.combine.findData(combine))
        for part in parts:
            row = self.add_row()
            key, operator, line = row["key"], row["operator"], row["value"]
            assert isinstance(key, QComboBox) and isinstance(operator, QComboBox)
            assert isinstance(line, QLineEdit)
            key.setEditText(str(part.get("key", "")))
            name = next((o for o in self.operators if o in part), self.operators[0])
            operator.setCurrentIndex(operator.findData(name))
            line.setText(F.show_scalar(part.get(name, "")))


class ActionListEditor(_Rows):
    """An action list: one row per action, its type and the fields the schema gives that type
    (a state-key picker for keys)."""

    def __init__(self, parent: QWidget | None, keys: list[str]) -> None:
        super().__init__(parent, keys, "+ Action")
        #: Per row: its fields' readers and kinds.
        self._readers: dict[int, tuple[dict[str, Callable[[], str]], dict[str, str]]] = {}

    def _make_row(self) -> dict[str, QWidget]:
        row: dict[str, QWidget] = {}
        kind = compact(QComboBox(self._grid_host))
        for name in F.action_types():
            kind.addItem(name, name)
        kind.setCurrentIndex(kind.findData("setState"))
        row["type"] = kind
        host = QWidget(self._grid_host)
        QHBoxLayout(host).setContentsMargins(0, 0, 0, 0)
        row["fields"] = host
        row["remove"] = self._remove_button(row)
        kind.activated.connect(lambda _i: self._retype(row))
        self._fill_fields(row, {})
        return row

    def _retype(self, row: dict[str, QWidget]) -> None:
        self._fill_fields(row, {})
        self.changed.emit()

    def set_type(self, row: dict[str, QWidget], type_: str) -> None:
        """Show the fields of another action type in `row` (as picking it does, without
        applying yet: the user fills the fields, then Enter)."""
        kind = row["type"]
        assert isinstance(kind, QComboBox)
        if kind.currentData() != type_:
            kind.setCurrentIndex(kind.findData(type_))
            self._fill_fields(row, {})

    def _fill_fields(self, row: dict[str, QWidget], value: dict[str, Any]) -> None:
        host, kind = row["fields"], row["type"]
        assert isinstance(kind, QComboBox)
        layout = host.layout()
        assert layout is not None
        while layout.count():
            item = layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        editors: dict[str, Callable[[], str]] = {}
        for name, required, field_kind in F.action_fields(str(kind.currentData())):
            shown = value.get(name)
            placeholder = name + ("" if required else " (optional)")
            if field_kind == "stateKey":
                picker = _key_picker(host, self.keys)
                picker.setToolTip(placeholder)
                picker.setEditText("" if shown is None else str(shown))
                picker.lineEdit().editingFinished.connect(self._finished)  # type: ignore[union-attr]  # editable
                picker.setObjectName(f"action_{name}")
                layout.addWidget(picker)
                editors[name] = picker.currentText
            else:
                line = self._line(host, placeholder)
                line.setObjectName(f"action_{name}")
                if shown is not None:
                    line.setText(
                        json.dumps(shown) if field_kind == "json" else F.show_scalar(shown)
                    )
                layout.addWidget(line)
                editors[name] = line.text
        kinds: dict[str, str] = {n: k for n, _r, k in F.action_fields(str(kind.currentData()))}
        self._readers[id(row)] = (editors, kinds)

    def text(self) -> str:
        actions: list[dict[str, Any]] = []
        for row in self.rows:
            kind = row["type"]
            assert isinstance(kind, QComboBox)
            editors, kinds = self._readers[id(row)]
            action: dict[str, Any] = {"type": str(kind.currentData())}
            for name, read in editors.items():
                raw = read()
                if not raw.strip():
                    if kinds[name] == "text" and name == "value":
                        action[name] = ""  # setState's value may be an empty text
                    continue
                if kinds[name] == "json":
                    action[name] = _load(raw)
                elif kinds[name] == "stateKey":
                    action[name] = raw.strip()
                else:
                    action[name] = F.parse_scalar(raw)
            actions.append(action)
        return json.dumps(actions, ensure_ascii=False) if actions else ""

    def set_text(self, text: str) -> None:
        if text == self.text():
            return
        value = _load(text)
        self._clear()
        for action in value if isinstance(value, list) else []:
            if not isinstance(action, dict):
                continue
            row = self.add_row()
            kind = row["type"]
            assert isinstance(kind, QComboBox)
            kind.setCurrentIndex(max(0, kind.findData(action.get("type"))))
            self._fill_fields(row, action)


class ButtonEditor(CompoundEditor):
    """A dialog's or snackbar's button (`confirm`, `dismiss`, `action`: a label and its
    actions) or an app bar's action (`navigationIcon`: an icon too)."""

    def __init__(self, parent: QWidget | None, keys: list[str], *, icon: bool = False) -> None:
        super().__init__(parent)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.icon = self._line(self, "icon") if icon else None
        if self.icon is not None:
            top.addWidget(self.icon)
        self.label = self._line(self, "label")
        top.addWidget(self.label)
        box.addLayout(top)
        self.taps = ActionListEditor(self, keys)
        self.taps.changed.connect(self.changed)
        box.addWidget(self.taps)

    def text(self) -> str:
        out: dict[str, Any] = {}
        if self.icon is not None and self.icon.text().strip():
            out["icon"] = self.icon.text().strip()
        if self.label.text():
            out["label"] = self.label.text()
        actions = _load(self.taps.text())
        if actions:
            out["onTap"] = actions
        return json.dumps(out, ensure_ascii=False) if out else ""

    def set_text(self, text: str) -> None:
        if text == self.text():
            return
        value = _load(text)
        value = value if isinstance(value, dict) else {}
        if self.icon is not None:
            self.icon.setText(str(value.get("icon", "")))
        self.label.setText(str(value.get("label", "")))
        actions = value.get("onTap")
        self.taps.set_text(json.dumps(actions, ensure_ascii=False) if actions else "")
