"""The document-level data and platform editors (issue 13): the prototype's `data` as a tree of
keys, kinds and values, and its `requires.platform` from this build's modules. Every change is
one validated revision that undo takes back; input that is not of its kind, or a removal that
would break a call, is one line in the panel and changes nothing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit

from studio.spec.validator import validate
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio
from tests.ui.test_node_editing import gesture, open_spec, shown, undo_count

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

SPEC: dict[str, Any] = {
    "id": "profile",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"status": ""},
    "data": {"profile": {"name": "Ada", "age": 36, "tags": ["math"]}, "count": 1, "result": {}},
    "requires": {"platform": ["units"]},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "hello", "text": "Hello {/data/profile/name}"},
            {
                "type": "button",
                "id": "convert",
                "label": "Convert",
                "onTap": [
                    {
                        "type": "platform",
                        "call": "units.convert",
                        "args": {"value": 1, "from": "km", "to": "mi"},
                        "into": "/data/result",
                        "statusKey": "status",
                    }
                ],
            },
        ],
    },
}


@pytest.fixture
def studio(make_studio: Any, tmp_path: Path) -> Studio:
    assert validate(SPEC).ok, validate(SPEC)
    made: Studio = make_studio()
    open_spec(made, tmp_path, copy.deepcopy(SPEC))
    made.show_tab(made.window.data_dock)  # behind the inspector, it draws once its tab is up
    return made


def data(studio: Studio) -> Any:
    return shown(studio).get("data")


def edit_cell(studio: Studio, path: tuple[str | int, ...], column: int, text: str) -> None:
    """Open the cell's editor as a double-click does, type over it and press Enter."""
    panel = studio.window.data_panel
    item = panel.item(*path)
    panel.tree.setCurrentItem(item)

    def type_in() -> None:
        panel.tree.editItem(item, column)
        editor = QApplication.focusWidget()
        assert isinstance(editor, QLineEdit), editor
        editor.selectAll()
        QTest.keyClicks(editor, text)
        QTest.keyClick(editor, Qt.Key.Key_Return)

    gesture(studio, type_in)
    studio.wait_for(lambda: panel.tree.state() != panel.tree.State.EditingState)
    studio.settle()


def choose_kind(studio: Studio, path: tuple[str | int, ...], kind: str) -> None:
    panel = studio.window.data_panel
    item = panel.item(*path)
    panel.tree.setCurrentItem(item)

    def pick() -> None:
        panel.tree.editItem(item, 1)
        editor = QApplication.focusWidget()
        assert isinstance(editor, QComboBox), editor
        editor.setCurrentText(kind)
        QTest.keyClick(editor, Qt.Key.Key_Return)

    gesture(studio, pick)
    studio.settle()


def test_the_data_panel_shows_keys_kinds_and_values_nested(studio: Studio) -> None:
    panel = studio.window.data_panel
    assert sorted(panel.paths(), key=str) == sorted([
        ("profile",), ("profile", "name"), ("profile", "age"), ("profile", "tags"),
        ("profile", "tags", 0), ("count",), ("result",),
    ], key=str)  # fmt: skip
    assert panel.item("result").text(3) == "1"
    assert panel.item("result").toolTip(3) == "root.children[1] (onTap[0].into, into)"
    row = panel.item("profile", "age")
    assert [row.text(c) for c in range(4)] == ["age", "number", "36", ""]
    # Who reads or writes each value: a text's placeholder, a call's result.
    assert panel.item("profile", "name").text(3) == "1"
    assert panel.item("profile", "name").toolTip(3) == "root.children[0] (text, text)"
    assert panel.item("profile").text(3) == "1"  # it holds the name
    assert [panel.item("profile", "tags").text(c) for c in range(3)] == ["tags", "list", "1 item"]
    assert panel.item("profile", "tags", 0).text(0) == "[0]"
    panel.select("profile", "name")
    assert panel.pointer.text() == "Shown in a text as {/data/profile/name}"
    gesture(studio, panel.copy_button.click)
    assert QApplication.clipboard().text() == "{/data/profile/name}"


def test_a_value_is_typed_as_its_kind_and_a_bad_one_changes_nothing(studio: Studio) -> None:
    panel = studio.window.data_panel
    edit_cell(studio, ("profile", "name"), 2, "Grace")
    assert data(studio)["profile"]["name"] == "Grace"
    assert studio.status == "Applied: Set data.profile.name"
    edit_cell(studio, ("profile", "age"), 2, "forty")
    assert panel.error_text() == "data.profile.age: 'forty' is not a number"
    assert data(studio)["profile"]["age"] == 36
    assert panel.item("profile", "age").text(2) == "36"  # the row shows the value it has
    edit_cell(studio, ("profile", "age"), 2, "41")
    assert data(studio)["profile"]["age"] == 41 and panel.error_text() == ""
    assert undo_count(studio) == 2
    gesture(studio, studio.controller.undo)
    gesture(studio, studio.controller.undo)
    assert data(studio) == SPEC["data"]
    assert panel.item("profile", "name").text(2) == "Ada"  # the panel follows the undo


