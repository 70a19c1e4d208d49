"""What each state key accepts: its declared type plus the rules of every control bound to it.

Which controls bind which keys, and what each needs (kind, bounds, a progress indicator's default
max of 1, the date range), is the spec's state-typing table (`studio.spec.state_rules`), the very
table the validator checks a spec's initial state against: a write the runtime accepts is a
state the device's validator would accept, and the other way round.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from studio.runtime.values import TypeClass, describe, tidy_number, type_class
from studio.spec.state_rules import Kind, StateType, bindings


class StateWriteError(ValueError):
    """A write the runtime rejects (undeclared key, wrong type, out of range), one line."""

    def __init__(self, key: str, message: str):
        super().__init__(f"state key {key!r}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class ControlRule:
    """One control's claim on a state key: the type from the table, and a slider's step."""

    control: str
    address: str
    type: StateType
    step: float | None = None

    @property
    def kind(self) -> Kind:
        return self.type.kind


def control_rules(node: Mapping[str, Any], address: str) -> list[tuple[str, ControlRule]]:
    """The `(state key, rule)` claims of one node's own fields (its children not included)."""
    kind = str(node.get("type"))
    step = node.get("step") if kind == "slider" else None
    return [
        (key, ControlRule(kind, address, typed, step if type_class(step) == "number" else None))
        for _, key, typed in bindings(node)
    ]


def rules_by_key(
    claims: Iterable[tuple[str, ControlRule]],
) -> dict[str, list[ControlRule]]:
    """`(key, rule)` claims grouped by key, each key's rules in the order given."""
    rules: dict[str, list[ControlRule]] = {}
    for key, rule in claims:
        rules.setdefault(key, []).append(rule)
    return rules


def _check_rule(key: str, value: Any, rule: ControlRule) -> Any:
    problem = rule.type.problem(value)
    if problem is not None:
        where = f"{rule.control} at {rule.address}"
        raise StateWriteError(key, f"{where} {problem}; got {describe(value)}")
    return int(value) if rule.kind == "integer" else value


def check_write(
    key: str,
    value: Any,
    declared: Mapping[str, TypeClass],
    rules: Mapping[str, list[ControlRule]],
) -> Any:
    """The value to store for `key`, or StateWriteError: a declared key keeps its declared type,
    and every control bound to the key accepts the value. As on the device (which validates the
    would-be spec), a write may declare a new key: its first value fixes its type."""
    kind = type_class(value)
    if kind is None:
        raise StateWriteError(key, f"needs a string, number or boolean; got {describe(value)}")
    if key in declared and kind != declared[key]:
        raise StateWriteError(key, f"is declared as a {declared[key]}; got {describe(value)}")
    for rule in rules.get(key, []):
        value = _check_rule(key, value, rule)
    return value


def snap_control_value(value: Any, rules: list[ControlRule]) -> Any:
    """A control-driven number as the control would store it: a slider clamps to [min, max] and
    snaps to `step` (counted from min). Other values pass through."""
    if type_class(value) != "number":
        return value
    for rule in rules:
        low, high = rule.type.minimum, rule.type.maximum
        if rule.control != "slider" or low is None or high is None:
            continue
        low, high = float(low), float(high)
        number = min(max(float(value), low), high)
        if rule.step is not None and rule.step > 0 and math.isfinite(rule.step):
            number = low + round((number - low) / rule.step) * rule.step
            number = min(max(number, low), high)
        value = tidy_number(number)
    return value
