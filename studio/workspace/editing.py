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
    "add_platform_module",
    "add_state_key",
    "remove_platform_module",
    "set_data",
    "remove_state_key",
    "rename_state_key",
    "set_state_value",
    "check",
    "copy_selected",
    "cut_selected",
    "delete_selected",
    "drop_nodes",
    "drop_refusal",
    "edit_document",
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


# --- state keys (the document-level state editor) -------------------------------------------------


def _document_spec(ws: Workspace, what: str) -> dict[str, object]:
    document = ws.document
    if document is None:
        raise EditRefused(f"{what}: open a prototype first")
    if ws.shown.source == "review":
        raise EditRefused(f"{what}: apply or discard the agent's draft first")
    return document.spec


def _replace(ws: Workspace, spec: dict[str, object], summary: str) -> Revision:
    try:
        return ws.replace_spec(spec, summary=summary)
    except (PatchError, SpecError) as exc:
        raise EditRefused(f"{summary} refused: {exc.path}: {exc.message}") from None


def edit_document(ws: Workspace, spec: dict[str, object], summary: str) -> Revision:
    """A document-level edit (theme, window) as one validated revision."""
    _document_spec(ws, summary)
    return _replace(ws, spec, summary)


def add_state_key(ws: Workspace, key: str, value: object = "") -> Revision:
    """Declare a new state key with its initial value."""
    spec = _document_spec(ws, "Add state key")
    declared = spec.get("state")
    state = dict(declared) if isinstance(declared, dict) else {}
    if key in state:
        raise EditRefused(f"state key {key!r} is already declared")
    state[key] = value
    return _replace(ws, {**spec, "state": state}, f"Add state key '{key}'")


def set_state_value(ws: Workspace, key: str, value: object) -> Revision:
    """Change a state key's initial value (the validator checks it fits every use)."""
    spec = _document_spec(ws, "Set state value")
    declared = spec.get("state")
    if not isinstance(declared, dict) or key not in declared:
        raise EditRefused(f"state key {key!r} is not declared")
    return _replace(
        ws, {**spec, "state": {**declared, key: value}}, f"Set initial value of '{key}'"
    )


def rename_state_key(ws: Workspace, old: str, new: str) -> Revision:
    """Rename a state key and every use of it (bindings, conditions, actions, `{key}` texts)."""
    from studio.spec import statekeys

    spec = _document_spec(ws, "Rename state key")
    count = len(statekeys.uses(spec, old))
    try:
        renamed = statekeys.rename_key(spec, old, new)
    except ValueError as exc:
        raise EditRefused(f"Rename state key: {exc}") from None
    uses = f"{count} use{'s' if count != 1 else ''} updated"
    return _replace(ws, renamed, f"Rename state key '{old}' to '{new}' ({uses})")


def remove_state_key(ws: Workspace, key: str) -> Revision:
    """Remove a state key nothing uses; refused with the list of its uses otherwise."""
    from studio.spec import statekeys
    from studio.spec.names import name_of

    spec = _document_spec(ws, "Remove state key")
    declared = spec.get("state")
    if not isinstance(declared, dict) or key not in declared:
        raise EditRefused(f"state key {key!r} is not declared")
    found = statekeys.uses(spec, key)
    if found:
        places = []
        for use in found[:6]:
            name = name_of(spec, use.path)
            places.append(f"{name.phrase if name else use.path} ({use.where})")
        more = f" and {len(found) - 6} more" if len(found) > 6 else ""
        raise EditRefused(
            f"state key '{key}' is still used by {', '.join(places)}{more}: change those first"
        )
    state = {k: v for k, v in declared.items() if k != key}
    out = {**spec, "state": state}
    if not state:
        out.pop("state")
    return _replace(ws, out, f"Remove state key '{key}'")


# --- data and platform modules (the document-level data and platform editors) -------------------


def set_data(ws: Workspace, data: dict[str, object], summary: str) -> Revision:
    """Replace the spec's `data` as one validated revision (an empty object removes it)."""
    spec = _document_spec(ws, summary)
    out = {**spec, "data": data}
    if not data:
        out.pop("data")
    if out == spec:
        raise EditRefused(f"{summary}: nothing changes")
    return _replace(ws, out, summary)


def _declared_modules(spec: dict[str, object]) -> list[str]:
    from studio.platform.requires import required_modules

    return required_modules(spec)


def add_platform_module(ws: Workspace, module: str) -> Revision:
    """Declare a platform module in `requires.platform` (the validator refuses one this build
    does not have, naming it)."""
    spec = _document_spec(ws, "Add platform module")
    declared = _declared_modules(spec)
    if module in declared:
        raise EditRefused(f"requires.platform: {module!r} is already declared")
    requires = spec.get("requires")
    kept = dict(requires) if isinstance(requires, dict) else {}
    out = {**spec, "requires": {**kept, "platform": [*declared, module]}}
    return _replace(ws, out, f"Require platform module '{module}'")


def remove_platform_module(ws: Workspace, module: str) -> Revision:
    """Remove a module from `requires.platform`; refused with the calls that use it listed."""
    from studio.spec.names import name_at
    from studio.spec.platform_rules import module_calls

    spec = _document_spec(ws, "Remove platform module")
    declared = _declared_modules(spec)
    if module not in declared:
        raise EditRefused(f"requires.platform: {module!r} is not declared")
    found = module_calls(spec, module)
    if found:
        places = []
        for path, where, call in found[:6]:
            name = name_at(spec, path) if path.startswith("root") else None
            places.append(f"{name.phrase if name else path} ({where}: {call})")
        more = f" and {len(found) - 6} more" if len(found) > 6 else ""
        raise EditRefused(
            f"platform module '{module}' is still called by {', '.join(places)}{more}: "
            "change those first"
        )
    requires = spec.get("requires")
    kept = (
        {k: v for k, v in requires.items() if k != "platform"} if isinstance(requires, dict) else {}
    )
    remaining = [m for m in declared if m != module]
    out: dict[str, object] = dict(spec)
    if remaining:
        out["requires"] = {**kept, "platform": remaining}
    elif kept:
        out["requires"] = kept
    else:
        out.pop("requires", None)
    return _replace(ws, out, f"Remove platform module '{module}'")
