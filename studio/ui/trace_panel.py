"""The agent trace panel: every step of a run (tool, arguments, result, duration, error class),
expandable, with the trace id, copy buttons, and opening a saved run snapshot to replay it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.concurrency import TaskOwner, off_loop

JSON = dict[str, Any]
_SHOWN = {"trace_id", "kind", "time", "name", "duration_ms", "error_class"}
MAX_CELL = 2000


def _text(value: Any) -> str:
    if isinstance(value, str):
        try:  # tool arguments and results are often JSON strings: show them pretty
            value = json.loads(value)
        except ValueError:
            return str(value)
    return json.dumps(value, ensure_ascii=False, indent=1)


def _one_line(text: str, limit: int = 120) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _title(step: JSON) -> tuple[str, str]:
    """The step's name and a one-line detail."""
    kind = step.get("kind", "?")
    if kind == "tool_call":
        result = step.get("result")
        return str(step.get("name", "tool")), _one_line(_text(result) if result is not None else "")
    if kind == "model_request":
        return "model request", f"turn {step.get('turn')}, {step.get('messages')} messages"
    if kind == "model_response":
        calls = step.get("tool_calls") or []
        tail = f", calls {', '.join(calls)}" if calls else ""
        return (
            "model response",
            f"turn {step.get('turn')}: {step.get('finish')}, "
            f"{step.get('input_tokens')} in / {step.get('output_tokens')} out{tail}",
        )
    if kind == "model_error":
        return "model error", _one_line(str(step.get("message", "")))
    if kind == "run_end":
        return "run end", f"{step.get('status')}: {_one_line(str(step.get('reason', '')))}"
    return str(kind), ""


class TracePanel(QWidget):
    """Shows a run's trace steps. `show_trace(trace_id, steps)` follows a live run (new steps are
    appended); `open_snapshot(path)` loads a saved run, and Replay emits `replayRequested`."""

    replayRequested = Signal(object)  # the snapshot dict
    snapshotLoaded = Signal(object)
    loadFailed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agentTrace")
        self._tasks = TaskOwner("trace panel")
        self._trace_id = ""
        self._count = 0
        self.snapshot: JSON | None = None

        self.trace_label = QLabel("No run yet", self)
        self.trace_label.setObjectName("traceId")
        self.trace_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_id_button = QPushButton("Copy id", self)
        self.copy_id_button.setToolTip("Copy the trace id (logs and snapshots are keyed by it)")
        self.copy_json_button = QPushButton("Copy trace", self)
        self.copy_json_button.setToolTip("Copy every step as JSON (secrets are already masked)")
        self.open_button = QPushButton("Open run…", self)
        self.open_button.setToolTip("Open a saved run snapshot")
        self.replay_button = QPushButton("Replay in sheet", self)
        self.replay_button.setEnabled(False)
        self.message = QLabel("", self)
        self.message.setWordWrap(True)
        self.message.setObjectName("traceMessage")

        self.tree = QTreeWidget(self)
        self.tree.setMinimumHeight(48)  # the sheet fits a 720 px screen; the tree scrolls
        self.tree.setHeaderLabels(["Step", "Detail", "ms", "Error"])
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)

        top = QHBoxLayout()
        top.addWidget(self.trace_label, 1)
        top.addWidget(self.copy_id_button)
        top.addWidget(self.copy_json_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.replay_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.message)
        layout.addLayout(buttons)

        self._steps: list[JSON] = []
        self.copy_id_button.clicked.connect(self.copy_trace_id)
        self.copy_json_button.clicked.connect(self.copy_trace_json)
        self.open_button.clicked.connect(self._choose_file)
        self.replay_button.clicked.connect(self._replay)
        self._update_buttons()

    # -- showing a trace ------------------------------------------------------------------
    @property
    def trace_id(self) -> str:
        return self._trace_id

    def show_trace(self, trace_id: str, steps: list[JSON]) -> None:
        """Show `steps` of `trace_id`; for the same id only the new steps are added."""
        if trace_id != self._trace_id or len(steps) < self._count:
            self.tree.clear()
            self._steps = []
            self._count = 0
            self._trace_id = trace_id
            self.trace_label.setText(trace_id)
        for step in steps[self._count :]:
            self.tree.addTopLevelItem(self._item(step))
            self._steps.append(step)
        self._count = len(steps)
        self._update_buttons()

    def steps(self) -> list[JSON]:
        return list(self._steps)

    def _item(self, step: JSON) -> QTreeWidgetItem:
        name, detail = _title(step)
        ms = step.get("duration_ms")
        error = step.get("error_class") or ""
        item = QTreeWidgetItem([name, detail, "" if ms is None else f"{ms:g}", str(error)])
        item.setData(0, Qt.ItemDataRole.UserRole, step)
        if error:
            item.setToolTip(3, f"error class: {error}")
        for key, value in step.items():
            if key in _SHOWN:
                continue
            text = _text(value)
            child = QTreeWidgetItem([key, _one_line(text, MAX_CELL)])
            child.setToolTip(1, text if len(text) <= MAX_CELL else text[:MAX_CELL] + "…")
            child.setData(1, Qt.ItemDataRole.UserRole, text)
            item.addChild(child)
        return item

    def copy_trace_id(self) -> None:
        QGuiApplication.clipboard().setText(self._trace_id)

    def copy_trace_json(self) -> None:
        QGuiApplication.clipboard().setText(
            json.dumps(
                {"trace_id": self._trace_id, "steps": self._steps}, ensure_ascii=False, indent=1
            )
        )

    # -- saved runs ---------------------------------------------------------------------------
    def _choose_file(self) -> None:
        from studio.agent.snapshot import runs_dir

        # Non-modal (open(), never exec()): the agent loop keeps running behind it.
        dialog = QFileDialog(self, "Open a saved agent run", str(runs_dir()), "Agent runs (*.json)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(
            lambda path: self._tasks.spawn(self.open_snapshot(Path(path)), label="open run")
        )
        dialog.open()

    async def open_snapshot(self, path: Path) -> JSON | None:
        """Load a snapshot off the GUI thread and show its trace; a bad file says why in one line."""
        from studio.agent.snapshot import SnapshotError, load_snapshot

        try:
            snapshot = await off_loop(load_snapshot, path)
        except SnapshotError as exc:
            self.message.setText(str(exc))
            self.loadFailed.emit(str(exc))
            return None
        self.snapshot = snapshot
        result = snapshot.get("result") or {}
        self.show_trace(str(snapshot.get("trace_id", "")), list(snapshot.get("trace") or []))
        self.message.setText(
            f"{path.name}: {len(snapshot['instructions'])} instruction(s), model "
            f"{snapshot.get('model')}, {result.get('status', 'unfinished')}"
        )
        self._update_buttons()
        self.snapshotLoaded.emit(snapshot)
        return snapshot

    def _replay(self) -> None:
        if self.snapshot is not None:
            self.replayRequested.emit(self.snapshot)

    def _update_buttons(self) -> None:
        has = bool(self._trace_id)
        self.copy_id_button.setEnabled(has)
        self.copy_json_button.setEnabled(has)
        self.replay_button.setEnabled(self.snapshot is not None)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._tasks.cancel_all()
        super().closeEvent(event)

    def shutdown(self) -> None:
        self._tasks.cancel_all()

    async def aclose(self) -> None:
        await self._tasks.aclose()
