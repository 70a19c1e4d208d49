"""`OutsideReviewer`: an outside agent's draft (written over MCP, `drafts.py`) under review in
the studio's workspace, with the same card, rebase and stale rules as the studio's own agent
draft; apply lands it as one agent revision of the document (no Qt, no I/O: the caller reads and
removes the draft file off the GUI thread)."""

from __future__ import annotations

import dataclasses
from typing import Any

from studio.library.revisions import Revision
from studio.mcpserver.drafts import OutsideDraft
from studio.workspace import Workspace
from studio.workspace.review import Review

JSON = dict[str, Any]


class OutsideReviewer:
    """Shows the open prototype's outside draft. The studio's own agent draft wins while it is
    under review; the outside one is shown again at the next `show`."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.draft: OutsideDraft | None = None

    @property
    def review(self) -> Review | None:
        """The outside draft as the workspace shows it (None when it is not under review)."""
        review, draft = self.workspace.review, self.draft
        if review is None or draft is None or review.id != draft.review_id:
            return None
        return review

    def show(self, draft: OutsideDraft | None) -> Review | None:
        """Show `draft` (the file as read now; None: there is none) if it is the open
        prototype's; a draft that went away (applied or discarded elsewhere) leaves review."""
        document = self.workspace.document
        if draft is not None and (document is None or document.entry_id != draft.entry_id):
            draft = None
        if draft is None:
            if self.review is not None:
                self.workspace.discard_review()
            self.draft = None
            return None
        shown = self.workspace.review
        if shown is not None and shown.id != draft.review_id:
            return None  # the studio's own agent draft is under review
        self.draft = draft
        return self.workspace.show_draft(draft.review_id, draft.base, draft.revisions, owner=self)

    def rebased(self, base: JSON, revisions: tuple[Revision, ...]) -> None:
        if self.draft is not None:
            self.draft = dataclasses.replace(self.draft, base=base, revisions=revisions)

    def apply(self) -> tuple[str, Revision]:
        """Land the draft as one agent revision; returns its prototype's id (whose draft file the
        caller removes) and the revision. RuntimeError when none is under review or it is stale."""
        draft = self.draft
        if draft is None or self.review is None:
            raise RuntimeError("no outside draft is under review")
        revision = self.workspace.apply_review()
        self.draft = None
        return draft.entry_id, revision

    def discard(self) -> str:
        """Drop the draft from review; returns its prototype's id (the caller removes the file)."""
        draft = self.draft
        if draft is None:
            raise RuntimeError("no outside draft is under review")
        if self.review is not None:
            self.workspace.discard_review()
        self.draft = None
        return draft.entry_id
