"""The validator and the runtime read one state-typing table (`studio.spec.state_rules`): for
every control and state action in it, the validator's verdict on an initial state and the
runtime's verdict on writing the same value agree (the progress-bar drift: a progress without
`max` took `setState 5` in the runtime while the validator refused the same initial state)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.runtime import Runtime
from studio.spec.state_rules import ACTIONS, CONTROLS, StateBinding
from studio.spec.validator import validate

KEY = "k"
OTHER = "other"  # the second key of a time picker


def _node(kind: str, bounds: dict[str, Any]) -> dict[str, Any]:
    """A node of each control type with a valid shape, binding KEY through its (first) field."""
    options = [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}]
    nodes: dict[str, dict[str, Any]] = {
        "textField": {"stateKey": KEY},
        "switch": {"stateKey": KEY, "label": "s"},
        "checkbox": {"stateKey": KEY},
        "chip": {"label": "c", "variant": "filter", "stateKey": KEY},
        "slider": {"stateKey": KEY, **bounds},
        "progress": {"stateKey": KEY, **bounds},
        "radioGroup": {"stateKey": KEY, "options": options},
        "segmentedButton": {"stateKey": KEY, "options": options},
        "tabBar": {"stateKey": KEY, "items": [{"label": "one"}]},
        "bottomNav": {"stateKey": KEY, "items": [{"label": "one"}, {"label": "two"}]},
        "datePicker": {"stateKey": KEY},
        "timePicker": {"hourKey": KEY, "minuteKey": OTHER}
        if bounds.get("first", True)
        else {"hourKey": OTHER, "minuteKey": KEY},
        "listItem": {"headline": "h", "trailing": {"type": "checkbox", "stateKey": KEY}},
        "bottomSheet": {
            "child": {"type": "spacer"},
            "openWhen": {"key": KEY, "equals": True},
            "detents": ["half"],
        },
        "dialog": {"openWhen": {"key": KEY, "equals": True}, "confirm": {"label": "OK"}},
        "snackbar": {"openWhen": {"key": KEY, "equals": True}, "text": "hi"},
    }
    return {"type": kind, **nodes[kind]}


def _fitting(binding: StateBinding, node: dict[str, Any]) -> Any:
    """A value the binding accepts (the initial state the runtime starts from)."""
    kind = binding.type_for(node)
    return {
        "string": "a",
        "boolean": False,
        "date": "2000-01-31",
        "integer": kind.minimum or 0,
        "number": kind.minimum if kind.minimum is not None else 0,
    }[kind.kind]


def _spec(node: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "agree",
        "window": {"placement": {"type": "fullscreen"}},
        "state": state,
        "root": {"type": "column", "children": [node]},
    }


def _runtime_accepts(spec: dict[str, Any], value: Any) -> bool:
    runtime = Runtime(spec, clock=lambda: 0.0)
    runtime.run_actions([{"type": "setState", "key": KEY, "value": value}])
    return not runtime.refusals


values = st.one_of(
    st.booleans(),
    st.sampled_from(["", "a", "2024-02-29", "2023-02-29", "1899-12-31", "2100-12-31", "5"]),
    st.integers(-3, 100),
    st.sampled_from([0.5, 1.0, 1.5, -0.0, 23.0, 59.5, 1e308, 10**400, -(10**400)]),
    st.floats(-5, 105),
    st.sampled_from([math.inf, -math.inf, math.nan]),
)
slider_bounds = st.tuples(st.integers(-10, 10), st.integers(1, 20)).map(
    lambda pair: {"min": pair[0], "max": pair[0] + pair[1]}
)
progress_bounds = st.one_of(
    st.just({}), st.integers(1, 10).map(lambda m: {"max": m}), st.just({"max": 0.5})
)
CASES = [(kind, index) for kind, found in CONTROLS.items() for index in range(len(found))]


def test_every_control_type_is_covered() -> None:
    assert {kind for kind, _ in CASES} == set(CONTROLS)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.parametrize(("kind", "index"), CASES)
@given(value=values, data=st.data())
def test_validator_and_runtime_agree_for_every_control(
    kind: str, index: int, value: Any, data: st.DataObject
) -> None:
    bounds: dict[str, Any] = {}
    if kind == "slider":
        bounds = data.draw(slider_bounds)
    elif kind == "progress":
        bounds = data.draw(progress_bounds)
    elif kind == "timePicker":
        bounds = {"first": data.draw(st.booleans())}
    node = _node(kind, bounds)
    node.pop("first", None)
    binding = CONTROLS[kind][0]
    if kind == "timePicker":
        binding = CONTROLS[kind][0 if node["hourKey"] == KEY else 1]
    others = {OTHER: 0} if kind == "timePicker" else {}
    initial = _spec(node, {KEY: _fitting(binding, node), **others})
    assert validate(initial).ok, validate(initial)
    verdict = validate(_spec(node, {KEY: value, **others})).ok
    assert _runtime_accepts(initial, value) == verdict, (node, value)


@settings(max_examples=40, deadline=None)
@pytest.mark.parametrize("action", sorted(ACTIONS))
@given(value=values)
def test_validator_and_runtime_agree_for_every_state_action(action: str, value: Any) -> None:
    binding = ACTIONS[action]
    node = {"type": "button", "label": "b", "onTap": [{"type": action, "key": KEY}]}
    initial = _spec(node, {KEY: _fitting(binding, {})})
    assert validate(initial).ok
    verdict = validate(_spec(node, {KEY: value})).ok
    assert _runtime_accepts(initial, value) == verdict, (action, value)


def test_the_progress_drift_is_gone() -> None:
    node = {"type": "progress", "stateKey": KEY}  # no max: 0..1, on both sides
    assert not validate(_spec(node, {KEY: 5})).ok
    assert not _runtime_accepts(_spec(node, {KEY: 0.5}), 5)
    runtime = Runtime(_spec(node, {KEY: 0.5}), clock=lambda: 0.0)
    runtime.run_actions([{"type": "setState", "key": KEY, "value": 5}])
    assert runtime.state[KEY] == 0.5
    assert "progress at root.children[0] needs at most 1" in runtime.refusals[-1].message
