"""The library panel on its own: what it lists and which requests its controls make."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMainWindow

from studio.library.entries import LibraryEntry
from studio.library.templates import list_templates
from studio.ui.controller import png_bytes
from studio.ui.library_panel import LibraryPanel, modified_label, modified_tip

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def entry(
    entry_id: str, name: str, source: str = "file", modified: str = "2026-11-30T10:00:00.000Z"
) -> LibraryEntry:
    return LibraryEntry(id=entry_id, name=name, source=source, created=modified, modified=modified)


@pytest.fixture
def panel(qtbot: Any) -> LibraryPanel:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_entries([entry("aaa", "Checkout", "generated"), entry("bbb", "Inbox", "share")])
    panel.show()
    return panel


def test_lists_name_source_and_modified(panel: LibraryPanel) -> None:
    assert panel.entry_ids() == ["aaa", "bbb"]
    assert panel.row("aaa") == ("Checkout", "Generated", modified_label("2026-11-30T10:00:00.000Z"))
    assert panel.row("bbb")[1] == "Shared bundle"  # type: ignore[index]
    item = panel.list.topLevelItem(0)
    assert item.toolTip(2) == modified_tip("2026-11-30T10:00:00.000Z")
    assert modified_tip("2026-11-30T10:00:00.000Z").startswith("2026-11-30 ")


def test_the_modified_column_is_as_short_as_a_mail_clients() -> None:
    import datetime as dt

    now = dt.datetime(2026, 12, 2, 15, 0).astimezone()

    def at(day: dt.datetime) -> str:
        return day.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")

    assert modified_label(at(now.replace(hour=9, minute=5)), now) == "09:05"  # today
    assert modified_label(at(now.replace(month=11, day=30)), now) == "30 Nov"  # this year
    assert modified_label(at(now.replace(year=2025)), now) == "2025-12-02"  # before
    assert modified_label("not a time", now) == "not a time"


def test_a_narrow_library_still_shows_every_name(qtbot: Any) -> None:
    import datetime as dt

    today = dt.datetime.now(dt.UTC).isoformat().replace("+00:00", "Z")
    names = ["Social feed", "Tabbed app", "Settings", "List and detail"]
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_entries([entry(f"e{i}", n, "template", today) for i, n in enumerate(names)])
    panel.resize(270, 400)  # the library dock on a 1280 px laptop, its splitter dragged in
    panel.show()
    qtbot.waitUntil(lambda: panel.list.header().sectionSize(0) > 0)
    view, header = panel.list, panel.list.header()
    room = header.sectionSize(0) - view.iconSize().width() - 3 * view.style().pixelMetric(
        view.style().PixelMetric.PM_FocusFrameHMargin) - 8  # fmt: skip
    metrics = view.fontMetrics()
    # Each word of each name fits beside the thumbnail, and the names wrap onto its height
    # instead of being cut to "…".
    widest = max(metrics.horizontalAdvance(w) for n in names for w in n.split())
    assert room >= widest, (room, widest)
    assert view.wordWrap()
    lines = view.iconSize().height() // metrics.lineSpacing()
    assert view.isColumnHidden(1)  # the Source column made room (it is in the tool tip)
    assert view.topLevelItem(0).toolTip(0) == "Social feed (Template)"
    for name in names:
        assert metrics.boundingRect(0, 0, room, 10000, Qt.TextFlag.TextWordWrap, name).height() <= (
            lines * metrics.lineSpacing()), name  # fmt: skip
    panel.resize(480, 400)  # wide again: the Source column is back
    qtbot.waitUntil(lambda: not view.isColumnHidden(1))


def test_thumbnail_shows_as_icon_and_survives_a_refresh(panel: LibraryPanel) -> None:
    image = QImage(90, 160, QImage.Format.Format_RGB32)
    image.fill(QColor("teal"))
    assert not panel.has_thumbnail("aaa")
    panel.set_thumbnail("aaa", png_bytes(image))
    assert panel.has_thumbnail("aaa")
    panel.set_entries([entry("aaa", "Checkout"), entry("ccc", "New")])
    assert panel.has_thumbnail("aaa") and not panel.has_thumbnail("ccc")
    panel.set_thumbnail("ccc", b"not a png")  # ignored, no crash
    assert not panel.has_thumbnail("ccc")


def test_buttons_act_on_the_selected_entry(panel: LibraryPanel, qtbot: Any) -> None:
    panel.select(None)
    assert not panel.delete_button.isEnabled()  # nothing selected
    panel.select("bbb")
    for button, signal in (
        (panel.delete_button, panel.deleteRequested),
        (panel.duplicate_button, panel.duplicateRequested),
        (panel.export_button, panel.exportRequested),
    ):
        with qtbot.waitSignal(signal) as blocker:
            button.click()
        assert blocker.args == ["bbb"]
    with qtbot.waitSignal(panel.importRequested):
        panel.import_button.click()


def test_activating_a_row_opens_it(panel: LibraryPanel, qtbot: Any) -> None:
    panel.select("aaa")
    panel.list.setFocus()
    with qtbot.waitSignal(panel.openRequested) as blocker:
        QTest.keyClick(panel.list, Qt.Key.Key_Return)
    assert blocker.args == ["aaa"]


def test_inline_rename_requests_a_rename(panel: LibraryPanel, qtbot: Any) -> None:
    panel.select("aaa")
    with qtbot.waitSignal(panel.renameRequested) as blocker:
        panel.list.currentItem().setText(0, "  Checkout v2 ")
    assert blocker.args == ["aaa", "Checkout v2"]
    with qtbot.assertNotEmitted(panel.renameRequested):
        panel.set_entries([entry("aaa", "Checkout v2")])  # a refresh is not a rename


def test_new_menu_offers_a_description_then_lists_the_templates(
    panel: LibraryPanel, qtbot: Any
) -> None:
    templates = list_templates()
    panel.set_templates(templates)
    describe, separator, *actions = panel.new_menu.actions()
    assert describe.text() == "New from description…" and separator.isSeparator()
    assert [a.text() for a in actions] == [t.name for t in templates]
    with qtbot.waitSignal(panel.newRequested) as blocker:
        actions[1].trigger()
    assert blocker.args == [templates[1].id]
    with qtbot.waitSignal(panel.describeRequested):
        describe.trigger()


def test_ctrl_z_in_the_list_undoes_a_delete_not_the_window_undo(qtbot: Any) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    panel = LibraryPanel()
    window.setCentralWidget(panel)
    undo = QAction("Undo", window)
    undo.setShortcut("Ctrl+Z")
    window.addAction(undo)
    window.show()
    panel.set_entries([entry("aaa", "Checkout")])
    panel.list.setFocus()
    qtbot.waitUntil(panel.list.hasFocus)
    triggered: list[bool] = []
    undo.triggered.connect(lambda: triggered.append(True))
    with qtbot.waitSignal(panel.undoDeleteRequested):
        QTest.keyClick(panel.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert triggered == []
    panel.select("aaa")
    with qtbot.waitSignal(panel.deleteRequested) as blocker:
        QTest.keyClick(panel.list, Qt.Key.Key_Delete)
    assert blocker.args == ["aaa"]


ROWS = [
    ("a", "sign-in form", "template", "2026-11-29T10:00:00.000Z"),
    ("b", "Checkout", "generated", "2026-11-30T10:00:00.000Z"),
    ("c", "Sign-in form 2", "file", "2026-11-28T10:00:00.000Z"),
]


def test_search_and_sort(qtbot: Any) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_entries([entry(*row) for row in ROWS])
    assert panel.shown_ids() == ["b", "a", "c"]  # newest first
    panel.search.setText("SIGN-IN")
    assert panel.shown_ids() == ["a", "c"]  # by name, whatever the case
    panel.search.setText("generated")
    assert panel.shown_ids() == ["b"]  # or by source
    panel.search.clear()
    header = panel.list.header()
    header.sectionClicked.emit(0)  # a click on Name: A to Z, ignoring case
    assert panel.shown_ids() == ["b", "a", "c"] and header.sortIndicatorSection() == 0
    header.sectionClicked.emit(0)  # again: Z to A
    assert panel.shown_ids() == ["c", "a", "b"]
    panel.search.setText("form")
    panel.set_entries([*(entry(*row) for row in ROWS), entry("d", "Form builder")])
    assert panel.shown_ids() == ["c", "a", "d"]  # a refresh keeps the search and the sort


def test_thumbnails_are_large_enough_to_recognise(panel: LibraryPanel) -> None:
    image = QImage(160, 356, QImage.Format.Format_RGB32)
    image.fill(QColor("teal"))
    panel.set_thumbnail("aaa", png_bytes(image))
    item = panel.list.topLevelItem(panel.entry_ids().index("aaa"))
    size = item.icon(0).actualSize(panel.list.iconSize())
    assert size.height() >= 80 and size.width() >= 35  # was 27x48: unrecognisable
    assert panel.list.visualItemRect(item).height() >= 80
