"""The open prototype: its spec and revision history; every edit is a validated revision.

Qt-free. Every change to a prototype (an inspector edit, a structural edit, an applied agent
draft, undo, redo) goes through its `Document`, so the revision list and saving see every change
the same way. This is the one gate: the document never holds a spec `validate` refuses (which
is what the library refuses to save). Patches and whole specs are validated as the very object
that becomes the revision; a revision made elsewhere is validated when pushed; a revision read
back from disk is validated before undo or redo moves to it. What the studio shows, the
selection and the draft under review belong to `studio.workspace`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from studio.library.revisions import Author, Revision, RevisionLog

JSON = dict[str, Any]
ChangeKind = Literal["revision", "undo", "redo"]


@dataclass(frozen=True)
class DocumentChange:
    """What changed: `changed` are node addresses to refresh/highlight (empty = whole spec)."""

    kind: ChangeKind
    changed: tuple[str, ...] = ()
    revision: Revision | None = None


class RevisionRefused(ValueError):
    """Undo or redo would restore a spec that is not valid (a revision read from disk that an
    older build let through): `path` and `message` say why; nothing changed."""

    def __init__(self, summary: str, path: str, message: str) -> None:
        super().__init__(f"{summary!r} cannot be restored: {path}: {message}")
        self.path = path
        self.message = message


class Document:
    """A prototype being edited. `apply_ops` and `replace_spec` validate before anything changes."""

    def __init__(
        self,
        spec: JSON,
        *,
        name: str,
        entry_id: str | None = None,
        revisions: RevisionLog | None = None,
    ) -> None:
        self.name = name
        self.entry_id = entry_id
        self.revisions = revisions if revisions is not None else RevisionLog(spec)
        self._listeners: list[Callable[[DocumentChange], None]] = []
        #: Revisions known to be valid ("" is the base): made through the gate here, or checked
        #: once before undo/redo moved to them. The current spec is the stored one, which the
        #: library validated.
        log = self.revisions
        self._valid: set[str] = {log.revisions[log.cursor - 1].id if log.cursor else ""}

    @property
    def spec(self) -> JSON:
        return self.revisions.current

    def apply_ops(
        self,
        ops: list[JSON],
        *,
        author: Author = "user",
        summary: str | None = None,
        instruction: str | None = None,
    ) -> Revision:
        """Apply patch ops as one revision. Raises `studio.spec.PatchError`; nothing changes then.
        A `replaceNode` may replace the root (the studio's structural edits)."""
        from studio.spec.patch import apply_patch

        result = apply_patch(self.spec, ops, root=True)
        revision = Revision(
            spec=result.spec,
            author=author,
            summary=summary or _summarise(ops),
            ops=list(ops),
            instruction=instruction,
            changed=tuple(result.changed),
        )
        self._push(revision)
        return revision

    def replace_spec(
        self,
        new_spec: JSON,
        *,
        author: Author = "user",
        summary: str,
        instruction: str | None = None,
    ) -> Revision:
        """A whole-spec revision (root, window, theme), validated by `spec.patch.replace_spec`:
        raises `studio.spec.PatchError` (path and message) and changes nothing if invalid."""
        from studio.spec.patch import replace_spec

        result = replace_spec(self.spec, new_spec)
        revision = Revision(
            spec=result.spec,
            author=author,
            summary=summary,
            instruction=instruction,
            changed=tuple(result.changed),
        )
        self._push(revision)
        return revision

    def push_revision(self, revision: Revision) -> None:
        """Add a revision made elsewhere (an applied agent draft), validated here first: raises
        `studio.spec.PatchError` (path and message) and changes nothing if its spec is invalid."""
        from studio.spec.patch import PatchError
        from studio.spec.validator import validate

        result = validate(revision.spec)
        if not result.ok:
            raise PatchError(None, result.path or "$", result.message or "Invalid spec")
        self._push(revision)

    def undo(self) -> Revision | None:
        """Step back one revision (None: nothing to undo). RevisionRefused when the spec it
        would restore is invalid."""
        log = self.revisions
        if not log.can_undo():
            return None
        cursor = log.cursor
        back = log.revisions[cursor - 2] if cursor > 1 else None
        self._check_restorable(back, log.revisions[cursor - 1])
        revision = log.undo()
        if revision is not None:
            self._emit(DocumentChange("undo", revision.changed, revision))
        return revision

    def redo(self) -> Revision | None:
        """Redo the revision undone last (None: nothing to redo). RevisionRefused when its spec
        is invalid."""
        log = self.revisions
        if not log.can_redo():
            return None
        upcoming = log.revisions[log.cursor]
        self._check_restorable(upcoming, upcoming)
        revision = log.redo()
        if revision is not None:
            self._emit(DocumentChange("redo", revision.changed, revision))
        return revision

    def _check_restorable(self, target: Revision | None, undone: Revision) -> None:
        """Refuse to move to `target` (None: the base) when its spec is invalid; `undone` is the
        revision the user asked to undo or redo (its summary names the refusal)."""
        key = target.id if target is not None else ""
        if key in self._valid:
            return
        from studio.spec.validator import validate

        result = validate(target.spec if target is not None else self.revisions.base)
        if not result.ok:
            raise RevisionRefused(undone.summary, result.path or "$", result.message or "")
        self._valid.add(key)

    def _push(self, revision: Revision) -> None:
        self._valid.add(revision.id)
        self.revisions.push(revision)
        self._emit(DocumentChange("revision", revision.changed, revision))

    def subscribe(self, listener: Callable[[DocumentChange], None]) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, change: DocumentChange) -> None:
        for listener in list(self._listeners):
            listener(change)


def _summarise(ops: Iterable[JSON]) -> str:
    """A one-line summary of ops for user edits ("replace node header", "set /state/email")."""
    parts: list[str] = []
    for op in ops:
        kind = op.get("op")
        if kind == "replaceNode":
            parts.append(f"edit {op.get('id') or op.get('address')}")
        else:
            parts.append(f"{kind} {op.get('path')}")
    text = ", ".join(parts) or "no change"
    return text if len(text) <= 80 else text[:77] + "..."
