"""The edit commands on the workspace's selection (delete, duplicate, move, wrap, copy/cut/
paste, insert from the palette, drop): each reads the shown spec, builds a `studio.spec.edit`
edit and applies it as one validated revision; `check` answers "would this be refused?" for a
drop indicator without changing anything. Qt-free: the window's actions and a headless server
call the same functions.

Every refusal is an `EditRefused` whose message is one line naming the place (the path and the
validator's message, the draft's lock, or why no spec could hold it); nothing changes then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeVar

from studio.library.revisions import Revision
from studio.spec import edit
from studio.spec.address import resolve
from studio.spec.errors import SpecError
from studio.spec.patch import PatchError, apply_patch
from studio.workspace.review import ReviewConflict
from studio.workspace.workspace import Workspace

__all__ = [
    "EditRefused",
    "check",
    "copy_selected",
    "cut_selected",
    "delete_selected",
    "drop_nodes",
    "drop_refusal",
    "duplicate_selected",
    "insert_type",
    "move_selected",
    "paste_text",
    "run",
    "selected_paths",
    "unwrap_selected",
    "wrap_selected",
]


T = TypeVar("T")


class EditRefused(ValueError):
    """An edit the workspace refused; the message is one line (path and reason)."""


def selected_paths(ws: Workspace) -> list[str]:
    """The node paths of the selection in the shown spec (those that still exist)."""
    out: list[str] = []
    for address in ws.selection.addresses:
        try:
            path, _ = resolve(ws.shown.spec, address)
        except ValueError:
            continue
        out.append(path)
    return out


def _locked(ws: Workspace, made: edit.Edit) -> str | None:
    for op in made.ops:
        address = op.get("address")
        if isinstance(address, str):
            why = ws.locked(address)
            if why:
                return why
    return None


def check(ws: Workspace, made: edit.Edit) -> str | None:
    """Why `made` would be refused (one line), or None when it would apply. Changes nothing."""
    why = _locked(ws, made)
    if why:
        return why
    try:
        apply_patch(ws.shown.spec, list(made.ops), root=True)
    except PatchError as exc:
        return f"{exc.path}: {exc.message}"
    return None


def run(ws: Workspace, made: edit.Edit) -> Revision:
    """Apply `made` as one revision; EditRefused (nothing changed) when it is invalid."""
    try:
        return ws.apply_edit(made)
    except ReviewConflict as exc:
        raise EditRefused(str(exc)) from None
    except (PatchError, SpecError) as exc:
        raise EditRefused(f"{made.summary} refused: {exc.path}: {exc.message}") from None


def _build(factory: Callable[[], T]) -> T:
    try:
        return factory()
    except edit.EditError as exc:
        raise EditRefused(str(exc)) from None


def _require_selection(ws: Workspace, what: str) -> list[str]:
    paths = selected_paths(ws)
    if not paths:
        raise EditRefused(f"{what}: select a node first")
    return paths


def delete_selected(ws: Workspace) -> Revision:
    paths = _require_selection(ws, "Delete")
    return run(ws, _build(lambda: edit.delete(ws.shown.spec, paths)))


def duplicate_selected(ws: Workspace) -> Revision:
    paths = _require_selection(ws, "Duplicate")
    return run(ws, _build(lambda: edit.duplicate(ws.shown.spec, paths)))


def move_selected(ws: Workspace, delta: Literal[-1, 1]) -> Revision:
    paths = _require_selection(ws, "Move")
    return run(ws, _build(lambda: edit.move_by(ws.shown.spec, paths, delta)))


def wrap_selected(ws: Workspace, container: str) -> Revision:
    paths = _require_selection(ws, "Wrap")
    return run(ws, _build(lambda: edit.wrap(ws.shown.spec, paths, container)))


def unwrap_selected(ws: Workspace) -> Revision:
    paths = _require_selection(ws, "Unwrap")
    return run(ws, _build(lambda: edit.unwrap(ws.shown.spec, paths[-1])))


def copy_selected(ws: Workspace) -> edit.Clip:
    """The selected nodes as a clip (with the state they use), for the clipboard."""
    paths = _require_selection(ws, "Copy")
    try:
        return edit.clip(ws.shown.spec, paths)
    except edit.EditError as exc:
        raise EditRefused(str(exc)) from None


def cut_selected(ws: Workspace) -> edit.Clip:
    """Copy, then delete as one revision (nothing is deleted when the delete is refused)."""
    clipped = copy_selected(ws)
    delete_selected(ws)
    return clipped


def _paste_target(ws: Workspace) -> tuple[str, edit.Position]:
    paths = selected_paths(ws)
    primary = ws.selection.primary
    chosen: str | None = None
    if primary is not None:
        try:
            chosen = resolve(ws.shown.spec, primary)[0]
        except ValueError:
            chosen = paths[-1] if paths else None
    try:
        return edit.default_target(ws.shown.spec, chosen)
    except edit.EditError as exc:
        raise EditRefused(str(exc)) from None


def paste_text(
    ws: Workspace,
    text: str,
    target: str | None = None,
    position: edit.Position | None = None,
) -> Revision:
    """Paste clipboard text (the studio's form or plain node JSON) into the selected container
    or after the selected node (or at `target`/`position`)."""
    clipped = _build(lambda: edit.parse_clip(text))
    where, how = (target, position or "inside") if target else _paste_target(ws)
    return run(ws, _build(lambda: edit.paste(ws.shown.spec, clipped, where, how)))


def insert_type(
    ws: Workspace,
    type_: str,
    target: str | None = None,
    position: edit.Position | None = None,
    *,
    index: int | None = None,
) -> Revision:
    """Insert a new node of `type_` (the palette): at `target`/`position`, else into the
    selected container or after the selected node."""
    where, how = (target, position or "inside") if target else _paste_target(ws)
    return run(ws, _build(lambda: edit.insert_new(ws.shown.spec, type_, where, how, index=index)))


def drop_nodes(
    ws: Workspace, paths: Sequence[str], target: str, position: edit.Position
) -> Revision:
    """Move the nodes at `paths` (a drag in the tree or the preview) as one revision."""
    return run(ws, _build(lambda: edit.move(ws.shown.spec, list(paths), target, position)))


def drop_refusal(
    ws: Workspace,
    target: str,
    position: edit.Position,
    *,
    paths: Sequence[str] = (),
    type_: str | None = None,
) -> str | None:
    """Why dropping the nodes at `paths` (or a new node of `type_`) at `target`/`position`
    would be refused, in one line; None when it would apply (the drop indicator, before the
    drop). Changes nothing."""
    spec = ws.shown.spec
    try:
        if type_ is not None:
            made = edit.insert_new(spec, type_, target, position)
        else:
            made = edit.move(spec, list(paths), target, position)
    except (edit.EditError, ValueError) as exc:
        return str(exc)
    return check(ws, made)
