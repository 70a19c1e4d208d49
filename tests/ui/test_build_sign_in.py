"""Issue 13's done-criterion: the sign-in template built from an empty prototype through the
window's own commands (the palette, the tree, the inspector's fields, the state panel; never
the JSON tab), compared with the template. The spec is valid after every step, and undo and redo
go through every step.

What the fields cannot edit yet without JSON (action lists, conditions, padding, app-bar
actions: the editors of kind "json") is left out of the build and listed, so the gap is
explicit: the test asserts exactly which properties those are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLineEdit

from studio.resources import resource_path
from studio.spec import fields as F
from studio.spec import tree
from studio.spec.validator import validate
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio
from tests.ui.test_node_editing import gesture, open_spec

pytestmark = pytest.mark.qt_log_ignore(
    OFFSCREEN_SIZE_HINTS, "This plugin does not support (raise|grabbing the keyboard)"
)
TEMPLATE: dict[str, Any] = json.loads(
    resource_path("templates", "sign-in-form.json").read_text(encoding="utf-8")
)
#: The properties the fields edit only as JSON today (left out of the build, see above).
JSON_ONLY = {
    "safeAreaPadding", "navigationIcon", "actions", "style.padding", "visibleWhen", "onTap",
    "openWhen", "confirm", "dismiss", "action",
}  # fmt: skip


class Builder:
    """Drives the window as a designer does, recording the spec after every step."""

    def __init__(self, studio: Studio) -> None:
        self.studio = studio
        self.window = studio.window
        self.steps: list[dict[str, Any]] = [self.spec]
        self.skipped: set[str] = set()

    @property
    def spec(self) -> dict[str, Any]:
        document = self.studio.controller.document
        assert document is not None
        return document.spec

    def _step(self) -> None:
        """After a gesture that should make one revision: valid, and recorded."""
        spec = self.spec
        result = validate(spec)
        assert result.ok, f"{result.path}: {result.message}"
        document = self.studio.controller.document
        assert document is not None
        assert len(document.revisions.applied) == len(self.steps), self.studio.status
        self.steps.append(spec)

    def select(self, path: str) -> None:
        tree_panel = self.window.spec_tree
        item = tree_panel.item_at_path(path)
        assert item is not None, path
        view = tree_panel.view
        view.scrollTo(item.index())
        rect = view.visualRect(item.index())
        gesture(
            self.studio,
            lambda: QTest.mouseClick(
                view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                rect.center(),
            ),
        )  # fmt: skip
        assert self.studio.workspace.selection.primary is not None

    def insert(self, type_: str) -> None:
        """Double-click the type in the palette (it goes into the selected container)."""
        palette = self.window.node_palette
        palette.search.setText(type_)
        palette.list.scrollTo(palette.index_of(type_))
        at = palette.list.visualRect(palette.index_of(type_)).center()
        left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier

        def double_click() -> None:
            QTest.mouseClick(palette.list.viewport(), left, none, at)
            QTest.mouseDClick(palette.list.viewport(), left, none, at)

        gesture(self.studio, double_click)
        self._step()

    def set_field(self, field: F.Field, value: Any) -> None:
        inspector = self.window.inspector
        widget = inspector.editor(field.name)
        text = F.show(field, value)
        if isinstance(widget, QComboBox) and not widget.isEditable():
            index = widget.findData(text)
            assert index >= 0, (field.name, text)

            def choose() -> None:
                widget.setCurrentIndex(index)
                widget.activated.emit(index)

            gesture(self.studio, choose)
        else:
            edit = widget.lineEdit() if isinstance(widget, QComboBox) else widget
            assert isinstance(edit, QLineEdit)

            def type_text() -> None:
                edit.setFocus()
                edit.selectAll()
                if text:
                    QTest.keyClicks(edit, text)
                else:
                    QTest.keyClick(edit, Qt.Key.Key_Delete)
                QTest.keyClick(edit, Qt.Key.Key_Return)

            gesture(self.studio, type_text)
        assert inspector.field_error(field.name) == "", inspector.field_error(field.name)
        self._step()

    def state_panel_rename(self, old: str, new: str) -> None:
        panel = self.window.state_panel
        item = panel.table.item(panel.row_of(old), 0)
        assert item is not None
        gesture(self.studio, lambda: item.setText(new))  # as the cell's editor commits it
        assert panel.error.isHidden(), panel.error.text()
        self._step()

    def state_panel_value(self, key: str, value: Any) -> None:
        panel = self.window.state_panel
        item = panel.table.item(panel.row_of(key), 1)
        assert item is not None
        gesture(self.studio, lambda: item.setText(json.dumps(value)))
        self._step()

    def state_panel_remove(self, key: str) -> None:
        panel = self.window.state_panel
        panel.table.setCurrentCell(panel.row_of(key), 0)
        gesture(self.studio, panel.remove_button.click)
        self._step()

    def bind(self, key: str, current: str | None, field: F.Field) -> None:
        """Bind the node's field to `key`: rename the key the palette declared for it, or pick
        the key when it is declared already (and remove the unused one)."""
        declared = self.spec.get("state", {})
        if current == key:
            return
        if key not in declared and current is not None:
            self.state_panel_rename(current, key)
            return
        self.set_field(field, key)
        if current is not None:
            self.state_panel_remove(current)

    def fill(self, wanted: dict[str, Any], path: str) -> None:
        """Set every property the fields edit to the template's value."""
        self.select(path)
        for field in F.fields_for(str(wanted["type"])):
            target = F.get_value(wanted, field)
            current = F.get_value(tree.node_at(self.spec, path), field)
            if field.kind == "json":
                if target is not None:
                    self.skipped.add(field.name)
                continue
            if target == current or (target is None and field.required):
                continue
            if field.kind == "stateKey" and isinstance(target, str):
                self.bind(target, current, field)
                continue
            self.set_field(field, target)
        node = tree.node_at(self.spec, path)
        modal = wanted.get("openWhen")
        if isinstance(modal, dict) and isinstance(node.get("openWhen"), dict):
            self.bind(modal["key"], node["openWhen"]["key"], F.Field(("openWhen",), "json"))

    def build(self, wanted: dict[str, Any], path: str) -> None:
        self.fill(wanted, path)
        if tree.is_node(wanted.get("child")):
            child_path = f"{path}.child"
            existing = tree.node_at(self.spec, child_path)
            if existing is None or existing.get("type") != wanted["child"]["type"]:
                assert existing is None, "a slot holds what the palette made"
                self.select(path)
                self.insert(wanted["child"]["type"])
            self.build(wanted["child"], child_path)
        for index, child in enumerate(wanted.get("children", [])):
            self.select(path)
            self.insert(child["type"])
            self.build(child, f"{path}.children[{index}]")


