"""Settings > Platform permissions: the remembered "Always allow" / "Always deny" answers, revocable.

`PermissionsDialog(broker, names)` lists the broker's remembered answers (prototype name,
`module.call`, when, allowed or denied), with Revoke per row and Revoke all. Reading and revoking go through the broker's async
API (file I/O off the GUI thread); the broker's grant store is the one the hosts ask, so a
revocation takes effect at once: the next call of that prototype asks again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.concurrency import TaskOwner
from studio.platform.consent import ConsentBroker, Grant

log = logging.getLogger(__name__)

COLUMNS = ("Prototype", "Call", "Since", "Answer", "")
REVOKE_COLUMN = 4
EMPTY_TEXT = "No remembered permissions. A prototype asks before each sensitive call."


def granted_label(stamp: float) -> str:
    """A grant's time as the user reads it (local time, to the minute)."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


class PermissionsDialog(QDialog):
    """A non-modal window over the broker's grants. `loaded` is emitted after every (re)read."""

    loaded = Signal()
    failed = Signal(str)

    def __init__(
        self,
        broker: ConsentBroker,
        names: Callable[[str], str | None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("permissionsDialog")
        self.setWindowTitle("Platform permissions")
        self.setModal(False)
        self.broker = broker
        self._names = names or (lambda _id: None)
        self._tasks = TaskOwner("permissions")
        self.grants: list[Grant] = []

        intro = QLabel(
            "Calls you answered with “Always allow” or “Always deny” for a prototype. "
            "Revoking one makes the prototype ask again on its next call.",
            self,
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("grantsTable")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.empty_label = QLabel(EMPTY_TEXT, self)
        self.empty_label.setObjectName("permissionsEmpty")
        self.error_label = QLabel("", self)
        self.error_label.setObjectName("permissionsError")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        self.revoke_all_button = QPushButton("Revoke all", self)
        self.revoke_all_button.setObjectName("revokeAllButton")
        self.revoke_all_button.setEnabled(False)
        self.revoke_all_button.clicked.connect(lambda: self._spawn(self.revoke_all()))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.close)

        bottom = QHBoxLayout()
        bottom.addWidget(self.revoke_all_button)
        bottom.addStretch(1)
        bottom.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.error_label)
        layout.addLayout(bottom)
        self.resize(640, 360)

    # -- the work ------------------------------------------------------------------------------
    def refresh(self) -> asyncio.Task[Any]:
        """Re-read the grants (started on show, and after each revocation)."""
        return self._spawn(self.reload())

    async def reload(self) -> None:
        self.grants = await self.broker.grants()
        self._fill()
        self.loaded.emit()

    async def revoke(self, grant: Grant) -> None:
        await self.broker.revoke(grant.prototype_id, grant.call)
        await self.reload()

    async def revoke_all(self) -> None:
        for prototype_id in sorted({g.prototype_id for g in self.grants}):
            await self.broker.revoke(prototype_id)
        await self.reload()

    async def idle(self) -> None:
        """Wait until the reads and revocations started so far have finished (tests)."""
        await self._tasks.idle()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        return self._tasks.spawn(self._guard(coro), label="permissions")

    async def _guard(self, coro: Coroutine[Any, Any, Any]) -> None:
        try:
            await coro
        except OSError as exc:  # the grants file could not be written: say so, keep the list
            message = f"Cannot change the permissions file: {exc.strerror or exc}"
            self.error_label.setText(message)
            self.error_label.show()
            self.failed.emit(message)

    # -- the table -----------------------------------------------------------------------------
    def prototype_label(self, prototype_id: str) -> str:
        name = self._names(prototype_id)
        return name if name else f"{prototype_id} (no longer in the library)"

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(prototype, call, since, answer) as shown, top to bottom."""
        out: list[tuple[str, str, str, str]] = []
        for row in range(self.table.rowCount()):
            cells = [self.table.item(row, column) for column in range(REVOKE_COLUMN)]
            out.append(tuple(c.text() if c is not None else "" for c in cells))  # type: ignore[arg-type]
        return out

    def revoke_button(self, row: int) -> QPushButton:
        widget = self.table.cellWidget(row, REVOKE_COLUMN)
        assert isinstance(widget, QPushButton)
        return widget

    def _fill(self) -> None:
        ordered = sorted(
            self.grants, key=lambda g: (self.prototype_label(g.prototype_id).lower(), g.call)
        )
        self.grants = ordered
        self.table.setRowCount(len(ordered))
        for row, grant in enumerate(ordered):
            values = (
                self.prototype_label(grant.prototype_id),
                grant.call,
                granted_label(grant.granted_at),
                "Always allow" if grant.allowed else "Always deny",
            )
            for column, text in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(text))
            button = QPushButton("Revoke", self.table)
            button.setToolTip(f"Ask again before {grant.call} runs")
            button.clicked.connect(lambda _checked=False, g=grant: self._spawn(self.revoke(g)))
            self.table.setCellWidget(row, REVOKE_COLUMN, button)
        self.table.setVisible(bool(ordered))
        self.empty_label.setVisible(not ordered)
        self.revoke_all_button.setEnabled(bool(ordered))

    # -- lifetime ------------------------------------------------------------------------------
    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()

    def shutdown(self) -> None:
        self._tasks.cancel_all()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    async def aclose(self) -> None:
        """Cancel what still runs and wait for it (tests and shutdown)."""
        await self._tasks.aclose()
