"""The agent chat sheet: instruction, selected node as context, one streaming bubble per run, status
line, askUser buttons, Stop, live counters, review (highlight, Apply, Discard, Undo) and the trace."""

from __future__ import annotations

import asyncio
import dataclasses
import time
import weakref
from collections.abc import Callable
from typing import Any

import httpx
from PySide6.QtCore import QEvent, QObject, QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent.events import Usage
from studio.agent.keys import KeyStore
from studio.agent.loop import ApprovalAnswer, UserAnswer
from studio.document import Document, DocumentChange
from studio.ui.agent_bridge import (
    TERMINAL,
    AgentConfig,
    Event,
    ModelSource,
    ProviderModels,
    RunDriver,
    TaskKeeper,
    WidgetPreview,
    load_config,
    tool_action,
)
from studio.ui.trace_panel import TracePanel

TROUBLE = ("auth", "retryable", "rate_limit", "blocked")  # error classes that need the settings
FLUSH_MS = 33  # streamed text is shown at most ~30 times a second, whatever the token rate
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
QLabel#counters { font-size: 11px; }
"""


class Bubble(QFrame):
    """One message. An assistant bubble receives a whole run's streamed text.

    The text is a read-only QTextEdit sized to its document, not a QLabel: appending to a
    QTextDocument relayouts only the end, while a word-wrapped QLabel relayouts its whole text
    several times per change (measured: 17 ms vs 2 ms per update at 1,200 tokens)."""

    def __init__(self, role: str, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.setProperty("bubble", role)
        self.view = QTextEdit(self)
        self.view.setReadOnly(True)
        self.view.setFrameShape(QFrame.Shape.NoFrame)
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Ignored width: the bubble takes the chat's width and never widens it.
        self.view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.view.viewport().setAutoFillBackground(False)
        self.view.document().setDocumentMargin(2)
        self.view.document().documentLayout().documentSizeChanged.connect(self._fit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.view)
        self.set_text(text)

    def _fit(self, size: QSizeF | None = None) -> None:
        height = (size or self.view.document().size()).height()
        self.view.setFixedHeight(int(height) + 2)

    def text(self) -> str:
        return self.view.toPlainText()

    def set_text(self, text: str) -> None:
        self.view.setPlainText(text)

    def append(self, text: str) -> None:
        cursor = QTextCursor(self.view.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text)


class ChatView(QScrollArea):
    """The conversation: bubbles top to bottom, kept scrolled to the newest."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._inner = QWidget(self)
        self._layout = QVBoxLayout(self._inner)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self._layout.setSpacing(8)
        self._layout.addStretch(1)
        self.setWidget(self._inner)
        self.bubbles: list[Bubble] = []
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(lambda _min, maximum: bar.setValue(maximum))

    def add(self, role: str, text: str = "") -> Bubble:
        bubble = Bubble(role, text, self._inner)
        self._layout.insertWidget(self._layout.count() - 1, bubble)
        self.bubbles.append(bubble)
        return bubble

    def add_widget(self, widget: QWidget) -> None:
        self._layout.insertWidget(self._layout.count() - 1, widget)

    def clear(self) -> None:
        for bubble in self.bubbles:
            bubble.deleteLater()
        self.bubbles = []


class _SendOnCtrlEnter(QObject):
    def __init__(self, send: Callable[[], None], parent: QObject) -> None:
        super().__init__(parent)
        self._send = send

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            if enter and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self._send()
                return True
        return False


class RunCounters:
    """Turns, tokens (reported per turn, estimated while a turn streams), cost and elapsed time."""

    def __init__(self) -> None:
        self.reset(20, None)

    def reset(self, max_turns: int, budget: int | None) -> None:
        self.turn = 0
        self.max_turns = max_turns
        self.budget = budget
        self.input_tokens = 0
        self.output_tokens = 0
        self.streaming_chars = 0
        self.estimated = False
        self.started: float | None = None
        self.ended: float | None = None

    @property
    def live_output(self) -> int:
        return self.output_tokens + (self.streaming_chars + 3) // 4

    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started


