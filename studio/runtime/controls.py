"""What each state key accepts: its declared type plus the rules of every control bound to it.

Mirrors the state typing AutoMobile's validator enforces on every device-side write (textField
string; switch/checkbox/filter chip/listItem trailing/openWhen boolean; slider number in
[min, max]; progress number in [0, max]; radioGroup/segmentedButton string; tabBar/bottomNav
non-negative integer; datePicker `YYYY-MM-DD` in 1900..2100; timePicker hour 0..23, minute 0..59).
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from studio.runtime.tree import walk
from studio.runtime.values import TypeClass, describe, tidy_number, type_class

Kind = Literal["string", "boolean", "number", "integer", "date"]
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


class StateWriteError(ValueError):
    """A write the runtime rejects (undeclared key, wrong type, out of range), one line."""

    def __init__(self, key: str, message: str):
        super().__init__(f"state key {key!r}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class ControlRule:
    """One control's claim on a state key, e.g. a slider's range."""

    control: str
    address: str
    kind: Kind
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None


def _number(value: object) -> float | None:
    return (
        float(value) if isinstance(value, int | float) and type_class(value) == "number" else None
    )


def control_rules(node: Mapping[str, Any], address: str) -> list[tuple[str, ControlRule]]:
    """The `(state key, rule)` claims of one node's own fields (its children not included)."""
    found: list[tuple[str, ControlRule]] = []

    def add(key: object, rule: ControlRule) -> None:
        if isinstance(key, str):
            found.append((key, rule))

    kind = node.get("type")
    key = node.get("stateKey")
    if kind == "textField" or kind in ("radioGroup", "segmentedButton"):
        add(key, ControlRule(str(kind), address, "string"))
    elif kind in ("switch", "checkbox") or (kind == "chip" and node.get("variant") == "filter"):
        add(key, ControlRule(str(kind), address, "boolean"))
    elif kind == "slider":
        add(
            key,
            ControlRule(
                "slider",
                address,
                "number",
                _number(node.get("min")),
                _number(node.get("max")),
                _number(node.get("step")),
            ),
        )
    elif kind == "progress":
        add(key, ControlRule("progress", address, "number", 0.0, _number(node.get("max"))))
    elif kind in ("tabBar", "bottomNav"):
        add(key, ControlRule(str(kind), address, "integer", 0.0))
    elif kind == "datePicker":
        add(key, ControlRule("datePicker", address, "date"))
    elif kind == "timePicker":
        add(node.get("hourKey"), ControlRule("timePicker", address, "integer", 0.0, 23.0))
        add(node.get("minuteKey"), ControlRule("timePicker", address, "integer", 0.0, 59.0))
    trailing = node.get("trailing")
    if (
        kind == "listItem"
        and isinstance(trailing, Mapping)
        and trailing.get("type") in ("switch", "checkbox")
    ):
        add(trailing.get("stateKey"), ControlRule("listItem", address, "boolean"))
    open_when = node.get("openWhen")
    if isinstance(open_when, Mapping):
        add(open_when.get("key"), ControlRule(str(kind), address, "boolean"))
    return found


def rules_by_key(
    claims: Iterable[tuple[str, ControlRule]],
) -> dict[str, list[ControlRule]]:
    """`(key, rule)` claims grouped by key, each key's rules in the order given."""
    rules: dict[str, list[ControlRule]] = {}
    for key, rule in claims:
        rules.setdefault(key, []).append(rule)
    return rules


def collect_rules(root: Mapping[str, Any]) -> dict[str, list[ControlRule]]:
    """Every concrete state key bound by a control (repeat instances included) with its rules.
    (`Runtime` gets the same from a per-subtree cache, `tree.SubtreeFacts(control_rules)`.)"""
    return rules_by_key(
        claim for node, address, _scope in walk(root) for claim in control_rules(node, address)
    )


def _kind_class(kind: Kind) -> TypeClass:
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    return "string"


def _check_rule(key: str, value: Any, rule: ControlRule) -> Any:
    where = f"{rule.control} at {rule.address}"
    if type_class(value) != _kind_class(rule.kind):
        raise StateWriteError(key, f"{where} needs a {rule.kind}; got {describe(value)}")
    if rule.kind == "integer":
        if not float(value).is_integer():
            raise StateWriteError(key, f"{where} needs an integer; got {describe(value)}")
        value = int(value)
    if rule.kind == "date":
        _check_date(key, value, where)
    if rule.minimum is not None and value < rule.minimum:
        raise StateWriteError(
            key, f"{where} needs at least {describe(rule.minimum)}; got {describe(value)}"
        )
    if rule.maximum is not None and value > rule.maximum:
        raise StateWriteError(
            key, f"{where} needs at most {describe(rule.maximum)}; got {describe(value)}"
        )
    return value


def _check_date(key: str, value: str, where: str) -> None:
    match = _DATE.fullmatch(value)
    try:
        if match is None:
            raise ValueError
        date = datetime.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        raise StateWriteError(
            key, f"{where} needs a YYYY-MM-DD date; got {describe(value)}"
        ) from None
    if not 1900 <= date.year <= 2100:
        raise StateWriteError(key, f"{where} needs a date in 1900..2100; got {describe(value)}")


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
        if rule.control != "slider" or rule.minimum is None or rule.maximum is None:
            continue
        low, high = rule.minimum, rule.maximum
        number = min(max(float(value), low), high)
        if rule.step is not None and rule.step > 0 and math.isfinite(rule.step):
            number = low + round((number - low) / rule.step) * rule.step
            number = min(max(number, low), high)
        value = tidy_number(number)
    return value
