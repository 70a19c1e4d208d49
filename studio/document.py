"""The open prototype: its spec and revision history; every edit is a validated revision.

Qt-free. Every change to a prototype (an inspector edit, an applied agent draft, undo, redo) goes
through its `Document`, so the revision list and saving see every change the same way. What the
studio shows, the selection and the draft under review belong to `studio.workspace`.
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
        """Apply patch ops as one revision. Raises `studio.spec.PatchError`; nothing changes then."""
        from studio.spec.patch import apply_patch

        result = apply_patch(self.spec, ops)
        revision = Revision(
            spec=result.spec,
            author=author,
            summary=summary or _summarise(ops),
            ops=list(ops),
            instruction=instruction,
            changed=tuple(result.changed),
        )
        self.revisions.push(revision)
        self._emit(DocumentChange("revision", revision.changed, revision))
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
        self.revisions.push(revision)
        self._emit(DocumentChange("revision", revision.changed, revision))
        return revision

    def push_revision(self, revision: Revision) -> None:
        """Add a revision made elsewhere (an applied agent draft); its spec was validated there."""
        self.revisions.push(revision)
        self._emit(DocumentChange("revision", revision.changed, revision))

    def undo(self) -> Revision | None:
        revision = self.revisions.undo()
        if revision is not None:
            self._emit(DocumentChange("undo", revision.changed, revision))
        return revision

    def redo(self) -> Revision | None:
        revision = self.revisions.redo()
        if revision is not None:
            self._emit(DocumentChange("redo", revision.changed, revision))
        return revision

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
