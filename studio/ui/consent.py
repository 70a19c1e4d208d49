"""The consent dialog the studio draws outside the preview, and the adapter the broker asks through.

`QtConsentUI(window).attach(broker)` takes the broker's only `ConsentAnswerer`. Each pending
question opens a `ConsentDialog`: window-modal to the studio window (`open()`, never `exec()`),
so it stays above the window and nothing in the studio, the preview included, takes input until
it is answered; if the window is activated anyway the dialog is raised again. While a question
is open the UI is paused (`pausedChanged`, and the `pause` callback the root wires to the
preview); the host holds the prototype's other calls and events meanwhile.

What the dialog shows is the registry's: the plain sentence of what will happen, each argument
by its label and whole (scrollable), hidden characters escaped, a secret argument masked with a
Show button. Answers: Deny (the default), Always deny, Always allow, Allow once; closing or
Escape is Deny. Also here, the other host adapters the platform modules are given in the UI:
`QtClipboard` (clipboard) and `QtSharePicker` (where `share.text` writes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent, QFontMetrics, QGuiApplication, QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from studio.platform.consent import (
    ConsentAnswerer,
    ConsentBroker,
    ConsentDecision,
    PendingConsent,
    ShownArg,
)

#: The dialog's widest (px): it must fit a 1280-px screen with room around it.
MAX_WIDTH = 720
#: A value box shows at most this many lines; longer values scroll.
MAX_LINES = 8
#: About this many characters fit on a line of a value box (for its height).
LINE_CHARS = 72
REMEMBERED_TIP = "Remembered for this prototype; change it in Edit › Platform permissions"


def _lines(text: str) -> int:
    return sum(max(1, -(-len(line) // LINE_CHARS)) for line in text.split("\n"))


class ConsentDialog(QDialog):
    """ "Allow <call>?": what will happen, then each argument whole. Emits `decided` exactly
    once; closing or Escape is Deny."""

    decided = Signal(object)  # ConsentDecision

    def __init__(self, pending: PendingConsent, parent: QWidget | None = None):
        super().__init__(parent)
        self.pending = pending
        self._done = False
        request = pending.request
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setWindowTitle(f"Allow {request.call}?")
        self.setObjectName("consentDialog")
        self.setMaximumWidth(MAX_WIDTH)

        layout = QVBoxLayout(self)
        self.sentence = QLabel(request.sentence())
        self.sentence.setObjectName("consentSentence")
        self.sentence.setWordWrap(True)
        self.sentence.setTextFormat(Qt.TextFormat.PlainText)
        bold = self.sentence.font()
        bold.setBold(True)
        self.sentence.setFont(bold)
        layout.addWidget(self.sentence)
        detail = QLabel(f"Call {request.call} of the {request.module} module")
        detail.setObjectName("consentCall")
        detail.setTextFormat(Qt.TextFormat.PlainText)
        detail.setWordWrap(True)
        layout.addWidget(detail)

        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        self.argument_fields: dict[str, QPlainTextEdit] = {}
        self.reveal_buttons: dict[str, QPushButton] = {}
        self.notes: dict[str, QLabel] = {}
        self._rows = {row.name: row for row in pending.shown_args()}
        for line, row in enumerate(self._rows.values()):
            grid.addWidget(self._label(row), 2 * line, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(self._field(row), 2 * line, 1)
            if row.secret:
                grid.addWidget(self._reveal(row), 2 * line, 2, Qt.AlignmentFlag.AlignTop)
            note = self._note(row)
            if note is not None:
                grid.addWidget(note, 2 * line + 1, 1, 1, 2)
        if not self._rows:
            grid.addWidget(QLabel("No arguments"), 0, 0)
        layout.addLayout(grid)

        buttons = QDialogButtonBox()
        self.deny = QPushButton("Deny")
        self.always_deny = QPushButton("Always deny")
        self.always = QPushButton("Always allow")
        self.allow_once = QPushButton("Allow once")
        for button in (self.always_deny, self.always):
            button.setToolTip(REMEMBERED_TIP)
        self.deny.setDefault(True)  # Enter on an unread dialog must not approve
        self.deny.setAutoDefault(True)
        for button in (self.always_deny, self.always, self.allow_once):
            button.setAutoDefault(False)
        buttons.addButton(self.deny, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.addButton(self.always_deny, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.addButton(self.always, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.allow_once, QDialogButtonBox.ButtonRole.AcceptRole)
        layout.addWidget(buttons)
        self.allow_once.clicked.connect(lambda: self._decide(ConsentDecision.ALLOW_ONCE))
        self.always.clicked.connect(lambda: self._decide(ConsentDecision.ALWAYS))
        self.deny.clicked.connect(lambda: self._decide(ConsentDecision.DENY))
        self.always_deny.clicked.connect(lambda: self._decide(ConsentDecision.ALWAYS_DENY))
        self.deny.setFocus()

    # -- the arguments ---------------------------------------------------------------------------
    def _label(self, row: ShownArg) -> QLabel:
        label = QLabel(row.label)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setToolTip(row.name)
        return label

    def _field(self, row: ShownArg) -> QPlainTextEdit:
        field = QPlainTextEdit()
        field.setObjectName(f"consentArg_{row.name}")
        field.setReadOnly(True)
        field.setTabChangesFocus(True)
        field.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        field.setPlainText(row.masked if row.secret else row.text)
        metrics = QFontMetrics(field.font())
        shown = min(MAX_LINES, _lines(row.masked if row.secret else row.text))
        margins = field.contentsMargins()
        frame = 2 * field.frameWidth() + margins.top() + margins.bottom()
        field.setFixedHeight(shown * metrics.lineSpacing() + frame + 8)
        field.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        field.setMinimumWidth(min(metrics.horizontalAdvance("x") * LINE_CHARS, MAX_WIDTH - 160))
        self.argument_fields[row.name] = field
        return field

    def _reveal(self, row: ShownArg) -> QPushButton:
        button = QPushButton("Show")
        button.setObjectName(f"consentReveal_{row.name}")
        button.setCheckable(True)
        button.setAutoDefault(False)
        button.setToolTip("Show the hidden value before you decide")
        button.toggled.connect(lambda on, name=row.name: self.reveal(name, on))
        self.reveal_buttons[row.name] = button
        return button

    def _note(self, row: ShownArg) -> QLabel | None:
        parts: list[str] = []
        if row.length > LINE_CHARS * MAX_LINES:
            parts.append(f"{row.length:,} characters: scroll to read it all")
        if row.escaped:
            what = "character" if row.escaped == 1 else "characters"
            parts.append(f"{row.escaped} invisible or direction-changing {what}, shown as \\u…")
        if not parts:
            return None
        note = QLabel("; ".join(parts))
        note.setObjectName(f"consentNote_{row.name}")
        note.setTextFormat(Qt.TextFormat.PlainText)
        note.setWordWrap(True)
        self.notes[row.name] = note
        return note

    def reveal(self, name: str, shown: bool = True) -> None:
        """Show (or hide again) a secret argument's value."""
        row = self._rows[name]
        self.argument_fields[name].setPlainText(row.text if shown else row.masked)
        button = self.reveal_buttons.get(name)
        if button is not None:
            button.setText("Hide" if shown else "Show")
            if button.isChecked() != shown:
                button.setChecked(shown)

    # -- answering -------------------------------------------------------------------------------
    def _decide(self, decision: ConsentDecision) -> None:
        if self._done:
            return
        self._done = True
        self.decided.emit(decision)
        self.done(QDialog.DialogCode.Accepted if decision.allowed else QDialog.DialogCode.Rejected)

    def withdraw(self) -> None:
        """Close without answering (the question timed out or was cancelled)."""
        self._done = True
        self.done(QDialog.DialogCode.Rejected)

    def reject(self) -> None:  # Escape
        self._decide(ConsentDecision.DENY)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._decide(ConsentDecision.DENY)
        super().closeEvent(event)


