"""The workspace's change events: what is shown, the selection, the open document, its edits and
the review (frozen dataclasses; `WorkspaceEvent` is their union).

Qt-free. Views subscribe (through the studio controller, which forwards them as Qt signals) and
draw what an event carries; they never write into each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from studio.library.revisions import Revision
from studio.workspace.selection import Selection

if TYPE_CHECKING:
    from studio.document import Document
    from studio.workspace.review import Review

JSON = dict[str, Any]
EditKind = Literal["revision", "undo", "redo"]
ReviewReason = Literal["opened", "updated", "rebased", "stale", "applied", "discarded", "closed"]


@dataclass(frozen=True)
class Shown:
    """What the studio shows: the document, or the draft under review (`source`).

    `changed`: addresses that differ from what was shown before (the preview rebuilds only
    those); `highlight`: what to mark (the draft's changes, or what the last edit changed);
    `fresh`: a prototype was opened (start it from its initial state); `pending`: the spec
    holds a live edit of one node that is not a revision yet (`Workspace.preview_node`)."""

    spec: JSON
    source: Literal["document", "review", "none"]
    changed: tuple[str, ...] = ()
    highlight: tuple[str, ...] = ()
    fresh: bool = False
    pending: bool = False

    @property
    def expanded(self) -> JSON:
        """The spec with components expanded (what the preview and a phone render)."""
        return expanded(self.spec)


_EXPANDED: list[tuple[JSON, JSON]] = []


def expanded(spec: JSON) -> JSON:
    """`spec.expand(spec)`, remembered for the last few specs (by identity: specs are values,
    never changed in place), so the preview and the phone share one expansion per change."""
    for known, result in _EXPANDED:
        if known is spec:
            return result
    from studio.spec import expand

    result = expand(spec) if spec else {}
    _EXPANDED.insert(0, (spec, result))
    del _EXPANDED[4:]
    return result


@dataclass(frozen=True)
class DocumentOpened:
    """Another prototype is open (`document` None: none is)."""

    document: Document | None


@dataclass(frozen=True)
class DocumentEdited:
    """The open document changed: a revision (by the user or an applied draft), an undo or a redo."""

    document: Document
    kind: EditKind
    revision: Revision | None


@dataclass(frozen=True)
class ReviewChanged:
    """The review opened, changed (a new draft revision, rebased, stale) or closed (`review`
    None: applied, discarded or closed with its document). `reason` says which."""

    review: Review | None
    reason: ReviewReason


@dataclass(frozen=True)
class ShownChanged:
    shown: Shown


@dataclass(frozen=True)
class SelectionChanged:
    selection: Selection


WorkspaceEvent = DocumentOpened | DocumentEdited | ReviewChanged | ShownChanged | SelectionChanged
