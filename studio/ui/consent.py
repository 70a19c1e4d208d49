"""The consent dialog the studio draws outside the preview, and the adapter the broker asks through.

`QtConsentUI.attach(broker)` takes the broker's only `ConsentAnswerer`; each pending question
opens a non-modal top-level `ConsentDialog` (`show()`, never `exec()`), and its buttons answer.
Closing the dialog denies. Also here, the other host adapters the platform modules are given
in the UI: `QtClipboard` (clipboard) and `QtSharePicker` (where `share.text` writes).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.platform.consent import (
    ConsentAnswerer,
    ConsentBroker,
    ConsentDecision,
    PendingConsent,
)


class ConsentDialog(QDialog):
    """ "Allow <call>?" with the module, the call and its resolved arguments (sensitive values
    masked). Emits `decided` exactly once; closing or Escape is Deny."""

    decided = Signal(object)  # ConsentDecision

    def __init__(self, pending: PendingConsent, parent: QWidget | None = None):
        # No parent by default: a separate top-level window, never inside the preview's bounds.
        super().__init__(parent, Qt.WindowType.Window)
        self.pending = pending
        self._done = False
        request = pending.request
        self.setModal(False)
        self.setWindowTitle(f"Allow {request.call}?")
        self.setObjectName("consentDialog")

        layout = QVBoxLayout(self)
        why = "reads private data" if request.sensitive else "has an effect outside the prototype"
        if request.sensitive and request.side_effect:
            why = "reads private data and has an effect outside the prototype"
        intro = QLabel(f"The prototype wants to run <b>{request.call}</b>, which {why}.")
        intro.setWordWrap(True)
        layout.addWidget(intro)

        form = QFormLayout()
        form.addRow("Module", QLabel(request.module))
        form.addRow("Call", QLabel(request.call))
        self.argument_labels: dict[str, QLabel] = {}
        for name, shown in pending.shown_args():
            value = QLabel(shown)
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.argument_labels[name] = value
            form.addRow(name, value)
        if not self.argument_labels:
            form.addRow("Arguments", QLabel("none"))
        layout.addLayout(form)

        buttons = QDialogButtonBox()
        self.allow_once = QPushButton("Allow once")
        self.always = QPushButton("Always for this prototype")
        self.deny = QPushButton("Deny")
        self.deny.setDefault(True)  # Enter on an unread dialog must not approve
        self.deny.setAutoDefault(True)
        buttons.addButton(self.deny, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.addButton(self.always, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.allow_once, QDialogButtonBox.ButtonRole.AcceptRole)
        layout.addWidget(buttons)
        self.allow_once.clicked.connect(lambda: self._decide(ConsentDecision.ALLOW_ONCE))
        self.always.clicked.connect(lambda: self._decide(ConsentDecision.ALWAYS))
        self.deny.clicked.connect(lambda: self._decide(ConsentDecision.DENY))

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
    """Connects a `ConsentBroker` to dialogs: the only holder of the broker's answerer."""

    dialog_opened = Signal(object)  # ConsentDialog

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._answerer: ConsentAnswerer | None = None
        self._broker: ConsentBroker | None = None
        self.dialogs: dict[str, ConsentDialog] = {}

    def attach(self, broker: ConsentBroker) -> None:
        self._broker = broker
        self._answerer = broker.connect_ui(self._present, self._withdraw)

    def close(self) -> None:
        """Deny what is pending, close the dialogs and disconnect from the broker."""
        if self._broker is not None and self._answerer is not None:
            self._broker.disconnect_ui(self._answerer)
        for dialog in list(self.dialogs.values()):
            dialog.withdraw()
        self.dialogs.clear()
        self._broker = self._answerer = None

    def _present(self, pending: PendingConsent) -> None:
        dialog = ConsentDialog(pending)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialogs[pending.id] = dialog
        dialog.decided.connect(lambda decision: self._answer(pending.id, decision))
        dialog.finished.connect(lambda _code: self.dialogs.pop(pending.id, None))
        # Never exec() (a nested event loop); show() rather than open(), which would make the
        # dialog window-modal: the studio stays usable while the question waits.
        dialog.show()
        self.dialog_opened.emit(dialog)

    def _answer(self, pending_id: str, decision: ConsentDecision) -> None:
        if self._answerer is not None:
            self._answerer.answer(pending_id, decision)

    def _withdraw(self, pending_id: str) -> None:
        dialog = self.dialogs.pop(pending_id, None)
        if dialog is not None:
            dialog.withdraw()


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
    """Asks the user where shared text goes: a non-modal save dialog (`open()`-style, no
    `exec()`), awaited through a future. Use as `FileShareTarget(picker.pick)`."""

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
