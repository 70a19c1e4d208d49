"""The studio window wired to a real library, preview and document: what a designer does with it."""

from __future__ import annotations

import copy
import json
import warnings
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget, QFileDialog

from studio.agent.providers import FixedModel
from studio.agent.testing import ScriptedModel, calls, reply
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio
from tests.ui.agent_helpers import finish

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

WINDOW = {"placement": {"type": "fullscreen"}}
DEMO: dict[str, Any] = {
    "id": "demo",
    "window": WINDOW,
    "requires": {"platform": ["test"]},
    "state": {"on": False},
    "data": {"echo": None},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {
                "type": "button",
                "id": "go",
                "label": "Echo",
                "onTap": [
                    {
                        "type": "platform",
                        "call": "test.echo",
                        "args": {"text": "hi"},
                        "into": "/data/echo",
                    }
                ],
            },
            {"type": "switch", "id": "sw", "stateKey": "on"},
        ],
    },
}


@pytest.fixture
def studio(make_studio: Any) -> Studio:
    return make_studio()  # type: ignore[no-any-return]


@pytest.fixture
def demo_file(tmp_path: Path) -> Path:
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(DEMO), encoding="utf-8")
    return path


def open_demo(studio: Studio, demo_file: Path) -> None:
    studio.controller.import_files([demo_file])
    studio.settle()
    assert studio.controller.document is not None
    assert studio.controller.document.name == "demo"


def click_node(studio: Studio, address: str) -> None:
    """A real mouse click on the centre of the node as the preview shows it."""
    preview = studio.window.preview_pane.preview
    studio.wait_for(lambda: any(n["address"] == address for n in preview.visible_summary()))
    node = next(n for n in preview.visible_summary() if n["address"] == address)
    b = node["bounds"]
    screen = preview.screen_item()
    scene = screen.mapToScene(QPointF(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2))
    QTest.mouseClick(
        preview.quick_widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
        QPoint(round(scene.x()), round(scene.y())),
    )  # fmt: skip


def test_first_launch_lists_templates_and_opens_one(studio: Studio) -> None:
    window = studio.window
    names = [window.library_panel.row(i)[0] for i in window.library_panel.entry_ids()]  # type: ignore[index]
    assert sorted(names) == sorted(
        ["List and detail", "Sign-in form", "Tabbed app", "Settings", "Social feed"]
    )
    document = studio.controller.document
    assert document is not None
    assert window.windowTitle() == f"Proto Studio — {document.name}"
    assert window.spec_tree.view.model().rowCount() == 1  # the root, expanded below
    assert window.panel_of(window.findChild(QDockWidget, "agentDock")).objectName() == "agentSheet"
    assert studio.window.dockWidgetArea(window.agent_dock) == Qt.DockWidgetArea.RightDockWidgetArea


def test_tree_selection_highlights_in_preview_and_inspector(
    studio: Studio, demo_file: Path
) -> None:
    open_demo(studio, demo_file)
    tree = studio.window.spec_tree
    index = tree._items["title"].index()
    tree.view.setCurrentIndex(index)  # as a user click does
    studio.settle()
    assert studio.workspace.selection.primary == "title"
    assert studio.window.preview_pane.preview.controller.property("selected") == "title"
    assert studio.window.inspector.text_edit.text() == "Hello"


def test_click_in_preview_in_edit_mode_selects_in_tree(studio: Studio, demo_file: Path) -> None:
    open_demo(studio, demo_file)
    studio.window.preview_pane.edit_button.click()
    click_node(studio, "go")
    studio.wait_for(lambda: studio.window.spec_tree.selected_address() == "go")
    assert studio.window.preview_pane.preview.controller.property("selected") == "go"
    assert studio.window.inspector.text_edit.text() == "Echo"
    runtime = studio.window.preview_pane.preview.runtime
    assert runtime is not None and runtime.data.get("echo") is None  # edit mode ran nothing


