"""The structured editors generated from our JSON Schema (issue 13): the properties that were a
line of raw JSON (a selection control's options, a tab bar's items, an app bar's actions,
styleWhen, repeat, anchor, safeAreaPadding, window.placement) each edited through its widgets.
Each edit is one validated revision that undo takes back; a part typed out of its kind, or a
value the validator refuses, shows its message at the field and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLineEdit, QTableWidgetItem

from studio.spec import fields as F
from studio.spec.validator import validate
from studio.ui.document_panel import DocumentPanel
from studio.ui.field_editors import ActionListEditor, ConditionEditor
from studio.ui.inspector import InspectorPanel
from studio.ui.schema_editors import (
    ChoicePart,
    CompoundPart,
    EnumSetPart,
    ListPart,
    ObjectPart,
    RepeatPart,
    ScalarPart,
    SchemaEditor,
    StylePart,
    TaggedPart,
)
from studio.workspace import Workspace
from studio.workspace import editing as E
from tests.helpers.inspector import node, open_workspace, revisions, shown_inspector

SPEC: dict[str, Any] = {
    "id": "structured",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"size": "s", "tab": 0, "on": False},
    "root": {
        "type": "column",
        "id": "page",
        "children": [
            {"type": "topAppBar", "id": "bar", "title": "Shop"},
            {"type": "radioGroup", "id": "sizes", "stateKey": "size", "options": [
                {"value": "s", "label": "Small"}, {"value": "m", "label": "Medium"}]},
            {"type": "bottomNav", "id": "nav", "stateKey": "tab", "items": [
                {"label": "Home", "icon": "home"}, {"label": "Cart"}]},
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "column", "id": "list", "children": [{"type": "text", "text": "{item.name}"}]},
            {"type": "image", "id": "logo", "asset": "logo.png"},
        ],
    },
}  # fmt: skip


@pytest.fixture
def ws() -> Workspace:
    return open_workspace(SPEC, "structured")


@pytest.fixture
def inspector(qtbot: Any, ws: Workspace) -> InspectorPanel:
    return shown_inspector(qtbot, ws)


def part(inspector: InspectorPanel, name: str) -> Any:
    editor = inspector.editor(name)
    assert isinstance(editor, SchemaEditor), (name, editor)
    return editor.part


def enter(edit: QLineEdit | None, text: str) -> None:
    """Put a choice's text in an editable combo's line (as picking from its completer does),
    then Enter."""
    assert edit is not None
    edit.setFocus()
    edit.setText(text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def finish(edit: QLineEdit | None, text: str) -> None:
    """Type over a line as a user does, then Enter (which finishes the edit)."""
    assert edit is not None
    edit.setFocus()
    edit.selectAll()
    if text:
        QTest.keyClicks(edit, text)
    else:
        QTest.keyClick(edit, Qt.Key.Key_Delete)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def choose(combo: QComboBox, data: str) -> None:
    """Pick an entry as a click in the open list does."""
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def scalar(parent: ObjectPart, name: str) -> ScalarPart:
    found = parent.parts[name]
    assert isinstance(found, ScalarPart)
    return found


def test_options_are_rows_of_value_and_label(ws: Workspace, inspector: InspectorPanel) -> None:
    ws.select("sizes")
    options = part(inspector, "options")
    assert isinstance(options, ListPart) and len(options.rows) == 2
    options.add_button.click()
    third = options.rows[2]
    assert isinstance(third, ObjectPart) and list(third.parts) == ["value", "label"]
    assert third.parts["value"].value() is None  # an untouched new row is no value yet
    scalar(third, "value").line.setText("l")  # type: ignore[union-attr]
    finish(scalar(third, "label").line, "Large")
    assert node(ws, "sizes")["options"][2] == {"value": "l", "label": "Large"}
    assert revisions(ws) == ["Set options of radioGroup 'sizes'"]
    # Two options at least (the schema's minItems): removing two of three is refused.
    options = part(inspector, "options")
    options.remove_row(options.rows[0])
    assert [o["value"] for o in node(ws, "sizes")["options"]] == ["m", "l"]
    options = part(inspector, "options")
    options.remove_row(options.rows[0])
    assert inspector.field_error("options").startswith("root.children[1].options")
    assert [o["value"] for o in node(ws, "sizes")["options"]] == ["m", "l"]
    assert len(revisions(ws)) == 2
    assert len(part(inspector, "options").rows) == 1  # the refused value stays, to be fixed
    ws.undo()
    ws.undo()
    assert node(ws, "sizes")["options"] == SPEC["root"]["children"][1]["options"]


def test_items_take_a_label_and_an_icon_from_the_icon_list(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("nav")
    items = part(inspector, "items")
    assert isinstance(items, ListPart)
    second = items.rows[1]
    assert isinstance(second, ObjectPart)
    icon = scalar(second, "icon")
    assert icon.field.kind == "icon" and icon.combo is not None
    enter(icon.line, "shopping_cart")
    assert node(ws, "nav")["items"][1] == {"label": "Cart", "icon": "shopping_cart"}
    second = part(inspector, "items").rows[1]
    enter(scalar(second, "icon").line, "no_such_icon")
    assert inspector.field_error("items").startswith("root.children[2].items[1].icon")
    assert node(ws, "nav")["items"][1]["icon"] == "shopping_cart"
    ws.undo()
    assert node(ws, "nav")["items"] == SPEC["root"]["children"][2]["items"]


def test_app_bar_actions_take_an_icon_a_label_and_their_actions(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("bar")
    actions = part(inspector, "actions")
    assert isinstance(actions, ListPart) and actions.rows == []
    actions.add_button.click()
    [row] = actions.rows
    assert isinstance(row, ObjectPart) and list(row.parts) == ["icon", "label", "onTap"]
    taps = row.parts["onTap"]
    assert isinstance(taps, CompoundPart) and isinstance(taps.editor, ActionListEditor)
    taps.editor.add_button.click()
    taps.editor.set_type(taps.editor.rows[0], "emit")
    name = taps.editor.rows[0]["fields"].findChild(QLineEdit, "action_name")
    assert isinstance(name, QLineEdit)
    name.setText("help")
    scalar(row, "icon").line.setText("help")  # type: ignore[union-attr]
    finish(scalar(row, "label").line, "Help")
    assert node(ws, "bar")["actions"] == [
        {"icon": "help", "label": "Help", "onTap": [{"type": "emit", "name": "help"}]}
    ]
    assert revisions(ws) == ["Set actions of topAppBar 'bar'"]
    ws.undo()
    assert "actions" not in node(ws, "bar")


def test_style_when_pairs_a_condition_with_style_overrides(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    entries = part(inspector, "styleWhen")
    assert isinstance(entries, ListPart)
    entries.add_button.click()
    [entry] = entries.rows
    assert isinstance(entry, ObjectPart) and list(entry.parts) == ["when", "style"]
    when, style = entry.parts["when"], entry.parts["style"]
    assert isinstance(when, CompoundPart) and isinstance(when.editor, ConditionEditor)
    assert isinstance(style, StylePart)
    when.editor.add_button.click()
    key, value = when.editor.rows[0]["key"], when.editor.rows[0]["value"]
    assert isinstance(key, QComboBox) and isinstance(value, QLineEdit)
    key.setEditText("on")
    value.setText("true")
    pick = style.add_row()
    choose(pick, "alpha")
    alpha = style.value_part(0)
    assert isinstance(alpha, ScalarPart) and alpha.field.maximum == 1
    finish(alpha.line, "2")  # the bounds of the style property: at the field, nothing applied
    assert inspector.field_error("styleWhen") == "Alpha: at most 1"
    assert "styleWhen" not in node(ws, "title") and revisions(ws) == []
    finish(alpha.line, "0.5")
    assert node(ws, "title")["styleWhen"] == [
        {"when": {"key": "on", "equals": True}, "style": {"alpha": 0.5}}
    ]
    assert inspector.field_error("styleWhen") == ""
    # A second override with an enum value: a combo of the schema's choices.
    style = part(inspector, "styleWhen").rows[0].parts["style"]
    choose(style.add_row(), "textStyle")
    text_style = style.value_part(1)
    assert isinstance(text_style, ScalarPart) and text_style.combo is not None
    assert (
        text_style.field.choices
        == F.field_of(
            "textStyle",
            F.definition("style")["properties"]["textStyle"],  # type: ignore[index]
        ).choices
    )
    choose(text_style.combo, "titleLarge")
    assert node(ws, "title")["styleWhen"][0]["style"] == {"alpha": 0.5, "textStyle": "titleLarge"}
    ws.undo()
    ws.undo()
    assert "styleWhen" not in node(ws, "title")
    assert part(inspector, "styleWhen").rows == []


def test_repeat_is_an_alias_its_fields_and_a_row_per_item(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("list")
    repeat = part(inspector, "repeat")
    assert isinstance(repeat, RepeatPart)
    repeat.alias.setText("item")
    finish(repeat.columns, "name, price")
    assert "repeat" not in node(ws, "list")  # no item yet: refused at the field
    assert inspector.field_error("repeat").startswith("root.children[4].repeat.items")
    repeat.add_item()
    repeat.add_item()
    for row, (name, price) in enumerate((("Tea", "3"), ("Cake", "4.5"))):
        # As the cells' editors commit what is typed: each cell is an edit of its own.
        repeat = part(inspector, "repeat")
        repeat.table.setItem(row, 0, QTableWidgetItem(name))
        repeat.table.setItem(row, 1, QTableWidgetItem(price))
    assert node(ws, "list")["repeat"] == {
        "as": "item",
        "items": [{"name": "Tea", "price": 3}, {"name": "Cake", "price": 4.5}],
    }
    assert validate(ws.shown.spec).ok
    assert set(revisions(ws)) == {"Set repeat of column 'list'"}
    while revisions(ws):
        ws.undo()
    assert "repeat" not in node(ws, "list")
    repeat = part(inspector, "repeat")
    assert isinstance(repeat, RepeatPart) and repeat.table.rowCount() == 0


def test_safe_area_padding_is_two_sets_of_check_boxes(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("page")
    padding = part(inspector, "safeAreaPadding")
    assert isinstance(padding, ObjectPart)
    edges, types = padding.parts["edges"], padding.parts["types"]
    assert isinstance(edges, EnumSetPart) and isinstance(types, EnumSetPart)
    assert list(edges.boxes) == ["top", "bottom", "start", "end"]
    # The first tick makes a valid value: the other required list takes its first choice.
    edges.boxes["bottom"].click()
    assert inspector.field_error("safeAreaPadding") == ""
    assert node(ws, "page")["safeAreaPadding"] == {"edges": ["bottom"], "types": ["systemBars"]}
    padding = part(inspector, "safeAreaPadding")
    assert padding.parts["types"].boxes["systemBars"].isChecked()
    padding.parts["types"].boxes["cutout"].click()
    assert node(ws, "page")["safeAreaPadding"]["types"] == ["systemBars", "cutout"]
    # Later clicks stay as they are: emptying a required list is refused at the field.
    padding = part(inspector, "safeAreaPadding")
    padding.parts["edges"].boxes["bottom"].click()
    assert inspector.field_error("safeAreaPadding").startswith("root.safeAreaPadding")
    assert node(ws, "page")["safeAreaPadding"]["edges"] == ["bottom"]
    padding = part(inspector, "safeAreaPadding")
    padding.parts["edges"].boxes["top"].click()
    assert inspector.field_error("safeAreaPadding") == ""
    assert node(ws, "page")["safeAreaPadding"]["edges"] == ["top"]
    for _ in range(3):
        ws.undo()
    assert "safeAreaPadding" not in node(ws, "page")
    padding = part(inspector, "safeAreaPadding")
    assert not padding.parts["edges"].boxes["bottom"].isChecked()
    assert not padding.parts["types"].boxes["systemBars"].isChecked()


def test_anchor_picks_its_type_then_that_types_fields(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    anchor = part(inspector, "anchor")
    assert isinstance(anchor, TaggedPart)
    assert [anchor.kind.itemData(i) for i in range(anchor.kind.count())] == [
        "", "bounds", "element",
    ]  # fmt: skip
    anchor.choose("element")
    assert anchor.body is not None and list(anchor.body.parts) == [
        "selector", "alignment", "offset",
    ]  # fmt: skip
    selector = anchor.body.parts["selector"]
    assert isinstance(selector, ObjectPart)
    alignment = scalar(anchor.body, "alignment")
    assert alignment.combo is not None
    alignment.combo.setCurrentIndex(alignment.combo.findData("bottom"))
    finish(scalar(selector, "elementId").line, "bar")
    assert node(ws, "title")["anchor"] == {
        "type": "element",
        "selector": {"elementId": "bar"},
        "alignment": "bottom",
    }
    # An offset is two numbers: text that is not one is refused at the field.
    anchor = part(inspector, "anchor")
    offset = anchor.body.parts["offset"]
    assert isinstance(offset, ObjectPart)
    scalar(offset, "x").line.setText("4")  # type: ignore[union-attr]
    finish(scalar(offset, "y").line, "down")
    assert inspector.field_error("anchor") == "Y: 'down' is not a number"
    finish(scalar(offset, "y").line, "8")
    assert node(ws, "title")["anchor"]["offset"] == {"x": 4, "y": 8}
    ws.undo()
    ws.undo()
    assert "anchor" not in node(ws, "title")


def test_transition_is_a_choice_of_the_schemas_values(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    combo = inspector.editor("transition")
    assert isinstance(combo, QComboBox) and not combo.isEditable()
    assert [combo.itemData(i) for i in range(combo.count())] == [
        "", "none", "fade", "expand", "slide",
    ]  # fmt: skip
    choose(combo, "fade")
    assert node(ws, "title")["transition"] == "fade"
    ws.undo()
    assert "transition" not in node(ws, "title")


def test_window_placement_picks_its_type_and_that_types_options(qtbot: Any, ws: Workspace) -> None:
    panel = DocumentPanel()
    qtbot.addWidget(panel)
    panel.show()
    ws.subscribe(lambda _e: panel.present(ws.shown))
    panel.present(ws.shown)

    def apply(spec: dict[str, Any], summary: str, name: str) -> None:
        try:
            E.edit_document(ws, spec, summary)
        except E.EditRefused as exc:
            panel.show_error(name, str(exc))

    panel.changeRequested.connect(apply)
    editor = panel.editor("window.placement")
    assert isinstance(editor, SchemaEditor)
    placement = editor.part
    assert isinstance(placement, TaggedPart)
    assert placement.kind.currentData() == "fullscreen"
    choose(placement.kind, "sheet")  # edge and height are required: said at the field
    assert panel.field_error("window.placement").startswith("Set window placement refused")
    assert ws.shown.spec["window"]["placement"] == {"type": "fullscreen"}
    assert placement.body is not None
    edge = scalar(placement.body, "edge")
    assert edge.combo is not None
    assert [edge.combo.itemData(i) for i in range(edge.combo.count())] == ["top", "bottom"]
    edge.combo.setCurrentIndex(edge.combo.findData("bottom"))
    finish(scalar(placement.body, "height").line, "0")
    assert panel.field_error("window.placement") == "Height: more than 0"
    finish(scalar(placement.body, "height").line, "320")
    assert ws.shown.spec["window"]["placement"] == {
        "type": "sheet",
        "edge": "bottom",
        "height": 320,
    }
    assert panel.field_error("window.placement") == ""
    ws.undo()
    assert ws.shown.spec["window"]["placement"] == {"type": "fullscreen"}
    assert placement.kind.currentData() == "fullscreen"  # the panel follows the undo


def test_a_choice_of_shapes_picks_one_then_edits_it(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    """A corner radius is a number, a named size or four corners; an image one asset or a light
    and a dark one: the shape in a combo box, then that shape's editor."""
    ws.select("logo")
    radius = part(inspector, "style.cornerRadius")
    assert isinstance(radius, ChoicePart)
    assert [radius.shape.itemText(i) for i in range(radius.shape.count())] == [
        "(default)", "number", "named", "top start, top end, bottom end and bottom start",
    ]  # fmt: skip
    named = radius.choose("named")
    assert isinstance(named, ScalarPart) and named.combo is not None
    choose(named.combo, "medium")
    assert node(ws, "logo")["style"] == {"cornerRadius": "medium"}
    corners = part(inspector, "style.cornerRadius").choose(
        "top start, top end, bottom end and bottom start"
    )
    assert isinstance(corners, ObjectPart)
    finish(scalar(corners, "topStart").line, "-4")
    assert inspector.field_error("style.cornerRadius") == "Top start: at least 0"
    finish(scalar(corners, "topStart").line, "12")
    assert node(ws, "logo")["style"] == {"cornerRadius": {"topStart": 12}}
    # The image: its asset shown as the text it is; a light and a dark one instead.
    asset = part(inspector, "asset")
    assert isinstance(asset, ChoicePart) and asset.shape.currentText() == "text"
    pair = asset.choose("light and dark")
    assert isinstance(pair, ObjectPart)
    scalar(pair, "light").line.setText("logo.png")  # type: ignore[union-attr]
    finish(scalar(pair, "dark").line, "logo-dark.png")
    assert node(ws, "logo")["asset"] == {"light": "logo.png", "dark": "logo-dark.png"}
    ws.undo()
    ws.undo()
    ws.undo()
    assert node(ws, "logo") == SPEC["root"]["children"][5]
    assert part(inspector, "asset").shape.currentText() == "text"


