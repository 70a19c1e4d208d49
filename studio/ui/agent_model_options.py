"""The agent settings' per-model options: the tool set (standard or compound, default the
profile's), the reasoning effort (provider-default sends none; one the provider cannot take is
refused with its line), and a local model for node-scoped edits (the router)."""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QWidget

from studio.agent.config import AgentConfig
from studio.agent.profiles import PROFILES
from studio.agent.reasoning import CHOICES, effort_problem

TOOL_SETS = (
    ("", "Profile default"),
    ("standard", "Standard (patch)"),
    ("compound", "Compound (edit, insert, remove, move, setState, check)"),
)


class ModelOptions(QWidget):
    """Rows added to the settings form; `apply` puts them into a config."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tool_set = QComboBox(self)
        self.tool_set.setObjectName("toolSet")
        for value, label in TOOL_SETS:
            self.tool_set.addItem(label, value)
        self.effort = QComboBox(self)
        self.effort.setObjectName("effort")
        for value in CHOICES:
            self.effort.addItem(value, value)
        self.effort_problem = QLabel("", self)
        self.effort_problem.setObjectName("effortProblem")
        self.effort_problem.setWordWrap(True)
        self.local_profile = QComboBox(self)
        self.local_profile.setObjectName("localProfile")
        self.local_profile.addItem("None", "")
        for name, profile in PROFILES.items():
            if profile.local:
                self.local_profile.addItem(name, name)
        self.local_model = QLineEdit(self)
        self.local_model.setObjectName("localModel")
        self.local_model.setPlaceholderText("e.g. qwen3:4b")
        self.local_base_url = QLineEdit(self)
        self.local_base_url.setObjectName("localBaseUrl")
        self.hide()  # a holder: its widgets live in the dialog's form

    def add_rows(self, form: QFormLayout) -> None:
        form.addRow("Tool set", self.tool_set)
        form.addRow("Reasoning effort", self.effort)
        form.addRow("", self.effort_problem)
        form.addRow("Local model for node edits", self.local_profile)
        form.addRow("Local model name", self.local_model)
        form.addRow("Local base URL", self.local_base_url)

    def load(self, config: AgentConfig) -> None:
        chosen = config.tool_sets.get(config.model, "")
        self.tool_set.setCurrentIndex(max(self.tool_set.findData(chosen), 0))
        self.effort.setCurrentIndex(max(self.effort.findData(config.effort()), 0))
        self.local_profile.setCurrentIndex(
            max(self.local_profile.findData(config.local_profile), 0)
        )
        self.local_model.setText(config.local_model)
        self.local_base_url.setText(config.local_base_url)
        self.show_profile(config.profile, config.api)

    def show_profile(self, profile: str, api: str) -> None:
        """The profile's default tool set in its label; whether the effort fits the provider."""
        known = PROFILES.get(profile)
        default = known.tool_set if known else "standard"
        self.tool_set.setItemText(0, f"Profile default ({default})")
        problem = effort_problem(profile, api, str(self.effort.currentData()))
        self.effort_problem.setText(problem or "")

    def problem(self, profile: str, api: str) -> str | None:
        return effort_problem(profile, api, str(self.effort.currentData()))

    def apply(self, config: AgentConfig, before: AgentConfig) -> AgentConfig:
        """`config` with these options for its model, the other models' options kept."""
        tool_sets = dict(before.tool_sets)
        efforts = dict(before.efforts)
        chosen, effort = str(self.tool_set.currentData()), str(self.effort.currentData())
        if config.model:
            if chosen:
                tool_sets[config.model] = chosen
            else:
                tool_sets.pop(config.model, None)
            if effort != "provider-default":
                efforts[config.model] = effort
            else:
                efforts.pop(config.model, None)
        return dataclasses.replace(
            config,
            tool_sets=tool_sets,
            efforts=efforts,
            local_profile=str(self.local_profile.currentData()),
            local_model=self.local_model.text().strip(),
            local_base_url=self.local_base_url.text().strip(),
        )