def test_inspector_edit_is_a_revision_and_undo_restores(studio: Studio, demo_file: Path) -> None:
    open_demo(studio, demo_file)
    studio.controller.select("title")
    inspector = studio.window.inspector
    inspector.text_edit.setText("Welcome")
    inspector.apply_form_button.click()
    studio.settle()
    document = studio.controller.document
    assert document is not None
    assert document.spec["root"]["children"][0]["text"] == "Welcome"
    assert studio.status == "Applied: Set text of text 'title'"
    assert studio.window.revisions.entries()[0].startswith("Set text of text 'title'")
    assert "title" in studio.window.spec_tree.highlighted()
    assert studio.window.preview_pane.preview.controller.property("highlighted") == ["title"]
    assert any(
        n.get("text") == "Welcome" for n in studio.window.preview_pane.preview.visible_summary()
    )
    # Saved to the library (spec and drafts) off the GUI thread.
    entry_id = document.entry_id
    assert entry_id is not None
    assert studio.library.load_spec(entry_id)["root"]["children"][0]["text"] == "Welcome"
    # Ctrl+Z (the window's Undo) restores it.
    studio.window.actions_by_name["undo"].trigger()
    studio.settle()
    assert document.spec["root"]["children"][0]["text"] == "Hello"
    assert studio.status.startswith("Undid: Set text of text 'title'")
    assert inspector.text_edit.text() == "Hello"
    assert studio.library.load_spec(entry_id)["root"]["children"][0]["text"] == "Hello"
    studio.window.actions_by_name["redo"].trigger()
    studio.settle()
    assert document.spec["root"]["children"][0]["text"] == "Welcome"


def test_invalid_edit_shows_inline_error_and_changes_nothing(
    studio: Studio, demo_file: Path
) -> None:
    open_demo(studio, demo_file)
    studio.controller.select("sw")
    document = studio.controller.document
    assert document is not None
    before = copy.deepcopy(document.spec)
    inspector = studio.window.inspector
    inspector.json_edit.setPlainText(json.dumps({"type": "switch", "id": "sw", "stateKey": 5}))
    inspector.apply_json_button.click()
    studio.settle()
    assert inspector.error.isVisible()
    assert "stateKey" in inspector.error.text()
    assert document.spec == before
    assert len(document.revisions.revisions) == 0
    assert studio.window.revisions.entries() == ["Opened"]


def test_edit_renders_a_thumbnail_into_the_library(studio: Studio, demo_file: Path) -> None:
    open_demo(studio, demo_file)
    entry_id = studio.controller.document.entry_id  # type: ignore[union-attr]
    studio.controller.select("title")
    studio.window.inspector.text_edit.setText("Thumb")
    studio.window.inspector.apply_form()
    studio.wait_for(lambda: studio.library.thumbnail_path(entry_id) is not None)
    png = studio.library.thumbnail_path(entry_id).read_bytes()  # type: ignore[union-attr]
    assert png.startswith(b"\x89PNG")
    assert studio.window.library_panel.has_thumbnail(entry_id)


