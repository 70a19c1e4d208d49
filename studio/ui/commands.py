"""The window's commands: menu actions with their shortcuts, and the non-modal file pickers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QWidget

SPEC_FILTER = "Prototype specs and bundles (*.json *.protobundle);;All files (*)"
BUNDLE_FILTER = "Prototype bundle (*.protobundle)"
JSON_FILTER = "Spec JSON (*.json)"
PNG_FILTER = "PNG image (*.png)"


@dataclass(frozen=True)
class Command:
    """One menu command: its text, shortcuts and tip (the window connects `triggered`)."""

    name: str
    text: str
    shortcuts: tuple[str | QKeySequence.StandardKey, ...] = ()
    tip: str = ""
    #: "nodes": the keys work where nodes are (the spec tree, the preview), so a text field
    #: keeps its own Delete, Backspace and Ctrl+C.
    scope: Literal["window", "nodes"] = "window"


COMMANDS: tuple[Command, ...] = (
    Command("new", "&New from template…", ("Ctrl+N",), "Create a prototype from a template"),
    Command(
        "open", "&Open…", (QKeySequence.StandardKey.Open,), "Import a spec JSON or .protobundle"
    ),
    Command(
        "paste_spec", "&Paste spec", ("Ctrl+Shift+V",), "Import the spec JSON on the clipboard"
    ),
    Command(
        "save",
        "&Save",
        (QKeySequence.StandardKey.Save,),
        "Write the open prototype now (every change is also saved as you make it)",
    ),
    Command(
        "export_bundle",
        "&Export bundle…",
        ("Ctrl+E",),
        "Save the open prototype as a .protobundle",
    ),
    Command(
        "export_spec", "Export spec &JSON…", ("Ctrl+Shift+E",), "Save the open prototype's spec"
    ),
    Command(
        "export_png", "Export preview &PNG…", ("Ctrl+Shift+P",), "Save the preview screen as PNG"
    ),
    Command("quit", "&Quit", (QKeySequence.StandardKey.Quit,), ""),
    Command("undo", "&Undo", (QKeySequence.StandardKey.Undo,), "Undo the last change"),
    Command("redo", "&Redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "Redo the change undone last"),
    Command("undo_delete", "Undo &delete", (), "Bring back the prototype deleted last"),
    # The preview's zoom (View menu); Ctrl++ is where = needs Shift.
    Command("zoom_in", "Zoom &in", ("Ctrl+=", "Ctrl++"), "Draw the device larger"),
    Command("zoom_out", "Zoom &out", ("Ctrl+-",), "Draw the device smaller"),
    Command("zoom_fit", "&Fit the device", ("Ctrl+0",), "Scale the device to fit the preview"),
    Command("zoom_actual", "&Actual size (100%)", ("Ctrl+1",), "One dp per pixel"),
    # The node edits (the Edit menu, the spec tree's context menu and keys).
    Command("cut_node", "Cu&t", ("Ctrl+X",), "Cut the selected nodes", "nodes"),
    Command("copy_node", "&Copy", ("Ctrl+C",), "Copy the selected nodes", "nodes"),
    Command(
        "paste_node", "&Paste", ("Ctrl+V",), "Paste nodes into or after the selection", "nodes"
    ),
    Command("duplicate_node", "D&uplicate", ("Ctrl+D",), "Duplicate the selected nodes", "nodes"),
    Command(
        "delete_node", "De&lete", ("Delete", "Backspace"), "Delete the selected nodes", "nodes"
    ),
    Command("move_up", "Move &up", ("Alt+Up",), "Move the selected nodes up", "nodes"),
    Command("move_down", "Move do&wn", ("Alt+Down",), "Move the selected nodes down", "nodes"),
    Command("unwrap_node", "U&nwrap", (), "Replace the selected container with its children"),
)

#: The node edit commands, in menu order.
NODE_COMMANDS = (
    "cut_node",
    "copy_node",
    "paste_node",
    "duplicate_node",
    "delete_node",
    "move_up",
    "move_down",
    "unwrap_node",
)


def build_actions(parent: QWidget) -> dict[str, QAction]:
    """One QAction per command, owned by `parent` (the window)."""
    actions: dict[str, QAction] = {}
    for command in COMMANDS:
        action = QAction(command.text, parent)
        action.setObjectName(f"action_{command.name}")
        keys: list[QKeySequence] = []
        for shortcut in command.shortcuts:
            if isinstance(shortcut, QKeySequence.StandardKey):
                keys.extend(QKeySequence.keyBindings(shortcut))
            else:
                keys.append(QKeySequence(shortcut))
        unique: list[QKeySequence] = []
        for key in keys:
            if key not in unique:
                unique.append(key)
        action.setShortcuts(unique)
        if command.scope == "nodes":
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setStatusTip(command.tip)
        actions[command.name] = action
    return actions


LAST_FOLDER = "files/last_folder"


class FolderMemory(Protocol):
    """Where the last folder used is kept (the UI settings)."""

    def value(self, key: str, default: str = "") -> str: ...
    def set_value(self, key: str, value: str) -> None: ...


def start_folder(memory: FolderMemory | None) -> str:
    """The folder a file dialog opens in: the last one used, else Documents, else home."""
    last = memory.value(LAST_FOLDER) if memory is not None else ""
    if last and Path(last).is_dir():
        return last
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if documents and Path(documents).is_dir():
        return documents
    return str(Path.home())


def pick_file(
    parent: QWidget,
    title: str,
    name_filter: str,
    on_chosen: Callable[[str], None],
    *,
    save: bool = False,
    default_suffix: str = "",
    memory: FolderMemory | None = None,
) -> QFileDialog:
    """Open a window-modal file dialog with `open()` (never `exec()`: the asyncio loop keeps
    running) in the last folder used (`memory`); `on_chosen(path)` is called when the user picks
    a file, and its folder is remembered."""
    dialog = QFileDialog(parent, title, start_folder(memory), name_filter)
    dialog.setObjectName("fileDialog")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        if default_suffix:
            dialog.setDefaultSuffix(default_suffix)
    else:
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    if memory is not None:
        dialog.fileSelected.connect(
            lambda path: memory.set_value(LAST_FOLDER, str(Path(path).parent))
        )
    dialog.fileSelected.connect(on_chosen)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def ask_open(
    parent: QWidget, on_chosen: Callable[[str], None], memory: FolderMemory | None = None
) -> QFileDialog:
    """File > Open: pick a spec JSON or .protobundle to import."""
    return pick_file(parent, "Open a prototype", SPEC_FILTER, on_chosen, memory=memory)


def ask_save(
    parent: QWidget,
    title: str,
    name_filter: str,
    suffix: str,
    suggested: str,
    on_chosen: Callable[[str], None],
    memory: FolderMemory | None = None,
) -> QFileDialog:
    """A save dialog suggesting `suggested` (file name) with `suffix` added when missing."""
    dialog = pick_file(
        parent, title, name_filter, on_chosen, save=True, default_suffix=suffix, memory=memory
    )
    dialog.selectFile(suggested)
    return dialog


def file_name_for(name: str, suffix: str) -> str:
    """A safe file name for a prototype name: `Sign-in form` -> `Sign-in form.protobundle`."""
    cleaned = (
        "".join(c if c.isalnum() or c in " -_." else "_" for c in name).strip(" .") or "prototype"
    )
    return f"{cleaned[:80]}.{suffix}"
