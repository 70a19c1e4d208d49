"""Conditions, styleWhen merge order and openWhen."""

from __future__ import annotations

from collections.abc import Callable

from studio.runtime import Runtime
from tests.runtime.conftest import minimal

Make = Callable[..., Runtime]


def make(make_runtime: Make) -> Runtime:
    return make_runtime(minimal(state={"n": 3, "s": "a", "b": True, "one": 1}))


def test_key_with_equals_and_not_equals(make_runtime: Make) -> None:
    rt = make(make_runtime)
    assert rt.evaluate({"key": "s", "equals": "a"})
    assert not rt.evaluate({"key": "s", "equals": "b"})
    assert rt.evaluate({"key": "s", "notEquals": "b"})
    assert rt.evaluate({"key": "n", "equals": 3.0})
    assert not rt.evaluate({"key": "one", "equals": True})  # strict types: 1 is not true
    assert not rt.evaluate({"key": "b", "equals": 1})
    assert not rt.evaluate({"key": "missing", "equals": "a"})
    assert rt.evaluate({"key": "missing", "notEquals": "a"})


def test_key_with_gt_and_lt(make_runtime: Make) -> None:
    rt = make(make_runtime)
    assert rt.evaluate({"key": "n", "gt": 2})
    assert not rt.evaluate({"key": "n", "gt": 3})
    assert rt.evaluate({"key": "n", "lt": 3.5})
    assert not rt.evaluate({"key": "s", "gt": 0})  # not a number
    assert not rt.evaluate({"key": "b", "lt": 5})  # a boolean is not a number
    assert not rt.evaluate({"key": "missing", "lt": 5})


def test_all_any_not_nesting(make_runtime: Make) -> None:
    rt = make(make_runtime)
    yes = {"key": "b", "equals": True}
    no = {"key": "s", "equals": "z"}
    assert rt.evaluate({"all": [yes, {"not": no}]})
    assert not rt.evaluate({"all": [yes, no]})
    assert rt.evaluate({"any": [no, yes]})
    assert not rt.evaluate({"any": [no, no]})
    assert not rt.evaluate({"not": {"any": [no, yes]}})
    assert rt.evaluate({"not": {"all": [yes, {"any": [no, {"not": {"key": "n", "gt": 1}}]}]}})
    assert not rt.evaluate({})


def test_conditions_bind_to_a_scope(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"selected": 2, "liked_b": True}))
    scope = {"as": "item", "item": {"id": "b", "n": 2}, "index": 0}
    assert rt.evaluate({"key": "selected", "equals": "{item.n}"}, scope)  # typed: 2, not "2"
    assert rt.evaluate({"key": "liked_{item.id}", "equals": True}, scope)
    assert not rt.evaluate({"key": "selected", "equals": "{index}"}, scope)


def test_is_visible(make_runtime: Make) -> None:
    rt = make(make_runtime)
    assert rt.is_visible({"type": "text", "text": "x"})
    assert rt.is_visible({"type": "text", "text": "x", "visibleWhen": {"key": "b", "equals": True}})
    assert not rt.is_visible({"type": "text", "text": "x", "visibleWhen": {"key": "n", "lt": 0}})


def test_style_when_merges_in_order_later_wins_whole_properties(make_runtime: Make) -> None:
    rt = make_runtime("style")
    node = rt.spec["root"]
    assert rt.effective_style(node) == {
        "color": "#333333",
        "padding": {"start": 8},  # replaced as a whole, not merged field by field
        "alpha": 1,
        "textSize": 20,
    }
    rt.set_value("on", False)
    assert rt.effective_style(node) == {
        "color": "#111111",
        "padding": {"top": 4, "bottom": 4},
        "alpha": 1,
        "textSize": 20,
    }
    rt.set_value("level", 1)
    assert rt.effective_style(node) == {
        "color": "#000000",
        "padding": {"top": 4, "bottom": 4},
        "alpha": 1,
    }
    assert node["style"] == {"color": "#000000", "padding": {"top": 4, "bottom": 4}, "alpha": 1}


def test_effective_style_without_style(make_runtime: Make) -> None:
    rt = make(make_runtime)
    assert rt.effective_style({"type": "spacer"}) == {}
    node = {
        "type": "spacer",
        "styleWhen": [{"when": {"key": "b", "equals": True}, "style": {"alpha": 0.5}}],
    }
    assert rt.effective_style(node) == {"alpha": 0.5}


def test_open_when(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"open": False, "text": "x"}))
    dialog = {
        "type": "dialog",
        "openWhen": {"key": "open", "equals": True},
        "confirm": {"label": "OK"},
    }
    closed_when_true = {
        "type": "snackbar",
        "openWhen": {"key": "open", "equals": False},
        "text": "hi",
    }
    undeclared = {"type": "bottomSheet", "openWhen": {"key": "nope", "equals": False}}
    assert not rt.is_open(dialog) and rt.is_open(closed_when_true) and not rt.is_open(undeclared)
    rt.set_value("open", True)
    assert rt.is_open(dialog) and not rt.is_open(closed_when_true)
    assert not rt.is_open({"type": "text", "text": "no openWhen"})
