"""The studio window: builds the panels, menus and docks and wires them to the controller.

Only building and wiring lives here (`_add_widgets`, `_connect_signals`); commands are in
`studio.ui.controller`, panels in their own modules.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QWidget,
)

from studio.ui import commands
from studio.ui.about import about_action
from studio.ui.data_panel import DataPanel
from studio.ui.dnd import FileDropFilter
from studio.ui.document_panel import DocumentPanel
from studio.ui.first_run import FirstRunHint
from studio.ui.fit import FIRST_SIZE, DockBody, WholeTabTitles, first_geometry, onto_screen
from studio.ui.habits import remember_library_sort, remember_preview
from studio.ui.inspector import InspectorPanel
from studio.ui.keyboard import (
    FocusRing,
    TabLeaves,
    UndoEverywhere,
    next_focus,
    shortcuts_action,
    show_focused,
)
from studio.ui.library_panel import LibraryPanel
from studio.ui.node_menus import build_node_menus
from studio.ui.on_screen import WhileOnScreen
from studio.ui.palette import PalettePanel
from studio.ui.platform_panel import PlatformPanel
from studio.ui.preview_pane import PreviewPane
from studio.ui.revisions_panel import RevisionsPanel
from studio.ui.settings import UiSettings
from studio.ui.spec_tree import SpecTreePanel, fill_menu
from studio.ui.state_panel import StatePanel
from studio.ui.texts import AGENT_LOADING, APP_TITLE

if TYPE_CHECKING:
    from studio.platform.consent import ConsentBroker
    from studio.ui.agent_sheet import AgentServices, AgentSheet
    from studio.ui.controller import StudioController
    from studio.ui.devices import DeviceManager
    from studio.ui.permissions import PermissionsDialog

PNG_SCALE_KEY = "export/png_scale"
#: The agent dock's panel's minimum size until the sheet arrives: the sheet's own
#: (tests/ui/test_fit.py checks they agree), so the docks do not move when it does.
AGENT_SHEET_MINIMUM = QSize(260, 375)


class MainWindow(QMainWindow):
    """Proto Studio's main window. `closing` is emitted once, after the layout was saved."""

    closing = Signal()

    def __init__(self, settings: UiSettings) -> None:
        """A shell that can paint first (start-up); `attach(controller)` then builds the preview
        and wires it, `attach_extras(...)` adds device mode and the agent sheet."""
        super().__init__()
        self.setObjectName("studioWindow")
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self.controller: StudioController = None  # type: ignore[assignment]  # set by attach
        self.devices: DeviceManager | None = None
        self.agent_sheet: AgentSheet | None = None
        self.settings = settings
        self._closed = False
        self._add_widgets()
        self._restore_layout()

    def attach(self, controller: StudioController) -> None:
        """Build the preview and wire the panels to the controller (and its workspace)."""
        self.controller = controller
        preview = self.preview_pane.build_preview()
        from studio.ui.preview_drop import PreviewDropTarget

        self.preview_drop = PreviewDropTarget(
            preview.quick_widget,
            preview.screen_item,
            preview.visible_summary,
            self.preview_pane.edit_button.isChecked,
            controller.edits.path_of,
        )
        self._connect_signals()

    def attach_extras(self, devices: DeviceManager, agent: AgentServices) -> None:
        """Device mode (`devices`, built by the composition root on this window's preview pane)
        and the agent sheet (built here from the root's `agent` services), wired to the
        controller. Apart from `attach` so the app can draw the first preview frame before
        importing them (~0.3 s)."""
        from studio.ui.agent_sheet import AgentSheet
        from studio.ui.scenes import DraftScene

        c, pane = self.controller, self.preview_pane
        # Phones: the open prototype follows the device chosen in the preview toolbar.
        self.devices = d = devices
        c.documentShown.connect(d.show_spec)
        c.documentClosed.connect(d.clear_spec)
        d.statusMessage.connect(partial(self.statusBar().showMessage, timeout=8000))
        d.errorMessage.connect(partial(self.statusBar().showMessage, timeout=20000))
        if c.document is not None:  # opened before the extras were attached
            from studio.workspace.events import expanded

            d.show_spec(expanded(c.document.spec))
        d.start()
        # The agent sheet replaces the dock's placeholder and follows the workspace. The
        # agent's `preview` tool renders the draft in a scene of its own, at the preview's size.
        scene = DraftScene(pane.device_size, pane.theme)
        self.agent_sheet = sheet = AgentSheet(c.workspace, renderer=scene, **agent.options())
        self._body(self.agent_dock).setWidget(sheet)  # deletes the placeholder
        TabLeaves(sheet.instruction)
        c.workspaceEvent.connect(sheet.on_workspace_event)
        c.generateRequested.connect(sheet.generate)
        sheet.attach_outside(c.outside, c.apply_outside_draft, c.discard_outside_draft)
        self.closing.connect(sheet.shutdown)

    # ------------------------------------------------------------------ building

    def _add_widgets(self) -> None:
        self.resize(FIRST_SIZE)  # `show_on_screen` fits it to the screen
        self.preview_pane = PreviewPane(self, deferred=True)
        self.setCentralWidget(self.preview_pane)
        self.first_run_hint = FirstRunHint(self.settings, self.preview_pane)
        self.preview_pane.add_banner(self.first_run_hint)

        self.library_panel = LibraryPanel(self)
        remember_preview(self.preview_pane, self.settings)
        remember_library_sort(self.library_panel, self.settings)
        self.node_palette = PalettePanel(self)
        self.spec_tree = SpecTreePanel(self)
        self.inspector = InspectorPanel(self)
        self.revisions = RevisionsPanel(self)
        self.state_panel = StatePanel(self)
        self.document_panel = DocumentPanel(self)
        self.data_panel = DataPanel(self)
        self.platform_panel = PlatformPanel(self)
        self.agent_placeholder = QLabel(AGENT_LOADING, self)
        self.agent_placeholder.setObjectName("agentPlaceholder")
        self.agent_placeholder.setMinimumSize(AGENT_SHEET_MINIMUM)
        self.agent_placeholder.setWordWrap(True)
        self.agent_placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)

        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.library_dock = self._dock("libraryDock", "Library", self.library_panel, left)
        self.tree_dock = self._dock("specTreeDock", "Spec tree", self.spec_tree, left)
        self.palette_dock = self._dock("paletteDock", "Palette", self.node_palette, left)
        self.tabifyDockWidget(self.library_dock, self.palette_dock)
        self.library_dock.raise_()
        self.agent_dock = self._dock("agentDock", "Agent", self.agent_placeholder, right)
        self.inspector_dock = self._dock(
            "inspectorDock", "Inspector", self.inspector, right, keep_height=False
        )
        self.revisions_dock = self._dock(
            "revisionsDock", "Revisions", self.revisions, right, keep_height=False
        )
        self.state_dock = self._dock(
            "stateDock", "State", self.state_panel, right, keep_height=False
        )
        self.tabifyDockWidget(self.inspector_dock, self.revisions_dock)
        self.tabifyDockWidget(self.inspector_dock, self.state_dock)
        self.data_dock = self._dock("dataDock", "Data", self.data_panel, right, keep_height=False)
        self.tabifyDockWidget(self.inspector_dock, self.data_dock)
        self.document_dock = self._dock(
            "documentDock", "Theme and window", self.document_panel, right, keep_height=False
        )
        self.tabifyDockWidget(self.inspector_dock, self.document_dock)
        self.platform_dock = self._dock(
            "platformDock", "Platform modules", self.platform_panel, right, keep_height=False
        )
        self.tabifyDockWidget(self.inspector_dock, self.platform_dock)
        self.inspector_dock.raise_()
        self._tab_titles = WholeTabTitles(self)
        self.resizeDocks(
            [self.library_dock, self.agent_dock], [360, 340], Qt.Orientation.Horizontal
        )
        # The agent sheet gets most of the right column, the inspector the rest.
        self.resizeDocks(
            [self.agent_dock, self.inspector_dock], [500, 340], Qt.Orientation.Vertical
        )

        self.actions_by_name = commands.build_actions(self)
        a = self.actions_by_name
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(a["new"])
        file_menu.addAction(a["open"])
        self.recent_menu = QMenu("Open &recent", self)
        self.recent_menu.setObjectName("recentMenu")
        file_menu.addMenu(self.recent_menu)
        file_menu.addAction(a["save"])
        file_menu.addSeparator()
        for name in ("export_bundle", "export_spec", "export_png"):
            file_menu.addAction(a[name])
        # Export preview PNG writes device pixels at the scale chosen here (remembered).
        self.png_scale_menu = file_menu.addMenu("Preview PNG &scale")
        self.png_scale_group = QActionGroup(self)
        chosen = self.settings.value(PNG_SCALE_KEY, "1")
        for scale in (1, 2, 3):
            action = QAction(f"{scale}x (device pixels × {scale})", self.png_scale_group)
            action.setObjectName(f"action_png_scale_{scale}")
            action.setCheckable(True)
            action.setData(scale)
            action.setChecked(str(scale) == chosen or (scale == 1 and chosen not in "123"))
            action.toggled.connect(
                lambda on, s=scale: on and self.settings.set_value(PNG_SCALE_KEY, str(s))
            )
            self.png_scale_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        edit_menu = self.menuBar().addMenu("&Edit")
        for name in ("undo", "redo"):
            edit_menu.addAction(a[name])
        edit_menu.addSeparator()
        self.node_menus = m = build_node_menus(self)
        node_items: list[QAction | QMenu | None] = [
            *(a[n] for n in commands.NODE_COMMANDS[:5]),
            None,
            a["move_up"],
            a["move_down"],
            None,
            m.insert,
            m.before,
            m.after,
            m.wrap,
            a["unwrap_node"],
        ]
        fill_menu(edit_menu, node_items)
        self.spec_tree.set_context_menu(node_items)
        for name in commands.NODE_COMMANDS:  # their keys work in the tree and the preview
            self.spec_tree.addAction(a[name])
            self.preview_pane.addAction(a[name])
        edit_menu.addSeparator()
        edit_menu.addAction(a["paste_spec"])
        edit_menu.addAction(a["undo_delete"])
        edit_menu.addSeparator()
        # Settings > Platform permissions: enabled once the root hands in the consent broker.
        self.permissions_action = QAction("Platform permissions…", self)
        self.permissions_action.setObjectName("action_permissions")
        self.permissions_action.setStatusTip("Review and revoke remembered platform permissions")
        self.permissions_action.setEnabled(False)
        self.permissions_action.triggered.connect(self.open_permissions)
        edit_menu.addAction(self.permissions_action)
        self._permissions_source: Callable[[], ConsentBroker] | None = None
        self.permissions_dialog: PermissionsDialog | None = None
        view_menu = self.menuBar().addMenu("&View")
        for name in ("zoom_in", "zoom_out", "zoom_fit", "zoom_actual"):
            view_menu.addAction(a[name])
        view_menu.addSeparator()
        for dock in (
            self.library_dock,
            self.palette_dock,
            self.tree_dock,
            self.inspector_dock,
            self.revisions_dock,
            self.state_dock,
            self.data_dock,
            self.document_dock,
            self.platform_dock,
            self.agent_dock,
        ):
            view_menu.addAction(dock.toggleViewAction())
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(shortcuts_action(self))
        help_menu.addAction(about_action(self))
        # Keys: Ctrl+Z/Ctrl+Shift+Z reach the prototype from any field with nothing of its own
        # to undo; Tab leaves the JSON editor (Ctrl+] / Ctrl+[ indent with spaces).
        self.undo_everywhere = UndoEverywhere(self)
        TabLeaves(self.inspector.json_edit, indent=True)
        a["undo_delete"].setEnabled(False)

        self.undo_delete_button = QPushButton("Undo delete", self)
        self.undo_delete_button.setObjectName("undoDeleteButton")
        self.undo_delete_button.setFlat(True)
        self.undo_delete_button.hide()
        self.statusBar().addPermanentWidget(self.undo_delete_button)

        self.drop_filter = FileDropFilter(self)
        self.installEventFilter(self.drop_filter)
        self._fill_recent([])

    def _dock(
        self,
        name: str,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea,
        *,
        keep_height: bool = True,
    ) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(DockBody(widget, keep_height=keep_height))
        self.addDockWidget(area, dock)
        return dock

    @staticmethod
    def _body(dock: QDockWidget) -> DockBody:
        body = dock.widget()
        assert isinstance(body, DockBody)  # every dock is built by `_dock`
        return body

    def panel_of(self, dock: QDockWidget) -> QWidget:
        """The panel a dock shows (inside the scrolling body that keeps it from widening)."""
        return self._body(dock).panel()

    # ------------------------------------------------------------------ wiring

    def _connect_signals(self) -> None:
        c, a = self.controller, self.actions_by_name
        # Rings where the style draws none: the Qt Quick preview and the event log.
        preview = self.preview_pane.preview
        FocusRing(preview.quick_widget, inside=preview.scroll_area.viewport())
        FocusRing(self.preview_pane.event_log.view)
        c.attach_preview(self.preview_pane.preview)

        # Controller -> panels.
        c.titleChanged.connect(self.setWindowTitle)
        c.statusMessage.connect(partial(self.statusBar().showMessage, timeout=8000))
        c.errorMessage.connect(partial(self.statusBar().showMessage, timeout=20000))
        c.templatesChanged.connect(self.library_panel.set_templates)
        c.entriesChanged.connect(self.library_panel.set_entries)
        c.thumbnailReady.connect(self.library_panel.set_thumbnail)
        c.documentOpened.connect(lambda doc: self.library_panel.select(doc.entry_id))
        # Before its first show: the preview draws the prototype's own images and fonts.
        c.documentOpened.connect(
            lambda doc: self.preview_pane.set_asset_folder(
                c.library.assets_folder(doc.entry_id) if doc.entry_id else None
            )
        )
        # What is shown is the workspace's: the preview and the tree follow it, nothing else.
        c.shownChanged.connect(self.preview_pane.present)
        c.shownChanged.connect(self.spec_tree.present)
        # The document-level panels sit in tabs behind the inspector: they draw when raised.
        self.while_on_screen = {
            dock.objectName(): WhileOnScreen(dock, present)
            for dock, present in (
                (self.state_dock, self.state_panel.present),
                (self.document_dock, self.document_panel.present),
                (self.data_dock, self.data_panel.present),
                (self.platform_dock, self.platform_panel.present),
            )
        }
        for deferred in self.while_on_screen.values():
            c.shownChanged.connect(deferred)
        c.selectionChanged.connect(self.spec_tree.select_nodes)
        c.selectionChanged.connect(self.preview_pane.select_nodes)
        c.inspectorTarget.connect(self.inspector.show_node)
        c.revisionsChanged.connect(self.revisions.show_log)
        c.deleteUndoable.connect(self._offer_undo_delete)
        c.recentFilesChanged.connect(self._fill_recent)

        # Panels -> controller.
        self.spec_tree.selectionRequested.connect(c.select_many)
        self.spec_tree.dropRequested.connect(c.edits.drop)
        self.spec_tree.refusal = c.edits.drop_refusal
        self.preview_drop.refusal = c.edits.drop_refusal
        self.preview_drop.describe = c.edits.describe
        self.preview_drop.selected = self.spec_tree.selected_paths
        self.preview_drop.dropRequested.connect(c.edits.drop)
        self.node_palette.insertRequested.connect(c.edits.insert)
        self.state_panel.addRequested.connect(c.edits.add_state_key)
        self.state_panel.renameRequested.connect(c.edits.rename_state_key)
        self.state_panel.valueRequested.connect(c.edits.set_state_value)
        self.state_panel.removeRequested.connect(c.edits.remove_state_key)
        c.edits.stateRefused.connect(self.state_panel.show_error)
        self.document_panel.changeRequested.connect(c.edits.edit_document)
        c.edits.documentRefused.connect(self.document_panel.show_error)
        self.data_panel.dataRequested.connect(c.edits.set_data)
        c.edits.dataRefused.connect(self.data_panel.show_error)
        self.platform_panel.addRequested.connect(c.edits.add_platform_module)
        self.platform_panel.removeRequested.connect(c.edits.remove_platform_module)
        c.edits.platformRefused.connect(self.platform_panel.show_error)
        self.preview_pane.nodeClicked.connect(c.select)
        self.preview_pane.platformRequested.connect(c.run_platform)
        self.revisions.undoRequested.connect(c.undo)
        self.revisions.redoRequested.connect(c.redo)
        self.library_panel.openRequested.connect(c.open_entry)
        self.library_panel.newRequested.connect(c.new_from_template)
        self.library_panel.describeRequested.connect(self.ask_description)
        self.library_panel.importRequested.connect(a["open"].trigger)
        self.library_panel.exportRequested.connect(self._ask_export_bundle)
        self.library_panel.duplicateRequested.connect(c.duplicate)
        self.library_panel.renameRequested.connect(c.rename)
        self.library_panel.deleteRequested.connect(c.delete)
        self.library_panel.undoDeleteRequested.connect(c.undo_delete)
        self.undo_delete_button.clicked.connect(c.undo_delete)
        self.drop_filter.filesDropped.connect(c.import_files)

        # Menu commands.
        a["new"].triggered.connect(self._show_new_menu)
        a["open"].triggered.connect(
            lambda: commands.ask_open(self, lambda p: c.import_files([p]), self.settings)
        )
        a["save"].triggered.connect(c.save)
        a["paste_spec"].triggered.connect(c.import_clipboard)
        a["export_bundle"].triggered.connect(lambda: self._ask_export_bundle(None))
        a["export_spec"].triggered.connect(
            lambda: commands.ask_save(
                self, "Export spec JSON", commands.JSON_FILTER, "json",
                self._suggested("json"), c.export_spec, self.settings,
            )
        )  # fmt: skip
        a["export_png"].triggered.connect(
            lambda: commands.ask_save(
                self, "Export preview PNG", commands.PNG_FILTER, "png",
                self._suggested("png", self.png_scale()),
                lambda path: c.export_png(path, self.png_scale()), self.settings,
            )
        )  # fmt: skip
        a["quit"].triggered.connect(self.close)
        a["undo"].triggered.connect(c.undo)
        a["redo"].triggered.connect(c.redo)
        a["undo_delete"].triggered.connect(c.undo_delete)
        pane = self.preview_pane
        a["zoom_in"].triggered.connect(pane.zoom_in)
        a["zoom_out"].triggered.connect(pane.zoom_out)
        a["zoom_fit"].triggered.connect(pane.zoom_fit)
        a["zoom_actual"].triggered.connect(pane.zoom_actual)
        e = c.edits
        a["cut_node"].triggered.connect(e.cut)
        a["copy_node"].triggered.connect(e.copy)
        a["paste_node"].triggered.connect(e.paste)
        a["duplicate_node"].triggered.connect(e.duplicate)
        a["delete_node"].triggered.connect(e.delete)
        a["move_up"].triggered.connect(lambda: e.move(-1))
        a["move_down"].triggered.connect(lambda: e.move(1))
        a["unwrap_node"].triggered.connect(e.unwrap)
        m = self.node_menus
        m.insert.triggered.connect(lambda action: e.insert(str(action.data())))
        m.before.triggered.connect(lambda action: e.insert_beside(str(action.data()), "before"))
        m.after.triggered.connect(lambda action: e.insert_beside(str(action.data()), "after"))
        m.wrap.triggered.connect(lambda action: e.wrap(str(action.data())))

    def set_permissions_source(self, broker: Callable[[], ConsentBroker]) -> None:
        """Where the permissions dialog reads grants: the consent broker the hosts ask."""
        self._permissions_source = broker
        self.permissions_action.setEnabled(True)

    def open_permissions(self) -> PermissionsDialog | None:
        """Show the (non-modal) permissions window, re-reading the grants."""
        from studio.ui.permissions import PermissionsDialog

        if self._permissions_source is None:
            return None
        if self.permissions_dialog is None:

            def name_of(entry_id: str) -> str | None:
                row = self.library_panel.row(entry_id)
                return row[0] if row else None

            self.permissions_dialog = PermissionsDialog(self._permissions_source(), name_of, self)
        dialog = self.permissions_dialog
        if dialog.isVisible():
            dialog.refresh()
        dialog.show()
        dialog.raise_()
        return dialog

    def keep_outside_preview(self, dialog: QWidget) -> None:
        """Move a top-level dialog (a consent question) beside the preview, never over it, so a
        prototype cannot draw a look-alike of it; on the screen where there is room."""
        preview = self.preview_pane.preview or self.preview_pane
        avoid = QRect(preview.mapToGlobal(QPoint(0, 0)), preview.size())
        size = dialog.frameGeometry().size().expandedTo(dialog.sizeHint())
        screen = (self.screen() or dialog.screen()).availableGeometry()
        gap = 16
        top = max(screen.top(), min(avoid.top(), screen.bottom() - size.height()))
        centred = avoid.center().x() - size.width() // 2
        left_x = max(screen.left(), min(centred, screen.right() + 1 - size.width()))
        candidates = [
            QPoint(avoid.right() + 1 + gap, top),  # right of the preview
            QPoint(avoid.left() - gap - size.width(), top),  # left of it
            QPoint(left_x, avoid.bottom() + 1 + gap),  # below
            QPoint(left_x, avoid.top() - gap - size.height()),  # above
        ]
        fitting = [p for p in candidates if screen.contains(QRect(p, size))]
        # No room on screen beside it: still outside the preview, on the side with most room.
        dialog.move(
            fitting[0] if fitting else max(candidates, key=lambda p: _room(p, size, screen))
        )

    def png_scale(self) -> int:
        """The scale Export preview PNG writes at (File > Preview PNG scale)."""
        checked = self.png_scale_group.checkedAction()
        return int(checked.data()) if checked is not None else 1

    def _suggested(self, suffix: str, scale: int = 1) -> str:
        document = self.controller.document
        name = document.name if document else "prototype"
        return commands.file_name_for(f"{name} {scale}x" if scale > 1 else name, suffix)

    def _ask_export_bundle(self, entry_id: str | None) -> None:
        commands.ask_save(
            self,
            "Export bundle",
            commands.BUNDLE_FILTER,
            "protobundle",
            self._suggested("protobundle"),
            lambda path: self.controller.export_bundle(path, entry_id),
            self.settings,
        )

    def ask_description(self) -> QDialog:
        """Library > New from description: the (window-modal, non-blocking) dialog."""
        from studio.ui.new_from_description import DescribeDialog

        dialog = DescribeDialog(self.controller.templates, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.createRequested.connect(self.controller.new_from_description)
        dialog.open()
        return dialog

    def _show_new_menu(self) -> None:
        button = self.library_panel.new_button
        self.library_dock.show()
        self.library_panel.new_menu.popup(button.mapToGlobal(button.rect().bottomLeft()))

    def _offer_undo_delete(self, name: str) -> None:
        self.undo_delete_button.setText(f"Undo delete of {name}" if name else "Undo delete")
        self.undo_delete_button.setVisible(bool(name))
        self.actions_by_name["undo_delete"].setEnabled(bool(name))

    def _fill_recent(self, paths: list[str]) -> None:
        self.recent_menu.clear()
        for path in paths:
            action = QAction(path, self.recent_menu)
            action.triggered.connect(
                lambda _checked=False, p=path: self.controller.import_files([p])
            )
            self.recent_menu.addAction(action)
        self.recent_menu.setEnabled(bool(paths))

    def recent_actions(self) -> list[QAction]:
        return [a for a in self.recent_menu.actions() if not a.isSeparator()]

    # ------------------------------------------------------------------ layout

    def _restore_layout(self) -> None:
        geometry, state = self.settings.window_state()
        self._restored = geometry is not None and self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    def show_on_screen(self) -> None:
        """Show the window (the studio's first show) at a size that fits the screen it is on:
        the remembered geometry, moved and shrunk onto the screen where it no longer fits it;
        with nothing remembered, 1440x900 or less, centred."""
        if not self.isMaximized() and not self.isFullScreen():
            rect = self.geometry()
            screen = QGuiApplication.screenAt(rect.center()) if self._restored else None
            screen = screen or self.screen() or QGuiApplication.primaryScreen()
            available = screen.availableGeometry()
            if self._restored:
                self.setGeometry(onto_screen(rect, available))
            else:
                self.setGeometry(first_geometry(available))
        self.show()

    def save_layout(self) -> None:
        self.settings.set_window_state(self.saveGeometry(), self.saveState())

    def focus_regions(self) -> list[QWidget]:
        """The panels in reading order: the left docks, the preview, the right docks."""
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        docks = [d for d in self.findChildren(QDockWidget) if not d.isFloating()]

        def place(dock: QDockWidget) -> tuple[int, int, int]:
            area = self.dockWidgetArea(dock)
            column = 0 if area == left else 2 if area == right else 1
            return column, dock.y(), dock.x()

        ordered = sorted(docks, key=place)
        before = [d for d in ordered if place(d)[0] == 0]
        after = [d for d in ordered if place(d)[0] != 0]
        return [*before, self.preview_pane, *after]

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 (Qt's names)
        """Tab crosses the panels in reading order (`keyboard.next_focus`)."""
        from PySide6.QtWidgets import QApplication

        target = next_focus(self.focus_regions(), QApplication.focusWidget(), next)
        if target is None:
            return super().focusNextPrevChild(next)
        reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        target.setFocus(reason)
        show_focused(target)
        return True

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.save_layout()
            if self.permissions_dialog is not None:
                self.permissions_dialog.close()
            self.closing.emit()
        super().closeEvent(event)


def _room(point: QPoint, size: QSize, screen: QRect) -> int:
    """How much of a window at `point` would be on `screen` (pixels)."""
    shown = QRect(point, size).intersected(screen)
    return shown.width() * shown.height() if shown.isValid() else 0
