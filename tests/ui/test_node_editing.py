"""Designing by hand in the window (issue 13): the spec tree's context menu and keys, the palette
(double-click and drag), reorder and re-parent by drag with a drop indicator that refuses before
the drop, and paste between two prototypes. Each step is one revision that undo takes back."""

from __future__ import annotations

import copy
import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QKeySequence, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QMenu

from studio.spec.validator import validate
from studio.ui.spec_tree import NODES_MIME, nodes_mime
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
T = TypeVar("T")

FORM: dict[str, Any] = {
    "id": "form",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"email": ""},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Sign in"},
            {"type": "textField", "id": "email", "stateKey": "email", "placeholder": "Email"},
            {"type": "row", "id": "actions", "children": []},
            {"type": "button", "id": "go", "label": "Go"},
        ],
    },
}


@pytest.fixture
def studio(make_studio: Any, tmp_path: Path) -> Studio:
    made: Studio = make_studio()
    open_spec(made, tmp_path, FORM)
    return made


def open_spec(studio: Studio, folder: Path, spec: dict[str, Any]) -> None:
    path = folder / f"{spec['id']}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    studio.controller.import_files([path])
    studio.settle()
    assert studio.controller.document is not None
    assert studio.controller.document.name == spec["id"]


def shown(studio: Studio) -> dict[str, Any]:
    return studio.workspace.shown.spec


def ids(studio: Studio, path: str = "root") -> list[Any]:
    node: Any = shown(studio)["root"]
    if path != "root":
        from studio.spec import tree

        node = tree.node_at(shown(studio), path)
    return [c.get("id") for c in node.get("children", [])]


def gesture(studio: Studio, act: Callable[[], T]) -> T:
    """Run a user's gesture (QTest input, a sent event) inside the studio's loop, as the app
    receives input, then let what it started finish."""

    async def inside() -> T:
        return act()

    result = studio.loop.run_until_complete(inside())
    studio.settle()
    return result


def click_row(studio: Studio, address: str, modifier: Any = Qt.KeyboardModifier.NoModifier) -> None:
    tree = studio.window.spec_tree
    rect = tree.view.visualRect(tree._items[address].index())
    gesture(
        studio,
        lambda: QTest.mouseClick(
            tree.view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center()
        ),
    )


def press(studio: Studio, keys: str) -> None:
    """The keys as the user types them with the tree focused."""
    view = studio.window.spec_tree.view
    view.setFocus()
    sequence = QKeySequence(keys)
    combo = sequence[0]
    gesture(studio, lambda: QTest.keyClick(view, combo.key(), combo.keyboardModifiers()))


def undo_count(studio: Studio) -> int:
    document = studio.controller.document
    assert document is not None
    return len(document.revisions.applied)


def drag(studio: Studio, widget: Any, point: QPoint, mime: QMimeData, drop: bool = True) -> bool:
    return gesture(studio, lambda: drag_events(widget, point, mime, drop))


