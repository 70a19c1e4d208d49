"""Control writes: what each control's key accepts, slider snapping, rejections."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from studio.runtime import Runtime, StateWriteError

Make = Callable[..., Runtime]

ACCEPTED: list[tuple[str, Any, Any]] = [
    ("name", "Ada", "Ada"),
    ("notify", True, True),
    ("agree", True, True),
    ("starred", True, True),
    ("wifi", False, False),
    ("upload", 1, 1),
    ("sound", "beep", "beep"),
    ("size", "s", "s"),
    ("tab", 1, 1),
    ("tab", 1.0, 1),
    ("birthday", "2024-02-29", "2024-02-29"),
    ("hour", 23, 23),
    ("minute", 0, 0),
    ("sheetOpen", True, True),
]

REJECTED: list[tuple[str, Any, str]] = [
    ("name", 5, "string"),
    ("notify", "true", "boolean"),
    ("agree", 1, "boolean"),
    ("starred", None, "string, number or boolean"),
    ("wifi", 0, "boolean"),
    ("upload", 1.5, "at most 1"),
    ("upload", -0.1, "at least 0"),
    ("upload", False, "number"),
    ("sound", 2, "string"),
    ("tab", -1, "at least 0"),
    ("tab", 1.5, "integer"),
    ("tab", True, "number"),
    ("birthday", "2023-02-29", "YYYY-MM-DD"),
    ("birthday", "1/2/2000", "YYYY-MM-DD"),
    ("birthday", "1899-12-31", "1900..2100"),
    ("hour", 24, "at most 23"),
    ("minute", 60, "at most 59"),
    ("minute", 7.5, "integer"),
    ("sheetOpen", "no", "boolean"),
]


@pytest.mark.parametrize(("key", "value", "stored"), ACCEPTED)
def test_accepted_writes(make_runtime: Make, key: str, value: Any, stored: Any) -> None:
    rt = make_runtime("controls")
    rt.set_value(key, value)
    assert rt.value(key) == stored and type(rt.value(key)) is type(stored)
    (event,) = rt.events
    assert event.payload == {"key": key, "value": stored}


@pytest.mark.parametrize(("key", "value", "fragment"), REJECTED)
def test_rejected_writes_raise_log_and_change_nothing(
    make_runtime: Make, key: str, value: Any, fragment: str
) -> None:
    rt = make_runtime("controls")
    before = dict(rt.state)
    with pytest.raises(ValueError, match=fragment) as caught:
        rt.set_value(key, value)
    assert isinstance(caught.value, StateWriteError)
    assert "\n" not in str(caught.value)
    assert dict(rt.state) == before
    assert rt.events == ()  # no event, as on the phone; a studio-only notice instead
    (refusal,) = rt.refusals
    assert refusal.key == key and refusal.action is None
    assert fragment in refusal.message


@pytest.mark.parametrize(
    ("value", "stored"),
    [(3.3, 3.5), (3.2, 3), (-4, 0), (11, 10), (9.76, 10), (7, 7)],
)
def test_slider_clamps_and_snaps_to_step(make_runtime: Make, value: float, stored: float) -> None:
    rt = make_runtime("controls")
    rt.set_value("volume", value)
    assert rt.value("volume") == stored


def test_slider_still_needs_a_number(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    with pytest.raises(ValueError, match="number"):
        rt.set_value("volume", "loud")


def test_unchanged_value_sends_no_event(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    rt.set_value("sound", "chime")
    rt.set_value("volume", 5.1)  # snaps back to the stored 5
    assert rt.events == ()


def test_set_values_is_atomic_and_sends_one_event(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    rt.set_values({"hour": 9, "minute": 5})
    (event,) = rt.events
    assert event.payload == {"keys": ["hour", "minute"], "values": {"hour": 9, "minute": 5}}
    with pytest.raises(ValueError, match="minute"):
        rt.set_values({"hour": 10, "minute": 99})
    assert (rt.value("hour"), rt.value("minute")) == (9, 5)


def test_actions_do_not_clamp_slider_values(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    rt.run_actions([{"type": "increment", "key": "volume", "by": 6}])
    assert rt.value("volume") == 5
    assert rt.events == ()
    assert "at most 10" in rt.refusals[-1].message
    rt.run_actions([{"type": "setState", "key": "birthday", "value": "2001-13-01"}])
    assert rt.value("birthday") == "2000-01-31"


def test_set_page_clamps_and_rejects_unknown_pagers(make_runtime: Make) -> None:
    rt = make_runtime("tabs")
    rt.set_page("main", 7)
    assert rt.pages["main"] == 2
    rt.set_page("main", -3)
    assert rt.pages["main"] == 0
    assert [(e.kind, e.name, e.payload, e.pages["main"]) for e in rt.events] == [
        ("page_changed", None, None, 2),
        ("page_changed", None, None, 0),
    ]
    rt.set_page("main", 0)
    assert len(rt.events) == 2
    with pytest.raises(ValueError, match="unknown pager"):
        rt.set_page("nope", 1)
    assert len(rt.events) == 2
