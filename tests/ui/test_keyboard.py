"""The keyboard, as a designer uses it: Help > Keyboard shortcuts lists every QAction's keys
(so a command added to a menu appears there), Tab leaves the JSON editor (Ctrl+] / Ctrl+[ indent
with spaces), and Ctrl+Z / Ctrl+Shift+Z reach the prototype wherever focus is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from studio.ui.keyboard import ShortcutsDialog
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS

pytestmark = pytest.mark.qt_log_ignore(
    OFFSCREEN_SIZE_HINTS, r"This plugin does not support raise\(\)"
)

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
SPEC = {
    "id": "keys",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "button", "id": "go", "label": "Go"},
        ],
    },
}


@pytest.fixture
def studio(make_studio: Any, tmp_path: Path) -> Any:
    spec = tmp_path / "keys.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    studio = make_studio(spec)
    studio.window.activateWindow()
    studio.wait_for(lambda: QApplication.activeWindow() is studio.window)
    return studio


def focus(studio: Any, widget: Any) -> None:
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    studio.wait_for(lambda: QApplication.focusWidget() is widget)


def open_list(studio: Any) -> ShortcutsDialog:
    studio.window.findChild(QAction, "action_shortcuts").trigger()
    dialog = studio.window.findChild(ShortcutsDialog, "shortcutsDialog")
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_the_shortcuts_list_is_read_from_the_windows_actions(studio: Any) -> None:
    window = studio.window
    dialog = open_list(studio)
    rows = dialog.shown_rows()
    native = QKeySequence.SequenceFormat.NativeText
    with_keys = [a for a in window.findChildren(QAction) if a.shortcuts() and a.menu() is None]
    names = {a.objectName() for a in with_keys}
    assert {"action_undo", "action_redo", "action_export_bundle", "action_shortcuts"} <= names
    for action in with_keys:
        typed = [k for k in action.shortcuts() if k[0].key().value < 0x01000061]  # no media keys
        keys = ", ".join(k.toString(native) for k in typed)
        assert (action.text().replace("&", ""), keys) in rows, action.objectName()
    assert ("Undo", "Ctrl+Z, Alt+Backspace") in rows and ("Keyboard shortcuts", "Ctrl+/") in rows
    assert ("Next / previous field", "Tab / Shift+Tab") in rows
    dialog.filter.setText("export")
    assert {c for c, _ in dialog.shown_rows()} == {
        "Export bundle…",
        "Export spec JSON…",
        "Export preview PNG…",
    }
    dialog.close()

    # A command another part of the studio adds to a menu is listed the next time: no drift.
    added = QAction("Group nodes", window)
    added.setShortcut(QKeySequence("Ctrl+G"))
    window.menuBar().actions()[1].menu().addAction(added)
    assert ("Group nodes", "Ctrl+G") in open_list(studio).shown_rows()
    assert window.findChild(ShortcutsDialog).width() <= 1280


def test_tab_leaves_the_json_editor_and_ctrl_brackets_indent(studio: Any) -> None:
    window = studio.window
    studio.controller.select("title")
    studio.settle()
    inspector = window.inspector
    inspector.tabs.setCurrentIndex(1)  # JSON
    editor = inspector.json_edit
    before = editor.toPlainText()
    assert '"text": "Hello"' in before
    focus(studio, editor)
    QTest.keyClick(editor, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not editor  # Tab moved on
    assert editor.toPlainText() == before and "\t" not in editor.toPlainText()
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab, SHIFT)
    assert QApplication.focusWidget() is editor  # and Shift+Tab comes back

    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.movePosition(QTextCursor.MoveOperation.Down, QTextCursor.MoveMode.KeepAnchor, 1)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)  # the first two lines
    QTest.keyClick(editor, Qt.Key.Key_BracketRight, CTRL)
    lines, old = editor.toPlainText().split("\n"), before.split("\n")
    assert lines[:2] == ["  " + old[0], "  " + old[1]] and lines[2:] == old[2:]
    QTest.keyClick(editor, Qt.Key.Key_BracketLeft, CTRL)
    assert editor.toPlainText() == before


def test_ctrl_z_and_ctrl_shift_z_undo_the_prototype_from_an_inspector_field(studio: Any) -> None:
    window, document = studio.window, studio.controller.document
    studio.controller.select("title")
    studio.settle()
    inspector = window.inspector
    inspector.text_edit.setText("Welcome")
    inspector.apply_form_button.click()
    studio.settle()
    assert document.spec["root"]["children"][0]["text"] == "Welcome"

    field = inspector.editor("id")  # nothing typed there: Ctrl+Z is the prototype's
    focus(studio, field)
    QTest.keyClick(field, Qt.Key.Key_Z, CTRL)
    studio.settle()
    assert document.spec["root"]["children"][0]["text"] == "Hello"
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, CTRL | SHIFT)
    studio.settle()
    assert document.spec["root"]["children"][0]["text"] == "Welcome"

    # Typing of its own is undone first, then the prototype.
    field = inspector.text_edit
    focus(studio, field)
    QTest.keyClicks(field, "!!")
    QTest.keyClick(field, Qt.Key.Key_Z, CTRL)
    assert field.text() == "Welcome" and document.spec["root"]["children"][0]["text"] == "Welcome"


def test_ctrl_z_undoes_the_prototype_from_the_agents_instruction_box(studio: Any) -> None:
    document = studio.controller.document
    studio.controller.select("title")
    studio.settle()
    inspector = studio.window.inspector
    inspector.text_edit.setText("Welcome")
    inspector.apply_form_button.click()
    studio.settle()
    box = studio.sheet.instruction
    focus(studio, box)
    QTest.keyClick(box, Qt.Key.Key_Z, CTRL)
    studio.settle()
    assert document.spec["root"]["children"][0]["text"] == "Hello"
    QTest.keyClick(box, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not box and box.toPlainText() == ""


def region_of(window: Any, widget: Any) -> str:
    names = {
        "libraryDock": "library",
        "specTreeDock": "tree",
        "agentDock": "agent",
        "inspectorDock": "inspector",
        "revisionsDock": "revisions",
    }
    while widget is not None:
        if widget.objectName() in names:
            return names[widget.objectName()]
        if widget is window.preview_pane:
            return "preview"
        widget = widget.parentWidget()
    return "elsewhere"


def walk(studio: Any, start: Any, key: Qt.Key, steps: int) -> list[Any]:
    focus(studio, start)
    seen = [start]
    for _ in range(steps):
        mod = SHIFT if key == Qt.Key.Key_Backtab else Qt.KeyboardModifier.NoModifier
        QTest.keyClick(QApplication.focusWidget(), key, mod)
        seen.append(QApplication.focusWidget())
    return seen


def runs(names: list[str]) -> list[str]:
    """`names` with repeats folded: [a, a, b, a] -> [a, b, a]."""
    return [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]


def test_tab_crosses_the_panels_in_reading_order(studio: Any) -> None:
    window = studio.window
    studio.controller.select("title")  # the inspector has fields for a selected node only
    studio.settle()
    start = window.library_panel.list
    stops = walk(studio, start, Qt.Key.Key_Tab, 200)
    loop = stops[: stops.index(start, 1) + 1]  # once round, back to the start
    order = runs([region_of(window, w) for w in loop])
    # Left column, the preview, the right column; within the library its tool bar first.
    assert order == ["library", "tree", "preview", "agent", "inspector", "library"]
    # Within the library, top to bottom: its tool bar, the search field, then the list.
    assert loop[-2] is window.library_panel.search and loop[-3].text() == "Rename"
    preview = [w for w in loop if region_of(window, w) == "preview"]
    assert preview[1] is window.preview_pane.device_combo  # the tool bar, left to right
    assert window.preview_pane.event_log.view in preview
    # Every field of the inspector's form is a stop, those scrolled out of view too, and Tab
    # scrolls the form to the one it lands on.
    inspector = [w for w in loop if region_of(window, w) == "inspector"]
    names = [w.objectName() for w in inspector]
    assert {"field_id", "field_text", "field_style.alpha"} <= set(names), names
    last_field = [w for w in inspector if w.objectName().startswith("field_")][-1]
    focus(studio, last_field)
    QTest.keyClick(last_field, Qt.Key.Key_Backtab, SHIFT)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is last_field
    assert not last_field.visibleRegion().isEmpty()  # scrolled into view
    # Shift+Tab goes the same way back.
    back = walk(studio, start, Qt.Key.Key_Backtab, len(loop) - 1)
    assert back == [loop[0], *reversed(loop[:-1])][: len(back)]


def test_every_focus_stop_shows_a_focus_ring(studio: Any) -> None:
    """Each stop Tab reaches looks different while it has the keyboard focus than once Tab
    moved on (Qt draws rings only for keyboard focus, so the walk is made with real Tabs)."""
    window = studio.window
    start = window.library_panel.list
    focus(studio, start)
    QTest.keyClick(start, Qt.Key.Key_Tab)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab, SHIFT)  # keyboard focus now
    without_ring: list[str] = []
    visited: list[Any] = []
    for _ in range(60):
        widget = QApplication.focusWidget()
        if widget in visited:
            break
        visited.append(widget)
        # The widget and a 3 px margin, as its parent shows it (a ring may be drawn around it).
        area = widget.geometry().adjusted(-3, -3, 3, 3)
        focused = widget.parentWidget().grab(area).toImage()
        QTest.keyClick(widget, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is not widget
        if widget.parentWidget().grab(area).toImage() == focused:
            label = widget.text() if hasattr(widget, "text") and callable(widget.text) else ""
            without_ring.append(f"{type(widget).__name__} {widget.objectName()} {label}".strip())
    assert len(visited) > 15
    assert without_ring == [], without_ring
