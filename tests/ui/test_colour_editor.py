"""The inspector's colour editor (issue 13: "colours as a theme-role picker plus hex with swatches
and light/dark pairs"): roles listed with this prototype's own colours as swatches, a colour
dialog for hex, a light and a dark colour as one value; each choice one validated revision."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QColorDialog, QComboBox

from studio.preview.scheme import build_scheme
from studio.ui.colour_editor import PAIR, ColourEditor
from studio.ui.document_panel import DocumentPanel
from studio.ui.inspector import InspectorPanel
from studio.workspace import Workspace
from tests.helpers.inspector import open_workspace, shown_inspector

SPEC: dict[str, Any] = {
    "id": "colours",
    "window": {"placement": {"type": "fullscreen"}},
    "theme": {"colors": {"seed": "#B3261E"}},
    "state": {},
    "root": {
        "type": "column",
        "id": "page",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "text", "id": "paired", "text": "Both",
             "style": {"color": {"light": "primary", "dark": "#FFFFFF"}}},
        ],
    },
}  # fmt: skip


@pytest.fixture
def ws() -> Workspace:
    return open_workspace(SPEC, "colours")


@pytest.fixture
def inspector(qtbot: Any, ws: Workspace) -> InspectorPanel:
    return shown_inspector(qtbot, ws)


def colour_editor(inspector: InspectorPanel, name: str = "style.color") -> ColourEditor:
    editor = inspector.editor(name)
    assert isinstance(editor, ColourEditor)
    return editor


def style(ws: Workspace, node_id: str) -> Any:
    found = ws.node(node_id)
    assert found is not None
    return found.get("style")


def swatch_colour(combo: QComboBox, index: int) -> QColor:
    """The colour in the middle of an entry's swatch."""
    image = combo.itemIcon(index).pixmap(16, 16).toImage()
    return image.pixelColor(8, 8)


def type_token(editor: ColourEditor, mode: str, text: str) -> None:
    line = editor.tokens[mode].combo.lineEdit()
    assert line is not None
    line.setFocus()
    line.selectAll()
    QTest.keyClicks(line, text)
    QTest.keyClick(line, Qt.Key.Key_Return)


def test_the_roles_show_this_prototypes_own_colours(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    combo = colour_editor(inspector).tokens["light"].combo
    scheme = build_scheme(ws.shown.spec, "light").colors
    index = combo.findText("primary")
    assert index > 0
    assert swatch_colour(combo, index) == QColor(scheme["primary"])  # the seed's red, not purple
    dark = colour_editor(inspector).tokens["dark"].combo
    dark_scheme = build_scheme(ws.shown.spec, "dark").colors
    assert swatch_colour(dark, dark.findText("primary")) == QColor(dark_scheme["primary"])
    assert dark_scheme["primary"] != scheme["primary"]


def test_a_role_picked_is_one_revision_and_undo_restores(
    ws: Workspace, inspector: InspectorPanel
) -> None:
    ws.select("title")
    editor = colour_editor(inspector)
    combo = editor.tokens["light"].combo
    combo.setCurrentIndex(combo.findText("tertiary"))
    combo.activated.emit(combo.currentIndex())
    assert style(ws, "title") == {"color": "tertiary"}
    assert ws.document is not None
    assert ws.document.revisions.applied[-1].summary.startswith("Set")
    # The swatch button shows the role's colour in this theme.
    shown = editor.tokens["light"].button.icon().pixmap(16, 16).toImage().pixelColor(8, 8)
    assert shown == QColor(build_scheme(ws.shown.spec, "light").colors["tertiary"])
    ws.undo()
    assert style(ws, "title") is None
    assert editor.tokens["light"].text() == ""


# The colour dialog is a top-level window: the offscreen platform says it cannot size it.
@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_the_colour_dialog_writes_hex(ws: Workspace, inspector: InspectorPanel, qtbot: Any) -> None:
    ws.select("title")
    token = colour_editor(inspector).tokens["light"]
    token.button.click()
    dialog = token.dialog
    assert isinstance(dialog, QColorDialog) and dialog.isVisible()
    dialog.setCurrentColor(QColor(0, 0x63, 0x9B))
    dialog.accept()
    assert style(ws, "title") == {"color": "#00639B"}
    # A translucent colour keeps its alpha, as #AARRGGBB.
    token.button.click()
    dialog = token.dialog
    assert dialog is not None
    dialog.setCurrentColor(QColor(255, 0, 0, 0x80))
    dialog.accept()
    assert style(ws, "title") == {"color": "#80FF0000"}


def test_a_light_and_a_dark_colour_are_one_value(ws: Workspace, inspector: InspectorPanel) -> None:
    ws.select("title")
    editor = colour_editor(inspector)
    type_token(editor, "light", "primary")
    assert style(ws, "title") == {"color": "primary"}
    editor.mode.setCurrentText(PAIR)
    editor.mode.activated.emit(editor.mode.currentIndex())
    # The pair starts from the one colour, in both modes.
    assert style(ws, "title") == {"color": {"light": "primary", "dark": "primary"}}
    assert editor.tokens["dark"].isVisibleTo(editor)
    type_token(editor, "dark", "#FFFFFF")
    assert style(ws, "title") == {"color": {"light": "primary", "dark": "#FFFFFF"}}


def test_a_pair_is_shown_as_a_pair(ws: Workspace, inspector: InspectorPanel) -> None:
    ws.select("paired")
    editor = colour_editor(inspector)
    assert editor.paired()
    assert editor.tokens["light"].text() == "primary"
    assert editor.tokens["dark"].text() == "#FFFFFF"
    ws.select("title")
    assert not colour_editor(inspector).paired()


def test_a_bad_colour_is_refused_at_the_field(ws: Workspace, inspector: InspectorPanel) -> None:
    ws.select("title")
    editor = colour_editor(inspector)
    type_token(editor, "light", "#12")
    assert "root.children[0].style.color" in inspector.field_error("style.color")
    assert style(ws, "title") is None
    type_token(editor, "light", "secondary")
    assert inspector.field_error("style.color") == ""
    assert style(ws, "title") == {"color": "secondary"}


def test_nested_colours_use_the_same_editor(ws: Workspace, qtbot: Any) -> None:
    """A colour inside a structured property (the fullscreen scrim of `window.placement`) is
    picked the same way, with the theme's swatches."""
    panel = DocumentPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.present(ws.shown)
    nested = panel.editor("window.placement").findChildren(ColourEditor)
    assert nested, "the scrim is picked with the colour editor"
    combo = nested[0].tokens["light"].combo
    scheme = build_scheme(ws.shown.spec, "light").colors
    assert swatch_colour(combo, combo.findText("scrim")) == QColor(scheme["scrim"])
