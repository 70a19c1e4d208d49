"""Run traces (every step, with a trace id), stdlib logging, and secret masking everywhere."""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

logger = logging.getLogger("studio.agent")

# Only real key shapes, standing alone: OpenAI's `sk-` keys (legacy 48 characters; sk-proj-,
# sk-svcacct-, sk-admin- are longer; Anthropic's sk-ant- and OpenRouter's sk-or- share the
# prefix), Groq's `gsk_` + 52, and a Bearer token. "Task-management" or "Ask-anything" is text.
_PATTERNS = (
    re.compile(r"(?<![A-Za-z0-9_\-])sk-[A-Za-z0-9_\-]{16,}"),
    re.compile(r"(?i)(?<![A-Za-z0-9])(bearer\s+)[A-Za-z0-9._~+/=\-]{8,}"),
    re.compile(r"(?<![A-Za-z0-9_])gsk_[A-Za-z0-9]{20,}"),
)
MASK = "***"
SHORT_SECRET = 8
"""Secrets shorter than this are masked only where they stand alone (a key "k3y" is masked in
"Your key is k3y", not in "k3yboard"), so a short key cannot rewrite ordinary words."""


class Masker:
    """Replaces the exact value of every known secret, and anything shaped like a real API key
    or a Bearer token."""

    def __init__(self, secrets_: Iterable[str] = ()) -> None:
        self._secrets: set[str] = set()
        self._short: re.Pattern[str] | None = None
        for secret in secrets_:
            self.add(secret)

    def add(self, secret: str | None) -> None:
        if not secret or secret in self._secrets:
            return
        self._secrets.add(secret)
        short = sorted((s for s in self._secrets if len(s) < SHORT_SECRET), key=len, reverse=True)
        self._short = (
            re.compile(
                r"(?<![A-Za-z0-9])(?:" + "|".join(map(re.escape, short)) + r")(?![A-Za-z0-9])"
            )
            if short
            else None
        )

    @property
    def secrets(self) -> frozenset[str]:
        return frozenset(self._secrets)

    def reset(self, secrets_: Iterable[str] = ()) -> None:
        """Know exactly `secrets_` from now on (tests put the process-wide masker back)."""
        self._secrets.clear()
        self._short = None
        for secret in secrets_:
            self.add(secret)

    def text(self, value: str) -> str:
        for secret in self._secrets:
            if len(secret) >= SHORT_SECRET and secret in value:
                value = value.replace(secret, MASK)
        if self._short is not None:
            value = self._short.sub(MASK, value)
        for pattern in _PATTERNS:
            if pattern.search(value):
                value = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + MASK, value)
        return value

    def obj(self, value: Any) -> Any:
        """A deep copy of JSON-like data with every string masked."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(str(k)): self.obj(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.obj(v) for v in value]
        return value


class StreamRedactor:
    """Masks secrets in text that arrives in pieces: a piece that could be the start of a secret
    is held back until the next piece shows whether it is one (F5: a key streamed 5 characters
    at a time rebuilt itself in the events file). `flush()` at the end of the stream."""

    def __init__(self, masker: Masker) -> None:
        self._masker = masker
        self._held = ""

    def feed(self, text: str) -> str:
        secrets_ = self._masker.secrets
        if not secrets_:
            return text
        text = self._held + text
        hold = 0
        for secret in secrets_:
            # The longest tail of `text` that is a proper prefix of the secret (only tails that
            # start with the secret's first character are tried).
            at = text.find(secret[0], max(0, len(text) - len(secret) + 1))
            while at != -1 and len(text) - at > hold:
                if secret.startswith(text[at:]):
                    hold = len(text) - at
                    break
                at = text.find(secret[0], at + 1)
        # A short secret is masked only standing alone: hold the trailing word whole.
        short = max((len(s) for s in secrets_ if len(s) < SHORT_SECRET), default=0)
        if short:
            word = 0
            while word < len(text) and word <= short and text[-1 - word].isalnum():
                word += 1
            hold = max(hold, word)
        safe, self._held = (text[:-hold], text[-hold:]) if hold else (text, "")
        return self._masker.text(safe)

    def flush(self) -> str:
        held, self._held = self._held, ""
        return self._masker.text(held) if held else ""


class MaskingFilter(logging.Filter):
    """A logging filter that masks secrets in the formatted message (attach to handlers)."""

    def __init__(self, masker: Masker) -> None:
        super().__init__()
        self.masker = masker

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = self.masker.text(message)
        if masked != message or record.args:
            record.msg = masked
            record.args = None
        return True


GLOBAL_MASKER = Masker()
"""Masks every key the process has seen; keys.py registers keys here as they are read."""


def install_log_masking(masker: Masker = GLOBAL_MASKER) -> None:
    """Mask secrets in everything the studio logs (idempotent)."""
    if not any(isinstance(f, MaskingFilter) for f in logger.filters):
        logger.addFilter(MaskingFilter(masker))


def new_trace_id() -> str:
    return "trace_" + secrets.token_hex(16)


class Tracer:
    """Collects the steps of one run; each step is masked before it is stored or logged."""

    def __init__(
        self,
        trace_id: str | None = None,
        masker: Masker | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.trace_id = trace_id or new_trace_id()
        self.masker = masker or GLOBAL_MASKER
        self.steps: list[dict[str, Any]] = []
        self._clock = clock
        install_log_masking(self.masker)

    def step(self, kind: str, level: int = logging.DEBUG, **fields: Any) -> dict[str, Any]:
        entry: dict[str, Any] = self.masker.obj(
            {"trace_id": self.trace_id, "kind": kind, "time": self._clock(), **fields}
        )
        self.steps.append(entry)
        if logger.isEnabledFor(level):
            brief = {k: v for k, v in entry.items() if k not in ("trace_id", "time")}
            logger.log(level, "%s %s %s", self.trace_id, kind, _short(brief))
        return entry


def _short(value: Any, limit: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
