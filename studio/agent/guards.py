"""Guards of a run: turn cap and token budget, the stuck detector, and retry backoff."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Limits:
    """Per instruction: at most `max_turns` model calls and `token_budget` tokens (None: no cap),
    checked before each request; each reply at most `max_output_tokens` (less when the context
    window or the budget leaves less). Time: `idle_timeout` seconds without a byte (None: the
    profile's), `request_timeout` seconds for one whole model answer, `run_timeout` seconds of
    work for one instruction (time spent waiting for the user does not count)."""

    max_turns: int = 20
    token_budget: int | None = None
    max_output_tokens: int = 8192
    context_window: int | None = None  # from settings; wins over the server and the profile
    idle_timeout: float | None = None
    request_timeout: float = 600.0
    run_timeout: float | None = 1800.0


class StuckDetector:
    """The same call key twice within `window` calls warns; `stop_at` times stops the run."""

    def __init__(self, window: int = 6, warn_at: int = 2, stop_at: int = 3) -> None:
        self._recent: deque[str] = deque(maxlen=window)
        self._warn_at = warn_at
        self._stop_at = stop_at

    def check(self, key: str) -> Literal["ok", "warn", "stop"]:
        self._recent.append(key)
        count = sum(1 for k in self._recent if k == key)
        if count >= self._stop_at:
            return "stop"
        if count >= self._warn_at:
            return "warn"
        return "ok"

    def reset(self) -> None:
        self._recent.clear()


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded attempts; exponential backoff with jitter (0.5 s x 2^n, cap 8 s, x0.75-1.0);
    a server's Retry-After wins, up to `max_retry_after` seconds."""

    max_attempts: int = 4
    base: float = 0.5
    cap: float = 8.0
    max_retry_after: float = 120.0

    def delay(
        self, attempt: int, retry_after: float | None, rng: Callable[[], float] = random.random
    ) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_retry_after)
        backoff: float = min(self.cap, self.base * 2.0**attempt)
        return backoff * (0.75 + 0.25 * rng())