class QtConsentUI(QObject):
    """Connects a `ConsentBroker` to dialogs: the only holder of the broker's answerer.

    `window`: the studio window the dialogs are modal to and stay above (None: application-wide,
    for tests without a window). `pause(True/False)` is called when the first question opens
    and after the last one closed."""

    dialog_opened = Signal(object)  # ConsentDialog
    pausedChanged = Signal(bool)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        window: QWidget | None = None,
        pause: Callable[[bool], None] | None = None,
    ):
        super().__init__(parent)
        self._answerer: ConsentAnswerer | None = None
        self._broker: ConsentBroker | None = None
        self._window = window
        self._pause = pause
        self.dialogs: dict[str, ConsentDialog] = {}
        if window is not None:
            window.installEventFilter(self)

    @property
    def paused(self) -> bool:
        return bool(self.dialogs)

    def attach(self, broker: ConsentBroker) -> None:
        self._broker = broker
        self._answerer = broker.connect_ui(self._present, self._withdraw)

    def close(self) -> None:
        """Deny what is pending, close the dialogs and disconnect from the broker."""
        if self._broker is not None and self._answerer is not None:
            self._broker.disconnect_ui(self._answerer)
        for dialog in list(self.dialogs.values()):
            dialog.withdraw()
        self._set_dialogs_closed()
        self._broker = self._answerer = None
        if self._window is not None:
            self._window.removeEventFilter(self)

    def _present(self, pending: PendingConsent) -> None:
        dialog = ConsentDialog(pending, self._window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        first = not self.dialogs
        self.dialogs[pending.id] = dialog
        dialog.decided.connect(lambda decision: self._answer(pending.id, decision))
        dialog.finished.connect(lambda _code: self._closed(pending.id))
        if first:
            self._set_paused(True)
        # open(): window-modal to the studio window, without a nested event loop (no exec()).
        dialog.open()
        self.dialog_opened.emit(dialog)

    def _answer(self, pending_id: str, decision: ConsentDecision) -> None:
        if self._answerer is not None:
            self._answerer.answer(pending_id, decision)

    def _withdraw(self, pending_id: str) -> None:
        dialog = self.dialogs.get(pending_id)
        if dialog is not None:
            dialog.withdraw()

    def _closed(self, pending_id: str) -> None:
        if self.dialogs.pop(pending_id, None) is not None and not self.dialogs:
            self._set_paused(False)

    def _set_dialogs_closed(self) -> None:
        if self.dialogs:
            self.dialogs.clear()
            self._set_paused(False)

    def _set_paused(self, paused: bool) -> None:
        if self._pause is not None:
            self._pause(paused)
        self.pausedChanged.emit(paused)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The studio window came to the front while a question waits (a click on its frame,
        # the task bar): the question goes back on top, where it must be answered.
        if event.type() == QEvent.Type.WindowActivate and self.dialogs:
            dialog = next(reversed(self.dialogs.values()))
            dialog.raise_()
            dialog.activateWindow()
        return False


class QtClipboard:
    """The system clipboard for the `clipboard` module (must be used on the GUI thread)."""

    async def set_text(self, text: str, *, sensitive: bool) -> None:
        mime = QMimeData()
        mime.setText(text)
        if sensitive:
            # Clipboard managers (KDE Klipper and others) skip history for this hint.
            mime.setData("x-kde-passwordManagerHint", b"secret")
        QGuiApplication.clipboard().setMimeData(mime)

    async def text(self) -> str | None:
        return QGuiApplication.clipboard().text() or None


class QtSharePicker(QObject):
    """Asks the user where shared text goes: a save dialog, window-modal to `parent` (the studio
    window) and shown without `exec()`, awaited through a future; None when the user cancels
    (the call then ends `cancelled`). Use as `FileShareTarget(picker.pick)`."""

    dialog_opened = Signal(object)  # QFileDialog

    def __init__(self, parent: QWidget | None = None, *, directory: Path | None = None):
        super().__init__(parent)
        self._parent = parent
        self._directory = directory or Path.home()

    async def pick(self, suggested_name: str) -> Path | None:
        future: asyncio.Future[Path | None] = asyncio.get_running_loop().create_future()
        dialog = QFileDialog(self._parent, "Share text to a file", str(self._directory))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setNameFilter("Text files (*.txt);;All files (*)")
        dialog.selectFile(suggested_name)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if self._parent is not None:
            dialog.setWindowModality(Qt.WindowModality.WindowModal)

        def finished(code: int) -> None:
            chosen = dialog.selectedFiles()
            if not future.done():
                accepted = code == QDialog.DialogCode.Accepted.value and chosen
                future.set_result(Path(chosen[0]) if accepted else None)

        dialog.finished.connect(finished)
        dialog.show()
        self.dialog_opened.emit(dialog)
        try:
            return await future
        except asyncio.CancelledError:
            dialog.reject()
            raise
