"""Conditions (`visibleWhen`, `styleWhen.when`, `openWhen`) and the style they select.

Semantics follow AutoMobile's device (`PrototypeStateLogic.kt`): `key` with `equals`/`notEquals`
compares scalars strictly by type (a missing key equals nothing); `gt`/`lt` hold only for a numeric
value; `all`/`any`/`not` nest; a condition with no recognised form is false.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studio.runtime.values import same_scalar, type_class


def holds(condition: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """True when `condition` (already bound to its repeat scope) holds for `state`."""
    key = condition.get("key")
    if isinstance(key, str):
        stored = state.get(key)
        if "equals" in condition:
            return same_scalar(stored, condition["equals"])
        if "notEquals" in condition:
            return not same_scalar(stored, condition["notEquals"])
        number = stored if type_class(stored) == "number" else None
        if "gt" in condition:
            return number is not None and _is_number(condition["gt"]) and number > condition["gt"]
        if "lt" in condition:
            return number is not None and _is_number(condition["lt"]) and number < condition["lt"]
        return False
    if isinstance(condition.get("all"), list):
        return all(isinstance(c, Mapping) and holds(c, state) for c in condition["all"])
    if isinstance(condition.get("any"), list):
        return any(isinstance(c, Mapping) and holds(c, state) for c in condition["any"])
    if isinstance(condition.get("not"), Mapping):
        return not holds(condition["not"], state)
    return False


def _is_number(value: object) -> bool:
    return type_class(value) == "number"


def resolve_style(
    style: Mapping[str, Any] | None,
    style_when: list[Any] | None,
    state: Mapping[str, Any],
) -> dict[str, Any]:
    """The base style with each matching `styleWhen` entry merged over it in authored order; a
    later match wins per property, and a property replaces the earlier value as a whole."""
    resolved = dict(style or {})
    for entry in style_when or []:
        if not isinstance(entry, Mapping):
            continue
        when = entry.get("when")
        if (
            isinstance(when, Mapping)
            and holds(when, state)
            and isinstance(entry.get("style"), Mapping)
        ):
            resolved.update(entry["style"])
    return resolved


def is_open(open_when: Mapping[str, Any] | None, state: Mapping[str, Any]) -> bool:
    """A dialog/snackbar/bottomSheet `openWhen {key, equals}`: open while the key holds exactly
    that boolean (an undeclared key keeps it closed)."""
    if not isinstance(open_when, Mapping) or not isinstance(open_when.get("key"), str):
        return False
    wanted = open_when.get("equals")
    return isinstance(wanted, bool) and same_scalar(state.get(open_when["key"]), wanted)
