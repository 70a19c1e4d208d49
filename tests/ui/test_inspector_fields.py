"""The schema-generated inspector (issue 13): one editor per property of the node's type, each
kind applied on Enter, focus-out or a choice as one validated revision; the preview follows the
typing live; an invalid value shows its message at the field and changes nothing (issue 14's
slider with max below min, through the fields); a pending edit survives a selection change."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLineEdit

from studio.spec import fields as F
from studio.spec.validator import validate
from studio.ui.field_editors import ActionListEditor, ConditionEditor, PaddingEditor
from studio.ui.inspector import InspectorPanel
from studio.workspace import Workspace
from tests.helpers.inspector import node, open_workspace, revisions, shown_inspector

SPEC: dict[str, Any] = {
    "id": "fields",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"level": 2, "on": False, "name": "", "hour": 9, "minute": 0},
    "root": {
        "type": "column",
        "id": "page",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "slider", "id": "volume", "stateKey": "level", "min": 0, "max": 10},
            {"type": "button", "id": "go", "label": "Go"},
            {"type": "switch", "id": "sw", "stateKey": "on"},
            {"type": "icon", "id": "star", "name": "star"},
            {"type": "snackbar", "id": "toast", "text": "Hi", "openWhen": {"key": "on", "equals": True}},
            {"type": "timePicker", "id": "clock", "hourKey": "hour", "minuteKey": "minute"},
        ],
    },
}  # fmt: skip


@pytest.fixture
def ws() -> Workspace:
    return open_workspace(SPEC, "fields")


@pytest.fixture
def inspector(qtbot: Any, ws: Workspace) -> InspectorPanel:
    return shown_inspector(qtbot, ws)


def line(inspector: InspectorPanel, name: str) -> QLineEdit:
    from studio.ui.colour_editor import ColourEditor

    widget = inspector.editor(name)
    if isinstance(widget, ColourEditor):
        widget = widget.tokens["light"].combo
    if isinstance(widget, QComboBox):
        edit = widget.lineEdit()
        assert edit is not None
        return edit
    assert isinstance(widget, QLineEdit)
    return widget


def type_into(inspector: InspectorPanel, name: str, text: str, *, enter: bool = True) -> None:
    """Select the field's text and type over it as a user does (then Enter)."""
    edit = line(inspector, name)
    edit.setFocus()
    edit.selectAll()
    QTest.keyClicks(edit, text)
    if enter:
        QTest.keyClick(edit, Qt.Key.Key_Return)


