"""Library and preview habits: Ctrl+S saves and says so (Export has its own key), file dialogs
open in the last folder used (else Documents), and the library can be searched and sorted with
thumbnails large enough to recognise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from tests.helpers.studio import OFFSCREEN_SIZE_HINTS

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

SPEC = {
    "id": "habits",
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
def spec_file(tmp_path: Path) -> Path:
    folder = tmp_path / "designs"
    folder.mkdir()
    path = folder / "habits.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    return path


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of the test's own, with a Documents folder (Qt's DocumentsLocation)."""
    home = tmp_path / "user"
    (home / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


@pytest.fixture
def studio(make_studio: Any, spec_file: Path, user_home: Path) -> Any:
    studio = make_studio(spec_file)
    studio.window.activateWindow()
    studio.wait_for(lambda: QApplication.activeWindow() is studio.window)
    return studio


def file_dialog(studio: Any) -> QFileDialog:
    dialogs = [d for d in studio.window.findChildren(QFileDialog) if d.isVisible()]
    assert len(dialogs) == 1
    return dialogs[0]


def test_ctrl_s_saves_now_and_says_so_and_export_has_its_own_key(studio: Any) -> None:
    window, controller = studio.window, studio.controller
    document = controller.document
    controller.select("title")
    studio.settle()
    window.inspector.text_edit.setText("Saved text")
    window.inspector.apply_form_button.click()
    QTest.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    studio.settle()
    assert studio.status == "Saved habits: every change is also saved as you make it"
    on_disk = studio.library.load_spec(document.entry_id)
    assert on_disk["root"]["children"][0]["text"] == "Saved text"
    assert not [d for d in window.findChildren(QFileDialog) if d.isVisible()]  # no file dialog
    export = window.findChild(QAction, "action_export_bundle")
    assert export.shortcut() == QKeySequence("Ctrl+E")
    QTest.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    dialog = file_dialog(studio)
    assert dialog.windowTitle() == "Export bundle"
    dialog.reject()


def test_file_dialogs_open_in_the_last_folder_used_else_documents(
    studio: Any, spec_file: Path, tmp_path: Path, user_home: Path
) -> None:
    window = studio.window
    window.findChild(QAction, "action_open").trigger()
    dialog = file_dialog(studio)
    assert Path(dialog.directory().absolutePath()) == (user_home / "Documents").resolve()
    dialog.selectFile(str(spec_file))
    dialog.accept()  # the designer opens a file in designs/
    studio.settle()
    window.findChild(QAction, "action_export_spec").trigger()
    dialog = file_dialog(studio)
    assert Path(dialog.directory().absolutePath()) == spec_file.parent.resolve()
    out = tmp_path / "elsewhere"
    out.mkdir()
    dialog.selectFile(str(out / "copy.json"))
    dialog.accept()
    studio.settle()
    assert (out / "copy.json").is_file()
    window.findChild(QAction, "action_export_png").trigger()
    dialog = file_dialog(studio)
    assert Path(dialog.directory().absolutePath()) == out.resolve()  # remembered across uses
    dialog.reject()


def test_export_png_writes_device_pixels_at_the_chosen_scale(studio: Any, tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    window = studio.window
    preview = window.preview_pane.preview
    studio.wait_for(lambda: not preview.grab_image().isNull())
    on_screen = preview.grab_image().size()
    assert on_screen.width() < 360  # drawn smaller than the device in this window
    width, height = window.preview_pane.device_size()
    for scale in (1, 3):
        window.findChild(QAction, f"action_png_scale_{scale}").trigger()
        window.findChild(QAction, "action_export_png").trigger()
        dialog = file_dialog(studio)
        suggested = dialog.selectedFiles()[0]
        assert Path(suggested).name == ("habits.png" if scale == 1 else f"habits {scale}x.png")
        out = tmp_path / f"screen{scale}.png"
        dialog.selectFile(str(out))
        dialog.accept()
        studio.wait_for(out.is_file)
        image = QImage(str(out))
        assert (image.width(), image.height()) == (width * scale, height * scale)
        assert (
            studio.status == f"Exported {out.name} ({width * scale}×{height * scale} px, {scale}x)"
        )
    assert studio.settings.value("export/png_scale") == "3"  # remembered


def test_a_first_run_hint_points_at_selecting_editing_and_the_agent(
    make_studio: Any, tmp_path: Path, user_home: Path
) -> None:
    home = tmp_path / "first"
    studio = make_studio(home=home)
    hint = studio.window.first_run_hint
    assert hint.isVisible()
    text = hint.label.text()
    for point in ("Spec tree", "Edit mode", "Inspector", "agent"):
        assert point in text
    assert hint.geometry().bottom() < studio.window.preview_pane.centre.geometry().top()
    hint.close_button.click()
    assert not hint.isVisible()
    studio.close()
    again = make_studio(home=home)  # the next start: the hint was seen
    assert not again.window.first_run_hint.isVisible()


def test_preview_and_library_habits_are_remembered_across_restarts(
    make_studio: Any, tmp_path: Path, user_home: Path
) -> None:
    from PySide6.QtCore import Qt

    home = tmp_path / "habits-home"
    studio = make_studio(home=home)
    pane, library = studio.window.preview_pane, studio.window.library_panel
    for template in studio.controller.templates[:3]:  # a few prototypes to sort
        studio.controller.new_from_template(template.id)
        studio.settle()
    # The defaults first: what a new designer gets.
    assert (pane.device_size(), pane.zoom(), pane.theme()) == ((360, 800), None, "light")
    assert library.sort_order() == ("modified", Qt.SortOrder.DescendingOrder)
    pane.device_combo.setCurrentIndex(pane.device_combo.findText("Custom size…"))
    pane.custom_width.setValue(500)
    pane.custom_height.setValue(900)
    pane.landscape_action.trigger()
    pane.set_zoom(2.0)
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("dark"))
    assert not pane.rtl_action.isChecked()  # left to right by default
    pane.rtl_action.trigger()  # the device's layout direction: right to left
    pane.log_toggle.click()  # the event strip hidden
    pane.animator_actions[2.0].trigger()  # Device > Animator duration scale > 2x
    library.list.header().sectionClicked.emit(0)  # a click on Name: A to Z
    assert library.sort_order() == ("name", Qt.SortOrder.AscendingOrder)
    studio.close()

    again = make_studio(home=home)  # the next start, on the same settings file
    pane, library = again.window.preview_pane, again.window.library_panel
    assert pane.device_combo.currentData() is None  # Custom size…
    assert (pane.custom_width.value(), pane.custom_height.value()) == (500, 900)
    assert pane.landscape_action.isChecked() and pane.device_size() == (900, 500)
    screen = pane.preview.screen_item()
    assert (screen.width(), screen.height()) == (900, 500)  # the preview shows it too
    assert pane.zoom() == 2.0 and pane.preview.shown_zoom() == 2.0
    assert pane.theme() == "dark" and pane.preview.controller.property("dark")
    assert pane.rtl_action.isChecked() and pane.preview.controller.property("rtl")
    assert not pane.log_toggle.isChecked() and pane.event_log.folded
    assert pane.animator_scale() == 2.0 and pane.preview.controller.property("animatorScale") == 2
    assert not pane.event_log.view.isVisible()
    assert library.sort_order() == ("name", Qt.SortOrder.AscendingOrder)
    names = [library.row(i)[0] for i in library.shown_ids()]  # type: ignore[index]
    assert len(names) >= 3 and names == sorted(names, key=str.casefold)
    # A preset is remembered by its size, whatever its place in the list.
    pane.device_combo.setCurrentIndex(pane.device_combo.findText("Foldable · 673×841"))
    pane.zoom_fit()
    again.close()
    third = make_studio(home=home)
    pane = third.window.preview_pane
    assert pane.device_combo.currentText() == "Foldable · 673×841"
    assert pane.zoom() is None and pane.device_size() == (841, 673)  # still landscape


def test_a_settings_file_with_values_that_mean_nothing_keeps_the_defaults(
    make_studio: Any, tmp_path: Path, user_home: Path
) -> None:
    from PySide6.QtCore import Qt

    from studio.ui import habits
    from studio.ui.settings import UiSettings

    home = tmp_path / "odd-home"
    settings = UiSettings(home / "config" / "ui.ini")
    for key, value in (
        (habits.DEVICE_KEY, "999x1"),
        (habits.CUSTOM_KEY, "wide"),
        (habits.LANDSCAPE_KEY, "maybe"),
        (habits.ZOOM_KEY, "1.25"),
        (habits.THEME_KEY, "sepia"),
        (habits.SORT_KEY, "colour ascending"),
    ):
        settings.set_value(key, value)
    studio = make_studio(home=home)
    pane, library = studio.window.preview_pane, studio.window.library_panel
    assert (pane.device_size(), pane.zoom(), pane.theme()) == ((360, 800), None, "light")
    assert not pane.landscape_action.isChecked()
    assert library.sort_order() == ("modified", Qt.SortOrder.DescendingOrder)
