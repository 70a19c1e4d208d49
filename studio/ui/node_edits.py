"""The window's node edit commands (the Edit menu, the tree's context menu and keys, the
palette, drops): each calls `studio.workspace.editing` and reports a refusal as one line; the
clipboard holds the studio's form and the node's plain JSON."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from PySide6.QtCore import QMimeData, QObject, Signal
from PySide6.QtGui import QGuiApplication

from studio.spec.edit import CLIP_FORMAT, Clip, Position
from studio.workspace import Workspace
from studio.workspace import editing as E

#: The clipboard's MIME type for the studio's form (nodes plus the state they use).
CLIP_MIME = f"application/x-{CLIP_FORMAT}"


def clipboard_text() -> str:
    """The studio's form when the clipboard holds it, else its plain text."""
    data = QGuiApplication.clipboard().mimeData()
    if data is not None and data.hasFormat(CLIP_MIME):
        return bytes(data.data(CLIP_MIME).data()).decode("utf-8", "replace")
    return QGuiApplication.clipboard().text()


def put_on_clipboard(clipped: Clip) -> None:
    data = QMimeData()
    data.setText(clipped.text())
    data.setData(CLIP_MIME, clipped.rich().encode())
    QGuiApplication.clipboard().setMimeData(data)


class NodeEdits(QObject):
    """Edit commands on `workspace`'s selection; `report(line)` gets every refusal, and
    `stateRefused(line)` those of the state editor (shown in its panel too)."""

    stateRefused = Signal(str)
    documentRefused = Signal(str, str)  # the document panel's field, the line
    dataRefused = Signal(str)
    platformRefused = Signal(str)

    def __init__(
        self, workspace: Workspace, report: Callable[[str], None], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self._report = report

    def _do(self, command: Callable[[], object]) -> bool:
        if self.workspace.document is None:
            self._report("Open a prototype first")
            return False
        try:
            command()
        except E.EditRefused as exc:
            self._report(str(exc))
            return False
        return True

    def delete(self) -> bool:
        return self._do(lambda: E.delete_selected(self.workspace))

    def duplicate(self) -> bool:
        return self._do(lambda: E.duplicate_selected(self.workspace))

    def move(self, delta: Literal[-1, 1]) -> bool:
        return self._do(lambda: E.move_selected(self.workspace, delta))

    def wrap(self, container: str) -> bool:
        return self._do(lambda: E.wrap_selected(self.workspace, container))

    def unwrap(self) -> bool:
        return self._do(lambda: E.unwrap_selected(self.workspace))

    def copy(self) -> bool:
        return self._do(lambda: put_on_clipboard(E.copy_selected(self.workspace)))

    def cut(self) -> bool:
        def cut() -> None:
            clipped = E.copy_selected(self.workspace)
            E.delete_selected(self.workspace)  # refused: nothing is on the clipboard either
            put_on_clipboard(clipped)

        return self._do(cut)

    def paste(self) -> bool:
        return self._do(lambda: E.paste_text(self.workspace, clipboard_text()))

    def insert(
        self, type_: str, target: str | None = None, position: Position | None = None
    ) -> bool:
        return self._do(lambda: E.insert_type(self.workspace, type_, target, position))

    def insert_beside(self, type_: str, position: Literal["before", "after"]) -> bool:
        """Insert before or after the selected node (Insert before / after)."""
        paths = E.selected_paths(self.workspace)
        primary = self.workspace.selection.primary
        if primary is not None and self.workspace.node(primary) is not None:
            from studio.spec.address import resolve

            paths = [resolve(self.workspace.shown.spec, primary)[0]]
        if not paths:
            self._report(f"Insert {position}: select a node first")
            return False
        return self.insert(type_, paths[-1], position)

    def drop(self, paths: Sequence[str], type_: str, target: str, position: str) -> bool:
        """A drop from the tree (paths: a move) or the palette (type_: an insert)."""
        where: Position = position  # type: ignore[assignment]  # the tree sends one of the three
        if type_:
            return self.insert(type_, target, where)
        return self._do(lambda: E.drop_nodes(self.workspace, paths, target, where))

    def path_of(self, address: str) -> str | None:
        """The node path of a shown address (None when it names no node of the spec)."""
        from studio.spec.address import resolve

        try:
            return resolve(self.workspace.shown.spec, address)[0]
        except ValueError:
            return None

    def describe(self, path: str) -> str:
        """A node's name in a sentence: `column 'form'`."""
        from studio.spec.names import name_at

        name = name_at(self.workspace.shown.spec, path)
        return name.phrase if name is not None else path

    # -- state keys -------------------------------------------------------------------------
    def _state(self, command: Callable[[], object]) -> bool:
        try:
            command()
        except E.EditRefused as exc:
            self._report(str(exc))
            self.stateRefused.emit(str(exc))
            return False
        self.stateRefused.emit("")
        return True

    def add_state_key(self) -> bool:
        from studio.spec.catalog import unique_key

        declared = self.workspace.shown.spec.get("state")
        key = unique_key("key1", set(declared) if isinstance(declared, dict) else set())
        return self._state(lambda: E.add_state_key(self.workspace, key, ""))

    def rename_state_key(self, old: str, new: str) -> bool:
        return self._state(lambda: E.rename_state_key(self.workspace, old, new))

    def set_state_value(self, key: str, value: object) -> bool:
        return self._state(lambda: E.set_state_value(self.workspace, key, value))

    def remove_state_key(self, key: str) -> bool:
        return self._state(lambda: E.remove_state_key(self.workspace, key))

    def _panel(self, command: Callable[[], object], refused: Signal) -> bool:
        """A document-level panel's edit: a refusal goes to the status line and the panel."""
        try:
            command()
        except E.EditRefused as exc:
            self._report(str(exc))
            refused.emit(str(exc))  # type: ignore[attr-defined]  # a bound signal
            return False
        refused.emit("")  # type: ignore[attr-defined]  # a bound signal
        return True

    def set_data(self, data: dict[str, object], summary: str) -> bool:
        """The data panel's edit (the whole `data` object after one change)."""
        return self._panel(lambda: E.set_data(self.workspace, data, summary), self.dataRefused)

    def add_platform_module(self, module: str) -> bool:
        return self._panel(
            lambda: E.add_platform_module(self.workspace, module), self.platformRefused
        )

    def remove_platform_module(self, module: str) -> bool:
        return self._panel(
            lambda: E.remove_platform_module(self.workspace, module), self.platformRefused
        )

    def edit_document(self, spec: dict[str, object], summary: str, field: str) -> bool:
        """The document panel's edit (theme, window)."""
        try:
            E.edit_document(self.workspace, spec, summary)
        except E.EditRefused as exc:
            self._report(str(exc))
            self.documentRefused.emit(field, str(exc))
            return False
        self.documentRefused.emit(field, "")
        return True

    def drop_refusal(
        self, target: str, position: str, paths: list[str], type_: str | None
    ) -> str | None:
        if self.workspace.document is None:
            return "open a prototype first"
        where: Position = position  # type: ignore[assignment]  # the tree sends one of the three
        return E.drop_refusal(self.workspace, target, where, paths=paths, type_=type_)
