"""Run traces (every step, with a trace id), stdlib logging, and secret masking everywhere."""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

logger = logging.getLogger("studio.agent")

_PATTERNS = (
    re.compile(r"sk-[A-Za-z0-9_\-]{6,}"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=\-]{6,}"),
    re.compile(r"gsk_[A-Za-z0-9]{6,}"),
)
MASK = "***"


class Masker:
    """Replaces known secrets and anything shaped like an API key or a Bearer token."""

    def __init__(self, secrets_: Iterable[str] = ()) -> None:
        self._secrets = {s for s in secrets_ if s and len(s) >= 4}

    def add(self, secret: str | None) -> None:
        if secret and len(secret) >= 4:
            self._secrets.add(secret)

    def text(self, value: str) -> str:
        for secret in self._secrets:
            if secret in value:
                value = value.replace(secret, MASK)
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