def shape(node: Any) -> Any:
    """The node's type tree."""
    return [node["type"], [shape(c) for c, _ in tree.children(node)]]


def editable(node: Any) -> list[tuple[str, str, Any]]:
    """(path, property, value) of every property the fields edit, for every node."""
    out: list[tuple[str, str, Any]] = []
    for path, found, _, _ in tree.walk({"root": node}):
        for field in F.fields_for(str(found["type"])):
            if field.kind != "json":
                out.append((path, field.name, F.get_value(found, field)))
    return out


def test_the_sign_in_template_built_from_an_empty_prototype_through_the_ui(
    make_studio: Any, tmp_path: Path
) -> None:
    studio: Studio = make_studio()
    empty = {"id": "sign-in", "window": TEMPLATE["window"], "root": {"type": "column", "children": []}}  # fmt: skip
    open_spec(studio, tmp_path, empty)
    studio.window.palette_dock.raise_()
    builder = Builder(studio)
    builder.build(TEMPLATE["root"], "root")
    # The state the bound controls use, with the template's initial values.
    for key, value in builder.spec.get("state", {}).items():
        if TEMPLATE["state"].get(key) != value:
            builder.state_panel_value(key, TEMPLATE["state"][key])

    built = builder.spec
    assert shape(built["root"]) == shape(TEMPLATE["root"])
    assert editable(built["root"]) == editable(TEMPLATE["root"])
    assert built["state"] == {k: v for k, v in TEMPLATE["state"].items() if k in built["state"]}
    assert set(built["state"]) == {"email", "password", "remember", "forgotOpen", "resetEmail", "resetSent", "signedIn"}  # fmt: skip
    assert builder.skipped == JSON_ONLY
    steps = len(builder.steps) - 1
    assert steps > 60

    # Undo takes back every step, one at a time, to the empty prototype; redo replays them.
    document = studio.controller.document
    assert document is not None
    for expected in reversed(builder.steps[:-1]):
        gesture(studio, studio.controller.undo)
        assert document.spec == expected
    assert document.spec == builder.steps[0]
    for expected in builder.steps[1:]:
        gesture(studio, studio.controller.redo)
        assert document.spec == expected
    assert studio.workspace.shown.spec == built
