"""The consent dialog: drawn by the studio, non-modal, and the only way a sensitive call runs."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog

from studio.platform.consent import ConsentBroker, ConsentDecision, ConsentRequest
from studio.platform.host import PlatformHost
from studio.platform.modules.clipboard import MemoryClipboard
from studio.platform.modules.share import FileShareTarget
from studio.platform.registry import default_registry
from studio.runtime import PlatformRequest
from studio.ui.consent import ConsentDialog, QtClipboard, QtConsentUI, QtSharePicker

# The offscreen platform cannot size top-level windows and says so; nothing else is ignored.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture
def consent_ui(qapp: Any) -> Iterator[tuple[QtConsentUI, ConsentBroker]]:
    # In the studio the main window stays open; here a closed dialog is the last window, and
    # quitting on it would stop the qasync loop under the running test.
    qapp.setQuitOnLastWindowClosed(False)
    broker = ConsentBroker(timeout=10)  # a failing test denies instead of hanging
    ui = QtConsentUI()
    ui.attach(broker)
    yield ui, broker
    ui.close()


def request(**args: Any) -> ConsentRequest:
    return ConsentRequest("proto-1", "clipboard", "clipboard.copy", args, False, True)


def run_with_dialog(qloop: asyncio.AbstractEventLoop, ui: QtConsentUI, coro: Any,
                    click: str | None) -> Any:  # fmt: skip
    """Run `coro`; when its dialog opens, press `click` (or close the window) as a user would."""
    seen: list[ConsentDialog] = []

    def answer(dialog: ConsentDialog) -> None:
        seen.append(dialog)
        assert dialog.isVisible() and dialog.isModal() and dialog.isWindow()
        # After the dialog's open() returns, like a user's click would be.
        QTimer.singleShot(0, dialog.close if click is None else getattr(dialog, click).click)

    ui.dialog_opened.connect(answer)
    try:
        result = qloop.run_until_complete(coro)
    finally:
        ui.dialog_opened.disconnect(answer)
    assert len(seen) == 1
    return result


def test_dialog_shows_what_will_happen_and_the_whole_value(qtbot: Any) -> None:
    from studio.platform.consent import PendingConsent

    asked = request(text="hunter2", sensitive=True)
    dialog = ConsentDialog(PendingConsent("c1", asked))
    qtbot.addWidget(dialog)
    dialog.open()
    assert dialog.windowTitle() == "Allow clipboard.copy?"
    # the spec's own "sensitive" hides nothing: only the registry marks secrets
    assert dialog.argument_fields["text"].toPlainText() == "hunter2"
    assert dialog.argument_fields["sensitive"].toPlainText() == "true"
    assert dialog.reveal_buttons == {}
    assert dialog.deny.isDefault()
    with qtbot.waitSignal(dialog.decided) as decided:
        dialog.allow_once.click()
    assert decided.args == [ConsentDecision.ALLOW_ONCE]
    assert dialog.result() == QDialog.DialogCode.Accepted


@pytest.mark.parametrize(
    ("click", "expected"),
    [
        ("allow_once", ConsentDecision.ALLOW_ONCE),
        ("always", ConsentDecision.ALWAYS),
        ("deny", ConsentDecision.DENY),
        ("always_deny", ConsentDecision.ALWAYS_DENY),
        (None, ConsentDecision.DENY),  # closing the window is Deny
    ],
)
def test_buttons_answer_the_broker(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, consent_ui: Any, click: str | None,
    expected: ConsentDecision,
) -> None:  # fmt: skip
    ui, broker = consent_ui
    decision = run_with_dialog(qloop, ui, broker.request(request(text="x")), click)
    assert decision is expected
    grants = qloop.run_until_complete(broker.grants())
    assert [(g.prototype_id, g.call, g.allowed) for g in grants] == (
        [("proto-1", "clipboard.copy", expected.allowed)] if expected.remembered else []
    )
    qtbot.waitUntil(lambda: not ui.dialogs)


def test_sensitive_call_runs_only_after_the_dialog(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, consent_ui: Any
) -> None:
    ui, broker = consent_ui
    board = MemoryClipboard()
    host = PlatformHost(default_registry(clipboard_backend=board), broker, prototype_id="p")
    call = PlatformRequest("clipboard.copy", {"text": "hello"}, None, "s", "r1")

    outcome = run_with_dialog(qloop, ui, host.handle(call), "deny")
    assert outcome == ("denied", None) and board.value is None

    outcome = run_with_dialog(qloop, ui, host.handle(call), "allow_once")
    assert outcome == ("ok", {"copied": True, "bytes": 5}) and board.value == "hello"


def test_a_timed_out_question_closes_its_dialog(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, consent_ui: Any
) -> None:
    ui, broker = consent_ui
    broker.timeout = 0.05
    finished: list[int] = []
    ui.dialog_opened.connect(lambda dialog: dialog.finished.connect(finished.append))
    assert qloop.run_until_complete(broker.request(request(text="x"))) is ConsentDecision.DENY
    qtbot.waitUntil(lambda: finished == [QDialog.DialogCode.Rejected.value])
    assert not ui.dialogs


def test_qt_clipboard_adapter(qloop: asyncio.AbstractEventLoop) -> None:
    board = QtClipboard()
    qloop.run_until_complete(board.set_text("from the prototype", sensitive=True))
    assert qloop.run_until_complete(board.text()) == "from the prototype"
    mime = QGuiApplication.clipboard().mimeData()
    assert bytes(mime.data("x-kde-passwordManagerHint").data()) == b"secret"
    qloop.run_until_complete(board.set_text("plain", sensitive=False))
    assert not QGuiApplication.clipboard().mimeData().hasFormat("x-kde-passwordManagerHint")
    # Leave no clipboard owner behind: the offscreen clipboard crashes at exit otherwise.
    QGuiApplication.clipboard().clear()


@pytest.mark.parametrize("accept", [True, False])
def test_share_picker_writes_where_the_user_chose(
    qloop: asyncio.AbstractEventLoop, qapp: Any, tmp_path: Path, accept: bool
) -> None:
    qapp.setQuitOnLastWindowClosed(False)
    picker = QtSharePicker(directory=tmp_path)
    target = FileShareTarget(picker.pick)

    def choose(dialog: Any) -> None:
        dialog.selectFile(str(tmp_path / "chosen.txt"))
        QTimer.singleShot(0, dialog.accept if accept else dialog.reject)

    picker.dialog_opened.connect(choose)
    shared = qloop.run_until_complete(target.share_text("shared text", title="Note"))
    assert shared is accept
    chosen = tmp_path / "chosen.txt"
    assert (chosen.read_text() if chosen.exists() else None) == ("shared text" if accept else None)
