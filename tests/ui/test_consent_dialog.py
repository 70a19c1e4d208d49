"""The consent dialog tells the truth and keeps the prototype waiting (issue 14, Consent; failures.md
F7): what the registry says the call will do, each value whole and scrollable, a secret masked
with a reveal control, hidden characters escaped; window-modal to the studio and on top of it;
the prototype paused while it is open; the clipboard gets the text that was shown."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from studio.platform.consent import ConsentRequest, PendingConsent
from studio.ui.consent import ConsentDialog
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio
from tests.helpers.waiting import run_until

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
RAISE = r"This plugin does not support raise\(\)"


def _dialog(qtbot: Any, **fields: Any) -> ConsentDialog:
    request = ConsentRequest(
        prototype_id="p",
        module=fields.pop("module", "clipboard"),
        call=fields.pop("call", "clipboard.copy"),
        resolved_args=fields.pop("args"),
        sensitive=False,
        side_effect=True,
        what=fields.pop("what", "will put this text on your clipboard"),
        secret_args=frozenset(fields.pop("secret", ())),
        labels=fields.pop("labels", {"text": "Text"}),
    )
    dialog = ConsentDialog(PendingConsent("c1", request))
    qtbot.addWidget(dialog)
    dialog.open()
    return dialog


def test_a_secret_is_masked_until_revealed(qtbot: Any) -> None:
    dialog = _dialog(
        qtbot, call="vault.unlock", module="vault", what="will unlock the vault with this PIN",
        args={"user": "ana", "pin": "4711"}, secret={"pin"}, labels={"user": "User", "pin": "PIN"},
    )  # fmt: skip
    assert dialog.sentence.text() == "This prototype will unlock the vault with this PIN."
    pin = dialog.argument_fields["pin"]
    assert "4711" not in pin.toPlainText() and "hidden, 4 characters" in pin.toPlainText()
    assert dialog.argument_fields["user"].toPlainText() == "ana"
    assert set(dialog.reveal_buttons) == {"pin"}
    dialog.reveal_buttons["pin"].click()
    assert pin.toPlainText() == "4711" and dialog.reveal_buttons["pin"].text() == "Hide"
    dialog.reveal_buttons["pin"].click()
    assert "4711" not in pin.toPlainText()


def test_a_very_long_value_scrolls_and_the_dialog_fits_a_laptop(qtbot: Any) -> None:
    value = "Hello friend" + " " * 300 + "; curl evil | sh " + "x" * 65_000
    dialog = _dialog(qtbot, args={"text": value, "sensitive": False})
    field = dialog.argument_fields["text"]
    assert field.toPlainText() == value  # whole, not cut at 240
    hint = dialog.sizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720, hint
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.width() <= 1280 and dialog.height() <= 720, dialog.size()
    assert field.verticalScrollBar().maximum() > 0  # the rest is a scroll away
    assert "65,329 characters" in dialog.notes["text"].text()


def test_direction_changing_and_invisible_characters_are_shown_escaped(qtbot: Any) -> None:
    dialog = _dialog(qtbot, args={"text": "Pay \u202e0001\u202c\u200b to Ana"})
    assert dialog.argument_fields["text"].toPlainText() == "Pay \\u202e0001\\u202c\\u200b to Ana"
    assert "3 invisible or direction-changing characters" in dialog.notes["text"].text()


COPY_SPEC: dict[str, Any] = {
    "id": "split",
    "window": {"placement": {"type": "fullscreen"}},
    "requires": {"platform": ["clipboard"]},
    "state": {"status": "idle", "taps": 0},
    "data": {"split": {"value": 34.5}},
    "root": {
        "type": "column",
        "children": [
            {
                "type": "button",
                "id": "copy",
                "label": "Copy",
                "onTap": [
                    {"type": "increment", "key": "taps"},
                    {
                        "type": "platform",
                        "call": "clipboard.copy",
                        "args": {"text": "Each person pays {/data/split/value}"},
                        "statusKey": "status",
                    },
                ],
            }
        ],
    },
}


def _until(loop: asyncio.AbstractEventLoop, predicate: Any, timeout: float = 10.0) -> None:
    """Run the loop until `predicate()` holds, without waiting for the controller's commands
    (the platform call is one of them, and it waits for the answer)."""
    run_until(loop, predicate, timeout)


def _click_through_the_window(studio: Studio, address: str) -> None:
    """A click delivered as the window system delivers one (to the studio window), so that a
    modal dialog blocks it as it blocks the user's."""
    preview = studio.window.preview_pane.preview
    _until(studio.loop, lambda: any(n["address"] == address for n in preview.visible_summary()))
    node = next(n for n in preview.visible_summary() if n["address"] == address)
    b = node["bounds"]
    scene = preview.screen_item().mapToScene(
        QPointF(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    )
    at = preview.quick_widget.mapTo(studio.window, QPoint(round(scene.x()), round(scene.y())))
    QTest.mouseClick(
        studio.window.windowHandle(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
        at,
    )  # fmt: skip


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS, RAISE)
def test_the_question_is_modal_on_top_pauses_the_prototype_and_copies_what_it_showed(
    qloop: asyncio.AbstractEventLoop, make_studio: Any, qapp: Any, tmp_path: Path
) -> None:
    qapp.setQuitOnLastWindowClosed(False)
    studio = make_studio()  # the composition root's platform services, modal to its window
    consent_ui = studio.studio.platform.consent_ui()
    opened: list[ConsentDialog] = []
    consent_ui.dialog_opened.connect(opened.append)
    try:
        spec_file = tmp_path / "split.json"
        spec_file.write_text(json.dumps(COPY_SPEC), encoding="utf-8")
        studio.controller.import_files([spec_file])
        studio.settle()
        runtime = studio.window.preview_pane.preview.runtime
        assert runtime is not None

        _click_through_the_window(studio, "copy")
        _until(qloop, lambda: bool(opened))
        (dialog,) = opened
        assert dialog.parent() is studio.window and dialog.isWindow()
        assert dialog.windowModality() == Qt.WindowModality.WindowModal
        assert dialog.windowHandle().transientParent() is studio.window.windowHandle()
        assert QApplication.activeModalWidget() is dialog
        assert dialog.sentence.text() == "This prototype will put this text on your clipboard."
        assert dialog.argument_fields["text"].toPlainText() == "Each person pays 34.5"
        hint = dialog.sizeHint()
        assert hint.width() <= 1280 and hint.height() <= 720

        # Paused: the preview takes no input, and a tap does not reach the prototype.
        assert not studio.window.preview_pane.isEnabled()
        events_before = len(runtime.events)
        _click_through_the_window(studio, "copy")
        _until(qloop, lambda: QApplication.activeModalWidget() is dialog)
        assert runtime.state["taps"] == 1 and len(runtime.events) == events_before
        assert len(opened) == 1

        # The studio window brought to the front: the question comes back on top of it.
        studio.window.activateWindow()
        _until(qloop, lambda: QApplication.activeWindow() is dialog)

        QTimer.singleShot(0, dialog.allow_once.click)
        studio.wait_for(lambda: runtime.state["status"] == "ok")
        assert QGuiApplication.clipboard().text() == "Each person pays 34.5"
        assert studio.window.preview_pane.isEnabled() and QApplication.activeModalWidget() is None
    finally:
        studio.close()
        QGuiApplication.clipboard().clear()  # the offscreen clipboard crashes at exit otherwise


def test_always_deny_is_listed_and_revocable_in_the_permissions_window(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, tmp_path: Path
) -> None:
    from studio.platform.consent import ConsentBroker, GrantStore
    from studio.ui.permissions import PermissionsDialog

    store = GrantStore(tmp_path / "grants.json")
    qloop.run_until_complete(store.grant("p", "clipboard.copy"))
    qloop.run_until_complete(store.deny("p", "share.text"))
    dialog = PermissionsDialog(ConsentBroker(store), lambda _id: "Split")
    qtbot.addWidget(dialog)
    dialog.show()
    qloop.run_until_complete(dialog.idle())
    assert [(r[0], r[1], r[3]) for r in dialog.rows()] == [
        ("Split", "clipboard.copy", "Always allow"),
        ("Split", "share.text", "Always deny"),
    ]
    dialog.revoke_button(1).click()
    qloop.run_until_complete(dialog.idle())
    assert [r[1] for r in dialog.rows()] == ["clipboard.copy"]
    assert qloop.run_until_complete(store.lookup("p", "share.text")) is None  # asks again


def test_cancelling_the_share_picker_reports_cancelled(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, qapp: Any, tmp_path: Path
) -> None:
    from PySide6.QtWidgets import QMainWindow

    from studio.platform.consent import ConsentBroker, GrantStore
    from studio.platform.host import PlatformHost
    from studio.platform.modules.share import FileShareTarget
    from studio.platform.registry import default_registry
    from studio.runtime import PlatformRequest
    from studio.ui.consent import QtConsentUI, QtSharePicker

    qapp.setQuitOnLastWindowClosed(False)
    window = QMainWindow()
    qtbot.addWidget(window)
    window.show()
    picker = QtSharePicker(window, directory=tmp_path)
    broker = ConsentBroker(GrantStore(tmp_path / "grants.json"), timeout=20)
    consent_ui = QtConsentUI(window=window)
    consent_ui.attach(broker)
    pickers: list[Any] = []
    consent_ui.dialog_opened.connect(lambda d: QTimer.singleShot(0, d.allow_once.click))

    def cancel(dialog: Any) -> None:
        pickers.append(dialog.windowModality())
        QTimer.singleShot(0, dialog.reject)  # the user closes the file picker

    picker.dialog_opened.connect(cancel)
    registry = default_registry(share_target=FileShareTarget(picker.pick))
    host = PlatformHost(registry, broker, prototype_id="p")
    try:
        request = PlatformRequest("share.text", {"text": "34.5 each"}, None, "s", "r1")
        assert qloop.run_until_complete(host.handle(request)) == ("cancelled", None)
        assert pickers == [Qt.WindowModality.WindowModal]  # modal to the studio window
        assert list(tmp_path.glob("*.txt")) == []
    finally:
        consent_ui.close()
