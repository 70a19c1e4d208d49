"""The agent sheet's conversation: message bubbles (a run's streamed text grows in one), the
scrolling chat view, the card that asks the user (askUser, approvals) and the instruction box
(Ctrl+Enter sends) with Send and Stop."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent.loop import ApprovalAnswer, UserAnswer
from studio.agent.run_events import InputRequired
from studio.ui.labels import WrapLabel

Answer = UserAnswer | ApprovalAnswer
PLACEHOLDER = "Describe a change… (Ctrl+Enter sends)"
FLUSH_MS = 33  # streamed text is shown at most ~30 times a second, whatever the token rate


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
    """The conversation: bubbles top to bottom, kept scrolled to the newest. A run's reply
    streams into one bubble (`stream`), shown at most every `FLUSH_MS` (one relayout per frame
    or so, whatever the token rate); `reply` is that bubble, `end_reply` starts a new one."""

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
        self.reply: Bubble | None = None
        self._pending = ""
        self.flush_timer = QTimer(self)
        self.flush_timer.setSingleShot(True)
        self.flush_timer.setInterval(FLUSH_MS)
        self.flush_timer.timeout.connect(self.flush)
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(lambda _min, maximum: bar.setValue(maximum))

    def add(self, role: str, text: str = "") -> Bubble:
        bubble = Bubble(role, text, self._inner)
        self._layout.insertWidget(self._layout.count() - 1, bubble)
        self.bubbles.append(bubble)
        return bubble

    def start_reply(self) -> None:
        self.flush()
        self.reply = self.add("assistant", "")

    def stream(self, text: str) -> None:
        self._pending += text
        if not self.flush_timer.isActive():
            self.flush_timer.start()

    def flush(self) -> None:
        """Show the text streamed since the last flush."""
        self.flush_timer.stop()
        if self._pending:
            pending, self._pending = self._pending, ""
            if self.reply is None:
                self.reply = self.add("assistant", "")
            self.reply.append(pending)

    def end_reply(self) -> None:
        """What follows goes into a new bubble."""
        self.flush()
        self.reply = None

    def clear(self) -> None:
        self.flush_timer.stop()
        self._pending = ""
        self.reply = None
        for bubble in self.bubbles:
            bubble.deleteLater()
        self.bubbles = []


class SendOnCtrlEnter(QObject):
    """An event filter for the instruction box: Ctrl+Enter sends."""

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


class AskCard(QFrame):
    """The question the paused run asks: its options (or Allow/Deny for an approval) as buttons.
    Emits `answered(answer)`; a question without options is answered in the instruction box."""

    answered = Signal(object)  # UserAnswer | ApprovalAnswer

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("askCard")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.buttons_layout = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addLayout(self.buttons_layout)
        self.buttons: list[QPushButton] = []
        self.hide()

    def ask(self, event: InputRequired) -> bool:
        """Show the question; False when it has no options (the answer is typed)."""
        self.clear()
        options: list[tuple[str, Answer]]
        if event.kind == "approval":
            self.label.setText(f"Allow the agent to run {event.tool}?")
            options = [("Allow", ApprovalAnswer(True)), ("Deny", ApprovalAnswer(False))]
        else:
            self.label.setText(event.question)
            options = [(o, UserAnswer(o)) for o in event.options]
        for text, answer in options:
            button = QPushButton(text, self)
            button.clicked.connect(lambda _=False, a=answer: self.answered.emit(a))
            self.buttons_layout.addWidget(button)
            self.buttons.append(button)
        self.show()
        return bool(options)

    def clear(self) -> None:
        for button in self.buttons:
            button.deleteLater()
        self.buttons = []
        self.hide()


class InstructionBox(QWidget):
    """What the user types, with Send (Ctrl+Enter) and Stop, and the selected node sent as
    context (✕ leaves it out of the next instruction)."""

    sendRequested = Signal()
    stopRequested = Signal()
    clearSelectionRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Wrapped, breaking inside long addresses: a deep selection never widens the dock.
        self.selection_label = WrapLabel("", self)
        self.selection_label.setObjectName("selection")
        self.clear_selection_button = QToolButton(self)
        self.clear_selection_button.setText("✕")
        self.clear_selection_button.setToolTip("Send the next instruction without the selection")
        self.text = QPlainTextEdit(self)
        self.text.setPlaceholderText(PLACEHOLDER)
        self.text.setMaximumHeight(90)
        self.text.setMinimumHeight(48)  # two lines: the sheet fits a 720 px screen
        self.text.installEventFilter(SendOnCtrlEnter(self.sendRequested.emit, self))
        self.send_button = QPushButton("Send", self)
        self.send_button.setDefault(True)
        self.stop_button = QPushButton("Stop", self)
        selection = QHBoxLayout()
        selection.addWidget(self.selection_label, 1)
        selection.addWidget(self.clear_selection_button)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        entry = QHBoxLayout()
        entry.addWidget(self.text, 1)
        entry.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(selection)
        layout.addLayout(entry)
        self.send_button.clicked.connect(self.sendRequested)
        self.stop_button.clicked.connect(self.stopRequested)
        self.clear_selection_button.clicked.connect(self.clearSelectionRequested)
        self.show_selection(None)

    def show_selection(self, address: str | None) -> None:
        if address:
            self.selection_label.setText(f"Selected: {address} (sent as context)")
        else:
            self.selection_label.setText(
                "No node selected: the instruction is about the whole prototype"
            )
        self.clear_selection_button.setVisible(bool(address))

    def set_placeholder(self, typed_answer: bool) -> None:
        self.text.setPlaceholderText(
            "Type your answer and press Send" if typed_answer else PLACEHOLDER
        )
