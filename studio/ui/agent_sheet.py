"""The agent chat sheet: a view of the open prototype's runs plus their input (instruction, the
selected node as context, Send/Stop, askUser buttons, the review card, the trace).

The run logic is `studio.agent.driver.RunDriver`; what the studio shows is the workspace's. The
sheet folds the driver's typed events (match/case) into the chat, the status line and the
counters, and follows the workspace's events (forwarded by the controller) for the open
document, the selection and the review. It never writes into the preview or the tree.
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from studio.agent.config import AgentConfig
from studio.agent.describe import tool_action
from studio.agent.driver import RunDriver
from studio.agent.keys import KeyStore
from studio.agent.loop import ApprovalAnswer, UserAnswer
from studio.agent.providers import ModelChoice, ModelSource
from studio.agent.registry import Tool
from studio.agent.run_events import (
    DraftRevised,
    InputRequired,
    LoopWarning,
    Notice,
    ReasoningStreamed,
    RetryScheduled,
    RunEnded,
    RunEvent,
    RunStarted,
    SnapshotSaved,
    TextStreamed,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    UsageReported,
)
from studio.concurrency import TaskOwner
from studio.document import Document
from studio.mcpserver.review import OutsideReviewer
from studio.ui.agent_chat import AskCard, ChatView, InstructionBox
from studio.ui.agent_run_info import ReasoningPanel, ResumeOffer, RouteLabel
from studio.ui.agent_status import CountersBar, RunCounters, SheetHeader
from studio.ui.review_card import ReviewCard
from studio.ui.scenes import DraftScene
from studio.ui.trace_panel import TracePanel
from studio.workspace import (
    DocumentEdited,
    DocumentOpened,
    ReviewChanged,
    SelectionChanged,
    Workspace,
    WorkspaceEvent,
)
from studio.workspace.review import Review

TROUBLE = ("auth", "retryable", "rate_limit", "blocked")  # error classes that need the settings
TICK_MS = 250  # the elapsed-time counter

STYLE = """
QFrame#banner { background: palette(highlight); border-radius: 6px; }
QFrame#banner QLabel { color: palette(highlighted-text); }
QFrame[bubble] QTextEdit { background: transparent; }
QFrame[bubble="user"] { background: palette(alternate-base); border-radius: 10px; }
QFrame[bubble="assistant"] { background: palette(base); border: 1px solid palette(mid);
                              border-radius: 10px; }
QFrame[bubble="error"] { background: rgba(220, 50, 47, 40); border: 1px solid rgb(220, 50, 47);
                          border-radius: 10px; }
