"""Labels that never widen their panel or dialog: wrapped text that may break inside long words
(node paths, URLs, file names) and one-line text elided to the width it is given.

A word-wrapped QLabel breaks only between words, so a path such as
`root.children[1].child.children[13]` or a keychain error without spaces is as wide as it is
long, and so is the dock or dialog holding it (the walkthrough's 2,396 px settings dialog).
`WrapLabel` adds zero-width break opportunities (U+200B, a line-break opportunity in Unicode's
line-breaking rules, which Qt's text layout follows) after the characters that separate the parts
of such words, and inside any run that is still long; `ElidedLabel` shows one line cut with "…"
and the whole text in its tooltip.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

ZWSP = "\u200b"
#: A break is allowed after these (the separators of paths, URLs, identifiers).
_AFTER = re.compile(r"([./\\\[\]_:,;=&?#@+|·→-])")
#: Runs longer than this with no break opportunity get one every this many characters.
_RUN = 24
_LONG_RUN = re.compile(r"[^\s\u200b]{" + str(_RUN + 1) + ",}")


def breakable(text: str) -> str:
    """`text` with zero-width break opportunities inside long words (display only)."""
    if not text:
        return text
    marked = _AFTER.sub(r"\1" + ZWSP, text)

    def split(match: re.Match[str]) -> str:
        run = match.group(0)
        return ZWSP.join(run[i : i + _RUN] for i in range(0, len(run), _RUN))

    return _LONG_RUN.sub(split, marked)


class WrapLabel(QLabel):
    """A word-wrapped label whose long words break too; `text()` is the text as set."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        policy = self.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Preferred)
        self.setSizePolicy(policy)
        self._text = ""
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._text = text
        super().setText(breakable(text))

    def text(self) -> str:
        return self._text

    def clear(self) -> None:
        self.setText("")


class ElidedLabel(QLabel):
    """One line, elided (`mode`) to its width, the whole text in the tooltip; it asks for the
    width of its text but can be given as little as `min_chars` characters."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle,
        min_chars: int = 8,
    ) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._mode = mode
        self._min_chars = min_chars
        self._text = ""
        policy = self.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        self.setSizePolicy(policy)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._text = " ".join(text.split()) if "\n" in text else text
        self.setToolTip(self._text if self._text else "")
        self._elide()
        self.updateGeometry()

    def text(self) -> str:
        return self._text

    def shown_text(self) -> str:
        """What is drawn now (elided)."""
        return super().text()

    def clear(self) -> None:
        self.setText("")

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        extra = margins.left() + margins.right() + 2 * self.margin()
        height = super().sizeHint().height()
        return QSize(metrics.horizontalAdvance(self._text) + extra, height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        metrics = self.fontMetrics()
        height = super().minimumSizeHint().height()
        return QSize(metrics.averageCharWidth() * self._min_chars, height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = self.contentsRect().width() - 2 * self.margin()
        shown = self.fontMetrics().elidedText(self._text, self._mode, max(width, 0))
        if shown != super().text():
            super().setText(shown)
