"""Action lists: every action type, atomicity, exactly one change event, emit order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from studio.runtime import Runtime
from tests.runtime.conftest import minimal

Make = Callable[..., Runtime]

COUNTER = minimal(
    state={"count": 3, "on": False, "name": "a", "ratio": 0.5},
    root={
        "type": "column",
        "children": [
            {
                "type": "pager",
                "id": "p",
                "children": [{"type": "text", "text": str(i)} for i in range(3)],
            },
        ],
    },
)


def kinds(rt: Runtime) -> list[tuple[str, str | None]]:
    return [(e.kind, e.name) for e in rt.events]


def test_set_state_writes_and_sends_one_change_event(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    assert rt.run_actions([{"type": "setState", "key": "name", "value": "b"}]) == []
    assert rt.state["name"] == "b"
    (event,) = rt.events
    assert (event.kind, event.name) == ("emit", "change")
    assert event.payload == {"key": "name", "value": "b"}
    assert event.state["name"] == "b"


def test_toggle_flips_a_boolean(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    rt.run_actions([{"type": "toggle", "key": "on"}])
    assert rt.state["on"] is True
    rt.run_actions([{"type": "toggle", "key": "on"}])
    assert rt.state["on"] is False
    assert [e.payload for e in rt.events] == [
        {"key": "on", "value": True},
        {"key": "on", "value": False},
    ]


def test_increment_and_decrement_default_to_one_and_take_by(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    rt.run_actions([{"type": "increment", "key": "count"}])
    assert rt.state["count"] == 4
    rt.run_actions([{"type": "decrement", "key": "count"}])
    assert rt.state["count"] == 3
    rt.run_actions([{"type": "increment", "key": "count", "by": 2.5}])
    assert rt.state["count"] == 5.5
    rt.run_actions([{"type": "decrement", "key": "count", "by": -0.5}])
    assert rt.state["count"] == 6


def test_increment_to_infinity_is_a_no_op(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"big": 1.7e308}))
    rt.run_actions([{"type": "increment", "key": "big", "by": 1.7e308}])
    assert rt.state["big"] == 1.7e308
    assert rt.events == ()


def test_several_keys_send_one_change_event_with_keys_and_values(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    rt.run_actions(
        [
            {"type": "setState", "key": "name", "value": "z"},
            {"type": "increment", "key": "count"},
            {"type": "toggle", "key": "on"},
            {"type": "increment", "key": "count"},
        ]
    )
    (event,) = rt.events
    assert event.name == "change"
    assert event.payload == {
        "keys": ["name", "count", "on"],
        "values": {"name": "z", "count": 5, "on": True},
    }


def test_a_list_that_nets_no_change_sends_no_change_event(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    rt.run_actions([{"type": "toggle", "key": "on"}, {"type": "toggle", "key": "on"}])
    rt.run_actions([{"type": "setState", "key": "name", "value": "a"}])
    assert rt.events == ()


def test_emits_fire_in_order_with_the_state_at_that_point_then_one_change(
    make_runtime: Make,
) -> None:
    rt = make_runtime(COUNTER)
    rt.run_actions(
        [
            {"type": "emit", "name": "first", "payload": {"n": 1}},
            {"type": "increment", "key": "count"},
            {"type": "emit", "name": "second"},
            {"type": "increment", "key": "count"},
        ]
    )
    assert kinds(rt) == [("emit", "first"), ("emit", "second"), ("emit", "change")]
    first, second, change = rt.events
    assert first.payload == {"n": 1} and first.state["count"] == 3
    assert second.payload is None and second.state["count"] == 4
    assert change.payload == {"key": "count", "value": 5}
    assert [e.sequence for e in rt.events] == [1, 2, 3]


def test_a_list_whose_third_write_is_bad_applies_nothing(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    requests = rt.run_actions(
        [
            {"type": "setState", "key": "name", "value": "changed"},
            {"type": "emit", "name": "between"},
            {"type": "increment", "key": "count"},
            {"type": "setPage", "pager": "p", "page": 2},
            {"type": "setState", "key": "on", "value": "yes"},
        ]
    )
    assert requests == []
    assert dict(rt.state) == {"count": 3, "on": False, "name": "a", "ratio": 0.5}
    assert rt.pages["p"] == 0
    # As on the phone (PrototypeRuntime.kt `plannedWrites` throws first): no event at all, not
    # even the emit that came before the bad write; the studio keeps a notice instead.
    assert rt.events == ()
    (refusal,) = rt.refusals
    assert refusal.action == 4 and refusal.key == "on"
    assert "boolean" in refusal.message and "\n" not in refusal.message


def test_set_state_may_declare_a_key_but_toggle_and_increment_may_not(make_runtime: Make) -> None:
    """As on the device (which validates the would-be spec), setState may add a key, with the type
    of its first value; toggle/increment need a declared boolean/number key."""
    rt = make_runtime(COUNTER)
    for action in ({"type": "toggle", "key": "ghost"}, {"type": "increment", "key": "ghost"}):
        assert rt.run_actions([action]) == []
        assert "not declared" in rt.refusals[-1].message
    assert "ghost" not in rt.state and rt.events == ()
    rt.run_actions([{"type": "setState", "key": "ghost", "value": 1}])
    assert rt.state["ghost"] == 1
    assert rt.run_actions([{"type": "setState", "key": "ghost", "value": "one"}]) == []
    assert len(rt.refusals) == 3 and rt.refusals[-1].key == "ghost"
    assert rt.state["ghost"] == 1


def test_type_mismatches_are_rejected(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    for action in (
        {"type": "toggle", "key": "count"},
        {"type": "increment", "key": "on"},
        {"type": "setState", "key": "count", "value": True},
        {"type": "setState", "key": "count", "value": "4"},
        {"type": "increment", "key": "count", "by": "2"},
        {"type": "teleport"},
    ):
        before = len(rt.refusals)
        rt.run_actions([action])
        assert len(rt.refusals) == before + 1, action
    assert rt.events == ()
    assert rt.state["count"] == 3 and rt.state["on"] is False


def test_set_page_next_prev_and_index_are_clamped(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    rt.run_actions([{"type": "setPage", "pager": "p", "page": "next"}])
    assert rt.pages["p"] == 1
    rt.run_actions([{"type": "setPage", "pager": "p", "page": 99}])
    assert rt.pages["p"] == 2
    rt.run_actions([{"type": "setPage", "pager": "p", "page": "next"}])  # already last: no event
    rt.run_actions([{"type": "setPage", "pager": "p", "page": "prev"}])
    assert rt.pages["p"] == 1
    rt.run_actions([{"type": "setPage", "pager": "nowhere", "page": 1}])  # skipped, as on device
    # PrototypeRuntime.kt `setPage`: kind page_changed, no name and no payload; the page is in
    # the envelope's `pages`.
    assert [(e.kind, e.name, e.payload, dict(e.pages)) for e in rt.events] == [
        ("page_changed", None, None, {"p": 1}),
        ("page_changed", None, None, {"p": 2}),
        ("page_changed", None, None, {"p": 1}),
    ]


def test_dismiss_action_sends_dismissed_and_stops_the_list(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    rt.run_actions(
        [
            {"type": "increment", "key": "count"},
            {"type": "dismiss"},
            {"type": "emit", "name": "never"},
        ]
    )
    assert kinds(rt) == [("dismissed", None)]  # RT `finishDismissal`: no name
    assert rt.events[0].payload == {"reason": "user"}
    assert rt.events[0].state["count"] == 4
    assert not rt.active
    rt.run_actions([{"type": "increment", "key": "count"}])
    rt.set_value("name", "ignored")
    assert rt.state["count"] == 4 and rt.state["name"] == "a"
    assert len(rt.events) == 1


def test_dismiss_method_takes_a_reason(make_runtime: Make) -> None:
    rt = make_runtime(COUNTER)
    rt.dismiss("agent")
    assert rt.events[-1].payload == {"reason": "agent"}
    rt.dismiss()  # already dismissed: nothing more
    assert len(rt.events) == 1


def test_actions_bound_to_a_scope(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"picked": "", "last": -1, "liked_b": False}))
    scope: dict[str, Any] = {"as": "item", "item": {"id": "b", "n": 7}, "index": 1}
    rt.run_actions(
        [
            {"type": "setState", "key": "picked", "value": "{item.id}"},
            {"type": "setState", "key": "last", "value": "{index}"},
            {"type": "toggle", "key": "liked_{item.id}"},
            {"type": "emit", "name": "pick_{item.id}", "payload": {"id": "{item.id}"}},
        ],
        scope,
    )
    assert rt.state["picked"] == "b" and rt.state["last"] == 1 and rt.state["liked_b"] is True
    emit = rt.events[0]
    assert emit.name == "pick_b"
    assert emit.payload == {"id": "{item.id}"}  # payloads are sent as written, as on the device
