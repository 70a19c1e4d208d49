"""A control's interaction as the phone handles it (PrototypeRuntime.kt `handle`): the control's
own write first, then its `onTap`; modals close before a button's actions; the appearance event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from studio.runtime import Runtime

Make = Callable[..., Runtime]
MARK = [{"type": "emit", "name": "tapped"}]
COUNT = [{"type": "increment", "key": "count"}]


def kinds(rt: Runtime) -> list[tuple[str, str | None, Any]]:
    return [(e.kind, e.name, e.payload) for e in rt.events]


def test_toggle_flips_then_runs_on_tap(make_runtime: Make) -> None:
    """RT `Toggle`: change(key, !stored) (its own change event), then tap(actions) (one more
    change for the list's own writes)."""
    rt = make_runtime("controls")
    rt.toggle("notify", [*MARK, *COUNT])
    assert rt.state["notify"] is True and rt.state["count"] == 4
    assert kinds(rt) == [
        ("emit", "change", {"key": "notify", "value": True}),
        ("emit", "tapped", None),
        ("emit", "change", {"key": "count", "value": 4}),
    ]
    assert rt.events[1].state["notify"] is True  # onTap sees the flipped value


def test_toggle_of_a_key_that_holds_no_boolean_is_inert(make_runtime: Make) -> None:
    """RT `Toggle`: "anything else leaves the control inert": no write, no onTap."""
    rt = make_runtime("controls")
    assert rt.toggle("name", MARK) == [] and rt.toggle("ghost", MARK) == []
    assert rt.events == () and rt.refusals == ()


def test_choose_writes_then_always_runs_on_tap(make_runtime: Make) -> None:
    """RT `Choose`: change() emits only when the value moved, tap(actions) runs either way."""
    rt = make_runtime("controls")
    rt.choose("sound", "beep", MARK)
    rt.choose("sound", "beep", MARK)
    assert kinds(rt) == [
        ("emit", "change", {"key": "sound", "value": "beep"}),
        ("emit", "tapped", None),
        ("emit", "tapped", None),
    ]
    rt.choose("count", "7", MARK)  # a key that holds no string: inert
    assert len(rt.events) == 3 and rt.state["count"] == 3


def test_a_refused_choice_runs_no_actions(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    rt.choose("birthday", "2023-02-29", MARK)  # no such day: refused by the date rule
    assert rt.events == () and rt.state["birthday"] == "2000-01-31"
    assert rt.refusals[-1].key == "birthday"


def test_slide_snaps_and_an_unchanged_value_runs_nothing(make_runtime: Make) -> None:
    """RT `Slide`: `if (stored.value == interaction.value) return` before the write and onTap;
    the value is snapped to the step first (CO `snapPrototypeSlider`)."""
    rt = make_runtime("controls")
    rt.slide("volume", 5.1, MARK)  # snaps to 5.0: unchanged
    assert rt.events == ()
    rt.slide("volume", 7.3, MARK)
    assert rt.state["volume"] == 7.5
    assert kinds(rt) == [
        ("emit", "change", {"key": "volume", "value": 7.5}),
        ("emit", "tapped", None),
    ]
    rt.slide("volume", 99, MARK)  # clamped to max
    assert rt.state["volume"] == 10


def test_set_time_writes_both_keys_once_then_runs_on_tap(make_runtime: Make) -> None:
    """RT `SetTime`: both keys in one change event, then tap(actions); the same time does
    nothing."""
    rt = make_runtime("controls")
    rt.set_time("hour", "minute", 7, 30, MARK)
    assert rt.events == ()
    rt.set_time("hour", "minute", 9, 5, MARK)
    assert kinds(rt) == [
        ("emit", "change", {"keys": ["hour", "minute"], "values": {"hour": 9, "minute": 5}}),
        ("emit", "tapped", None),
    ]
    rt.set_time("hour", "minute", 9, 45, MARK)
    assert rt.events[-2].payload == {"key": "minute", "value": 45}


def test_select_moves_the_pager_or_the_key_then_runs_on_tap(make_runtime: Make) -> None:
    """RT `Select`: setPage (page_changed, no name, no payload) or change, then tap(actions)."""
    tabs = make_runtime("tabs")
    tabs.select("main", None, 2, MARK)
    assert [(e.kind, e.name, e.payload) for e in tabs.events] == [
        ("page_changed", None, None),
        ("emit", "tapped", None),
    ]
    assert tabs.events[0].pages["main"] == 2
    controls = make_runtime("controls")
    controls.select(None, "tab", 1, MARK)
    assert kinds(controls) == [
        ("emit", "change", {"key": "tab", "value": 1}),
        ("emit", "tapped", None),
    ]


def test_a_modal_button_closes_before_its_actions_run(make_runtime: Make) -> None:
    """RT `CloseModal`: close(condition) first, then tap(actions): the change that closes the
    modal comes before the button's own events, and its actions see it closed."""
    rt = make_runtime("controls")
    rt.set_value("sheetOpen", True)
    rt.close_then({"key": "sheetOpen", "equals": True}, [*MARK, *COUNT])
    assert kinds(rt)[1:] == [
        ("emit", "change", {"key": "sheetOpen", "value": False}),
        ("emit", "tapped", None),
        ("emit", "change", {"key": "count", "value": 4}),
    ]
    assert rt.events[2].state["sheetOpen"] is False


def test_close_writes_only_the_open_when_key(make_runtime: Make) -> None:
    """RT `SheetDismiss` -> close(condition): a scrim tap only closes; nothing else runs, and a
    modal already closed is left alone."""
    rt = make_runtime("controls")
    rt.close({"key": "sheetOpen", "equals": True})
    assert rt.events == ()
    rt.set_value("sheetOpen", True)
    rt.close({"key": "sheetOpen", "equals": True})
    assert rt.state["sheetOpen"] is False
    assert kinds(rt)[-1] == ("emit", "change", {"key": "sheetOpen", "value": False})
    rt.close({"key": "sheetOpen", "equals": False})  # opens on false: it is open now, closes
    assert rt.state["sheetOpen"] is True


def test_appearance_changed_event_has_the_phones_payload(make_runtime: Make) -> None:
    """RT `appearanceChanged`: kind appearance_changed, no name, payload {mode, source}."""
    rt = make_runtime("controls")
    rt.appearance_changed("dark", "system")
    (event,) = rt.events
    assert (event.kind, event.name, event.payload) == (
        "appearance_changed",
        None,
        {"mode": "dark", "source": "system"},
    )
    with pytest.raises(ValueError, match="appearance mode"):
        rt.appearance_changed("sepia", "system")
    with pytest.raises(ValueError, match="appearance source"):
        rt.appearance_changed("dark", "wallpaper")
    rt.dismiss()
    rt.appearance_changed("light", "system")  # after the dismissed event nothing more
    assert [e.kind for e in rt.events] == ["appearance_changed", "dismissed"]


def test_interactions_do_nothing_once_dismissed(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    rt.dismiss()
    rt.toggle("notify", MARK)
    rt.choose("sound", "beep", MARK)
    rt.slide("volume", 8, MARK)
    rt.set_time("hour", "minute", 1, 2, MARK)
    rt.select(None, "tab", 1, MARK)
    rt.close_then({"key": "sheetOpen", "equals": False}, MARK)
    assert [e.kind for e in rt.events] == ["dismissed"]
