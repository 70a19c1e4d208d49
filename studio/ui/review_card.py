"""The review card under the agent chat: what the draft changed (revisions and a per-node diff),
whether it was rebased on the user's edit or no longer applies, and Apply, Discard, Undo, Re-run."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from studio.library.revisions import Revision
from studio.ui.labels import WrapLabel
from studio.workspace import NodeDiff, Review, ValueDiff

#: The edit-during-review rule, as the card states it (studio.workspace.workspace implements it).
RULE = (
    "While you review, the preview, tree and inspector show the draft. Edits to the draft's "
    "nodes are refused; other edits go to the prototype and the draft is rebased on them."
)
MAX_LINES = 5


class ReviewCard(QFrame):
    """Shows the draft under review (or the agent revision last applied, for Undo)."""

    applyRequested = Signal()
    discardRequested = Signal()
    undoRequested = Signal()
    rerunRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("review")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        # What each node gained, lost and changed, one property a line (wrapped in long paths).
        self.diff_label = WrapLabel("", self)
        self.diff_label.setObjectName("reviewDiff")
        self.rule_label = QLabel(RULE, self)
        self.rule_label.setObjectName("reviewRule")
        self.rule_label.setWordWrap(True)
        self.apply_button = QPushButton("Apply", self)
        self.apply_button.setToolTip("Add the agent's changes to the prototype as one revision")
        self.discard_button = QPushButton("Discard", self)
        self.undo_button = QPushButton("Undo", self)
        self.rerun_button = QPushButton("Re-run", self)
        self.rerun_button.setToolTip("Run the same instruction again on the prototype as it is now")
        buttons = QHBoxLayout()
        for button in (self.apply_button, self.discard_button, self.undo_button, self.rerun_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.diff_label)
        layout.addWidget(self.rule_label)
        layout.addLayout(buttons)
        self.apply_button.clicked.connect(self.applyRequested)
        self.discard_button.clicked.connect(self.discardRequested)
        self.undo_button.clicked.connect(self.undoRequested)
        self.rerun_button.clicked.connect(self.rerunRequested)
        self.hide()

    def show_review(
        self,
        review: Review | None,
        revisions: Sequence[Revision],
        *,
        idle: bool,
        can_undo: bool,
        can_rerun: bool,
        applied: Revision | None = None,
    ) -> None:
        """`review`: the draft as the workspace shows it (None while it is not under review,
        e.g. another prototype is open); `revisions`: the draft's; `applied`: the agent revision
        that Undo would take back when there is no draft."""
        stale = review is not None and review.stale
        has_draft = bool(revisions)
        self.setVisible(has_draft or can_undo)
        self.apply_button.setEnabled(idle and has_draft and not stale)
        self.discard_button.setEnabled(idle and has_draft)
        self.undo_button.setEnabled(can_undo)
        self.rerun_button.setVisible(stale)
        self.rerun_button.setEnabled(stale and can_rerun)
        self.rule_label.setVisible(has_draft and not stale)
        if has_draft:
            changed: dict[str, None] = {}
            for revision in revisions:
                changed.update(dict.fromkeys(revision.changed))
            lines = [f"• {r.summary}" for r in revisions[-MAX_LINES:]]
            if len(revisions) > MAX_LINES:
                lines.append(f"… and {len(revisions) - MAX_LINES} earlier")
            head = f"Draft: {len(revisions)} revision(s), {len(changed)} node(s) changed"
            if stale and review is not None:
                head = (
                    f"{head}\nThe draft no longer applies to the prototype as it is now (after "
                    f"your edit): {review.problem}. The preview shows the prototype; Apply is "
                    "off. Re-run the instruction on the prototype as it is now, or discard it."
                )
            elif review is not None and review.rebased:
                head = f"{head}\nRebased on your edit: the draft includes your changes."
            self.label.setText("\n".join([head, *lines]))
            # The per-node diff once the run is idle (not on every revision while it streams).
            show_diff = idle and review is not None and not stale
            self.diff_label.setText(_diff_text(review) if show_diff and review else "")
            self.diff_label.setVisible(bool(self.diff_label.text()))
        elif applied is not None and can_undo:
            self.label.setText(f"Applied: {applied.summary}")
            self.diff_label.hide()

    def text(self) -> str:
        """Everything the card says (tests and accessibility)."""
        parts = [self.label.text()]
        if self.diff_label.isVisibleTo(self):
            parts.append(self.diff_label.text())
        if self.rule_label.isVisibleTo(self):
            parts.append(self.rule_label.text())
        return "\n".join(parts)


MAX_DIFF_LINES = 14


def _diff_text(review: Review) -> str:
    """The draft's property-level diff as a designer reads it: a heading per node (its id, or
    its path, and type), then one line per property: `text: "Hello" → "Inbox"`, `+ icon: "send"`
    (added), `− onTap` (removed); state and data keys after the nodes."""
    lines: list[str] = []
    for diff in review.node_diffs:
        lines.extend(node_lines(diff))
    for value in review.value_diffs:
        lines.append(value_line(value))
    if len(lines) > MAX_DIFF_LINES:
        rest = len(lines) - MAX_DIFF_LINES
        lines = [*lines[:MAX_DIFF_LINES], f"… and {rest} more line(s): see the Trace tab"]
    return "\n".join(lines)


def node_lines(diff: NodeDiff) -> list[str]:
    """A node's heading and its property lines (an added or removed node is one line)."""
    if diff.kind == "added":
        return [f"+ {diff.address} ({diff.node_type}): new node"]
    if diff.kind == "removed":
        return [f"− {diff.address} ({diff.node_type}): removed"]
    lines = [f"{diff.address} ({diff.node_type})"]
    lines += [f"    {k}: {short(a)} → {short(b)}" for k, (a, b) in diff.changed.items()]
    lines += [f"    + {k}: {short(v)}" for k, v in diff.added.items()]
    lines += [f"    − {k}" for k in diff.removed]
    return lines


def value_line(diff: ValueDiff) -> str:
    where = f"{diff.section}.{diff.key}" if diff.key is not None else diff.section
    if diff.kind == "added":
        return f"+ {where}: {short(diff.after)}"
    if diff.kind == "removed":
        return f"− {where}"
    return f"{where}: {short(diff.before)} → {short(diff.after)}"


def short(value: object, limit: int = 48) -> str:
    """A value as JSON, cut to `limit` characters."""
    import json

    text = json.dumps(value, ensure_ascii=False, separators=(",", ": "))
    return text if len(text) <= limit else text[: limit - 1] + "…"
