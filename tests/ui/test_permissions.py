"""Platform permissions: remembered "Always" grants are listed per prototype and can be revoked."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtTest import QTest

from studio.platform.consent import ConsentBroker, GrantStore
from studio.platform.host import PlatformHost
from studio.platform.modules.clipboard import MemoryClipboard
from studio.platform.registry import default_registry
from studio.ui.consent import ConsentDialog, QtConsentUI
from studio.ui.permissions import PermissionsDialog, granted_label
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

COPY_SPEC: dict[str, Any] = {
    "id": "copier",
    "window": {"placement": {"type": "fullscreen"}},
    "requires": {"platform": ["clipboard"]},
    "state": {"copyStatus": "idle"},
    "data": {},
    "root": {
        "type": "column",
        "children": [
            {
                "type": "button",
                "id": "copy",
                "label": "Copy",
                "onTap": [
                    {
                        "type": "platform",
                        "call": "clipboard.copy",
                        "args": {"text": "order 42"},
                        "into": "/data/copied",
                        "statusKey": "copyStatus",
                    }
                ],
            }
        ],
    },
}


def test_dialog_lists_grants_and_revokes_them(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, tmp_path: Path
) -> None:
    path = tmp_path / "grants.json"
    store = GrantStore(path)
    before = time.time()
    for prototype, call in [
        ("p-bill", "share.text"),
        ("p-bill", "clipboard.copy"),
        ("p-gone", "clipboard.read"),
        ("p-notes", "share.text"),
    ]:
        qloop.run_until_complete(store.grant(prototype, call))
    broker = ConsentBroker(store)
    names = {"p-bill": "Split the bill", "p-notes": "Notes"}
    dialog = PermissionsDialog(broker, names.get)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.loaded):
        dialog.show()
        qloop.run_until_complete(dialog.idle())

    assert not dialog.isModal()
    assert [row[:2] for row in dialog.rows()] == [
        ("Notes", "share.text"),
        ("p-gone (no longer in the library)", "clipboard.read"),
        ("Split the bill", "clipboard.copy"),
        ("Split the bill", "share.text"),
    ]
    granted = {granted_label(t) for t in (before, time.time())}
    assert all(row[2] in granted for row in dialog.rows())
    assert dialog.revoke_all_button.isEnabled() and not dialog.empty_label.isVisible()

    dialog.revoke_button(2).click()  # Split the bill: clipboard.copy
    qloop.run_until_complete(dialog.idle())
    assert [row[:2] for row in dialog.rows()] == [
        ("Notes", "share.text"),
        ("p-gone (no longer in the library)", "clipboard.read"),
        ("Split the bill", "share.text"),
    ]
    # Gone from the broker the hosts ask, and from the file (a fresh start agrees).
    remembered = qloop.run_until_complete(broker.grants())
    assert ("p-bill", "clipboard.copy") not in [(g.prototype_id, g.call) for g in remembered]
    on_disk = json.loads(path.read_text(encoding="utf-8"))["grants"]
    assert sorted((g["prototype"], g["call"]) for g in on_disk) == [
        ("p-bill", "share.text"),
        ("p-gone", "clipboard.read"),
        ("p-notes", "share.text"),
    ]

    dialog.revoke_all_button.click()
    qloop.run_until_complete(dialog.idle())
    assert dialog.rows() == []
    assert dialog.empty_label.isVisible() and not dialog.revoke_all_button.isEnabled()
    assert qloop.run_until_complete(GrantStore(path).all()) == []


def test_a_write_failure_is_shown_and_keeps_the_list(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "config"
    store = GrantStore(folder / "grants.json")
    qloop.run_until_complete(store.grant("p", "share.text"))
    dialog = PermissionsDialog(ConsentBroker(store), {"p": "Proto"}.get)
    qtbot.addWidget(dialog)
    dialog.show()
    qloop.run_until_complete(dialog.idle())
    # The grants folder is replaced by a file: the grants file cannot be written now.
    (folder / "grants.json").unlink()
    folder.rmdir()
    folder.write_text("not a folder", encoding="utf-8")
    with qtbot.waitSignal(dialog.failed) as failed:
        dialog.revoke_button(0).click()
        qloop.run_until_complete(dialog.idle())
    assert failed.args[0].startswith("Cannot change the permissions file:")
    assert dialog.error_label.isVisible()
    assert [row[:2] for row in dialog.rows()] == [("Proto", "share.text")]


def tap(studio: Studio, address: str) -> None:
    """A real mouse click on the centre of the node as the preview shows it."""
    preview = studio.window.preview_pane.preview
    studio.wait_for(lambda: any(n["address"] == address for n in preview.visible_summary()))
    node = next(n for n in preview.visible_summary() if n["address"] == address)
    b = node["bounds"]
    scene = preview.screen_item().mapToScene(
        QPointF(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    )
    QTest.mouseClick(
        preview.quick_widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
        QPoint(round(scene.x()), round(scene.y())),
    )  # fmt: skip


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS, r"This plugin does not support raise\(\)")
def test_revoking_in_the_studio_makes_the_next_call_ask_again(
    qloop: asyncio.AbstractEventLoop, make_studio: Any, qapp: Any, tmp_path: Path
) -> None:
    qapp.setQuitOnLastWindowClosed(False)
    board = MemoryClipboard()
    registry = default_registry(clipboard_backend=board)
    broker = ConsentBroker(timeout=20)  # a failing test denies instead of hanging
    consent_ui = QtConsentUI()
    consent_ui.attach(broker)
    asked: list[ConsentDialog] = []
    answers: list[str] = []

    def answer(dialog: ConsentDialog) -> None:
        asked.append(dialog)
        QTimer.singleShot(0, getattr(dialog, answers.pop(0)).click)

    consent_ui.dialog_opened.connect(answer)
    studio = make_studio(host_factory=lambda pid: PlatformHost(registry, broker, prototype_id=pid))
    try:
        studio.window.set_permissions_source(lambda: broker)
        spec_file = tmp_path / "copier.json"
        spec_file.write_text(json.dumps(COPY_SPEC), encoding="utf-8")
        studio.controller.import_files([spec_file])
        studio.settle()
        runtime = studio.window.preview_pane.preview.runtime
        assert runtime is not None

        answers.append("always")
        tap(studio, "copy")
        studio.wait_for(lambda: runtime.state["copyStatus"] == "ok")
        assert len(asked) == 1 and board.value == "order 42"

        board.value = None  # remembered: the second tap runs without asking
        tap(studio, "copy")
        studio.wait_for(lambda: board.value == "order 42")
        assert len(asked) == 1

        action = studio.window.permissions_action
        assert action.text() == "Platform permissions…" and action.isEnabled()
        action.trigger()
        dialog = studio.window.permissions_dialog
        assert dialog is not None and dialog.isVisible()
        qloop.run_until_complete(dialog.idle())
        assert [row[:2] for row in dialog.rows()] == [("copier", "clipboard.copy")]

        dialog.revoke_button(0).click()
        qloop.run_until_complete(dialog.idle())
        assert dialog.rows() == []

        board.value = None  # revoked: the next tap asks again, and Deny runs nothing
        answers.append("deny")
        tap(studio, "copy")
        studio.wait_for(lambda: runtime.state["copyStatus"] == "denied")
        assert len(asked) == 2 and board.value is None
    finally:
        studio.close()
        consent_ui.close()
