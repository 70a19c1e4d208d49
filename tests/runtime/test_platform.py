"""The studio `platform` action: pending, then ok/denied/error; results into /data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from studio.runtime import Change, PlatformRequest, Runtime

Make = Callable[..., Runtime]


def tap_convert(rt: Runtime) -> PlatformRequest:
    button = rt.spec["root"]["children"][1]
    (request,) = rt.run_actions(button["onTap"])
    return request


def test_platform_action_returns_a_resolved_request_and_sets_pending(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    rt.set_value("from", "m")
    request = tap_convert(rt)
    assert request.call == "units.convert" and request.module == "units"
    assert request.args == {"value": 12, "from": "m", "to": "mi", "precision": 2, "mode": "exact"}
    assert request.into == "/data/result" and request.status_key == "convertStatus"
    assert rt.state["convertStatus"] == "pending"
    assert rt.pending_requests == (request,)
    platform, change = rt.events[-2:]
    assert (platform.kind, platform.name) == ("platform", "units.convert")
    assert (
        platform.payload["requestId"] == request.request_id
        and platform.payload["status"] == "pending"
    )
    assert change.payload == {"key": "convertStatus", "value": "pending"}


def test_args_resolve_at_call_time_after_earlier_writes(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    call = rt.spec["root"]["children"][1]["onTap"][0]
    (request,) = rt.run_actions([{"type": "setState", "key": "to", "value": "ft"}, call])
    assert request.args["to"] == "ft"


def test_ok_writes_the_result_and_the_status(make_runtime: Make, changes: list[Change]) -> None:
    rt = make_runtime("platform")
    request = tap_convert(rt)
    rt.subscribe(changes.append)
    rt.resolve_platform(request, "ok", {"value": 7.46, "unit": "mi"})
    assert rt.data["result"] == {"value": 7.46, "unit": "mi"}
    assert rt.data["defaults"] == {"precision": 2}
    assert rt.state["convertStatus"] == "ok"
    platform, change = rt.events[-2:]
    assert platform.kind == "platform" and platform.payload["status"] == "ok"
    assert change.payload == {"key": "convertStatus", "value": "ok"}
    (notice,) = changes
    assert notice.keys == {"convertStatus"} and notice.data and notice.event == change
    assert rt.pending_requests == ()
    assert rt.bind_text("Status: {convertStatus}") == "Status: ok"


@pytest.mark.parametrize("status", ["denied", "error"])
def test_denied_and_error_write_only_the_status(make_runtime: Make, status: str) -> None:
    rt = make_runtime("platform")
    request = tap_convert(rt)
    rt.resolve_platform(request, status, {"value": "must not land"})
    assert rt.data["result"] is None
    assert rt.state["convertStatus"] == status


def test_a_request_resolves_once(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    request = tap_convert(rt)
    rt.resolve_platform(request, "ok", 1)
    count = len(rt.events)
    rt.resolve_platform(request, "error")
    assert rt.state["convertStatus"] == "ok" and len(rt.events) == count


def test_reset_drops_pending_requests(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    request = tap_convert(rt)
    rt.reset()
    rt.resolve_platform(request, "ok", 5)
    assert rt.data["result"] is None and rt.state["convertStatus"] == "idle"


def test_unknown_status_is_refused(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    request = tap_convert(rt)
    with pytest.raises(ValueError, match="ok, denied, cancelled, error"):
        rt.resolve_platform(request, "maybe")


def test_nested_into_creates_objects_and_arrays_append(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    calls: list[dict[str, Any]] = [
        {
            "type": "platform",
            "call": "test.echo",
            "args": {"text": "a"},
            "into": "/data/log/latest",
        },
    ]
    (request,) = rt.run_actions(calls)
    rt.resolve_platform(request, "ok", {"text": "a"})
    assert rt.data["log"] == {"latest": {"text": "a"}}
    assert request.status_key is None


def test_bad_platform_actions_reject_the_whole_list(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    bad_lists: list[list[dict[str, Any]]] = [
        [{"type": "platform", "call": "units.convert", "args": {"v": {"state": "nope"}}}],
        [{"type": "platform", "call": "units.convert", "args": {"v": {"data": "/data/missing"}}}],
        [{"type": "platform", "call": "units.convert", "into": "/elsewhere"}],
        [{"type": "platform", "call": "units.convert", "statusKey": "amount"}],  # a number key
        [{"type": "platform", "call": "convert"}],
    ]
    for actions in bad_lists:
        before = len(rt.refusals)
        assert rt.run_actions([{"type": "setState", "key": "to", "value": "yd"}, *actions]) == []
        assert len(rt.refusals) == before + 1 and rt.refusals[-1].action == 1, actions
    assert rt.state["to"] == "mi" and rt.pending_requests == ()


def test_an_unwritable_into_turns_ok_into_error(make_runtime: Make) -> None:
    rt = make_runtime("platform")
    (request,) = rt.run_actions(
        [
            {
                "type": "platform",
                "call": "x.y",
                "into": "/data/defaults/precision/deep",
                "statusKey": "convertStatus",
            }
        ]
    )
    rt.resolve_platform(request, "ok", 1)
    assert rt.state["convertStatus"] == "error"
    assert rt.data["defaults"] == {"precision": 2}
    assert "cannot write" in rt.events[-2].payload["error"]


def picker_spec() -> dict[str, Any]:
    """A time picker (h, m) and three filter chips, and a call passing both as references."""
    return {
        "id": "picks",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": ["test"]},
        "state": {"h": 7, "m": 5, "mon": False, "tue": True, "wed": True, "status": "idle"},
        "data": {},
        "root": {"type": "column", "children": []},
    }


TIME_AND_CHIPS: dict[str, Any] = {
    "type": "platform",
    "call": "alarm.set",
    "args": {
        "at": {"time": {"hour": "h", "minute": "m"}},
        "days": {"chips": {"wed": "wed", "mon": "mon", "tue": "tue"}},
        "label": {"chips": {"tue": "tue"}},
    },
    "statusKey": "status",
}


def test_time_and_chips_references_resolve_at_call_time(make_runtime: Make) -> None:
    rt = make_runtime(picker_spec())
    (request,) = rt.run_actions([TIME_AND_CHIPS])
    # "HH:MM" zero-padded; chips in the order written, only those whose key is true.
    assert request.args == {"at": "07:05", "days": ["wed", "tue"], "label": ["tue"]}
    rt.set_values({"h": 23, "m": 59})
    rt.set_value("mon", True)
    rt.set_value("wed", False)
    (later,) = rt.run_actions([TIME_AND_CHIPS])
    assert later.args == {"at": "23:59", "days": ["mon", "tue"], "label": ["tue"]}
    logged = [e for e in rt.events if e.kind == "platform"][-1]
    assert logged.payload["args"] == later.args


def test_time_and_chips_see_earlier_writes_of_the_same_list(make_runtime: Make) -> None:
    rt = make_runtime(picker_spec())
    (request,) = rt.run_actions(
        [
            {"type": "setState", "key": "h", "value": 0},
            {"type": "toggle", "key": "mon"},
            {"type": "toggle", "key": "tue"},
            TIME_AND_CHIPS,
        ]
    )
    assert request.args["at"] == "00:05"
    assert request.args["days"] == ["wed", "mon"]
    assert request.args["label"] == []


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ({"time": {"hour": "h", "minute": "nope"}}, "state key 'nope' is not declared"),
        ({"time": {"hour": "h"}}, 'a time reference is {"hour": KEY, "minute": KEY}'),
        ({"time": {"hour": "status", "minute": "m"}}, "time hour key 'status' holds 'idle'"),
        ({"time": {"hour": "h", "minute": "mon"}}, "time minute key 'mon' holds False"),
        ({"chips": {"a": "h"}}, "chip 'a' key 'h' holds 8, not a boolean"),
        ({"chips": {"a": "nope"}}, "state key 'nope' is not declared"),
        ({"chips": ["mon"]}, "a chips reference is {VALUE: boolean state key, ...}"),
    ],
)
def test_bad_time_and_chips_references_reject_the_whole_list(
    make_runtime: Make, arg: Any, message: str
) -> None:
    rt = make_runtime(picker_spec())
    call = {"type": "platform", "call": "alarm.set", "args": {"x": arg}, "statusKey": "status"}
    assert rt.run_actions([{"type": "setState", "key": "h", "value": 8}, call]) == []
    assert rt.events == ()
    refusal = rt.refusals[-1]
    assert "action 1 (platform): argument 'x': " in refusal.message
    assert message in refusal.message
    assert rt.state["h"] == 7 and rt.state["status"] == "idle"


def test_time_out_of_range_is_refused(make_runtime: Make) -> None:
    spec = picker_spec()
    spec["state"]["h"] = 24
    rt = make_runtime(spec)
    assert rt.run_actions([TIME_AND_CHIPS]) == []
    assert "holds 24, not an integer 0..23" in rt.refusals[-1].message


def test_platform_event_is_logged_and_notified(
    make_runtime: Make, changes: list[Change], clock: Any
) -> None:
    rt = make_runtime(picker_spec())
    rt.subscribe(changes.append)
    payload = {"count": 1}
    rt.platform_event("test", "tick", payload)
    payload["count"] = 99  # the event keeps its own copy
    event = rt.events[-1]
    assert event.to_json() == {
        "id": "picks",
        "sequence": event.sequence,
        "kind": "platform",
        "name": "test.tick",
        "payload": {"count": 1},
        "state": dict(rt.state),
        "pages": {},
        "timestamp": int(clock.now * 1000),
    }
    assert changes == [Change(event=event)]
    assert changes[0].keys == frozenset() and changes[0].data is False


def test_platform_event_after_dismiss_is_ignored(make_runtime: Make) -> None:
    rt = make_runtime(picker_spec())
    rt.dismiss()
    before = len(rt.events)
    rt.platform_event("test", "tick", {"count": 1})
    assert len(rt.events) == before


@pytest.mark.parametrize(("module", "name"), [("", "tick"), ("test", ""), ("a.b", "tick")])
def test_platform_event_needs_a_module_and_a_name(
    make_runtime: Make, module: str, name: str
) -> None:
    rt = make_runtime(picker_spec())
    with pytest.raises(ValueError, match="a platform event is module.name"):
        rt.platform_event(module, name, None)


def test_time_and_chips_references_inside_a_repeat_bind_per_item() -> None:
    """A platform action in a repeat template resolves its per-item time and chips keys."""
    from studio.runtime import Runtime

    spec = {
        "id": "alarms",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": ["test"]},
        "state": {"h_0": 7, "m_0": 5, "on_0": True, "h_1": 9, "m_1": 30, "on_1": False},
        "root": {
            "type": "column",
            "repeat": {"items": [{"n": 0}, {"n": 1}], "as": "row"},
            "children": [
                {
                    "type": "button",
                    "label": "Set {row.n}",
                    "onTap": [
                        {
                            "type": "platform",
                            "call": "test.echo",
                            "args": {
                                "at": {"time": {"hour": "h_{row.n}", "minute": "m_{row.n}"}},
                                "days": {"chips": {"mon": "on_{row.n}"}},
                            },
                        }
                    ],
                }
            ],
        },
    }
    rt = Runtime(spec)
    second, scope = rt.instances(spec["root"])[1]
    requests = rt.run_actions(second["children"][0]["onTap"], scope)
    assert requests and requests[0].args == {"at": "09:30", "days": []}
    first, scope = rt.instances(spec["root"])[0]
    assert rt.run_actions(first["children"][0]["onTap"], scope)[0].args == {
        "at": "07:05",
        "days": ["mon"],
    }
