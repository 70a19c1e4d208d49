"""A running prototype: typed state, pagers, actions, conditions, bindings and events (no Qt)."""

from __future__ import annotations

from studio.runtime.actions import ActionRejected
from studio.runtime.controls import StateWriteError
from studio.runtime.events import Change, Refusal, RuntimeEvent
from studio.runtime.platform_calls import PlatformRequest
from studio.runtime.runtime import Runtime

__all__ = [
    "ActionRejected",
    "Change",
    "PlatformRequest",
    "Refusal",
    "Runtime",
    "RuntimeEvent",
    "StateWriteError",
]
