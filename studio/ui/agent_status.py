"""The top of the agent sheet: the banner saying what to configure, the model in use with the
Settings button, and the live counters (turns, tokens, estimated while a turn streams, cost from
the profile's list prices, elapsed time)."""

from __future__ import annotations

import time

from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent.config import AgentConfig
from studio.agent.events import Usage
from studio.agent.profiles import provider_name


class RunCounters:
    """Turns, tokens (reported per turn, estimated while a turn streams), and the run's times."""

    def __init__(self) -> None:
        self.reset(20, None)

    def reset(self, max_turns: int, budget: int | None) -> None:
        self.turn = 0
        self.max_turns = max_turns
        self.budget = budget
        self.input_tokens = 0
        self.output_tokens = 0
        self.streaming_chars = 0
        self.estimated = False
        self.started: float | None = None
        self.ended: float | None = None

    @property
    def live_output(self) -> int:
        return self.output_tokens + (self.streaming_chars + 3) // 4

    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.ended or time.monotonic()) - self.started


class CountersBar(QWidget):
    """One row of labels showing a `RunCounters` (call `show_counters` to refresh)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.turns_label = QLabel(self)
        self.tokens_label = QLabel(self)
        self.cost_label = QLabel(self)
        self.time_label = QLabel(self)
        # Two rows of two: the counters never make the sheet wider than a laptop's dock.
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0)
        labels = (self.turns_label, self.cost_label, self.tokens_label, self.time_label)
        for n, label in enumerate(labels):
            label.setObjectName("counters")
            grid.addWidget(label, n // 2, n % 2)
        grid.setColumnStretch(1, 1)

    def show_counters(self, c: RunCounters, config: AgentConfig) -> None:
        self.turns_label.setText(f"Turns {c.turn}/{c.max_turns}")
        approx = "~" if (c.estimated or c.streaming_chars) else ""
        used = f"{approx}{c.input_tokens:,} in · {approx}{c.live_output:,} out"
        budget = f" of {c.budget:,}" if c.budget else ""
        self.tokens_label.setText(f"Tokens {used}{budget}")
        price = config.cost(Usage(c.input_tokens, c.live_output))
        if price is None:
            self.cost_label.setText("Cost: no price")
        elif price == 0:
            self.cost_label.setText("Cost: free (local)")
        elif price < 0.0001:
            self.cost_label.setText("Cost < $0.0001")
        else:
            self.cost_label.setText(f"Cost ${price:.4f}")
        seconds = int(c.elapsed())
        self.time_label.setText(f"{seconds // 60}:{seconds % 60:02d}")


class SheetHeader(QWidget):
    """The banner (a problem to fix in the settings, with Open settings) over the model line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.banner = QFrame(self)
        self.banner.setObjectName("banner")
        self.banner_label = QLabel(self.banner)
        self.banner_label.setWordWrap(True)
        self.banner_button = QPushButton("Open settings", self.banner)
        banner_row = QHBoxLayout(self.banner)
        banner_row.addWidget(self.banner_label, 1)
        banner_row.addWidget(self.banner_button)
        self.model_label = QLabel(self)
        self.model_label.setObjectName("modelLabel")
        self.settings_button = QToolButton(self)
        self.settings_button.setText("Settings…")
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_label, 1)
        model_row.addWidget(self.settings_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addLayout(model_row)

    def show_state(self, config: AgentConfig, banner: str | None) -> None:
        """The banner (None hides it) and the configured model."""
        self.banner.setVisible(banner is not None)
        if banner:
            self.banner_label.setText(banner)
        model = config.model or "no model"
        local_only = " · local only" if config.local_only else ""
        self.model_label.setText(f"{model} · {provider_name(config.profile)}{local_only}")
