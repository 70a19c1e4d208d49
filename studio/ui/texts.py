"""Texts the studio's windows share: the application title and one-line error messages."""

from __future__ import annotations

APP_TITLE = "Proto Studio"
#: The device picker's first entry (and the slot the preview's tool bar keeps for it).
BUILTIN_LABEL = "Built-in preview"
#: What the agent dock says until the agent sheet is built (right after the first frame).
AGENT_LOADING = "Loading the agent…"


def one_line(exc: BaseException) -> str:
    """An exception as one line of at most 300 characters (for the status bar)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:299] + "…"
