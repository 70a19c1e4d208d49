"""`RunDriver`: one prototype's agent session, at most one active run on it, and its draft under
review in the workspace (apply, discard, undo, re-run; rebased when the user edits meanwhile).

Qt-free; runs under plain asyncio as well as in the studio (qasync). Every run ends in exactly
one `RunEnded`, also when it crashes or is stopped before the loop started; after it the run's
snapshot is saved off the event loop. The agent's `preview` tool renders the draft through a
`DraftRenderer` of its own (the studio's is a headless scene), never in the user's preview.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Literal, Protocol

from studio.agent.guards import Limits
from studio.agent.loop import Answer, RunResult
from studio.agent.providers import ModelChoice
from studio.agent.resume import ResumeError, RunRecord
from studio.agent.router import RoutingError
from studio.agent.run_events import (
    DraftRevised,
    InputRequired,
    Notice,
    RunEnded,
    RunEvent,
    RunStarted,
    SnapshotSaved,
)
from studio.agent.session import AgentSession
from studio.agent.trace import GLOBAL_MASKER
from studio.concurrency import TaskOwner
from studio.document import Document
from studio.library.revisions import Revision
from studio.workspace import Review, Workspace

log = logging.getLogger(__name__)
JSON = dict[str, Any]
Choose = Callable[[], Awaitable[ModelChoice]]
RunState = Literal["idle", "running", "waiting"]


class DraftRenderer(Protocol):
    """Renders a spec where the user does not see it and lists what is on screen (address, type,
    text, bounds): the agent's `preview` tool."""

    async def summary(self, spec: JSON) -> list[JSON]: ...


class _DraftPreview:
    """The `PreviewProvider` of one session: its draft, through the renderer."""

    def __init__(self, renderer: DraftRenderer, spec: Callable[[], JSON]) -> None:
        self._renderer = renderer
        self._spec = spec

    async def summary(self) -> list[JSON]:
        return await self._renderer.summary(self._spec())