def test_open_by_file_dialog_adds_to_recent_files(
    studio: Studio, demo_file: Path, qtbot: Any
) -> None:
    def choose() -> None:
        dialog = studio.window.findChild(QFileDialog, "fileDialog")
        assert dialog is not None and dialog.isVisible()
        dialog.selectFile(str(demo_file))
        dialog.accept()

    QTimer.singleShot(0, choose)
    QTest.keyClick(studio.window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    studio.wait_for(
        lambda: studio.controller.document is not None and studio.controller.document.name == "demo"
    )
    assert studio.status == "Imported demo.json"
    assert studio.window.windowTitle() == "Proto Studio — demo"
    recent = [a.text() for a in studio.window.recent_actions()]
    assert recent == [str(demo_file.resolve())]
    # Recent files survive a restart (settings on disk) and open the file again.
    assert studio.settings.recent_files() == recent
    # Opening it again from the recent menu opens the same prototype, without a copy.
    entries = [e.id for e in studio.library.list_entries()]
    opened = studio.controller.document.entry_id
    studio.controller.open_entry(entries[0] if entries[0] != opened else entries[1])
    studio.wait_for(lambda: studio.controller.document.entry_id != opened)
    studio.window.recent_actions()[0].trigger()
    studio.wait_for(lambda: studio.controller.document.entry_id == opened)
    assert [e.id for e in studio.library.list_entries()] == entries


def test_paste_spec_from_clipboard(studio: Studio) -> None:
    spec = copy.deepcopy(DEMO)
    spec["id"] = "pasted-demo"
    QGuiApplication.clipboard().setText(json.dumps(spec))
    studio.window.actions_by_name["paste_spec"].trigger()
    studio.settle()
    document = studio.controller.document
    assert document is not None and document.name == "pasted-demo"
    entry = studio.library.get(document.entry_id)  # type: ignore[arg-type]
    assert entry.source == "paste"
    assert studio.window.library_panel.row(entry.id)[1] == "Pasted"  # type: ignore[index]


def test_paste_of_invalid_spec_says_where_and_adds_nothing(studio: Studio) -> None:
    count = len(studio.library.list_entries())
    QGuiApplication.clipboard().setText(
        json.dumps({"id": "x", "window": WINDOW, "root": {"type": "nope"}})
    )
    studio.window.actions_by_name["paste_spec"].trigger()
    studio.settle()
    assert studio.status.startswith("Paste spec failed: ")
    assert "root" in studio.status and "\n" not in studio.status
    assert len(studio.library.list_entries()) == count


def test_drop_of_files_imports_them(studio: Studio, demo_file: Path, tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a spec")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(demo_file)), QUrl.fromLocalFile(str(other))])
    window = studio.window
    with warnings.catch_warnings():
        # PySide 6.12 flags QDragEnterEvent's only constructor (QPoint) as deprecated.
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(
            QPoint(200, 200), Qt.DropAction.CopyAction, mime,
            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
        )  # fmt: skip
    QApplication.sendEvent(window, enter)  # a drop is delivered only after an accepted enter
    assert enter.isAccepted()
    drop = QDropEvent(
        QPointF(200, 200), Qt.DropAction.CopyAction, mime,
        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    QApplication.sendEvent(window, drop)
    assert drop.isAccepted()
    studio.settle()
    assert studio.controller.document is not None and studio.controller.document.name == "demo"
    assert not any(e.name == "notes" for e in studio.library.list_entries())


def test_import_of_a_broken_file_names_it(studio: Studio, tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"id": "x", ')
    studio.controller.import_files([bad])
    studio.settle()
    assert studio.status.startswith("Import failed: broken.json")


def test_export_bundle_round_trip(studio: Studio, demo_file: Path, tmp_path: Path) -> None:
    open_demo(studio, demo_file)
    studio.controller.select("title")
    studio.window.inspector.text_edit.setText("Shared")
    studio.window.inspector.apply_form()
    studio.settle()
    out = tmp_path / "out" / "demo"
    out.parent.mkdir()
    studio.controller.export_bundle(out)
    studio.settle()
    bundle = out.with_name("demo.protobundle")
    assert zipfile.is_zipfile(bundle)
    assert studio.status == "Exported demo.protobundle"
    studio.controller.import_files([bundle])
    studio.settle()
    document = studio.controller.document
    assert document is not None
    assert studio.library.get(document.entry_id).source == "share"  # type: ignore[arg-type]
    assert document.spec["root"]["children"][0]["text"] == "Shared"
    assert document.spec["root"]["children"][1] == DEMO["root"]["children"][1]


def test_export_spec_json_and_png(studio: Studio, demo_file: Path, tmp_path: Path) -> None:
    open_demo(studio, demo_file)
    studio.controller.export_spec(tmp_path / "spec.json")
    studio.settle()
    assert json.loads((tmp_path / "spec.json").read_text()) == DEMO
    studio.wait_for(lambda: not studio.window.preview_pane.preview.grab_image().isNull())
    studio.controller.export_png(tmp_path / "screen.png")
    studio.settle()
    assert (tmp_path / "screen.png").read_bytes().startswith(b"\x89PNG")


def test_delete_and_undo_delete(studio: Studio, demo_file: Path) -> None:
    open_demo(studio, demo_file)
    panel = studio.window.library_panel
    entry_id = studio.controller.document.entry_id  # type: ignore[union-attr]
    panel.select(entry_id)
    panel.delete_button.click()
    studio.settle()
    assert entry_id not in panel.entry_ids()
    assert studio.status == "Deleted demo"
    assert studio.window.undo_delete_button.isVisible()
    assert (
        studio.controller.document is not None and studio.controller.document.entry_id != entry_id
    )
    studio.window.undo_delete_button.click()
    studio.settle()
    assert entry_id in panel.entry_ids()
    assert studio.library.load_spec(entry_id) == DEMO
    assert not studio.window.undo_delete_button.isVisible()
    # Ctrl+Z with the library focused restores a delete (not a document undo).
    panel.select(entry_id)
    panel.delete_button.click()
    studio.settle()
    panel.list.setFocus()
    studio.wait_for(lambda: panel.list.hasFocus() or QApplication.focusWidget() is panel.list, 2)
    QTest.keyClick(panel.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    studio.settle()
    assert entry_id in panel.entry_ids()
    assert studio.status == "Restored demo"


def test_duplicate_and_rename(studio: Studio, demo_file: Path) -> None:
    open_demo(studio, demo_file)
    panel = studio.window.library_panel
    entry_id = studio.controller.document.entry_id  # type: ignore[union-attr]
    panel.select(entry_id)
    panel.duplicate_button.click()
    studio.settle()
    copies = [e for e in studio.library.list_entries() if e.name == "demo copy"]
    assert len(copies) == 1 and copies[0].id in panel.entry_ids()
    panel.select(entry_id)
    panel.list.currentItem().setText(0, "Renamed demo")  # what inline editing commits
    studio.settle()
    assert studio.library.get(entry_id).name == "Renamed demo"
    assert studio.window.windowTitle() == "Proto Studio — Renamed demo"


def test_new_from_template(studio: Studio) -> None:
    actions = studio.window.library_panel.new_menu.actions()
    settings = next(a for a in actions if a.text() == "Settings")
    names = [e.name for e in studio.library.list_entries()]
    settings.trigger()
    studio.settle()
    assert len(studio.library.list_entries()) == len(names) + 1
    # A name not in use: "Settings", or "Settings 2" when a "Settings" is already there.
    expected = "Settings 2" if "Settings" in names else "Settings"
    assert studio.window.windowTitle() == f"Proto Studio — {expected}"
    entry = studio.library.get(studio.controller.document.entry_id)  # type: ignore[union-attr,arg-type]
    assert entry.source == "template" and entry.get("template") == "settings"


def test_window_layout_is_remembered(make_studio: Any) -> None:
    first = make_studio()
    first.window.revisions_dock.hide()
    first.window.removeDockWidget(first.window.tree_dock)
    first.window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, first.window.tree_dock)
    first.window.tree_dock.show()
    first.close()
    window = make_studio().window
    assert not window.revisions_dock.isVisibleTo(window)
    assert window.dockWidgetArea(window.tree_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert window.dockWidgetArea(window.library_dock) == Qt.DockWidgetArea.LeftDockWidgetArea


def test_platform_call_from_preview_runs_through_the_host(
    make_studio: Any, demo_file: Path
) -> None:
    from studio.platform.consent import ConsentBroker
    from studio.platform.host import PlatformHost
    from studio.platform.registry import default_registry

    registry, broker = default_registry(), ConsentBroker()
    hosts: list[PlatformHost] = []

    def host_for(prototype_id: str) -> PlatformHost:
        hosts.append(PlatformHost(registry, broker, prototype_id=prototype_id))
        return hosts[-1]

    studio = make_studio(host_factory=host_for)
    open_demo(studio, demo_file)
    click_node(studio, "go")
    runtime = studio.window.preview_pane.preview.runtime
    assert runtime is not None
    studio.wait_for(lambda: runtime.data.get("echo") == {"text": "hi"})
    assert hosts[-1].prototype_id == studio.controller.document.entry_id  # type: ignore[union-attr]
    assert [a["call"] for a in hosts[-1].audit] == ["test.echo"]
    assert any("test.echo" in line for line in studio.window.preview_pane.log_lines())


@pytest.mark.qt_log_ignore(
    OFFSCREEN_SIZE_HINTS,
    r"This plugin does not support raise\(\)",
    r"This plugin does not support grabbing the keyboard",
)  # a popup menu on the offscreen platform
def test_ctrl_n_offers_the_templates(studio: Studio, qtbot: Any) -> None:
    menu = studio.window.library_panel.new_menu
    assert not menu.isVisible()
    QTest.keyClick(studio.window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(menu.isVisible)
    assert [a.text() for a in menu.actions() if not a.isSeparator()] == [
        "New from description…",
        *(t.name for t in studio.controller.templates),
    ]
    menu.hide()


def test_ctrl_e_exports_the_open_prototype(studio: Studio, demo_file: Path, tmp_path: Path) -> None:
    open_demo(studio, demo_file)
    target = tmp_path / "saved.protobundle"

    def choose() -> None:
        dialog = studio.window.findChild(QFileDialog, "fileDialog")
        assert dialog is not None and dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
        dialog.selectFile(str(target))
        dialog.accept()

    QTimer.singleShot(0, choose)
    QTest.keyClick(studio.window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    studio.wait_for(lambda: target.is_file())
    assert zipfile.is_zipfile(target)
    assert studio.status == "Exported saved.protobundle"


def test_unreadable_file_at_start_says_so_and_opens_the_library(
    make_studio: Any, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": ')
    studio = make_studio(bad)
    assert studio.controller.document is not None  # a template is open instead
    assert studio.window.windowTitle().startswith("Proto Studio — ")
    assert not any(e.source == "file" for e in studio.library.list_entries())
    assert studio.status.startswith("Import failed: bad.json")


def test_agent_sheet_sits_in_the_agent_dock_and_follows_the_open_prototype(
    studio: Studio,
) -> None:
    from PySide6.QtWidgets import QDockWidget

    from studio.ui.agent_sheet import AgentSheet

    dock = studio.window.findChild(QDockWidget, "agentDock")
    assert isinstance(studio.window.panel_of(dock), AgentSheet)
    assert studio.controller.document is not None
    assert studio.sheet.driver is None  # no run yet
    studio.controller.select("root")
    assert studio.sheet.selected == "root"  # a click in the tree is the next run's context
    studio.controller.new_from_template("settings")
    studio.settle()
    assert studio.sheet.selected is None


RETITLE = {
    "ops": [
        {"op": "replaceNode", "id": "go", "node": {"type": "button", "id": "go", "label": "Send"}}
    ],
    "summary": "Rename the button to Send",
}


def shown_texts(studio: Studio) -> list[str]:
    preview = studio.window.preview_pane.preview
    preview.grab_image()  # a rendered, polished frame: what the user sees
    return [str(n.get("text")) for n in preview.visible_summary() if n.get("text")]


def test_a_draft_under_review_and_an_inspector_edit(make_studio: Any, demo_file: Path) -> None:
    """Issue 11's scenario in the window: the preview and tree show the draft; an inspector edit
    of another node lands in the document and the draft is rebased on it (both shown, the card
    says so); an edit of the draft's node is refused in one line; Apply lands both."""
    model = ScriptedModel([calls(("patch", RETITLE)), reply("Renamed.")])
    studio = make_studio(models=FixedModel(model))
    open_demo(studio, demo_file)
    sheet, window = studio.sheet, studio.window
    sheet.instruction.setPlainText("Call the button Send")
    sheet.send_button.click()
    assert finish(studio.loop, sheet) == "completed"
    studio.wait_for(lambda: "Send" in shown_texts(studio))
    assert "Echo" not in shown_texts(studio) and "Hello" in shown_texts(studio)
    assert window.spec_tree.highlighted() == {"go"}
    assert "go — Send" in [item.text() for item in window.spec_tree._items.values()]
    document = studio.controller.document
    assert document is not None and document.spec == DEMO  # the draft is not in the document

    # The user edits the title in the inspector while the draft is under review.
    studio.controller.select("title")
    inspector = window.inspector
    assert inspector.text_edit.text() == "Hello"
    inspector.text_edit.setText("Welcome")
    inspector.apply_form_button.click()
    studio.settle()
    assert document.spec["root"]["children"][0]["text"] == "Welcome"
    assert document.spec["root"]["children"][1]["label"] == "Echo"
    studio.wait_for(lambda: "Welcome" in shown_texts(studio))
    assert "Send" in shown_texts(studio)  # still the draft, rebased on the edit
    assert "Rebased on your edit" in sheet.review.text() and sheet.apply_button.isEnabled()
    assert window.revisions.entries()[0] == "Set text of text 'title'"

    # The draft's own node cannot be edited while it is under review.
    studio.controller.select("go")
    assert inspector.text_edit.text() == "Send"  # the inspector shows the draft
    inspector.text_edit.setText("Mine")
    inspector.apply_form_button.click()
    studio.settle()
    assert inspector.error_text() == (
        "'go' is part of the agent's draft: apply or discard the draft to edit it"
    )
    assert document.spec["root"]["children"][1]["label"] == "Echo"

    sheet.apply_button.click()
    studio.settle()
    assert [r.author for r in document.revisions.applied] == ["user", "agent"]
    assert document.spec["root"]["children"][0]["text"] == "Welcome"
    assert document.spec["root"]["children"][1]["label"] == "Send"
    assert not sheet.review.isVisibleTo(sheet) or "Applied" in sheet.review.text()
    assert window.spec_tree.highlighted() == set()


def test_a_draft_that_no_longer_applies_shows_the_document_and_offers_re_run(
    make_studio: Any, demo_file: Path
) -> None:
    model = ScriptedModel([calls(("patch", RETITLE)), reply("Renamed.")])
    studio = make_studio(models=FixedModel(model))
    open_demo(studio, demo_file)
    sheet = studio.sheet
    sheet.instruction.setPlainText("Call the button Send")
    sheet.send_button.click()
    finish(studio.loop, sheet)
    # The user replaces the root (the JSON tab of the inspector): the button the draft edits
    # gets another id, so the draft's replaceNode of "go" has nothing left to replace.
    studio.controller.select("root")
    root = copy.deepcopy(studio.workspace.shown.spec["root"])
    root["children"][1] = {"type": "button", "id": "echo", "label": "Echo"}
    studio.window.inspector.json_edit.setPlainText(json.dumps(root))
    studio.window.inspector.apply_json_button.click()
    studio.settle()
    assert "would change 'go'" in studio.window.inspector.error_text()  # the draft's button
    # A state edit goes to the document; then the user renames the button by hand elsewhere.
    document = studio.controller.document
    assert document is not None
    document.apply_ops(
        [{"op": "replaceNode", "id": "go", "node": {"type": "button", "id": "echo", "label": "E"}}]
    )
    studio.settle()
    review = studio.workspace.review
    assert review is not None and review.stale
    assert "no longer applies" in sheet.review.text() and "go" in sheet.review.text()
    assert not sheet.apply_button.isEnabled()
    assert sheet.rerun_button.isVisible() and sheet.rerun_button.isEnabled()
    studio.wait_for(lambda: "E" in shown_texts(studio))  # the document is shown
    assert "Send" not in shown_texts(studio)
    model.add(reply("Nothing to rename any more."))
    sheet.rerun_button.click()
    assert finish(studio.loop, sheet, runs=2) == "completed"
    assert model.requests[-1].messages[1]["content"] == "Call the button Send"
    assert studio.workspace.review is None  # the stale draft was discarded