class AgentSheet(QWidget):
    """The agent chat sheet for the open prototype (see `install_agent_sheet` for the wiring).

    `document_provider()` gives the open Document (or None); call `refresh_document()` when the
    window opens another one. Signals: `highlightRequested(addresses)` for the preview and the
    tree, `previewRequested(spec, changed)` to show the draft (or the document again),
    `runFinished(status)` once per run, `settingsRequested()` (the sheet opens its dialog itself).
    """

    highlightRequested = Signal(list)
    previewRequested = Signal(dict, list)
    runFinished = Signal(str)
    runStateChanged = Signal(str)
    statusChanged = Signal(str)
    settingsSaved = Signal(object)

    def __init__(
        self,
        document_provider: Callable[[], Document | None],
        *,
        models: ModelSource | None = None,
        keys: KeyStore | None = None,
        http: httpx.AsyncClient | None = None,
        config: AgentConfig | None = None,
        save_snapshots: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("agentSheet")
        self.setStyleSheet(STYLE)
        self._documents = document_provider
        self._keys = keys or KeyStore()
        self._http = http
        self._owns_http = http is None
        self.models: ModelSource = models or ProviderModels(self._keys, http)
        if config is None:
            config, warning = load_config()
        else:
            warning = None
        self.config = config
        self._tasks = TaskKeeper()
        self._save_snapshots = save_snapshots
        self._check_generation = 0
        # Set by install_agent_sheet when a renderer is present: the agent's `preview` tool.
        self.preview_provider: WidgetPreview | None = None
        self._drivers: weakref.WeakKeyDictionary[Document, RunDriver] = weakref.WeakKeyDictionary()
        self._document: Document | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._selected: str | None = None
        self._bubble: Bubble | None = None
        self._pending = ""
        self.counters = RunCounters()
        self.settings_dialog: Any = None
        self.last_status = ""
        self.terminal_events: list[Event] = []
        self._problem: str | None = None
        self._shown: tuple[int, str] | None = None  # the draft version last sent to the preview
        self._trouble: str | None = None  # the last run could not reach or use the model
        self._problem_checked = False
        self._checking: asyncio.Task[Any] | None = None  # the model settings check (keychain)

        self._build()
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self._flush)
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._show_counters)
        self.refresh_document()
        if warning:
            self._set_status(warning)

    # -- layout ---------------------------------------------------------------------------------
    def _build(self) -> None:
        self.banner = QFrame(self)
        self.banner.setObjectName("banner")
        self.banner_label = QLabel(self.banner)
        self.banner_label.setWordWrap(True)
        self.banner_button = QPushButton("Open settings", self.banner)
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.addWidget(self.banner_label, 1)
        banner_layout.addWidget(self.banner_button)

        self.model_label = QLabel(self)
        self.model_label.setObjectName("modelLabel")
        self.settings_button = QToolButton(self)
        self.settings_button.setText("Settings…")
        header = QHBoxLayout()
        header.addWidget(self.model_label, 1)
        header.addWidget(self.settings_button)

        self.counters_label = QLabel(self)
        self.counters_label.setObjectName("counters")
        self.turns_label = QLabel(self)
        self.tokens_label = QLabel(self)
        self.cost_label = QLabel(self)
        self.time_label = QLabel(self)
        counters = QHBoxLayout()
        for label in (self.turns_label, self.tokens_label, self.cost_label, self.time_label):
            label.setObjectName("counters")
            counters.addWidget(label)
        counters.addStretch(1)

        self.chat = ChatView(self)
        self.trace = TracePanel(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.chat, "Chat")
        self.tabs.addTab(self.trace, "Trace")

        self.ask_card = QFrame(self)
        self.ask_card.setObjectName("askCard")
        self.ask_label = QLabel(self.ask_card)
        self.ask_label.setWordWrap(True)
        self.ask_buttons_layout = QHBoxLayout()
        ask_layout = QVBoxLayout(self.ask_card)
        ask_layout.addWidget(self.ask_label)
        ask_layout.addLayout(self.ask_buttons_layout)
        self.choice_buttons: list[QPushButton] = []
        self.ask_card.hide()

        self.status_label = QLabel(self)
        self.status_label.setObjectName("status")
        self.status_label.setWordWrap(True)

        self.review = QFrame(self)
        self.review.setObjectName("review")
        self.review_label = QLabel(self.review)
        self.review_label.setWordWrap(True)
        self.apply_button = QPushButton("Apply", self.review)
        self.apply_button.setToolTip("Add the agent's changes to the prototype as one revision")
        self.discard_button = QPushButton("Discard", self.review)
        self.undo_button = QPushButton("Undo", self.review)
        review_buttons = QHBoxLayout()
        review_buttons.addWidget(self.apply_button)
        review_buttons.addWidget(self.discard_button)
        review_buttons.addWidget(self.undo_button)
        review_buttons.addStretch(1)
        review_layout = QVBoxLayout(self.review)
        review_layout.addWidget(self.review_label)
        review_layout.addLayout(review_buttons)

        self.selection_label = QLabel(self)
        self.selection_label.setObjectName("selection")
        self.clear_selection_button = QToolButton(self)
        self.clear_selection_button.setText("✕")
        self.clear_selection_button.setToolTip("Send the next instruction without the selection")
        selection = QHBoxLayout()
        selection.addWidget(self.selection_label, 1)
        selection.addWidget(self.clear_selection_button)

        self.instruction = QPlainTextEdit(self)
        self.instruction.setPlaceholderText("Describe a change… (Ctrl+Enter sends)")
        self.instruction.setMaximumHeight(90)
        self.instruction.installEventFilter(_SendOnCtrlEnter(self.send, self))
        self.send_button = QPushButton("Send", self)
        self.send_button.setDefault(True)
        self.stop_button = QPushButton("Stop", self)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        entry = QHBoxLayout()
        entry.addWidget(self.instruction, 1)
        entry.addLayout(buttons)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.banner)
        layout.addLayout(header)
        layout.addLayout(counters)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.ask_card)
        layout.addWidget(self.status_label)
        layout.addWidget(self.review)
        layout.addLayout(selection)
        layout.addLayout(entry)

        self.send_button.clicked.connect(self.send)
        self.stop_button.clicked.connect(self.stop)
        self.apply_button.clicked.connect(self.apply)
        self.discard_button.clicked.connect(self.discard)
        self.undo_button.clicked.connect(self.undo)
        self.banner_button.clicked.connect(self.open_settings)
        self.settings_button.clicked.connect(self.open_settings)
        self.clear_selection_button.clicked.connect(lambda: self.set_selection(None))
        self.trace.replayRequested.connect(self.replay)

    # -- the document and its selection ----------------------------------------------------------
    @property
    def driver(self) -> RunDriver | None:
        doc = self._document
        return self._drivers.get(doc) if doc is not None else None

    def draft_spec(self) -> dict[str, Any] | None:
        """The spec of the draft the agent is working on (None when there is no run)."""
        driver = self.driver
        session = driver.session if driver is not None else None
        return session.draft.spec if session is not None else None

    def _driver_for(self, doc: Document) -> RunDriver:
        driver = self._drivers.get(doc)
        if driver is None:

            def on_event(event: Event, d: Document = doc) -> None:
                self._on_event(d, event)

            driver = RunDriver(
                doc,
                on_event,
                self._tasks.spawn,
                save_snapshots=self._save_snapshots,
                preview=self.preview_provider,
            )
            self._drivers[doc] = driver
        return driver

    def refresh_document(self) -> None:
        """Follow the window's open document (its selection is the context of the next run)."""
        doc = self._documents()
        if doc is not self._document:
            if self._unsubscribe is not None:
                self._unsubscribe()
                self._unsubscribe = None
            self._document = doc
            self.chat.clear()
            self._bubble = None
            if doc is not None:
                self._unsubscribe = doc.subscribe(self._document_changed)
            self._selected = doc.selection if doc is not None else None
        self._show_selection()
        self._update_controls()

    def _document_changed(self, change: DocumentChange) -> None:
        if change.kind == "selection":
            self.set_selection(self._document.selection if self._document else None)
        else:
            self._update_controls()

    def set_selection(self, address: str | None) -> None:
        self._selected = address
        self._show_selection()

    @property
    def selected(self) -> str | None:
        return self._selected

    def _show_selection(self) -> None:
        if self._selected:
            self.selection_label.setText(f"Selected: {self._selected} (sent as context)")
        else:
            self.selection_label.setText(
                "No node selected: the instruction is about the whole prototype"
            )
        self.clear_selection_button.setVisible(bool(self._selected))

    # -- readiness ------------------------------------------------------------------------------
    def problem(self) -> str | None:
        """What to configure before a run, or None. The model part reads the keychain (off the
        GUI thread), so it is checked once and again after Settings are saved or a run fails,
        not on every update; until the first check is back, None (a run checks again itself)."""
        if self._documents() is None:
            return "Open a prototype to use the agent."
        if not self._problem_checked and self._checking is None:
            self.recheck()
        return self._problem

    def recheck(self) -> None:
        """Check the model settings again (async: the key comes from the keychain)."""
        self._trouble = None
        if self._checking is not None:
            self._checking.cancel()
        self._check_generation += 1
        self._checking = self._tasks.spawn(self._check(self.config, self._check_generation))

    async def _check(self, config: AgentConfig, generation: int) -> None:
        try:
            problem = await self.models.problem(config)
        finally:
            # Not replaced by a newer check. (A generation, not asyncio.current_task(): at
            # shutdown qasync may step a cancelled task after its loop stopped running.)
            if generation == self._check_generation:
                self._checking = None
        if config is not self.config:
            return  # the settings changed meanwhile; their own check follows
        self._problem = problem
        self._problem_checked = True
        self._update_controls()

    @property
    def checking(self) -> bool:
        """Whether the model settings check is still running."""
        return self._checking is not None

    def _update_controls(self) -> None:
        driver = self.driver
        state = driver.state if driver is not None else "idle"
        problem = self.problem()
        banner = problem or self._trouble
        self.banner.setVisible(banner is not None and state == "idle")
        if banner:
            self.banner_label.setText(banner)
        self.send_button.setEnabled(state == "idle" and problem is None)
        self.stop_button.setEnabled(state != "idle")
        self.instruction.setReadOnly(state == "running")
        has_draft = bool(driver and driver.draft_revisions)
        self.review.setVisible(bool(driver and (has_draft or driver.can_undo())))
        self.apply_button.setEnabled(state == "idle" and has_draft)
        self.discard_button.setEnabled(state == "idle" and has_draft)
        self.undo_button.setEnabled(bool(driver and driver.can_undo()))
        if driver is not None and has_draft:
            revisions = driver.draft_revisions
            lines = "\n".join(f"• {r.summary}" for r in revisions[-5:])
            more = f"\n… and {len(revisions) - 5} earlier" if len(revisions) > 5 else ""
            self.review_label.setText(
                f"Draft: {len(revisions)} revision(s), {len(driver.changed())} node(s) changed\n{lines}{more}"
            )
        elif driver is not None and driver.can_undo():
            self.review_label.setText(f"Applied: {driver.applied[-1].summary}")
        model = self.config.model or "no model"
        where = "local" if self.config.is_local() else self.config.profile
        self.model_label.setText(
            f"{model} · {where}" + (" · local only" if self.config.local_only else "")
        )
        self._show_counters()

    # -- running ----------------------------------------------------------------------------------
    def send(self) -> None:
        """Start a run with the instruction (and the selected node), or answer a free-text question."""
        doc = self._documents()
        if doc is not None and doc is not self._document:
            self.refresh_document()
        text = self.instruction.toPlainText().strip()
        if doc is None or not text:
            return
        driver = self._driver_for(doc)
        if driver.state == "waiting":
            self._answer(UserAnswer(text))
            self.instruction.clear()
            return
        if driver.state != "idle":
            return  # one active run per prototype
        problem = self.problem()
        if problem:
            self._update_controls()
            return
        self._trouble = None
        self.chat.add("user", text + (f"\n[selected: {self._selected}]" if self._selected else ""))
        self.instruction.clear()
        # The model is chosen inside the run (it may read the keychain); a settings change made
        # while the run starts does not affect it.
        config, selected = dataclasses.replace(self.config), self._selected
        driver.start(
            text,
            lambda: self.models.choose(config, selected),
            config.limits(),
            selected=selected,
        )
        self._update_controls()

    def stop(self) -> None:
        driver = self.driver
        if driver is not None:
            driver.stop()
        self._update_controls()

    def replay(self, snapshot: dict[str, Any]) -> None:
        """Replay a saved run in the sheet (no model: the recorded responses)."""
        doc = self._documents()
        if doc is None:
            return
        driver = self._driver_for(doc)
        if driver.state != "idle":
            self._set_status("Stop the current run before replaying another.")
            return
        self.chat.add(
            "user",
            f"[replay of {snapshot.get('trace_id')}]\n"
            + "\n".join(snapshot.get("instructions") or []),
        )
        driver.replay(snapshot)
        self._update_controls()

    def _answer(self, answer: UserAnswer | ApprovalAnswer) -> None:
        driver = self.driver
        if driver is None or driver.state != "waiting":
            return
        self._hide_ask()
        self.chat.add(
            "user",
            answer.text
            if isinstance(answer, UserAnswer)
            else ("Allowed" if answer.approved else "Denied"),
        )
        # What the agent says after the answer goes into a new bubble below it.
        self._bubble = None
        driver.answer(answer)
        self._update_controls()

    # -- the event fold ----------------------------------------------------------------------------
    def _on_event(self, doc: Document, event: Event) -> None:
        driver = self._drivers.get(doc)
        if doc is not self._document or driver is None:
            return  # a run on a prototype that is not shown: its state lives in its driver
        kind = event.get("type")
        if kind == "run_started":
            self._start_bubble(driver)
        elif kind == "turn_started":
            self.counters.turn = int(event.get("turn", 0))
            self.counters.streaming_chars = 0
            self._set_status(f"thinking (turn {self.counters.turn} of {self.counters.max_turns})")
        elif kind == "text_delta":
            text = str(event.get("text", ""))
            self._pending += text
            self.counters.streaming_chars += len(text)
            if not self._flush_timer.isActive():
                self._flush_timer.start()
        elif kind == "usage":
            self.counters.input_tokens += int(event.get("input_tokens", 0))
            self.counters.output_tokens += int(event.get("output_tokens", 0))
            self.counters.estimated = self.counters.estimated or bool(event.get("estimated"))
            self.counters.streaming_chars = 0
            self._show_counters()
        elif kind == "tool_call":
            self._set_status(tool_action(str(event.get("name")), event.get("arguments")))
        elif kind == "tool_result":
            if event.get("error_class"):
                self._set_status(
                    f"{event.get('name')} failed ({event.get('error_class')}); the agent sees why"
                )
            self._sync_trace(driver)
        elif kind == "revision":
            self._show_draft(driver)
        elif kind == "input_required":
            self._flush()
            question = str(event.get("question") or f"Allow {event.get('tool')}?")
            if self._bubble is not None and not self._bubble.text():
                self._bubble.set_text(question)
            else:
                self.chat.add("assistant", question)
            if driver.state == "waiting":
                self._show_ask(event)
            else:  # a replay answers from the recording; what follows goes below the question
                self._bubble = None
                self._set_status("the recorded answer is given back")
        elif kind == "retry":
            self._set_status(
                f"the model server failed ({event.get('error_class')}); retrying in "
                f"{event.get('delay')} s (attempt {int(event.get('attempt', 0)) + 1})"
            )
        elif kind == "warning":
            self._set_status(f"warning to the agent: {event.get('message')}")
        elif kind in TERMINAL:
            self._finish(driver, event)
        elif kind == "snapshot_saved":
            self.trace.message.setText(f"Saved: {event.get('path')}")
        elif kind == "notice":
            self._set_status(str(event.get("message")))

    def _start_bubble(self, driver: RunDriver) -> None:
        self._flush()
        session = driver.session
        limits = session.limits if session is not None else self.config.limits()
        self.counters.reset(limits.max_turns, limits.token_budget)
        self.counters.started = time.monotonic()
        self._bubble = self.chat.add("assistant", "")
        self._tick.start()
        self._hide_ask()
        self._set_status("starting")
        self.tabs.setCurrentWidget(self.chat)
        self._sync_trace(driver)
        self.runStateChanged.emit("running")

    def _flush(self) -> None:
        """Show the text streamed since the last flush (coalesced: one relayout per frame or so)."""
        self._flush_timer.stop()
        if not self._pending:
            self._show_counters()
            return
        pending, self._pending = self._pending, ""
        if self._bubble is None:
            self._bubble = self.chat.add("assistant", "")
        self._bubble.append(pending)
        self._show_counters()

    def _finish(self, driver: RunDriver, event: Event) -> None:
        self._flush()
        self._tick.stop()
        self.counters.ended = time.monotonic()
        self.counters.streaming_chars = 0
        self._hide_ask()
        status = str(event.get("type"))
        reason = str(event.get("reason") or "")
        self.terminal_events.append(event)
        bubble = self._bubble
        if status == "completed":
            if bubble is not None and not bubble.text():
                bubble.set_text(str(event.get("text") or "(done)"))
            self._set_status(
                "done" + (": review the changes below" if driver.draft_revisions else "")
            )
        elif status == "no_changes":  # the model ended without the change it was asked for
            if bubble is not None and not bubble.text():
                bubble.set_text(reason)  # nothing streamed: the reason is the answer
            else:
                self.chat.add("error", reason)
            self._set_status("no changes made")
        elif status == "cancelled":
            if bubble is not None:
                bubble.set_text((bubble.text() + " ⏹ stopped").strip())
            self._set_status(
                "stopped"
                + (": the draft keeps the changes made so far" if driver.draft_revisions else "")
            )
        else:
            self._show_failure(reason)
            if event.get("error_class") == "config":  # no usable model when the run began
                self._problem, self._problem_checked = reason, True
            elif event.get("error_class") in TROUBLE:
                self._trouble = f"{reason} Check Agent settings (or use a local model)."
        self._bubble = None
        self._sync_trace(driver)
        self._show_draft(driver)
        self._update_controls()
        self.runStateChanged.emit("idle")
        self.runFinished.emit(status)

    def _show_failure(self, reason: str) -> None:
        self.chat.add("error", reason)
        self._set_status(f"failed: {reason}")

    def _set_status(self, text: str) -> None:
        self.last_status = text
        self.status_label.setText(text)
        self.statusChanged.emit(text)

    def _show_ask(self, event: Event) -> None:
        self._hide_ask()
        if event.get("kind") == "approval":
            self.ask_label.setText(f"Allow the agent to run {event.get('tool')}?")
            options: list[tuple[str, UserAnswer | ApprovalAnswer]] = [
                ("Allow", ApprovalAnswer(True)),
                ("Deny", ApprovalAnswer(False)),
            ]
        else:
            self.ask_label.setText(str(event.get("question", "")))
            options = [(str(o), UserAnswer(str(o))) for o in event.get("options") or []]
            if not options:
                self.instruction.setPlaceholderText("Type your answer and press Send")
        for label, answer in options:
            button = QPushButton(label, self.ask_card)
            button.clicked.connect(lambda _=False, a=answer: self._answer(a))
            self.ask_buttons_layout.addWidget(button)
            self.choice_buttons.append(button)
        self.ask_card.show()
        self._set_status("waiting for your answer")
        self._update_controls()

    def _hide_ask(self) -> None:
        for button in self.choice_buttons:
            button.deleteLater()
        self.choice_buttons = []
        self.ask_card.hide()
        self.instruction.setPlaceholderText("Describe a change… (Ctrl+Enter sends)")

    def _show_counters(self) -> None:
        c = self.counters
        self.turns_label.setText(f"Turns {c.turn}/{c.max_turns}")
        approx = "~" if (c.estimated or c.streaming_chars) else ""
        used = f"{approx}{c.input_tokens:,} in · {approx}{c.live_output:,} out"
        budget = f" of {c.budget:,}" if c.budget else ""
        self.tokens_label.setText(f"Tokens {used}{budget}")
        price = self.config.cost(Usage(c.input_tokens, c.live_output))
        if price is None:
            self.cost_label.setText("Cost: no price")
        elif price == 0:
            self.cost_label.setText("Cost: free (local)")
        elif price < 0.0001:
            self.cost_label.setText("Cost < $0.0001")
        else:
            self.cost_label.setText(f"Cost ${price:.4f}")
        seconds = int(c.elapsed())
        self.time_label.setText(f"{seconds // 60}:{seconds % 60:02d}")

    def _sync_trace(self, driver: RunDriver) -> None:
        if driver.session is not None:
            self.trace.show_trace(driver.session.trace_id, driver.session.tracer.steps)

    # -- review -------------------------------------------------------------------------------------
    def _show_draft(self, driver: RunDriver) -> None:
        """Show the draft in the preview and highlight what it changed."""
        if not driver.draft_open or driver.session is None:
            return
        shown = (id(driver.session), driver.session.draft.version)
        if shown != self._shown:  # re-showing the same draft would rebuild the preview for nothing
            self._shown = shown
            changed = driver.changed()
            self.previewRequested.emit(driver.draft_spec(), changed)
            self.highlightRequested.emit(changed)
        self._update_controls()

    def apply(self) -> None:
        driver = self.driver
        if driver is None or not driver.draft_revisions or driver.state != "idle":
            return
        from studio.spec.errors import SpecError

        try:
            revision = driver.apply()
        except (SpecError, ValueError) as exc:  # the document moved on and the ops no longer fit
            self._show_failure(f"Could not apply the draft: {exc}")
            return
        self._shown = None
        self.highlightRequested.emit([])
        self._set_status(f"applied: {revision.summary}")
        self._update_controls()

    def discard(self) -> None:
        driver = self.driver
        if driver is None or not driver.draft_revisions or driver.state != "idle":
            return
        changed = driver.changed()
        driver.discard()
        self._shown = None
        self.previewRequested.emit(driver.document.spec, changed)
        self.highlightRequested.emit([])
        self._set_status("discarded the draft")
        self._update_controls()

    def undo(self) -> None:
        driver = self.driver
        if driver is None:
            return
        before = driver.changed()
        where = driver.undo()
        if where == "draft":
            self._shown = (
                (id(driver.session), driver.session.draft.version) if driver.session else None
            )
            after = driver.changed()
            self.previewRequested.emit(driver.draft_spec(), sorted(set(before) | set(after)))
            self.highlightRequested.emit(after)
            self._set_status("undid the agent's last change in the draft")
        elif where == "document":
            self._set_status("undid the applied agent revision")
        self._update_controls()

    # -- settings -----------------------------------------------------------------------------------
    def http(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=httpx.Timeout(600.0, connect=5.0))
        return self._http

    def open_settings(self) -> Any:
        from studio.ui.agent_settings import AgentSettingsDialog

        if self.settings_dialog is not None:
            self.settings_dialog.raise_()
            return self.settings_dialog
        dialog = AgentSettingsDialog(self.config, http=self.http(), keys=self._keys, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(self._settings_saved)
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
        """Stop every run and cancel every task this sheet started (call on window close)."""
        for driver in list(self._drivers.values()):
            driver.stop()
        self._tasks.cancel_all()
        self.trace.shutdown()
        if self.settings_dialog is not None:
            self.settings_dialog.shutdown()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._flush_timer.stop()
        self._tick.stop()

    async def aclose(self) -> None:
        """shutdown(), then wait for the tasks and close the HTTP client."""
        self.shutdown()
        await self._tasks.drain()
        await self.models.aclose()
        if self._owns_http and self._http is not None:
            await self._http.aclose()
            self._http = None

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)


