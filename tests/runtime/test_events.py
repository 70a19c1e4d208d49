"""The event envelope, the bounded buffer and sequence numbers."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from studio.runtime import Runtime, RuntimeEvent
from tests.runtime.conftest import FakeClock, minimal

Make = Callable[..., Runtime]


def test_event_to_json_has_automobiles_envelope(make_runtime: Make, clock: FakeClock) -> None:
    rt = make_runtime(minimal(state={"n": 1}))
    clock.now = 1234.5678
    rt.run_actions([{"type": "emit", "name": "hello", "payload": {"a": [1, 2]}}])
    event = rt.events[0]
    as_json = event.to_json()
    assert as_json == {
        "id": "mini",
        "sequence": 1,
        "kind": "emit",
        "name": "hello",
        "payload": {"a": [1, 2]},
        "state": {"n": 1},
        "pages": {},
        "timestamp": 1234567,
    }
    json.dumps(as_json)  # JSON-ready
    as_json["payload"]["a"].append(3)
    assert event.payload == {"a": [1, 2]}  # a copy


def test_event_reads_like_a_dict_and_is_frozen(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"n": 1}))
    rt.run_actions([{"type": "increment", "key": "n"}])
    event = rt.events[0]
    assert isinstance(event, RuntimeEvent)
    assert event["kind"] == "emit" and event["name"] == "change"
    assert event.get("payload") == {"key": "n", "value": 2}
    assert set(event) == {
        "id",
        "sequence",
        "kind",
        "name",
        "payload",
        "state",
        "pages",
        "timestamp",
    }
    assert dict(event)["sequence"] == 1
    with pytest.raises(KeyError):
        event["nope"]
    with pytest.raises(AttributeError):
        event.kind = "page"  # type: ignore[misc]


def test_event_state_is_a_snapshot(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"n": 1}))
    rt.run_actions([{"type": "increment", "key": "n"}])
    rt.run_actions([{"type": "increment", "key": "n"}])
    assert [e.state["n"] for e in rt.events] == [2, 3]


def test_buffer_drops_oldest_and_sequence_continues(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"n": 0}), max_events=3)
    for i in range(5):
        rt.run_actions([{"type": "emit", "name": f"e{i}"}])
    assert [e.name for e in rt.events] == ["e2", "e3", "e4"]
    assert [e.sequence for e in rt.events] == [3, 4, 5]
    assert rt.dropped_events == 2
    rt.run_actions([{"type": "increment", "key": "n"}])
    assert [e.sequence for e in rt.events] == [4, 5, 6]


def test_max_events_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_events"):
        Runtime(minimal(), max_events=0)


def test_sequence_continues_across_replace_and_reset(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"n": 0}))
    rt.run_actions([{"type": "emit", "name": "a"}])
    rt.replace(minimal(state={"n": 5}))
    rt.run_actions([{"type": "emit", "name": "b"}])
    rt.reset()
    rt.run_actions([{"type": "emit", "name": "c"}])
    assert [(e.name, e.sequence) for e in rt.events] == [("a", 1), ("b", 2), ("c", 3)]


def test_spec_must_have_an_id_and_root() -> None:
    with pytest.raises(ValueError, match="root"):
        Runtime({"id": "x"})
    with pytest.raises(ValueError, match="id"):
        Runtime({"root": {"type": "text", "text": ""}})
