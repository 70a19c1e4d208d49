"""Library > New from description: the dialog (a template or none, a name, the description).
Creating hands the three to the controller (`StudioController.new_from_description`), which
opens the unsaved draft and has the agent build it."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from studio.library.templates import Template

NO_TEMPLATE = "None (a blank screen)"


class DescribeDialog(QDialog):
    """Emits `createRequested(template_id, name, description)`; template_id "" is none."""

    createRequested = Signal(str, str, str)

    def __init__(self, templates: Sequence[Template], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("describeDialog")
        self.setWindowTitle("New from description")
        self.template = QComboBox(self)
        self.template.addItem(NO_TEMPLATE, "")
        for t in templates:
            self.template.addItem(t.name, t.id)
            self.template.setItemData(self.template.count() - 1, t.description)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("New prototype")
        self.description = QPlainTextEdit(self)
        self.description.setPlaceholderText(
            "What it shows and does, screen by screen, e.g. “A trip planner: a list of trips, "
            "a trip's details, and a profile page with a notifications switch.”"
        )
        self.note = QLabel(
            "The agent builds it on a draft; review it, then Apply to save it to the library.",
            self,
        )
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.create_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.create_button.setText("Create")
        form = QFormLayout()
        form.addRow("Start from", self.template)
        form.addRow("Name", self.name)
        form.addRow("Description", self.description)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self._create)
        self.buttons.rejected.connect(self.reject)
        self.description.textChanged.connect(self._update)
        self._update()

    def _update(self) -> None:
        self.create_button.setEnabled(bool(self.description.toPlainText().strip()))

    def _create(self) -> None:
        text = self.description.toPlainText().strip()
        if not text:
            return
        self.createRequested.emit(
            str(self.template.currentData() or ""), self.name.text().strip(), text
        )
        self.accept()