def install_agent_sheet(
    window: QMainWindow,
    document_provider: Callable[[], Document | None],
    preview: Any = None,
    tree: Any = None,
    *,
    document_opened: Any = None,
    **kwargs: Any,
) -> AgentSheet:
    """Put the sheet into the window's right dock "agentDock" (made if missing; a placeholder
    in it is deleted) and wire it: highlights go to `preview.set_highlighted` and
    `tree.highlight`; the draft is shown in the preview (`apply_change`, component-expanded) and
    the tree (`set_spec`) while under review; `document_opened` (a signal) makes the sheet follow
    the open prototype; the window's `closing` signal, if it has one, stops every run.
    `kwargs` go to AgentSheet (models, keys, http, config)."""
    from studio.spec import expand

    sheet = AgentSheet(document_provider, **kwargs)
    dock = window.findChild(QDockWidget, "agentDock")
    if dock is None:
        dock = QDockWidget("Agent", window)
        dock.setObjectName("agentDock")
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    old = dock.widget()
    dock.setWidget(sheet)
    if old is not None:
        old.deleteLater()
    if document_opened is not None:
        document_opened.connect(lambda *_: sheet.refresh_document())
    closing = getattr(window, "closing", None)
    if closing is not None:
        closing.connect(sheet.shutdown)

    def show_spec(spec: dict[str, Any], changed: list[str]) -> None:
        if preview is not None:
            preview.apply_change(expand(spec), changed)
        if tree is not None:
            tree.set_spec(spec)

    def highlight(addresses: list[str]) -> None:
        if preview is not None:
            preview.set_highlighted(addresses)
        if tree is not None:
            tree.highlight(addresses)

    if preview is not None:
        # The agent's `preview` tool reads this renderer (with bounds), not only the runtime.
        sheet.preview_provider = WidgetPreview(preview, sheet.draft_spec)
    sheet.previewRequested.connect(show_spec)
    sheet.highlightRequested.connect(highlight)
    # Selection is context. The window normally routes clicks to Document.select (which the sheet
    # follows); these connections keep the sheet right even where it does not.
    for source, name in ((tree, "nodeSelected"), (preview, "nodeClicked")):
        signal = getattr(source, name, None) if source is not None else None
        if signal is not None:
            signal.connect(sheet.set_selection)
    return sheet
