"""Subscribers get one Change per interaction with the keys, pagers and data it touched."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from studio.runtime import Change, Runtime

Make = Callable[..., Runtime]


def test_set_value_notifies_its_key(make_runtime: Make, changes: list[Change]) -> None:
    rt = make_runtime("controls")
    rt.subscribe(changes.append)
    rt.set_value("name", "Ada")
    (change,) = changes
    assert change.keys == {"name"} and change.pagers == frozenset()
    assert not change.data and not change.spec
    assert change.event is rt.events[-1]


def test_one_change_per_action_list(make_runtime: Make, changes: list[Change]) -> None:
    rt = make_runtime("tabs")
    rt.subscribe(changes.append)
    rt.run_actions(
        [
            {"type": "setState", "key": "query", "value": "shoes"},
            {"type": "setPage", "pager": "main", "page": 1},
            {"type": "toggle", "key": "showHint"},
            {"type": "emit", "name": "searched"},
        ]
    )
    (change,) = changes
    assert change.keys == {"query", "showHint"} and change.pagers == {"main"}
    assert change.event is not None and change.event.name == "change"


def test_emit_only_and_page_only_lists_notify_with_their_event(
    make_runtime: Make, changes: list[Change]
) -> None:
    rt = make_runtime("tabs")
    rt.subscribe(changes.append)
    rt.run_actions([{"type": "emit", "name": "ping"}])
    rt.set_page("inner", 1)
    assert [(c.keys, c.pagers, c.event.kind if c.event else None) for c in changes] == [
        (frozenset(), frozenset(), "emit"),
        (frozenset(), frozenset({"inner"}), "page_changed"),
    ]


def test_rejected_write_notifies_the_key_so_controls_revert(
    make_runtime: Make, changes: list[Change]
) -> None:
    rt = make_runtime("controls")
    rt.subscribe(changes.append)
    with pytest.raises(ValueError):
        rt.set_value("tab", -2)
    (change,) = changes
    assert change.keys == {"tab"} and change.event is None  # no event, as on the phone
    assert change.refusal is not None and change.refusal is rt.refusals[-1]
    assert change.refusal.key == "tab" and "at least 0" in change.refusal.message


def test_no_change_no_notice_and_unsubscribe(make_runtime: Make, changes: list[Change]) -> None:
    rt = make_runtime("controls")
    unsubscribe = rt.subscribe(changes.append)
    rt.set_value("sound", "chime")  # unchanged
    assert changes == []
    unsubscribe()
    unsubscribe()  # twice is harmless
    rt.set_value("sound", "beep")
    assert changes == []


def test_dismiss_notifies(make_runtime: Make, changes: list[Change]) -> None:
    rt = make_runtime("controls")
    rt.subscribe(changes.append)
    rt.dismiss()
    (change,) = changes
    assert change.event is not None and change.event.kind == "dismissed"
