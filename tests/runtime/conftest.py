"""Fixtures for the runtime tests: our own specs under tests/fixtures/runtime and a fake clock."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.runtime import Change, Runtime

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "runtime"


def load_spec(name: str) -> dict[str, Any]:
    """One of our runtime fixture specs, parsed."""
    spec: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return spec


class FakeClock:
    """A clock the test moves by hand (seconds, like time.time)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_runtime(clock: FakeClock) -> Callable[..., Runtime]:
    """`make_runtime("controls")` or `make_runtime(spec_dict, max_events=4)`."""

    def make(spec: str | dict[str, Any], **kwargs: Any) -> Runtime:
        return Runtime(load_spec(spec) if isinstance(spec, str) else spec, clock=clock, **kwargs)

    return make


@pytest.fixture
def changes() -> list[Change]:
    """A list to subscribe with: `rt.subscribe(changes.append)`."""
    return []


def minimal(
    state: dict[str, Any] | None = None, root: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A small valid spec with the given state and root."""
    spec: dict[str, Any] = {
        "id": "mini",
        "window": {"placement": {"type": "fullscreen"}},
        "root": root or {"type": "text", "text": "hi"},
    }
    if state is not None:
        spec["state"] = state
    return spec