TWO_GROUPS: dict[str, Any] = {
    "id": "two",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"size": "s", "tone": "a"},
    "root": {
        "type": "column",
        "id": "page",
        "children": [
            {"type": "radioGroup", "id": "sizes", "stateKey": "size", "options": [
                {"value": "s", "label": "Small"}, {"value": "m", "label": "Medium"}]},
            {"type": "radioGroup", "id": "tones", "stateKey": "tone", "options": [
                {"value": "a", "label": "Alto"}, {"value": "b", "label": "Bass"},
                {"value": "c", "label": "Contralto"}]},
            {"type": "radioGroup", "id": "again", "stateKey": "size", "options": [
                {"value": "s", "label": "Small"}, {"value": "m", "label": "Medium"}]},
        ],
    },
}  # fmt: skip


def test_the_next_node_of_a_type_shows_its_own_rows_and_the_keys_declared_since(
    qtbot: Any,
) -> None:
    """The inspector keeps one form per node type: the next node of that type shows its own
    values only (not a row added on the node before), and a key declared since is offered."""
    ws = open_workspace(TWO_GROUPS, "two")
    inspector = shown_inspector(qtbot, ws)
    ws.select("sizes")
    options = part(inspector, "options")
    assert isinstance(options, ListPart) and len(options.rows) == 2
    options.add_button.click()  # an empty row, not part of the value until typed into
    assert len(options.rows) == 3
    ws.select("again")  # the same options: its own two rows, not the row added above
    options = part(inspector, "options")
    assert [scalar(r, "label").text() for r in options.rows] == ["Small", "Medium"]
    ws.select("tones")
    options = part(inspector, "options")
    assert [scalar(r, "label").text() for r in options.rows] == ["Alto", "Bass", "Contralto"]
    ws.select("sizes")
    options = part(inspector, "options")
    assert [scalar(r, "label").text() for r in options.rows] == ["Small", "Medium"]
    E.add_state_key(ws, "volume", "s")
    ws.select("tones")
    picker = inspector.editor("stateKey")
    assert isinstance(picker, QComboBox)
    assert "volume" in [picker.itemText(i) for i in range(picker.count())]
    assert picker.currentText() == "tone"
