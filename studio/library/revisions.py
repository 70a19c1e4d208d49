"""Revisions of a prototype: who changed what, when and why, with undo and redo (no Qt).

Shared by the studio (user edits), the agent (its draft) and the library (saved on disk).
"""

from __future__ import annotations

import copy
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Author = Literal["user", "agent"]
JSON = dict[str, Any]


@dataclass(frozen=True)
class Revision:
    """One change to a spec. `ops` are the patch ops (None for a whole-spec revision);
    `spec` is the whole spec after the change; `changed` the addresses of changed nodes."""

    spec: JSON
    author: Author
    summary: str
    ops: list[JSON] | None = None
    instruction: str | None = None
    changed: tuple[str, ...] = ()
    time: float = field(default_factory=time.time)
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "author": self.author,
            "summary": self.summary,
            "instruction": self.instruction,
            "time": self.time,
            "ops": self.ops,
            "changed": list(self.changed),
            "spec": self.spec,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Revision:
        author = data.get("author")
        if author not in ("user", "agent"):
            raise ValueError(f"revision author must be 'user' or 'agent', not {author!r}")
        spec = data.get("spec")
        if not isinstance(spec, dict):
            raise ValueError("revision spec must be an object")
        ops = data.get("ops")
        return cls(
            spec=spec,
            author=author,
            summary=str(data.get("summary") or ""),
            ops=list(ops) if isinstance(ops, list) else None,
            instruction=data.get("instruction")
            if isinstance(data.get("instruction"), str)
            else None,
            changed=tuple(str(a) for a in data.get("changed") or ()),
            time=float(data.get("time") or 0.0),
            id=str(data.get("id") or uuid.uuid4().hex[:12]),
        )


class RevisionLog:
    """A linear history over a base spec: `push` adds a revision (dropping any redo tail),
    `undo`/`redo` move the cursor. `current` is the spec at the cursor. Listeners are called
    with the log after every change."""

    def __init__(
        self, base: JSON, revisions: list[Revision] | None = None, cursor: int | None = None
    ):
        self._base = base
        self._revisions: list[Revision] = list(revisions or [])
        self._cursor = len(self._revisions) if cursor is None else cursor
        if not 0 <= self._cursor <= len(self._revisions):
            raise ValueError("revision cursor out of range")
        self._listeners: list[Callable[[RevisionLog], None]] = []

    @property
    def base(self) -> JSON:
        return self._base

    @property
    def revisions(self) -> list[Revision]:
        """All revisions, including undone ones past the cursor (for redo)."""
        return list(self._revisions)

    @property
    def applied(self) -> list[Revision]:
        return self._revisions[: self._cursor]

    @property
    def cursor(self) -> int:
        return self._cursor

    @property
    def current(self) -> JSON:
        return self._revisions[self._cursor - 1].spec if self._cursor else self._base

    def can_undo(self) -> bool:
        return self._cursor > 0

    def can_redo(self) -> bool:
        return self._cursor < len(self._revisions)

    def push(self, revision: Revision) -> None:
        del self._revisions[self._cursor :]
        self._revisions.append(revision)
        self._cursor = len(self._revisions)
        self._notify()

    def undo(self) -> Revision | None:
        if not self.can_undo():
            return None
        self._cursor -= 1
        self._notify()
        return self._revisions[self._cursor]

    def redo(self) -> Revision | None:
        if not self.can_redo():
            return None
        self._cursor += 1
        self._notify()
        return self._revisions[self._cursor - 1]

    def subscribe(self, listener: Callable[[RevisionLog], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener(self)

    def to_json(self) -> JSON:
        return {
            "base": self._base,
            "cursor": self._cursor,
            "revisions": [r.to_json() for r in self._revisions],
        }

    @classmethod
    def from_json(cls, data: JSON) -> RevisionLog:
        base = data.get("base")
        if not isinstance(base, dict):
            raise ValueError("revision log base must be an object")
        revisions = [Revision.from_json(r) for r in data.get("revisions") or []]
        cursor = data.get("cursor")
        return cls(copy.deepcopy(base), revisions, cursor if isinstance(cursor, int) else None)
