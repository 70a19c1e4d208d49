"""Help > About: the version, and every bundled component with its licence and licence texts."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from studio.notices import bundled_distributions
from studio.ui.about import AboutDialog
from studio.ui.identity import FileOpens
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS

# The dialog is raised when it opens; the offscreen platform cannot raise windows and says so.
pytestmark = pytest.mark.qt_log_ignore(
    OFFSCREEN_SIZE_HINTS, r"This plugin does not support raise\(\)"
)

REPO = Path(__file__).resolve().parents[2]


def _version() -> str:
    return str(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"])


def open_about(studio: Any, qtbot: Any) -> AboutDialog:
    help_menu = next(m for m in studio.window.menuBar().actions() if m.text() == "&Help").menu()
    action = next(a for a in help_menu.actions() if a.objectName() == "action_about")
    action.trigger()
    dialog = studio.window.about_dialog
    assert isinstance(dialog, AboutDialog) and dialog.isVisible()
    if not dialog.notices:
        with qtbot.waitSignal(dialog.loaded, timeout=20000):
            pass
    return dialog


def test_help_about_shows_the_version_and_the_bundled_licences(
    make_studio: Any, qloop: asyncio.AbstractEventLoop, qtbot: Any, tmp_path: Path
) -> None:
    studio = make_studio(home=tmp_path / "home", extras=False)
    dialog = open_about(studio, qtbot)
    assert f"Version {_version()}" in dialog.title.text()
    names = [
        dialog.components.topLevelItem(i).text(0)
        for i in range(dialog.components.topLevelItemCount())
    ]
    assert names[0] == "proto-studio"
    assert {"Qt", "FFmpeg", "Python", "Material Icons (icon fonts)", "av", "httpx"} <= set(names)
    # the preview's font, and its package
    assert {"Roboto (text font)", "font-roboto"} <= set(names)
    assert "pytest" not in names  # only what the studio requires, not its test tools

    def show(name: str) -> None:
        dialog.components.setCurrentItem(dialog.components.topLevelItem(names.index(name)))

    show("Qt")
    qt = dialog.notice("Qt")
    assert qt is not None and qt.licence == "LGPL-3.0-only"
    assert "download.qt.io" in dialog.details.text()
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in dialog.text.toPlainText()
    assert dialog.text_choice.count() == 2  # the LGPL and the GPL it builds on

    show("FFmpeg")
    ffmpeg = dialog.notice("FFmpeg")
    assert ffmpeg is not None
    # As PyAV's wheel builds it, asked from libavcodec itself.
    assert "GPL" in ffmpeg.licence and "--enable-" in ffmpeg.note
    assert "ffmpeg.org/releases" in dialog.details.text()

    show("Material Icons (icon fonts)")
    assert "Apache License" in dialog.text.toPlainText()

    show("Roboto (text font)")
    assert "Apache License" in dialog.text.toPlainText()

    show("httpx")
    assert "BSD" in dialog.notice("httpx").licence  # type: ignore[union-attr]
    assert "Copyright" in dialog.text.toPlainText()  # the wheel's own LICENSE file
    dialog.close()


def test_about_lists_what_the_studio_requires_transitively() -> None:
    names = {d.metadata["Name"].lower().replace("_", "-") for d in bundled_distributions()}
    assert {"proto-studio", "pyside6-essentials", "shiboken6", "av", "httpx", "httpcore"} <= names
    assert not {"pytest", "ruff", "mypy", "pyinstaller"} & names  # extras are not followed


def test_a_file_the_os_asks_to_open_is_imported(
    make_studio: Any, qloop: asyncio.AbstractEventLoop, qtbot: Any, tmp_path: Path
) -> None:
    """macOS sends a double-clicked .protobundle as a QFileOpenEvent, before or after start-up."""
    spec = tmp_path / "Opened by the OS.json"
    spec.write_text(
        '{"id": "os-open", "window": {"placement": {"type": "fullscreen"}},'
        ' "root": {"type": "text", "text": "hello"}}'
    )
    app = QApplication.instance()
    opens = FileOpens(app)
    app.installEventFilter(opens)
    try:
        QApplication.sendEvent(app, QFileOpenEvent(QUrl.fromLocalFile(str(spec))))  # too early
        studio = make_studio(home=tmp_path / "home", extras=False)
        opens.deliver(studio.controller.import_files)
        studio.settle()
        assert studio.controller.document is not None
        assert studio.controller.document.name == "Opened by the OS"
        entries = [e.name for e in studio.library.list_entries() if e.source == "file"]
        assert entries == ["Opened by the OS"]
    finally:
        app.removeEventFilter(opens)
