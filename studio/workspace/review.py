"""The agent's draft under review (`Review`, a value) and its rebase on a changed document.

Qt-free. A review is built from the draft's revisions over a base spec. When the document changes
under it, `rebase` applies the same ops again on the new document spec: if they all apply, the
review is the rebased draft; if one does not, the review is stale (it keeps its revisions, so a
later change, such as an undo, may make it apply again).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from studio.library.revisions import Revision
from studio.workspace.diff import NodeDiff, ValueDiff, node_diffs, replaced_paths, value_diffs

JSON = dict[str, Any]
ReviewState = Literal["open", "stale"]


class ReviewConflict(ValueError):
    """A user edit refused because it would change the agent's draft (one line, for the user)."""


class DraftOwner(Protocol):
    """Whoever holds the draft (the agent's run driver): told when the workspace rebased it on a
    document change, so that the agent keeps working on what the user sees."""

    def rebased(self, base: JSON, revisions: tuple[Revision, ...]) -> None: ...


@dataclass(frozen=True)
class Review:
    """At most one per workspace: the agent's draft (`revisions` over `base`, ending in `spec`).

    `state` "open": `spec` is what the studio shows, and Apply lands it in the document.
    `state` "stale": the draft's ops no longer apply to the document (`problem` says where and
    why); the document is shown and the draft can only be re-run or discarded. `rebased` says
    the draft was re-applied on a user edit since it was made."""

    id: str
    base: JSON
    revisions: tuple[Revision, ...]
    state: ReviewState = "open"
    rebased: bool = False
    problem: str | None = None

    @property
    def spec(self) -> JSON:
        return self.revisions[-1].spec if self.revisions else self.base

    @property
    def stale(self) -> bool:
        return self.state == "stale"

    @functools.cached_property
    def owned(self) -> tuple[str, ...]:
        """Paths of the subtrees the draft replaced (user edits inside them are refused)."""
        return replaced_paths(self.base, self.revisions)

    @functools.cached_property
    def changed(self) -> tuple[str, ...]:
        """The addresses the draft's revisions changed, in the order they changed them."""
        seen: dict[str, None] = {}
        for revision in self.revisions:
            seen.update(dict.fromkeys(revision.changed))
        return tuple(seen)

    @functools.cached_property
    def node_diffs(self) -> tuple[NodeDiff, ...]:
        """Per changed node: the properties added, removed and changed."""
        return tuple(node_diffs(self.base, self.spec, self.owned))

    @functools.cached_property
    def value_diffs(self) -> tuple[ValueDiff, ...]:
        """State, data and other top-level members the draft changed."""
        return tuple(value_diffs(self.base, self.spec))

    def ops(self) -> list[JSON]:
        return [op for revision in self.revisions for op in (revision.ops or [])]

    def summary(self) -> str:
        return join_summaries(r.summary for r in self.revisions)

    def instruction(self) -> str | None:
        return next((r.instruction for r in self.revisions if r.instruction), None)


def rebase(review: Review, document: JSON) -> Review:
    """`review` re-applied on `document` (rebased), or the same review marked stale with the
    first op that no longer applies (the revision's summary, the path and the message)."""
    from studio.spec.patch import PatchError, reapply

    spec = document
    out: list[Revision] = []
    for revision in review.revisions:
        try:
            result = reapply(spec, revision.ops or [])
        except PatchError as exc:
            problem = f"“{revision.summary}” no longer applies: {exc.path}: {exc.message}"
            return replace(review, state="stale", problem=problem)
        out.append(
            Revision(
                spec=result.spec,
                author=revision.author,
                summary=revision.summary,
                ops=[dict(op) for op in result.ops],
                instruction=revision.instruction,
                changed=result.changed,
                time=revision.time,
            )
        )
        spec = result.spec
    return Review(review.id, document, tuple(out), "open", True, None)


def join_summaries(summaries: Any) -> str:
    """One line from the revisions' summaries ("a; b; c (+2 more)")."""
    items = [s for s in summaries if s]
    if not items:
        return "agent edit"
    if len(items) == 1:
        return str(items[0])
    text = "; ".join(items[:3]) + (f" (+{len(items) - 3} more)" if len(items) > 3 else "")
    return text if len(text) <= 160 else text[:157] + "..."