def drag_events(widget: Any, point: QPoint, mime: QMimeData, drop: bool = True) -> bool:
    """Enter, move and (with `drop`) drop at `point`, as Qt delivers a drag; whether the last
    one was accepted."""
    action, button, none = (
        Qt.DropAction.MoveAction,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # PySide 6.12: QPoint constructors
        enter = QDragEnterEvent(point, action, mime, button, none)
        QApplication.sendEvent(widget, enter)
        move = QDragMoveEvent(point, action, mime, button, none)
        QApplication.sendEvent(widget, move)
    if not drop:
        return move.isAccepted()
    dropped = QDropEvent(point.toPointF(), action, mime, button, none)
    QApplication.sendEvent(widget, dropped)
    return dropped.isAccepted()


def row_point(studio: Studio, address: str, where: str) -> QPoint:
    tree = studio.window.spec_tree
    rect = tree.view.visualRect(tree._items[address].index())
    y = {"before": rect.top() + 1, "inside": rect.center().y(), "after": rect.bottom() - 1}[where]
    return QPoint(rect.center().x(), y)


def tree_mime(studio: Studio) -> QMimeData:
    mime = QMimeData()
    mime.setData(NODES_MIME, json.dumps(studio.window.spec_tree.selected_paths()).encode())
    return mime


def test_keys_delete_duplicate_and_move_the_selection(studio: Studio) -> None:
    click_row(studio, "title")
    press(studio, "Ctrl+D")
    assert ids(studio) == ["title", "title2", "email", "actions", "go"]
    assert studio.window.spec_tree.selected_addresses() == ["title2"]
    press(studio, "Alt+Down")
    assert ids(studio) == ["title", "email", "title2", "actions", "go"]
    press(studio, "Alt+Up")
    assert ids(studio) == ["title", "title2", "email", "actions", "go"]
    press(studio, "Delete")
    assert ids(studio) == ["title", "email", "actions", "go"]
    click_row(studio, "email")
    press(studio, "Backspace")
    assert ids(studio) == ["title", "actions", "go"]
    assert studio.status == "Applied: Delete textField 'email'"
    assert undo_count(studio) == 5
    for _ in range(5):
        gesture(studio, studio.controller.undo)
    assert shown(studio) == FORM
    for _ in range(5):
        gesture(studio, studio.controller.redo)
    assert ids(studio) == ["title", "actions", "go"]


def test_ctrl_click_selects_several_and_one_key_deletes_them(studio: Studio) -> None:
    click_row(studio, "title")
    click_row(studio, "go", Qt.KeyboardModifier.ControlModifier)
    assert studio.workspace.selection.addresses == ("title", "go")
    assert studio.workspace.selection.primary == "go"
    press(studio, "Delete")
    assert ids(studio) == ["email", "actions"]
    assert studio.status == "Applied: Delete 2 nodes"


def test_a_key_in_a_text_field_stays_the_fields(studio: Studio) -> None:
    click_row(studio, "title")
    field = studio.window.node_palette.search
    field.setFocus()
    field.setText("abc")
    QTest.keyClick(field, Qt.Key.Key_Backspace)
    assert field.text() == "ab"
    assert ids(studio) == ["title", "email", "actions", "go"]


@pytest.mark.qt_log_ignore(
    OFFSCREEN_SIZE_HINTS, "This plugin does not support (raise|grabbing the keyboard)"
)
def test_the_context_menu_runs_the_edit_commands(studio: Studio) -> None:
    tree = studio.window.spec_tree
    menu = gesture(studio, lambda: tree.open_context_menu(row_point(studio, "go", "inside")))
    assert studio.workspace.selection.addresses == ("go",)  # a right click selects the row
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    for wanted in ("Cu&t", "&Copy", "&Paste", "D&uplicate", "De&lete", "Move &up", "&Insert"):
        assert wanted in texts
    shortcut = next(a for a in menu.actions() if a.text() == "D&uplicate").shortcut()
    assert shortcut.toString() == "Ctrl+D"  # the menu shows the key (Help > Keyboard shortcuts)
    gesture(studio, next(a for a in menu.actions() if a.text() == "Move &up").trigger)
    assert ids(studio) == ["title", "email", "go", "actions"]
    menu.close()
    # Wrap in > Card, then Unwrap.
    wrap_menu = next(a.menu() for a in menu.actions() if a.text() == "&Wrap in")
    assert isinstance(wrap_menu, QMenu)
    gesture(studio, next(a for a in wrap_menu.actions() if a.data() == "card").trigger)
    assert shown(studio)["root"]["children"][2] == {
        "type": "card",
        "id": "card1",
        "children": [{"type": "button", "id": "go", "label": "Go"}],
    }
    assert studio.workspace.selection.addresses == ("card1",)
    gesture(studio, studio.window.actions_by_name["unwrap_node"].trigger)
    assert ids(studio) == ["title", "email", "go", "actions"]
    # Insert before / after the node the menu was opened on.
    click_row(studio, "go")
    before = next(a.menu() for a in menu.actions() if a.text() == "Insert &before")
    gesture(studio, next(a for a in before.actions() if a.data() == "divider").trigger)
    assert ids(studio) == ["title", "email", "divider1", "go", "actions"]
    assert studio.status == "Applied: Insert divider before button 'go'"
    click_row(studio, "go")
    after = next(a.menu() for a in menu.actions() if a.text() == "Insert &after")
    gesture(studio, next(a for a in after.actions() if a.data() == "spacer").trigger)
    assert ids(studio) == ["title", "email", "divider1", "go", "spacer1", "actions"]
    assert validate(shown(studio)).ok


def test_a_refused_command_says_why_in_one_line_and_changes_nothing(studio: Studio) -> None:
    click_row(studio, "go")
    press(studio, "Alt+Down")
    assert studio.status == "button 'go' cannot move down: already last"
    click_row(studio, "root")
    press(studio, "Delete")
    assert studio.status.startswith("the root cannot be deleted")
    assert undo_count(studio) == 0


def test_palette_double_click_inserts_into_the_selected_container(studio: Studio) -> None:
    click_row(studio, "actions")
    studio.window.palette_dock.raise_()  # the Palette tab, beside the Library
    palette = studio.window.node_palette
    palette.search.setText("switch")
    assert palette.visible_types() == ["switch", "tabBar"]  # "Tabs that switch between views"
    at = palette.list.visualRect(palette.index_of("switch")).center()
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier

    def double_click() -> None:  # a real double-click: press, release, then the double-click
        QTest.mouseClick(palette.list.viewport(), left, none, at)
        QTest.mouseDClick(palette.list.viewport(), left, none, at)

    gesture(studio, double_click)
    assert ids(studio, "root.children[2]") == ["switch1"]
    assert shown(studio)["state"] == {"email": "", "switch1": False}
    assert studio.status == "Applied: Insert switch into row 'actions'"
    assert studio.workspace.selection.addresses == ("switch1",)
    assert validate(shown(studio)).ok
    gesture(studio, studio.controller.undo)
    assert shown(studio) == FORM


def test_palette_search_matches_names_and_descriptions(studio: Studio) -> None:
    palette = studio.window.node_palette
    palette.search.setText("date")
    assert palette.visible_types() == ["datePicker"]
    palette.search.setText("state key")
    assert set(palette.visible_types()) >= {"textField", "switch", "dialog"}
    palette.search.setText("")
    assert len(palette.visible_types()) == 32


def test_palette_drag_into_the_tree_shows_a_refusal_before_the_drop(studio: Studio) -> None:
    palette, tree = studio.window.node_palette, studio.window.spec_tree
    mime = palette.list.mimeData([palette.list.itemFromIndex(palette.index_of("button"))])
    viewport = tree.view.viewport()
    # Into a scroll, which already holds its one child: refused before the drop, saying why.
    scroll_mime = palette.list.mimeData([palette.list.itemFromIndex(palette.index_of("scroll"))])
    assert drag(studio, viewport, row_point(studio, "go", "after"), scroll_mime)
    assert ids(studio) == ["title", "email", "actions", "go", "scroll1"]
    assert not drag(studio, viewport, row_point(studio, "scroll1", "inside"), mime, drop=False)
    assert tree.drop_hint.text() == (
        "Cannot drop here: scroll 'scroll1' holds exactly one child: wrap its child in a column"
        " or row first"
    )
    # Into the row: accepted, inserted there.
    assert drag(studio, viewport, row_point(studio, "actions", "inside"), mime)
    studio.settle()
    assert ids(studio, "root.children[2]") == ["button1"]
    assert studio.status == "Applied: Insert button into row 'actions'"
    assert tree.drop_hint.isHidden()


def test_dragging_rows_reorders_and_re_parents(studio: Studio) -> None:
    viewport = studio.window.spec_tree.view.viewport()
    click_row(studio, "go")
    assert drag(studio, viewport, row_point(studio, "title", "before"), tree_mime(studio))
    studio.settle()
    assert ids(studio) == ["go", "title", "email", "actions"]
    assert studio.status == "Applied: Move button 'go' before text 'title'"
    click_row(studio, "go")
    assert drag(studio, viewport, row_point(studio, "actions", "inside"), tree_mime(studio))
    studio.settle()
    assert ids(studio) == ["title", "email", "actions"]
    assert ids(studio, "root.children[2]") == ["go"]
    # A node cannot go into itself: refused before the drop.
    click_row(studio, "actions")
    assert not drag(studio, viewport, row_point(studio, "go", "after"), tree_mime(studio), False)
    assert studio.window.spec_tree.drop_hint.text() == (
        "Cannot drop here: row 'actions' cannot be moved into itself"
    )
    assert not drag(studio, viewport, row_point(studio, "go", "after"), tree_mime(studio))
    assert undo_count(studio) == 2
    gesture(studio, studio.controller.undo)
    gesture(studio, studio.controller.undo)
    assert shown(studio) == FORM


def test_copy_in_one_prototype_and_paste_in_another(studio: Studio, tmp_path: Path) -> None:
    click_row(studio, "email")
    press(studio, "Ctrl+C")
    other = copy.deepcopy(FORM)
    other["id"] = "other"
    other["state"] = {}
    other["root"]["children"] = [{"type": "text", "id": "email", "text": "taken id"}]
    open_spec(studio, tmp_path, other)
    click_row(studio, "root")
    press(studio, "Ctrl+V")
    assert ids(studio) == ["email", "email2"]
    assert shown(studio)["state"] == {"email": ""}  # the key the field binds came with it
    assert (
        studio.status
        == "Applied: Paste textField 'email2' into column (ids renamed: email → email2)"
    )
    assert validate(shown(studio)).ok
    # Cut moves it through the clipboard.
    press(studio, "Ctrl+X")
    assert ids(studio) == ["email"]
    click_row(studio, "email")
    press(studio, "Ctrl+V")
    assert ids(studio) == ["email", "email2"]


def test_pasting_text_that_is_not_a_node_is_one_line(studio: Studio) -> None:
    QApplication.clipboard().setText("not json at all")
    click_row(studio, "actions")
    press(studio, "Ctrl+V")
    assert studio.status.startswith("Paste: the clipboard's text is not JSON (line 1 column 1")
    assert undo_count(studio) == 0


def test_the_state_panel_renames_a_key_everywhere_and_refuses_removing_a_used_one(
    studio: Studio,
) -> None:
    studio.show_tab(studio.window.state_dock)
    panel = studio.window.state_panel
    assert panel.keys() == ["email"]
    uses = panel.table.item(0, 2)
    assert uses is not None and uses.text() == "1"
    key = panel.table.item(0, 0)
    assert key is not None
    gesture(studio, lambda: key.setText("address"))  # as the cell's editor commits it
    assert shown(studio)["state"] == {"address": ""}
    assert shown(studio)["root"]["children"][1]["stateKey"] == "address"
    assert studio.status == "Applied: Rename state key 'email' to 'address' (1 use updated)"
    panel.table.setCurrentCell(0, 0)
    gesture(studio, panel.remove_button.click)
    assert panel.error.text() == (
        "state key 'address' is still used by textField 'email' (stateKey): change those first"
    )
    assert shown(studio)["state"] == {"address": ""}
    gesture(studio, panel.add_button.click)
    assert panel.keys() == ["address", "key1"] and panel.error.isHidden()
    value = panel.table.item(1, 1)
    assert value is not None
    gesture(studio, lambda: value.setText("true"))
    assert shown(studio)["state"]["key1"] is True
    panel.table.setCurrentCell(1, 0)
    gesture(studio, panel.remove_button.click)
    assert panel.keys() == ["address"]
    assert undo_count(studio) == 4


def preview_point(studio: Studio, address: str, where: str) -> QPoint:
    """A point in the preview widget on the node as shown: near its top, middle or bottom."""
    preview = studio.window.preview_pane.preview
    studio.wait_for(lambda: any(n["address"] == address for n in preview.visible_summary()))
    b = next(n for n in preview.visible_summary() if n["address"] == address)["bounds"]
    y = {"before": 1.0, "inside": b["height"] / 2, "after": b["height"] - 1.0}[where]
    scene = preview.screen_item().mapToScene(QPointF(b["x"] + b["width"] / 2, b["y"] + y))
    return QPoint(round(scene.x()), round(scene.y()))


def press_and_drag_on(studio: Studio, widget: Any, start: QPoint, by: QPoint) -> None:
    """Press the left button at `start` and move by `by` with it held, as a hand starts a drag."""
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier

    def act() -> None:
        QTest.mousePress(widget, left, none, start)
        moved = QPointF(start + by)
        event = QMouseEvent(
            QEvent.Type.MouseMove, moved, widget.mapToGlobal(moved), Qt.MouseButton.NoButton,
            left, none,
        )  # fmt: skip
        QApplication.sendEvent(widget, event)
        QTest.mouseRelease(widget, left, none, start + by)

    gesture(studio, act)


def test_dragging_nodes_on_the_preview_moves_them(studio: Studio) -> None:
    """Issue 13: "drag to reorder and re-parent ... on the preview in edit mode"."""
    window = studio.window
    quick = window.preview_pane.preview.quick_widget
    started: list[list[str]] = []
    window.preview_drop.dragStarted.connect(started.append)
    far = QPoint(0, QApplication.startDragDistance() + 4)
    # Not in edit mode: a press and move on the preview runs the prototype, no drag.
    press_and_drag_on(studio, quick, preview_point(studio, "go", "inside"), far)
    assert started == []
    window.preview_pane.edit_button.setChecked(True)
    # A move shorter than the drag distance is a click, not a drag.
    press_and_drag_on(studio, quick, preview_point(studio, "go", "inside"), QPoint(0, 1))
    assert started == []
    press_and_drag_on(studio, quick, preview_point(studio, "go", "inside"), far)
    assert started == [["root.children[3]"]]
    # The drag carries the node as tree rows do: dropped before the title, it moves there.
    assert drag(studio, quick, preview_point(studio, "title", "before"), nodes_mime(started[-1]))
    assert ids(studio) == ["go", "title", "email", "actions"]
    assert studio.status == "Applied: Move button 'go' before text 'title'"
    # From a node in a multi-selection, the drag carries the whole selection.
    click_row(studio, "go")
    click_row(studio, "email", Qt.KeyboardModifier.ControlModifier)
    press_and_drag_on(studio, quick, preview_point(studio, "email", "inside"), far)
    assert sorted(started[-1]) == sorted(window.spec_tree.selected_paths())
    assert len(started[-1]) == 2
    assert drag(studio, quick, preview_point(studio, "title", "before"), nodes_mime(started[-1]))
    assert ids(studio) == ["go", "email", "title", "actions"]
    assert validate(shown(studio)).ok
    gesture(studio, studio.controller.undo)
    gesture(studio, studio.controller.undo)
    assert shown(studio) == FORM


def test_palette_and_tree_drops_onto_the_preview_in_edit_mode(studio: Studio) -> None:
    window = studio.window
    quick = window.preview_pane.preview.quick_widget
    palette = window.node_palette
    chip = palette.list.mimeData([palette.list.itemFromIndex(palette.index_of("chip"))])
    point = preview_point(studio, "title", "after")
    # Not in edit mode: the preview runs the prototype, and takes no node drops.
    assert not drag(studio, quick, point, chip)
    assert ids(studio) == ["title", "email", "actions", "go"]
    window.preview_pane.edit_button.setChecked(True)
    assert drag(studio, quick, point, chip)
    assert ids(studio) == ["title", "chip1", "email", "actions", "go"]
    assert studio.status == "Applied: Insert chip after text 'title'"
    assert window.preview_drop.indicator.isHidden()  # gone once dropped
    # Tree rows dragged onto the preview: a move.
    click_row(studio, "go")
    assert drag(studio, quick, preview_point(studio, "title", "before"), tree_mime(studio))
    assert ids(studio) == ["go", "title", "chip1", "email", "actions"]
    # A refusal shows over the preview before the drop.
    click_row(studio, "go")
    assert not drag(studio, quick, preview_point(studio, "go", "after"), tree_mime(studio), False)
    assert window.preview_drop.hint.text() == "Cannot drop here: button 'go' is already there"
    assert not window.preview_drop.indicator.isHidden()


def test_the_document_panel_edits_the_theme_and_refuses_a_bad_colour(studio: Studio) -> None:
    studio.show_tab(studio.window.document_dock)
    panel = studio.window.document_panel
    mode = panel.editor("theme.mode")
    assert isinstance(mode, QComboBox)

    def choose() -> None:
        mode.setCurrentIndex(mode.findData("dark"))
        mode.activated.emit(mode.currentIndex())

    gesture(studio, choose)
    assert shown(studio)["theme"] == {"mode": "dark"}
    assert studio.status == "Applied: Set theme mode"
    seed = panel.editor("theme.colors.seed")
    assert isinstance(seed, QLineEdit)
    gesture(studio, lambda: (seed.setText("teal"), seed.editingFinished.emit()))
    assert panel.field_error("theme.colors.seed").startswith("Set theme seed refused: theme.colors")
    assert shown(studio)["theme"] == {"mode": "dark"}
    gesture(studio, lambda: (seed.setText("#00639B"), seed.editingFinished.emit()))
    assert shown(studio)["theme"] == {"mode": "dark", "colors": {"seed": "#00639B"}}
    assert panel.field_error("theme.colors.seed") == ""
    gesture(studio, studio.controller.undo)
    gesture(studio, studio.controller.undo)
    assert "theme" not in shown(studio)
