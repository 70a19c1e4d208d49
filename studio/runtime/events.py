"""Runtime events (AutoMobile's `prototype_event` envelope), the bounded log, change notices."""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

#: AutoMobile's wire kinds (RESP `PrototypeEventKind`: emit, page_changed, dismissed,
#: appearance_changed) plus the studio's `platform` (architecture decision 2). A refused write is
#: no event on the phone (RT `plannedWrites` throws, nothing is emitted): see `Refusal`.
EventKind = Literal["emit", "page_changed", "dismissed", "appearance_changed", "platform"]
KINDS: tuple[EventKind, ...] = (
    "emit",
    "page_changed",
    "dismissed",
    "appearance_changed",
    "platform",
)
_FIELDS = ("id", "sequence", "kind", "name", "payload", "state", "pages", "timestamp")


@dataclass(frozen=True)
class RuntimeEvent(Mapping[str, Any]):
    """One event, readable as a mapping (`event["kind"]`) with AutoMobile's envelope fields.

    `timestamp` is milliseconds since the epoch (the device's unit), from the runtime's clock;
    `state` and `pages` are the full state and pager pages right after the event."""

    id: str
    sequence: int
    kind: EventKind
    name: str | None
    payload: Any
    state: Mapping[str, Any]
    pages: Mapping[str, int]
    timestamp: int

    def __getitem__(self, key: str) -> Any:
        if key not in _FIELDS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(_FIELDS)

    def __len__(self) -> int:
        return len(_FIELDS)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict in AutoMobile's shape (copies; safe to mutate)."""
        return {
            "id": self.id,
            "sequence": self.sequence,
            "kind": self.kind,
            "name": self.name,
            "payload": copy.deepcopy(self.payload),
            "state": dict(self.state),
            "pages": dict(self.pages),
            "timestamp": self.timestamp,
        }


@dataclass(frozen=True)
class Refusal:
    """A write the runtime refused (a studio-only notice, never an event: the phone applies and
    emits nothing, PrototypeRuntime.kt `plannedWrites`). `action` is the index of the refused
    action in its list, None for a control's write; `timestamp` in milliseconds."""

    message: str
    key: str | None = None
    action: int | None = None
    timestamp: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "timestamp": self.timestamp}
        if self.key is not None:
            out["key"] = self.key
        if self.action is not None:
            out["action"] = self.action
        return out


@dataclass(frozen=True)
class Change:
    """What one interaction changed, for subscribers that update only what reads it.

    `keys`: state keys whose value changed (or whose write was rejected, so a control showing
    the refused value reverts); `pagers`: pagers whose page changed; `data`: the `data` object
    changed; `spec`: a new spec was loaded (re-read everything); `event`: the interaction's last
    event, or None (replace/reset log no event); `refusal`: the refused write, when it was one."""

    keys: frozenset[str] = frozenset()
    pagers: frozenset[str] = frozenset()
    data: bool = False
    spec: bool = False
    event: RuntimeEvent | None = None
    refusal: Refusal | None = None


@dataclass
class EventLog:
    """A ring of the newest `max_events` events; sequence numbers keep counting past drops."""

    max_events: int = 256
    dropped: int = 0
    _events: deque[RuntimeEvent] = field(init=False)
    _sequence: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if self.max_events < 1:
            raise ValueError(f"max_events must be at least 1, got {self.max_events}")
        self._events = deque(maxlen=self.max_events)

    @property
    def last_sequence(self) -> int:
        """The sequence of the newest event ever logged (0 before the first)."""
        return self._sequence

    def append(
        self,
        *,
        spec_id: str,
        kind: EventKind,
        name: str | None,
        payload: Any,
        state: Mapping[str, Any],
        pages: Mapping[str, int],
        timestamp: int,
    ) -> RuntimeEvent:
        """Logs a new event with the next sequence number and returns it."""
        self._sequence += 1
        event = RuntimeEvent(
            id=spec_id,
            sequence=self._sequence,
            kind=kind,
            name=name,
            payload=copy.deepcopy(payload),
            state=dict(state),
            pages=dict(pages),
            timestamp=timestamp,
        )
        if len(self._events) == self.max_events:
            self.dropped += 1
        self._events.append(event)
        return event

    def snapshot(self) -> Sequence[RuntimeEvent]:
        """The buffered events, oldest first."""
        return tuple(self._events)


Listener = Callable[[Change], None]