QFrame#askCard, QFrame#review { border: 1px solid palette(mid); border-radius: 8px; }
QLabel#status { font-style: italic; }
QLabel#counters, QLabel#reviewRule { font-size: 11px; }
"""


@dataclass(frozen=True)
class AgentServices:
    """What the composition root hands the window for the sheet: the model source, the key
    store and the HTTP client (the root's, closed by it), and the settings read off the GUI
    thread (with the warning reading them gave, if any)."""

    models: ModelSource
    keys: KeyStore
    http: httpx.AsyncClient
    config: AgentConfig
    config_warning: str | None = None
    save_snapshots: bool = True
    #: Extra tools for each run (the hosted MCP servers'), asked for when it starts.
    tools: Callable[[], Sequence[Tool]] | None = None

    def options(self) -> dict[str, Any]:
        """The AgentSheet keyword arguments."""
        return {
            "models": self.models,
            "keys": self.keys,
            "http": self.http,
            "config": self.config,
            "config_warning": self.config_warning,
            "save_snapshots": self.save_snapshots,
            "tools": self.tools,
        }


class AgentSheet(QWidget):
    """The agent sheet for the workspace's open prototype. Feed it the workspace's events with
    `on_workspace_event` (the window connects the controller's forwarder). Signals: `runFinished
    (status)` once per run, `runStateChanged(state)`, `statusChanged(text)`, `settingsSaved
    (config)`. `models`, `keys`, `http` and `config` come from the composition root; the
    settings file is read there, off the GUI thread (`config_warning` is what it said)."""

    runFinished = Signal(str)
    runStateChanged = Signal(str)
    statusChanged = Signal(str)
    settingsSaved = Signal(object)
    mcpServersSaved = Signal()  # the settings dialog saved mcp.json: restart the servers

    def __init__(
        self,
        workspace: Workspace,
        *,
        models: ModelSource,
        keys: KeyStore,
        http: httpx.AsyncClient,
        config: AgentConfig,
        config_warning: str | None = None,
        renderer: DraftScene | None = None,
        save_snapshots: bool = True,
        tools: Callable[[], Sequence[Tool]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("agentSheet")
        self.setStyleSheet(STYLE)
        self.workspace = workspace
        self.models = models
        self.config = config
        self._keys = keys
        self._http = http
        self._renderer = renderer
        self._save_snapshots = save_snapshots
        self._tools = tools
        self._tasks = TaskOwner("agent sheet")
        self._drivers: weakref.WeakKeyDictionary[Document, RunDriver] = weakref.WeakKeyDictionary()
        self._document: Document | None = None
        self._selected: str | None = None
        self.counters = RunCounters()
        self.settings_dialog: Any = None
        self.last_status = ""
        self.terminal_events: list[RunEnded] = []
        self._problem: str | None = None  # what to configure before a run (None: ready)
        self._trouble: str | None = None  # the last run could not reach or use the model
        self._problem_checked = False
        self._check_generation = 0
        self._checking = False  # the model settings check (keychain) is running
        # The run's last rejected tool call not followed by a change: (tool, where, message).
        self._rejection: tuple[str, str, str] | None = None
        self.unfinished_checked = False  # the saved runs were looked at for this prototype
        self._resuming: Any = None  # the saved run being continued (offered again if refused)
        # An outside agent's draft (MCP) under review, and what applies and discards it.
        self._outside: OutsideReviewer | None = None
        self._outside_apply: Callable[[], None] = lambda: None
        self._outside_discard: Callable[[], None] = lambda: None
        self._build()
        self.chat.flush_timer.timeout.connect(self._show_counters)
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._show_counters)
        self._follow(workspace.document)
        if config_warning:
            self._set_status(config_warning)

    # -- layout ---------------------------------------------------------------------------------
    def _build(self) -> None:
        self.header = SheetHeader(self)
        self.counters_bar = CountersBar(self)
        self.chat = ChatView(self)
        self.trace = TracePanel(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.chat, "Chat")
        self.tabs.addTab(self.trace, "Trace")
        self.ask_card = AskCard(self)
        self.reasoning = ReasoningPanel(self)
        self.route_label = RouteLabel(self)
        self.resume_offer = ResumeOffer(self)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("status")
        self.status_label.setWordWrap(True)
        self.review = ReviewCard(self)
        self.input = InstructionBox(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        parts: list[QWidget] = [
            self.header,
            self.counters_bar,
            self.resume_offer,
            self.route_label,
            self.tabs,
            self.reasoning,
            self.ask_card,
        ]
        for part in [*parts, self.status_label, self.review, self.input]:
            layout.addWidget(part, 1 if part is self.tabs else 0)
        # The parts a user (and a test) works with, by name.
        self.banner, self.banner_label = self.header.banner, self.header.banner_label
        self.banner_button, self.model_label = self.header.banner_button, self.header.model_label
        self.instruction, self.send_button = self.input.text, self.input.send_button
        self.stop_button, self.selection_label = self.input.stop_button, self.input.selection_label
        self.clear_selection_button = self.input.clear_selection_button
        self.ask_label = self.ask_card.label
        self.apply_button, self.discard_button = (
            self.review.apply_button,
            self.review.discard_button,
        )
        self.undo_button, self.rerun_button = self.review.undo_button, self.review.rerun_button
        self.review_label = self.review.label

        self.input.sendRequested.connect(self.send)
        self.input.stopRequested.connect(self.stop)
        self.input.clearSelectionRequested.connect(lambda: self.set_selection(None))
        self.ask_card.answered.connect(self._answer)
        self.review.applyRequested.connect(self.apply)
        self.review.discardRequested.connect(self.discard)
        self.review.undoRequested.connect(self.undo)
        self.review.rerunRequested.connect(self.rerun)
        self.header.banner_button.clicked.connect(self.open_settings)
        self.header.settings_button.clicked.connect(self.open_settings)
        self.trace.replayRequested.connect(self.replay)
        self.resume_offer.continueRequested.connect(self.continue_run)

    @property
    def choice_buttons(self) -> list[QPushButton]:
        return self.ask_card.buttons

    # -- the workspace ----------------------------------------------------------------------------
    @property
    def driver(self) -> RunDriver | None:
        doc = self._document
        return self._drivers.get(doc) if doc is not None else None

    def _driver_for(self, doc: Document) -> RunDriver:
        driver = self._drivers.get(doc)
        if driver is None:

            def on_event(event: RunEvent, d: Document = doc) -> None:
                self._on_event(d, event)

            driver = RunDriver(
                self.workspace,
                doc,
                on_event,
                self._tasks,
                save_snapshots=self._save_snapshots,
                renderer=self._renderer,
                tools=self._tools,
            )
            self._drivers[doc] = driver
        return driver

    def on_workspace_event(self, event: WorkspaceEvent) -> None:
        match event:
            case DocumentOpened(document=document):
                self._follow(document)
            case SelectionChanged(selection=selection):
                self.set_selection(selection.primary)
            case ReviewChanged() | DocumentEdited():
                self._update_controls()
            case _:
                pass

    def _follow(self, doc: Document | None) -> None:
        """Show the runs of the open document (a run on another keeps going in its driver)."""
        if doc is not self._document:
            self._document = doc
            self.chat.clear()
            self.resume_offer.clear()
            self.unfinished_checked = False
            self._selected = self.workspace.selection.primary if doc is not None else None
            self._reset_run_view()
            if doc is not None and self._save_snapshots:
                self._tasks.spawn(self._offer_unfinished(doc), label="unfinished runs")
        self._show_selection()
        self._update_controls()

    def _reset_run_view(self) -> None:
        """Another prototype is shown: the last run's counters, status line, error banner and
        question belong to the one before (its runs live on in its driver)."""
        self._tick.stop()
        limits = self.config.limits()
        self.counters.reset(limits.max_turns, limits.token_budget)
        self._trouble = None
        self._rejection = None
        self._hide_ask()
        self.ask_card.hide()
        self._set_status("")
        self.trace.show_trace("", [])

    def set_selection(self, address: str | None) -> None:
        """The node sent as context with the next instruction (None: the whole prototype)."""
        self._selected = address
        self._show_selection()

    @property
    def selected(self) -> str | None:
        return self._selected

    def _show_selection(self) -> None:
        self.input.show_selection(self._selected)

    # -- readiness ------------------------------------------------------------------------------
    def problem(self) -> str | None:
        """What to configure before a run, or None. The model part reads the keychain (off the
        GUI thread), so it is checked once and again after Settings are saved or a run fails,
        not on every update; until the first check is back, None (a run checks again itself)."""
        if self._document is None:
            return "Open a prototype to use the agent."
        if not self._problem_checked and not self._checking:
            self.recheck()
        return self._problem

    def recheck(self) -> None:
        """Check the model settings again (async: the key comes from the keychain)."""
        self._trouble = None
        self._check_generation += 1
        self._checking = True
        self._tasks.spawn(self._check(self.config, self._check_generation), label="settings check")

    async def _check(self, config: AgentConfig, generation: int) -> None:
        try:
            problem = await self.models.problem(config)
        finally:
            if generation == self._check_generation:  # not replaced by a newer check
                self._checking = False
        if config is not self.config or generation != self._check_generation:
            return  # the settings changed meanwhile; their own check follows
        self._problem, self._problem_checked = problem, True
        self._update_controls()

    @property
    def checking(self) -> bool:
        """Whether the model settings check is still running."""
        return self._checking

    def attach_outside(
        self, reviewer: OutsideReviewer, apply: Callable[[], None], discard: Callable[[], None]
    ) -> None:
        """Review an outside agent's draft (`proto-studio mcp`) on this card too."""
        self._outside, self._outside_apply, self._outside_discard = reviewer, apply, discard
        self._update_controls()

    def _outside_review(self) -> Review | None:
        driver = self.driver
        if self._outside is None or (driver is not None and driver.draft_revisions):
            return None
        return self._outside.review

    def _update_controls(self) -> None:
        driver = self.driver
        state = driver.state if driver is not None else "idle"
        outside = self._outside_review()
        if outside is not None:
            self.header.show_state(self.config, None)
            self.send_button.setEnabled(False)  # apply or discard the outside draft first
            self.stop_button.setEnabled(state != "idle")
            self.review.show_review(
                outside, outside.revisions, idle=state == "idle", can_undo=False, can_rerun=False
            )
            self._show_counters()
            return
        problem = self.problem()
        banner = problem or self._trouble
        self.header.show_state(self.config, banner if state == "idle" else None)
        self.send_button.setEnabled(state == "idle" and problem is None)
        self.stop_button.setEnabled(state != "idle")
        self.instruction.setReadOnly(state == "running")
        self.review.show_review(
            driver.review if driver is not None else None,
            driver.draft_revisions if driver is not None else [],
            idle=state == "idle",
            can_undo=bool(driver and driver.can_undo()),
            can_rerun=bool(driver and driver.can_rerun),
            applied=driver.applied[-1] if driver is not None and driver.applied else None,
        )
        self._show_counters()

    # -- input ----------------------------------------------------------------------------------
    def send(self) -> None:
        """Start a run with the instruction (and the selected node), or answer a free-text question."""
        doc = self._document
        text = self.instruction.toPlainText().strip()
        if doc is None or not text:
            return
        driver = self._driver_for(doc)
        if driver.state == "waiting":
            self._answer(UserAnswer(text))
            self.instruction.clear()
            return
        if driver.state != "idle" or self.problem():
            self._update_controls()
            return  # one active run per prototype; or settings are missing
        self._trouble = None
        self.chat.add("user", text + (f"\n[selected: {self._selected}]" if self._selected else ""))
        self.instruction.clear()
        driver.start(text, self._chooser(), self.config.limits(), selected=self._selected)
        self._update_controls()

    def generate(self, instruction: str) -> None:
        """New from description: build the (new, unsaved) open prototype from `instruction` on
        a draft; the router takes it as a new prototype (the cloud model unless Local only)."""
        doc = self._document
        if doc is None:
            return
        driver = self._driver_for(doc)
        if driver.state != "idle" or self.problem():
            self._set_status(self.problem() or "Stop the current run before creating another.")
            return
        self._trouble = None
        self.chat.add("user", "[new from description]\n" + instruction.split("\n\n", 1)[0])
        driver.start(instruction, self._chooser(kind="create"), self.config.limits())
        self._update_controls()

    def _chooser(self, kind: str = "edit") -> Any:
        # The model is chosen inside the run (it may read the keychain); a settings change made
        # while the run starts does not affect it.
        config, selected, models = dataclasses.replace(self.config), self._selected, self.models
        if kind == "create":
            selected = None

        async def choose() -> ModelChoice:
            return await models.choose(config, selected, kind=kind)

        return choose

    def stop(self) -> None:
        if self.driver is not None:
            self.driver.stop()
        self._update_controls()

    def rerun(self) -> None:
        """Run the stale draft's instruction again on the prototype as it is now."""
        driver = self.driver
        if driver is None or not driver.can_rerun or self.problem():
            return
        self.chat.add("user", "[re-run on the current prototype]")
        driver.rerun(self._chooser(), self.config.limits())
        self._update_controls()

    async def _offer_unfinished(self, doc: Document) -> None:
        """Offer to continue the newest unfinished run saved for this prototype (read off the
        GUI thread; matched by the prototype's id)."""
        from studio.agent.resume import unfinished_runs
        from studio.concurrency import off_loop

        found = await off_loop(unfinished_runs)
        self.unfinished_checked = True
        driver = self._drivers.get(doc)
        if doc is not self._document or (driver is not None and driver.state != "idle"):
            return
        for _, record in found:
            if record.base_spec.get("id") == doc.spec.get("id"):
                self.resume_offer.offer(record)
                return

    def continue_run(self, record: Any, anyway: bool = False) -> None:
        """Continue an unfinished run saved earlier, with the model the settings choose now
        (`anyway`: also when the tools changed since it was saved)."""
        doc = self._document
        if doc is None:
            return
        driver = self._driver_for(doc)
        if driver.state != "idle" or self.problem():
            self._set_status(
                "Stop the current run (or fix the settings) before continuing another."
            )
            return
        self.resume_offer.clear()
        self._resuming = record
        self.chat.add("user", f"[continue the unfinished run]\n{record.instruction}")
        driver.resume_saved(
            record, self._chooser(), self.config.limits(), allow_tool_changes=anyway
        )
        self._update_controls()

    def replay(self, snapshot: dict[str, Any]) -> None:
        """Replay a saved run in the sheet (no model: the recorded responses)."""
        if self._document is None:
            return
        driver = self._driver_for(self._document)
        if driver.state != "idle":
            self._set_status("Stop the current run before replaying another.")
            return
        recorded = "\n".join(snapshot.get("instructions") or [])
        self.chat.add("user", f"[replay of {snapshot.get('trace_id')}]\n{recorded}")
        driver.replay(snapshot)
        self._update_controls()

    def _answer(self, answer: UserAnswer | ApprovalAnswer) -> None:
        driver = self.driver
        if driver is None or driver.state != "waiting":
            return
        self._hide_ask()
        if isinstance(answer, UserAnswer):
            self.chat.add("user", answer.text)
        else:
            self.chat.add("user", "Allowed" if answer.approved else "Denied")
        self.chat.end_reply()  # what the agent says after the answer goes below it
        driver.answer(answer)
        self._update_controls()

    # -- the event fold ----------------------------------------------------------------------------
    def _on_event(self, doc: Document, event: RunEvent) -> None:
        driver = self._drivers.get(doc)
        if doc is not self._document or driver is None:
            return  # a run on a prototype that is not shown: its state lives in its driver
        match event:
            case RunStarted():
                self._start_bubble(driver)
            case TurnStarted(turn=turn):
                self.counters.turn, self.counters.streaming_chars = turn, 0
                self._set_status(f"thinking (turn {turn} of {self.counters.max_turns})")
            case ReasoningStreamed(text=text):
                self.reasoning.add(text)
            case TextStreamed(text=text):
                self.chat.stream(text)
                self.counters.streaming_chars += len(text)
            case UsageReported():
                c = self.counters
                c.input_tokens += event.input_tokens
                c.output_tokens += event.output_tokens
                c.estimated = c.estimated or event.estimated
                c.streaming_chars = 0
                self._show_counters()
            case ToolCallStarted(name=name, arguments=arguments):
                self._set_status(tool_action(name, arguments))
            case ToolCallFinished(name=name, error_class=error_class, output=output):
                if error_class:
                    self._rejection = rejection(name, error_class, output)
                    self._set_status(f"{name} failed ({error_class}); the agent sees why")
                self._sync_trace(driver)
            case InputRequired():
                self._ask(driver, event)
            case RetryScheduled():
                self._set_status(
                    f"the model server failed ({event.error_class}); retrying in "
                    f"{event.delay} s (attempt {event.attempt + 1})"
                )
            case LoopWarning(message=message):
                self._set_status(f"warning to the agent: {message}")
            case RunEnded():
                self._finish(driver, event)
            case SnapshotSaved(path=path):
                self.trace.message.setText(f"Saved: {path}")
            case Notice(message=message):
                self._set_status(message)
            case DraftRevised():  # the workspace shows it, the card follows its events
                self._rejection = None  # a change landed after any earlier rejection
                self._update_controls()
            case _:
                self._update_controls()

    def _start_bubble(self, driver: RunDriver) -> None:
        limits = driver.session.limits if driver.session is not None else self.config.limits()
        self.counters.reset(limits.max_turns, limits.token_budget)
        self.counters.started = time.monotonic()
        self._rejection = None
        self.reasoning.clear()
        self.resume_offer.clear()
        info = driver.session.info if driver.session is not None else {}
        if driver.session is not None:
            self.route_label.show_route(
                driver.session.loop.model.model, bool(info.get("local")), str(info.get("why") or "")
            )
        self.chat.end_reply()  # the answer's bubble appears with its first words, not before
        self._tick.start()
        self._hide_ask()
        self._set_status("starting")
        self.tabs.setCurrentWidget(self.chat)
        self._sync_trace(driver)
        self.runStateChanged.emit("running")

    def _ask(self, driver: RunDriver, event: InputRequired) -> None:
        self.chat.flush()
        question = event.question or f"Allow {event.tool}?"
        if self.chat.reply is not None and not self.chat.reply.text():
            self.chat.reply.set_text(question)
        else:
            self.chat.add("assistant", question)
        if driver.state != "waiting":  # a replay answers from the recording
            self.chat.end_reply()  # what follows goes below the question
            self._set_status("the recorded answer is given back")
            return
        self.input.set_placeholder(typed_answer=not self.ask_card.ask(event))
        self._set_status("waiting for your answer")
        self._update_controls()

    def _hide_ask(self) -> None:
        self.ask_card.clear()
        self.input.set_placeholder(typed_answer=False)

    def _finish(self, driver: RunDriver, event: RunEnded) -> None:
        self.chat.flush()
        self._tick.stop()
        self.counters.ended = time.monotonic()
        self.counters.streaming_chars = 0
        self._hide_ask()
        self.terminal_events.append(event)
        bubble, drafted = self.chat.reply, bool(driver.draft_revisions)
        said = bubble is not None and bool(bubble.text())
        rejected = self._rejection
        if event.status == "completed":
            if not said:
                self.chat.add("assistant", event.text or "(done)")
            if rejected is not None:
                self.chat.add("error", rejected_line(rejected, drafted))
                self._set_status("no changes made" if not drafted else "done, with a rejection")
            else:
                self._set_status("done" + (": review the changes below" if drafted else ""))
        elif event.status == "no_changes":  # the model ended without the change it was asked for
            # The reason once, in the chat; a rejected patch is named with its place.
            reason = rejected_line(rejected, drafted) if rejected is not None else event.reason
            self.chat.add("error", reason)
            self._set_status("no changes made")
        elif event.status == "cancelled":
            if said and bubble is not None:
                bubble.set_text((bubble.text() + " ⏹ stopped").strip())
            else:
                self.chat.add("assistant", "⏹ stopped")
            kept = ": the draft keeps the changes made so far" if drafted else ""
            self._set_status("stopped" + kept)
        else:
            self._show_failure(event.reason)
            if event.error_class == "config":  # no usable model when the run began
                self._problem, self._problem_checked = event.reason, True
            elif event.error_class in TROUBLE:
                # The reason is in the chat; the banner says only where to fix it.
                self._trouble = (
                    "The last run could not use the model: check Agent settings "
                    "(or use a local model)."
                )
            elif (
                event.error_class == "resume"
                and self._resuming is not None
                and "the tools changed" in event.reason
            ):  # the user may accept the change: offer it again, saying what changed
                self.resume_offer.offer(self._resuming, anyway=event.reason.split(": ", 1)[-1])
        self._resuming = None
        self._rejection = None
        self.chat.end_reply()
        self._sync_trace(driver)
        self._update_controls()
        self.runStateChanged.emit("idle")
        self.runFinished.emit(event.status)

    def _show_failure(self, reason: str) -> None:
        """A failure: its reason once, in the chat; the status line only says it failed."""
        self.chat.add("error", reason)
        self._set_status("failed (the reason is in the chat)")

    def _set_status(self, text: str) -> None:
        self.last_status = text
        self.status_label.setText(text)
        self.statusChanged.emit(text)

    def _show_counters(self) -> None:
        self.counters_bar.show_counters(self.counters, self.config)

    def _sync_trace(self, driver: RunDriver) -> None:
        if driver.session is not None:
            self.trace.show_trace(driver.session.trace_id, driver.session.tracer.steps)

    # -- review -------------------------------------------------------------------------------------
    def apply(self) -> None:
        if self._outside_review() is not None:
            self._outside_apply()
            self._set_status("applied the outside draft")
            self._update_controls()
            return
        driver = self.driver
        if driver is None or not driver.draft_revisions or driver.state != "idle":
            return
        try:
            revision = driver.apply()
        except (RuntimeError, ValueError) as exc:  # the draft no longer applies
            self._show_failure(f"Could not apply the draft: {exc}")
            return
        self._set_status(f"applied: {revision.summary}")
        self._update_controls()

    def discard(self) -> None:
        if self._outside_review() is not None:
            self._outside_discard()
            self._set_status("discarded the outside draft")
            self._update_controls()
            return
        driver = self.driver
        if driver is None or not driver.draft_revisions or driver.state != "idle":
            return
        driver.discard()
        self._set_status("discarded the draft")
        self._update_controls()

    def undo(self) -> None:
        driver = self.driver
        where = driver.undo() if driver is not None else None
        if where == "draft":
            self._set_status("undid the agent's last change in the draft")
        elif where == "document":
            self._set_status("undid the applied agent revision")
        self._update_controls()

    # -- settings -----------------------------------------------------------------------------------
    def open_settings(self) -> Any:
        from studio.ui.agent_settings import AgentSettingsDialog

        if self.settings_dialog is not None:
            self.settings_dialog.raise_()
            return self.settings_dialog
        dialog = AgentSettingsDialog(self.config, http=self._http, keys=self._keys, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(self._settings_saved)
        dialog.mcpSaved.connect(self.mcpServersSaved)
        dialog.destroyed.connect(lambda: setattr(self, "settings_dialog", None))
        self.settings_dialog = dialog
        dialog.show()  # non-modal: the studio (and a running agent) stay usable behind it
        return dialog

    def _settings_saved(self, config: AgentConfig) -> None:
        self.config = config
        self.recheck()
        self.settingsSaved.emit(config)

    # -- lifetime -------------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop every run and cancel every task this sheet started (the window's close)."""
        for driver in list(self._drivers.values()):
            driver.stop()
        self._tasks.cancel_all()
        self.trace.shutdown()
        if self.settings_dialog is not None:
            self.settings_dialog.shutdown()
        self.chat.flush_timer.stop()
        self._tick.stop()

    async def aclose(self) -> None:
        """shutdown(), then wait for the tasks (the HTTP client is the root's to close). Once."""
        if self._tasks.closed:
            return
        self.shutdown()
        await self._tasks.aclose()
        await self.trace.aclose()
        if self.settings_dialog is not None:
            await self.settings_dialog.aclose()
        if self._renderer is not None:
            self._renderer.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)


def rejection(name: str, error_class: str, output: str) -> tuple[str, str, str]:
    """(tool, where, message) of a failed tool call from its answer (the loop's `{"error": ...,
    "path": ..., "message": ...}`; a patch's rejection names the op's path and the validator's
    message)."""
    import json

    try:
        data = json.loads(output)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return name, "", " ".join(output.split())[:200] or error_class
    where = str(data.get("path") or "")
    message = str(data.get("message") or data.get("error") or error_class)
    return name, where, " ".join(message.split())


def rejected_line(rejected: tuple[str, str, str], drafted: bool) -> str:
    """The chat's line for a run whose last tool call was rejected: `No changes were made: the
    patch was rejected at root.children[2].max: ...`."""
    name, where, message = rejected
    at = f" at {where}" if where else ""
    what = f"the {name}" if name == "patch" else f"the {name} call"
    if drafted:
        return f"The agent's last {name} was rejected{at}: {message}. The draft keeps its earlier changes."
    return f"No changes were made: {what} was rejected{at}: {message}"
