"""The agent's draft: a revision log over the starting spec, with preview, apply, discard and undo."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from studio.library.revisions import Revision, RevisionLog

JSON = dict[str, Any]
DraftState = Literal["open", "applied", "discarded"]


class Draft:
    """Each run works on a draft. Writes come only through `patch` (validated by the spec core);
    a rejected patch raises studio.spec.PatchError and changes nothing."""

    def __init__(
        self, base: JSON, *, log: RevisionLog | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        # Specs are values (apply_patch copies on write), so the draft shares the base with the
        # document: the preview then rebuilds only the nodes a patch changed.
        self.log = log or RevisionLog(base)
        self.state: DraftState = "open"
        self._clock = clock

    @property
    def base(self) -> JSON:
        return self.log.base

    @property
    def spec(self) -> JSON:
        """The spec at the cursor (what preview shows)."""
        return self.log.current

    @property
    def version(self) -> str:
        """Changes whenever the spec does (the stuck detector keys read-only calls on it)."""
        applied = self.log.applied
        return applied[-1].id if applied else "base"

    @property
    def revisions(self) -> list[Revision]:
        return self.log.applied

    def patch(self, ops: list[JSON], summary: str, instruction: str | None = None) -> Revision:
        self._check_open()
        from studio.spec import apply_patch

        return self._push(apply_patch(self.spec, ops), summary, instruction)

    def revise(self, members: JSON, summary: str, instruction: str | None = None) -> Revision:
        """A whole-spec revision (new root, window and/or theme over the rest of the draft),
        validated whole; PatchError (index None) and nothing changes when it is refused."""
        self._check_open()
        from studio.spec.patch import revise_spec

        return self._push(revise_spec(self.spec, members), summary, instruction)

    def reapply(self, ops: list[JSON], summary: str, instruction: str | None = None) -> Revision:
        """A recorded revision's ops applied again (a resumed run rebuilding its draft): patch
        ops or one reviseSpec op, validated whole like the first time."""
        self._check_open()
        from studio.spec.patch import reapply

        return self._push(reapply(self.spec, ops), summary, instruction)

    def _push(self, result: Any, summary: str, instruction: str | None) -> Revision:
        revision = Revision(
            spec=result.spec,
            author="agent",
            summary=summary,
            ops=[dict(op) for op in result.ops],
            instruction=instruction,
            changed=tuple(result.changed),
            time=self._clock(),
        )
        self.log.push(revision)
        return revision

    def rebase(self, base: JSON, revisions: Sequence[Revision]) -> None:
        """Move the draft onto `base` (the document after a user edit) with its revisions as
        re-applied there (the studio's workspace does the re-applying and validating); undone
        revisions are dropped. The agent's next tool calls see the rebased draft."""
        self._check_open()
        self.log = RevisionLog(base, list(revisions))

    def preview(self) -> JSON:
        """The draft spec and what its last revision changed (for highlighting)."""
        applied = self.log.applied
        return {"spec": self.spec, "changed": list(applied[-1].changed) if applied else []}

    def undo(self) -> Revision | None:
        self._check_open()
        return self.log.undo()

    def redo(self) -> Revision | None:
        self._check_open()
        return self.log.redo()

    def apply(self) -> JSON:
        """Accept the draft: returns the spec to save (the caller commits it atomically)."""
        self._check_open()
        self.state = "applied"
        return copy.deepcopy(self.spec)

    def discard(self) -> JSON:
        """Drop the draft: returns the unchanged starting spec."""
        self._check_open()
        self.state = "discarded"
        return copy.deepcopy(self.base)

    def _check_open(self) -> None:
        if self.state != "open":
            raise RuntimeError(f"the draft was already {self.state}")