class RunDriver:
    """The agent for one open `document` of a `workspace`: runs, answers, stop, replay, and the
    review of its draft. Events go to `on_event` in order; tasks are kept by `tasks`."""

    def __init__(
        self,
        workspace: Workspace,
        document: Document,
        on_event: Callable[[RunEvent], None],
        tasks: TaskOwner,
        *,
        save_snapshots: bool = True,
        renderer: DraftRenderer | None = None,
    ) -> None:
        self.workspace = workspace
        self.document = document
        self.renderer = renderer
        self.session: AgentSession | None = None
        self.task: asyncio.Task[Any] | None = None
        self.state: RunState = "idle"
        self.last_snapshot: Path | None = None
        self.applied: list[Revision] = []  # document revisions this driver applied, newest last
        self._on_event = on_event
        self._tasks = tasks
        self._save = save_snapshots
        self._save_this = save_snapshots
        self._terminal = True
        self._generation = 0
        self._replaying = False
        #: The instructions (and selected node) of the open draft, for Re-run.
        self._requests: list[tuple[str, str | None]] = []
        # Saves run one after another: two runs' snapshots go to the same file (one per trace),
        # and the later run's (with more instructions) must be the one left on disk.
        self._saving = asyncio.Lock()

    # -- the draft ----------------------------------------------------------------------------
    @property
    def bound(self) -> bool:
        """Whether this driver's document is the one the workspace shows."""
        return self.workspace.document is self.document

    @property
    def draft_open(self) -> bool:
        return self.session is not None and self.session.draft.state == "open"

    @property
    def draft_revisions(self) -> list[Revision]:
        return list(self.session.draft.revisions) if self.draft_open and self.session else []

    def draft_spec(self) -> JSON:
        return self.session.draft.spec if self.session and self.draft_open else self.document.spec

    def changed(self) -> list[str]:
        seen: dict[str, None] = {}
        for revision in self.draft_revisions:
            seen.update(dict.fromkeys(revision.changed))
        return list(seen)

    @property
    def review(self) -> Review | None:
        """This driver's draft as the workspace shows it (None when it is not under review)."""
        review = self.workspace.review
        session = self.session
        if review is None or session is None or not self.bound or review.id != session.trace_id:
            return None
        return review

    def rebased(self, base: JSON, revisions: tuple[Revision, ...]) -> None:
        """The workspace re-applied the draft on the edited document: the agent works on that."""
        if self.draft_open and self.session is not None and not self._replaying:
            self.session.draft.rebase(base, revisions)

    def _publish(self) -> None:
        session = self.session
        if session is None or not self.bound:
            return
        revisions = self.draft_revisions
        review = self.workspace.review
        if not revisions and (review is None or review.id != session.trace_id):
            return  # nothing to show, and nothing of ours is shown
        # A replay runs on its recorded spec: the review may show it rebased, but the replayed
        # draft itself is not moved (its tool outputs must match the recording).
        self.workspace.show_draft(
            session.trace_id,
            session.draft.base,
            revisions,
            owner=None if self._replaying else self,
        )

    # -- running --------------------------------------------------------------------------------
    def start(
        self,
        instruction: str,
        choose: Choose,
        limits: Limits,
        *,
        selected: str | None = None,
    ) -> asyncio.Task[Any]:
        """Run `instruction` with the model `choose()` gives (awaited in the run, since it may
        read the keychain; a RoutingError ends the run as failed, saying what to configure).
        `selected` goes to the core, which sends the node's address and subtree as context."""
        if self.state != "idle":
            raise RuntimeError("a run is already active for this prototype")
        return self._begin(self._run(instruction, choose, limits, selected))

    def answer(self, answer: Answer) -> asyncio.Task[Any]:
        if self.state != "waiting" or self.session is None:
            raise RuntimeError("the run is not waiting for an answer")
        return self._begin(self.session.resume(answer))

    def stop(self) -> None:
        """Cancel at once: a streaming run's task is cancelled; a paused run is ended."""
        if self.state == "running" and self.task is not None:
            self.task.cancel()
        elif self.state == "waiting" and self.session is not None:
            self.session.cancel()

    def rerun(self, choose: Choose, limits: Limits) -> asyncio.Task[Any]:
        """Discard the draft and run its instruction(s) again on the current document (what a
        stale review offers). Several instructions go as one, in order."""
        if self.state != "idle" or not self._requests:
            raise RuntimeError("nothing to re-run")
        requests = list(self._requests)
        if self.draft_open:
            self.discard()
        self.session = None
        text = "\n\n".join(t for t, _ in requests)
        return self.start(text, choose, limits, selected=requests[-1][1])

    @property
    def can_rerun(self) -> bool:
        return self.state == "idle" and bool(self._requests) and self.draft_open

    def replay(self, snapshot: JSON) -> asyncio.Task[Any]:
        """Replay a saved run through the core's Replayer: its events stream like a live run's;
        drift or differences from the recording end in a notice."""
        from studio.agent.replay import Replayer

        if self.state != "idle":
            raise RuntimeError("a run is already active for this prototype")
        instructions = len(snapshot.get("instructions") or [])
        started = 0

        def on_event(event: RunEvent) -> None:
            nonlocal started
            if isinstance(event, RunStarted):
                started += 1
            if isinstance(event, RunEnded) and started < instructions:
                return  # the replay is one run: only the last instruction's end ends it
            if isinstance(event, InputRequired):  # answered from the recording, not by the user
                self._on_event(event)
                return
            self._event(event)

        replayer = Replayer(snapshot, on_event=on_event)
        self.session = replayer.session
        self._requests = []
        self._replaying = True

        async def drive() -> RunResult:
            try:
                report = await replayer.run()
            finally:
                self._replaying = False
            if not report.results:
                raise RuntimeError("the snapshot has no instructions")
            problems = report.problems()
            if problems:
                self._on_event(Notice("the replay differs: " + "; ".join(problems)))
            self._publish()  # now the review's rebase (if any) moves the draft too
            return report.results[-1]

        return self._begin(drive(), save=False)

    def resume_saved(
        self, record: RunRecord, choose: Choose, limits: Limits, *, allow_tool_changes: bool = False
    ) -> asyncio.Task[Any]:
        """Continue an unfinished run saved earlier (studio.agent.resume): its draft comes back
        under review, a pending question is asked again, else the model carries on. A record
        that no longer resumes (tools changed, unreadable) ends the run failed with its line."""
        if self.state != "idle":
            raise RuntimeError("a run is already active for this prototype")
        return self._begin(self._resume_saved(record, choose, limits, allow_tool_changes))

    async def _resume_saved(
        self, record: RunRecord, choose: Choose, limits: Limits, allow_tool_changes: bool
    ) -> RunResult:
        from studio.agent.resume import resume_session

        choice = await choose()
        if self.draft_open:
            self.discard()
        preview = None
        if self.renderer is not None:
            preview = _DraftPreview(self.renderer, lambda: resumed.session.draft.spec)
        resumed = resume_session(
            record,
            choice.client,
            allow_tool_changes=allow_tool_changes,
            limits=limits,
            on_event=self._event,
            info={**choice.info, "resumed_from": record.where},
            preview=preview,
        )
        self.session = resumed.session
        self._requests = [(record.instruction, None)]
        self._publish()  # the restored draft under review, rebased on the document if needed
        return await resumed.run()

    # -- internals --------------------------------------------------------------------------------
    async def _run(
        self, instruction: str, choose: Choose, limits: Limits, selected: str | None
    ) -> RunResult:
        choice = await choose()
        session = self.session
        # A follow-up instruction continues the conversation on the open draft (with the model
        # the router chose for it), unless the document changed under an untouched draft.
        if (
            session is not None
            and self.draft_open
            and (session.draft.revisions or session.draft.base == self.document.spec)
        ):
            self._requests.append((instruction, selected))
            return await session.follow_up(
                instruction, selected=selected, model=choice.client, limits=limits
            )
        self._requests = [(instruction, selected)]
        preview = None
        if self.renderer is not None:
            preview = _DraftPreview(self.renderer, lambda: new.draft.spec)
        new = AgentSession(
            choice.client,
            self.document.spec,  # specs are values: shared, never mutated (apply_patch copies on write)
            guide=choice.guide,
            limits=limits,
            on_event=self._event,
            info=choice.info,
            preview=preview,
            effort=choice.effort,
            tool_set=choice.tool_set,
        )
        self.session = new
        return await new.run(instruction, selected=selected)

    def _begin(
        self, work: Coroutine[Any, Any, RunResult], *, save: bool = True
    ) -> asyncio.Task[Any]:
        self.state = "running"
        self._terminal = False
        self._save_this = save and self._save
        self._generation += 1
        self.task = self._tasks.spawn(self._guard(work, self._generation), label="agent run")
        return self.task

    async def _guard(
        self, work: Coroutine[Any, Any, RunResult], generation: int
    ) -> RunResult | None:
        trace_id = self.session.trace_id if self.session is not None else ""
        try:
            result = await work
        except ResumeError as exc:  # a saved run that cannot be continued: its one line
            if not self._terminal:
                self._event(RunEnded("failed", str(exc), str(exc), error_class="resume"))
            self._settle(None, generation)
            return None
        except RoutingError as exc:  # no usable model (found while choosing it): say what to set
            if not self._terminal:
                self._event(RunEnded("failed", str(exc), str(exc), error_class="config"))
            self._settle(None, generation)
            return None
        except asyncio.CancelledError:
            if not self._terminal:  # stopped before the loop could say so
                self._event(RunEnded("cancelled", "cancelled by the user", trace_id=trace_id))
            self._settle(None, generation)
            raise
        except Exception as exc:  # not a model error (those are results): still one terminal event
            log.exception("agent run crashed")
            if not self._terminal:
                message = GLOBAL_MASKER.text(f"the agent run crashed: {type(exc).__name__}: {exc}")
                self._event(
                    RunEnded("failed", message, message, trace_id=trace_id, error_class="crash")
                )
            self._settle(None, generation)
            return None
        self._settle(result, generation)
        return result

    def _settle(self, result: RunResult | None, generation: int) -> None:
        if generation != self._generation:
            return  # a newer run started after this one's terminal event
        self.task = None
        if result is not None and result.status == "needs_input":
            self.state = "waiting"
            return
        self.state = "idle"

    def _event(self, event: RunEvent) -> None:
        if isinstance(event, RunEnded):
            if self._terminal:
                return  # exactly one terminal event per run
            self._terminal = True
            # The run is over for the UI from its terminal event on (its task is returning).
            self.state = "idle"
            self.task = None
        elif isinstance(event, InputRequired):
            self.state = "waiting"
        elif isinstance(event, DraftRevised):
            self._publish()
        self._on_event(event)
        # Saved at the end, and while paused for an answer, so a restart can continue it.
        if (
            isinstance(event, RunEnded | InputRequired)
            and self._save_this
            and self.session is not None
        ):
            self._tasks.spawn(self._save_snapshot(self.session.snapshot()), label="run snapshot")

    async def _save_snapshot(self, snapshot: JSON) -> None:
        from studio.agent.snapshot import asave_snapshot

        try:
            async with self._saving:
                self.last_snapshot = await asave_snapshot(snapshot)
        except OSError as exc:
            self._on_event(Notice(f"could not save the run snapshot ({exc})"))
            return
        self._on_event(SnapshotSaved(str(self.last_snapshot)))

    # -- review -----------------------------------------------------------------------------------
    def apply(self) -> Revision:
        """Land the draft in the document as one revision by the agent (through the workspace,
        which has kept it rebased on the user's edits). RuntimeError when there is nothing to
        apply or the draft no longer applies (a stale review)."""
        if self.state != "idle" or self.session is None or not self.draft_open:
            raise RuntimeError("nothing to apply")
        if not self.session.draft.revisions:
            raise RuntimeError("the draft has no changes")
        if not self.bound:
            raise RuntimeError("the draft's prototype is not open")
        if self.review is None:
            self._publish()
        revision = self.workspace.apply_review()
        self.session.draft.apply()
        self.applied.append(revision)
        self._requests = []
        return revision

    def discard(self) -> None:
        if self.state != "idle" or self.session is None or not self.draft_open:
            raise RuntimeError("nothing to discard")
        if self.review is not None:
            self.workspace.discard_review()
        self.session.draft.discard()

    def can_undo(self) -> bool:
        if self.state != "idle":
            return False
        if self.draft_revisions:
            return True
        return self._top_is_ours()

    def undo(self) -> Literal["draft", "document"] | None:
        """Undo the draft's last revision, or else the agent revision last applied."""
        if self.state != "idle":
            return None
        if self.draft_revisions and self.session is not None:
            self.session.draft.undo()
            self._publish()
            return "draft"
        if self._top_is_ours():
            self.applied.pop()
            self.workspace.undo()
            return "document"
        return None

    def _top_is_ours(self) -> bool:
        applied = self.document.revisions.applied
        return self.bound and bool(self.applied and applied and applied[-1] is self.applied[-1])