def test_the_fields_are_the_types_properties_from_the_schema(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("volume")
    names = inspector.field_names()
    assert names[:3] == ["id", "testTag", "contentDescription"]
    for wanted in ("stateKey", "label", "min", "max", "step", "onTap", "visibleWhen"):
        assert wanted in names
    assert "style.padding" in names and "style.color" in names and "style.width" in names
    assert "children" not in names and "type" not in names
    assert inspector.title.text() == "slider · volume"
    assert inspector.breadcrumb.text() == "page › volume"
    ws.select("sw")
    assert "min" not in inspector.field_names() and "label" in inspector.field_names()


def test_a_text_field_applies_on_enter_and_names_the_node(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("go")
    type_into(inspector, "label", "Continue")
    assert node(ws, "go")["label"] == "Continue"
    assert revisions(ws) == ["Set label of button 'go'"]
    ws.undo()
    assert node(ws, "go")["label"] == "Go"
    assert line(inspector, "label").text() == "Go"  # the field follows the undo


def test_a_bounded_number_refuses_out_of_range_at_the_field(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    assert line(inspector, "style.alpha").placeholderText() == "at least 0, at most 1"
    type_into(inspector, "style.alpha", "1.5")
    assert inspector.field_error("style.alpha") == "Alpha: at most 1"
    assert "style" not in node(ws, "title") and revisions(ws) == []
    type_into(inspector, "style.alpha", "0.5")
    assert node(ws, "title")["style"] == {"alpha": 0.5}
    assert inspector.field_error("style.alpha") == ""
    type_into(inspector, "style.maxLines", "2.5")
    assert inspector.field_error("style.maxLines") == "Max lines: a whole number, not 2.5"


def test_slider_max_below_min_is_refused_at_the_field_and_stays_visible(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    """Issue 14's walkthrough, through the fields: the gate refuses it, with the message at
    the field, and the document never holds the invalid revision."""
    ws.select("volume")
    type_into(inspector, "max", "-5")
    error = inspector.field_error("max")
    assert error.startswith("root.children[1].max: ") and "min" in error
    assert node(ws, "volume")["max"] == 10 and revisions(ws) == []
    assert line(inspector, "max").text() == "-5"  # what the user typed stays, to fix
    assert ws.document is not None and validate(ws.document.spec).ok
    type_into(inspector, "max", "20")
    assert node(ws, "volume")["max"] == 20 and inspector.field_error("max") == ""


def test_enum_and_boolean_choices_apply_at_once_and_default_removes(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("go")
    variant = inspector.editor("variant")
    assert isinstance(variant, QComboBox)
    variant.setCurrentIndex(variant.findData("outlined"))
    variant.activated.emit(variant.currentIndex())  # as a user's pick emits it
    assert node(ws, "go")["variant"] == "outlined"
    variant.setCurrentIndex(variant.findData(""))
    variant.activated.emit(variant.currentIndex())
    assert "variant" not in node(ws, "go")
    assert revisions(ws) == ["Set variant of button 'go'"] * 2


def test_a_boolean_field_is_true_false_or_the_default(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("clock")
    flag = inspector.editor("is24Hour")
    assert isinstance(flag, QComboBox)
    assert [flag.itemData(i) for i in range(flag.count())] == ["", "true", "false"]
    flag.setCurrentIndex(flag.findData("true"))
    flag.activated.emit(flag.currentIndex())
    assert node(ws, "clock")["is24Hour"] is True
    flag.setCurrentIndex(flag.findData(""))
    flag.activated.emit(flag.currentIndex())
    assert "is24Hour" not in node(ws, "clock")


# The icon picker's completion popup: the offscreen platform cannot raise it or grab keys.
@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
def test_icon_state_key_colour_and_dimension_editors(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("star")
    icon = inspector.editor("name")
    assert isinstance(icon, QComboBox) and icon.isEditable()
    completer = icon.completer()
    assert completer is not None
    completer.setCompletionPrefix("favor")
    assert completer.currentCompletion() == "favorite"  # searchable by any part of the name
    type_into(inspector, "name", "favorite")
    assert node(ws, "star")["name"] == "favorite"
    type_into(inspector, "name", "no_such_icon")
    assert inspector.field_error("name").startswith("root.children[4].name: ")
    assert node(ws, "star")["name"] == "favorite"
    # A colour: a theme role or a hex value.
    type_into(inspector, "style.color", "primary")
    assert node(ws, "star")["style"] == {"color": "primary"}
    type_into(inspector, "style.color", "#00639B")
    assert node(ws, "star")["style"] == {"color": "#00639B"}
    # A size: fill, wrap or a number of dp.
    type_into(inspector, "style.width", "48")
    assert node(ws, "star")["style"]["width"] == {"dp": 48}
    type_into(inspector, "style.width", "fill")
    assert node(ws, "star")["style"]["width"] == "fill"
    # A state key picker lists the declared keys.
    ws.select("volume")
    keys = inspector.editor("stateKey")
    assert isinstance(keys, QComboBox)
    assert [keys.itemText(i) for i in range(keys.count())] == [
        "hour",
        "level",
        "minute",
        "name",
        "on",
    ]


def drawn(icon: QIcon) -> bool:
    """Whether an icon has any ink (a glyph drawn), not just an empty square."""
    image = icon.pixmap(24, 24).toImage()
    return any(
        image.pixelColor(x, y).alpha() > 0
        for x in range(image.width())
        for y in range(image.height())
    )


# The completion popup: the offscreen platform cannot raise it or grab keys.
@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
def test_the_icon_picker_shows_each_icon_beside_its_name(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    """Issue 13: "a searchable icon picker with previews"."""
    ws.select("star")
    icon = inspector.editor("name")
    assert isinstance(icon, QComboBox)
    completer = icon.completer()
    assert completer is not None
    completer.setCompletionPrefix("FAVOR")  # any case, any part of the name
    model = completer.completionModel()
    names = [model.index(row, 0).data() for row in range(model.rowCount())]
    assert names == ["favorite", "favorite_border"]
    decorations = [model.index(row, 0).data(Qt.ItemDataRole.DecorationRole) for row in (0, 1)]
    assert all(drawn(icon) for icon in decorations)
    # The field shows the icon its name draws, and nothing for a name that draws none.
    line_edit = icon.lineEdit()
    assert line_edit is not None
    preview = line_edit.findChild(QAction, "iconPreview")
    assert isinstance(preview, QAction) and drawn(preview.icon())  # "star"
    type_into(inspector, "name", "no_such_icon", enter=False)
    assert not drawn(preview.icon())
    type_into(inspector, "name", "home")
    assert drawn(preview.icon()) and node(ws, "star")["name"] == "home"


def test_no_property_of_any_node_type_is_a_line_of_json(qtbot: Any) -> None:
    """Issue 13: every property is edited without writing JSON (objects and lists through the
    structured editors of `studio.ui.schema_editors`; the JSON tab stays for whole nodes)."""
    from PySide6.QtWidgets import QWidget

    from studio.spec.rules import NODE_TYPES
    from studio.ui.inspector import FieldEditor

    host = QWidget()
    qtbot.addWidget(host)
    lines = [
        f"{type_}.{field.name}"
        for type_ in NODE_TYPES
        for field in F.fields_for(type_)
        if field.kind == "json" and FieldEditor(field, host, [], type_).compound is None
    ]
    assert lines == []
    placement = F.document_fields()[5]
    assert placement.name == "window.placement"
    assert FieldEditor(placement, host, []).compound is not None


def finish(edit: QLineEdit, text: str) -> None:
    """Type into a part of a compound editor, then Enter (which finishes the edit)."""
    edit.setFocus()
    edit.selectAll()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def test_the_action_list_editor_builds_actions_from_the_schemas_fields(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("go")
    actions = inspector.editor("onTap")
    assert isinstance(actions, ActionListEditor)
    actions.add_button.click()
    [row] = actions.rows
    kind = row["type"]
    assert isinstance(kind, QComboBox) and kind.currentData() == "setState"
    key = row["fields"].findChild(QComboBox, "action_key")
    assert key is not None and [key.itemText(i) for i in range(key.count())][1:] == [
        "hour", "level", "minute", "name", "on",
    ]  # fmt: skip
    key.setEditText("on")
    value = row["fields"].findChild(QLineEdit, "action_value")
    assert value is not None
    finish(value, "true")
    assert node(ws, "go")["onTap"] == [{"type": "setState", "key": "on", "value": True}]
    # A second action of another type: its own fields.
    actions = inspector.editor("onTap")
    assert isinstance(actions, ActionListEditor)
    actions.add_button.click()
    second = actions.rows[1]
    kind = second["type"]
    assert isinstance(kind, QComboBox)
    kind.setCurrentIndex(kind.findData("emit"))
    kind.activated.emit(kind.currentIndex())
    name = second["fields"].findChild(QLineEdit, "action_name")
    assert name is not None
    finish(name, "signIn")
    assert node(ws, "go")["onTap"][1] == {"type": "emit", "name": "signIn"}
    assert revisions(ws)[-1] == "Set on tap of button 'go'"


def test_the_condition_editor_combines_rows_and_refuses_an_invalid_comparison(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    condition = inspector.editor("visibleWhen")
    assert isinstance(condition, ConditionEditor)
    condition.add_button.click()
    condition.add_button.click()
    first, second = condition.rows
    for row, key, text in ((first, "on", "true"), (second, "name", '""')):
        picker, value = row["key"], row["value"]
        assert isinstance(picker, QComboBox) and isinstance(value, QLineEdit)
        picker.setEditText(key)
        finish(value, text)
    assert node(ws, "title")["visibleWhen"] == {
        "all": [{"key": "on", "equals": True}, {"key": "name", "equals": ""}]
    }
    condition = inspector.editor("visibleWhen")
    assert isinstance(condition, ConditionEditor)
    operator = condition.rows[0]["operator"]
    assert isinstance(operator, QComboBox)
    operator.setCurrentIndex(operator.findData("gt"))
    operator.activated.emit(operator.currentIndex())  # "greater than true": not a number
    assert inspector.field_error("visibleWhen").startswith("root.children[0].visibleWhen")
    assert node(ws, "title")["visibleWhen"]["all"][0] == {"key": "on", "equals": True}


def test_the_padding_editor_sets_the_sides_typed(ws: Workspace, inspector: InspectorPanel) -> None:
    ws.select("title")
    padding = inspector.editor("style.padding")
    assert isinstance(padding, PaddingEditor)
    finish(padding.sides["top"], "24")
    finish(padding.sides["start"], "16")
    assert node(ws, "title")["style"] == {"padding": {"top": 24, "start": 16}}
    finish(padding.sides["top"], "-1")
    assert inspector.field_error("style.padding").startswith("root.children[0].style.padding.top")
    assert node(ws, "title")["style"]["padding"]["top"] == 24


def test_the_preview_follows_typing_live_before_the_edit_is_applied(
    ws: Workspace, inspector: InspectorPanel, qtbot: Any
) -> None:
    ws.select("title")
    type_into(inspector, "text", "Welcome", enter=False)
    qtbot.waitUntil(lambda: ws.shown.pending)
    assert ws.shown.spec["root"]["children"][0]["text"] == "Welcome"
    assert revisions(ws) == []  # shown, not a revision yet
    assert line(inspector, "text").text() == "Welcome"  # the field was left alone
    QTest.keyClick(line(inspector, "text"), Qt.Key.Key_Return)
    assert not ws.shown.pending and revisions(ws) == ["Set text of text 'title'"]


def test_a_pending_edit_is_applied_when_the_selection_moves(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    type_into(inspector, "text", "Kept", enter=False)
    ws.select("go")  # e.g. a click in the preview, which does not take the focus
    assert node(ws, "title")["text"] == "Kept"
    assert revisions(ws) == ["Set text of text 'title'"]
    assert inspector.title.text() == "button · go"