def test_rename_add_remove_and_change_a_kind(studio: Studio) -> None:
    panel = studio.window.data_panel
    edit_cell(studio, ("count",), 0, "visits")
    assert sorted(data(studio)) == ["profile", "result", "visits"]
    assert studio.status == "Applied: Rename data.count to 'visits'"
    edit_cell(studio, ("visits",), 0, "profile")
    assert panel.error_text() == "data.profile: the key is already there"
    # Add inside the selected list, then inside an object, then beside a value.
    panel.select("profile", "tags")
    gesture(studio, panel.add_button.click)
    assert data(studio)["profile"]["tags"] == ["math", ""]
    assert panel.current_path() == ("profile", "tags", 1)
    edit_cell(studio, ("profile", "tags", 1), 2, "logic")
    panel.select("profile", "age")
    gesture(studio, panel.add_button.click)
    assert sorted(data(studio)["profile"]) == ["age", "key1", "name", "tags"]
    choose_kind(studio, ("profile", "key1"), "boolean")
    assert data(studio)["profile"]["key1"] is False
    assert studio.status == "Applied: Make data.profile.key1 a boolean"
    choose_kind(studio, ("profile", "key1"), "object")
    assert data(studio)["profile"]["key1"] == {}
    panel.select("profile", "key1")
    gesture(studio, panel.add_button.click)
    assert data(studio)["profile"]["key1"] == {"key1": ""}
    panel.select("profile", "tags", 0)
    gesture(studio, panel.remove_button.click)
    assert data(studio)["profile"]["tags"] == ["logic"]
    assert studio.status == "Applied: Remove data.profile.tags[0]"
    assert validate(shown(studio)).ok
    while undo_count(studio):
        gesture(studio, studio.controller.undo)
    assert data(studio) == SPEC["data"]


def test_removing_every_value_removes_data_and_undo_brings_it_back(studio: Studio) -> None:
    panel = studio.window.data_panel
    for path in (("profile",), ("count",), ("result",)):
        panel.select(*path)
        gesture(studio, panel.remove_button.click)
    assert "data" not in shown(studio)
    assert panel.paths() == []
    gesture(studio, panel.add_button.click)  # nothing selected: at the top level
    assert data(studio) == {"key1": ""}
    gesture(studio, studio.controller.undo)
    gesture(studio, studio.controller.undo)
    assert data(studio) == {"result": {}}


def test_the_platform_panel_adds_a_module_and_refuses_removing_a_called_one(
    studio: Studio,
) -> None:
    panel = studio.window.platform_panel
    studio.show_tab(studio.window.platform_dock)
    assert panel.declared() == ["units"]
    assert panel.list.item(0).text() == "units · 1 call · Unit conversion (pure, offline)."
    assert "units" not in panel.offered() and {"calc", "clipboard", "share"} <= set(panel.offered())
    panel.choose("calc")
    gesture(studio, panel.add_button.click)
    assert shown(studio)["requires"] == {"platform": ["units", "calc"]}
    assert studio.status == "Applied: Require platform module 'calc'"
    assert panel.declared() == ["units", "calc"] and "calc" not in panel.offered()
    panel.list.setCurrentRow(0)
    gesture(studio, panel.remove_button.click)
    assert panel.error.text() == (
        "platform module 'units' is still called by button 'convert' "
        "(onTap[0]: units.convert): change those first"
    )
    assert shown(studio)["requires"] == {"platform": ["units", "calc"]}
    panel.list.setCurrentRow(1)
    gesture(studio, panel.remove_button.click)
    assert shown(studio)["requires"] == {"platform": ["units"]} and panel.error.isHidden()
    gesture(studio, studio.controller.undo)
    assert shown(studio)["requires"] == {"platform": ["units", "calc"]}
    gesture(studio, studio.controller.undo)
    assert json.dumps(shown(studio)["requires"]) == json.dumps(SPEC["requires"])


def test_a_panel_behind_the_inspector_shows_what_changed_meanwhile_once_its_tab_is_up(
    studio: Studio,
) -> None:
    """The document-level panels draw only while their tab is up (studio.ui.on_screen); what
    changed while they were behind the inspector is there when the user comes back."""
    window, panel = studio.window, studio.window.data_panel
    panel.select("count")
    gesture(studio, panel.remove_button.click)
    assert ("count",) not in panel.paths()
    studio.show_tab(window.inspector_dock)
    gesture(studio, studio.controller.undo)  # while the Data tab is behind the inspector
    assert data(studio)["count"] == SPEC["data"]["count"]
    studio.show_tab(window.data_dock)
    assert ("count",) in panel.paths()
    # The platform modules panel, first raised now, shows this prototype's modules.
    studio.show_tab(window.platform_dock)
    assert window.platform_panel.declared() == ["units"]
    assert "calc" in window.platform_panel.offered()


def test_removing_a_value_a_text_reads_names_the_text_and_undo_brings_it_back(
    studio: Studio,
) -> None:
    """Not refused (a platform call's `into` may write it back at run time), but the places
    that still read it are named under the tree."""
    panel = studio.window.data_panel
    panel.select("profile")
    gesture(studio, panel.remove_button.click)
    assert "profile" not in data(studio)
    assert panel.note.isVisibleTo(panel)
    assert panel.note.text().startswith("Removed data.profile, which root.children[0] (text)")
    gesture(studio, studio.controller.undo)
    assert data(studio)["profile"] == SPEC["data"]["profile"]
    assert not panel.note.isVisibleTo(panel)
    # A value only a call writes (`into`) is removed without a note.
    panel.select("result")
    gesture(studio, panel.remove_button.click)
    assert "result" not in data(studio) and not panel.note.isVisibleTo(panel)
