"""replace() (in-place re-show) and reset()."""

from __future__ import annotations

import copy
from collections.abc import Callable

from studio.runtime import Change, Runtime
from tests.runtime.conftest import load_spec

Make = Callable[..., Runtime]


def test_replace_keeps_pages_clamped_and_takes_the_new_state(
    make_runtime: Make, changes: list[Change]
) -> None:
    rt = make_runtime("tabs")
    rt.set_page("main", 2)
    rt.set_page("inner", 1)
    rt.set_value("query", "typed by the user")
    rt.subscribe(changes.append)
    events_before = len(rt.events)

    edited = load_spec("tabs")
    edited["root"]["children"][2]["children"] = edited["root"]["children"][2]["children"][
        :2
    ]  # 3 -> 2 pages
    edited["state"]["query"] = "from the new spec"
    edited["state"]["extra"] = 1
    rt.replace(edited)

    assert rt.pages == {"main": 1, "inner": 1}
    assert rt.state["query"] == "from the new spec" and rt.state["extra"] == 1
    assert len(rt.events) == events_before  # no event
    (change,) = changes
    assert change.spec and change.event is None
    assert change.keys == {"query", "extra"}
    assert change.pagers == {"main"}
    assert rt.spec["state"]["query"] == "from the new spec"


def test_replace_drops_removed_pagers_and_adds_new_ones_at_zero(make_runtime: Make) -> None:
    rt = make_runtime("tabs")
    rt.set_page("inner", 1)
    other = load_spec("controls")
    other["root"]["children"].append(
        {"type": "pager", "id": "fresh", "children": [{"type": "spacer"}]}
    )
    rt.replace(other)
    assert rt.pages == {"fresh": 0}
    assert rt.id == "controls"


def test_a_replace_before_any_read_reports_every_pager_of_the_new_spec(
    make_runtime: Make, changes: list[Change]
) -> None:
    """The runtime walks the tree on first need; a re-show that comes first still tells
    subscribers about the new spec's pagers and types writes by its controls."""
    rt = make_runtime("controls")
    rt.subscribe(changes.append)
    edited = load_spec("controls")
    edited["root"]["children"].append(
        {"type": "pager", "id": "fresh", "children": [{"type": "spacer"}, {"type": "spacer"}]}
    )
    rt.replace(edited)
    (change,) = changes
    assert change.pagers == {"fresh"}
    assert rt.pages == {"fresh": 0} and rt.page_counts == {"fresh": 2}
    rt.set_page("fresh", 5)
    assert rt.pages == {"fresh": 1}


def test_replace_types_writes_by_the_new_spec(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    edited = load_spec("controls")
    edited["state"]["name"] = (
        0  # now a number (the new spec would not validate, but the rule holds)
    )
    del edited["root"]["children"][0]
    rt.replace(edited)
    rt.set_value("name", 5)
    assert rt.state["name"] == 5


def test_interactions_never_write_into_the_callers_spec(make_runtime: Make) -> None:
    """Specs are values shared with the caller (no copy per edit): the runtime's state lives
    apart from them, so typing and replacing leave the caller's spec exactly as it was."""
    spec = load_spec("controls")
    before = copy.deepcopy(spec)
    rt = make_runtime(copy.deepcopy(spec))
    rt.replace(spec)
    rt.set_value("name", "typed")
    assert rt.state["name"] == "typed"
    assert spec == before
    assert rt.spec["state"]["name"] == ""


def test_reset_returns_to_initial_state_and_page_zero(
    make_runtime: Make, changes: list[Change]
) -> None:
    rt = make_runtime("tabs")
    rt.set_page("main", 1)
    rt.set_value("query", "x")
    rt.dismiss()
    rt.subscribe(changes.append)
    rt.reset()
    assert rt.active
    assert rt.pages == {"main": 0, "inner": 0}
    assert rt.state["query"] == ""
    (change,) = changes
    assert change.keys == {"query"} and change.pagers == {"main"} and not change.spec
    rt.set_value("query", "works again")
    assert rt.state["query"] == "works again"


def test_current_spec_carries_the_current_state(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    rt.set_value("name", "Ada")
    current = rt.current_spec()
    assert current["state"]["name"] == "Ada"
    assert rt.spec["state"]["name"] == ""
    current["state"]["name"] = "changed"
    assert rt.state["name"] == "Ada"


def test_views_stay_live_across_replace_and_reset(make_runtime: Make) -> None:
    rt = make_runtime("tabs")
    state, pages = rt.state, rt.pages
    rt.set_page("main", 2)
    rt.set_value("query", "q")
    assert state["query"] == "q" and pages["main"] == 2
    rt.reset()
    assert state["query"] == "" and pages["main"] == 0
    edited = load_spec("tabs")
    edited["state"]["query"] = "new"
    rt.replace(edited)
    assert state["query"] == "new"
