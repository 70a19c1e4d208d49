"""The workspace: the one owner of what the studio shows (Qt-free; the studio's views and a
headless server subscribe to it).

- workspace.py  `Workspace`: the open Document, at most one Review, the Shown spec, the Selection,
                user edits (with the edit-during-review rule), typed events
- review.py     `Review` (the agent's draft under review, a value), `rebase`, `ReviewConflict`
- diff.py       the subtrees a draft owns, property-level `NodeDiff`s and `ValueDiff`s
- events.py     the events (`WorkspaceEvent`), `Shown`
- selection.py  `Selection`: ordered addresses with a primary one
- editing.py    the edit commands on the selection (delete, duplicate, move, wrap, copy/cut/paste,
                insert, drop) as one validated revision each; `drop_refusal` for drop indicators
"""

from __future__ import annotations

from studio.workspace.diff import NodeDiff, ValueDiff
from studio.workspace.events import (
    DocumentEdited,
    DocumentOpened,
    ReviewChanged,
    SelectionChanged,
    Shown,
    ShownChanged,
    WorkspaceEvent,
)
from studio.workspace.review import DraftOwner, Review, ReviewConflict
from studio.workspace.selection import Selection
from studio.workspace.workspace import Workspace

__all__ = [
    "DocumentEdited",
    "DocumentOpened",
    "DraftOwner",
    "NodeDiff",
    "Review",
    "ReviewChanged",
    "ReviewConflict",
    "Selection",
    "SelectionChanged",
    "Shown",
    "ShownChanged",
    "ValueDiff",
    "Workspace",
    "WorkspaceEvent",
]
