"""State typing: what each control (and each state action) requires of the state key it binds.

One table for both sides, so they cannot drift: the validator checks a spec's initial state
against it (AutoMobile's `componentBindingErrors`, `listItemBindingErrors`, `sheetBindingErrors`
and `stateActionErrors` in `OverlaySpecValidator.kt` / `prototypeValidation.ts`; the rules of
shape around them, such as a slider's step, stay in `studio.spec.coderules`) and the runtime
checks every write (`studio.runtime.controls`). Per control: the field holding the key, the kind
(string, boolean, number, integer, date), fixed bounds or the node fields bounding it (a slider's
`min`/`max`; a progress indicator's `max`, 1 when absent), and AutoMobile's message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from studio.spec.jsvalues import MAX_DOUBLE, is_number

__all__ = [
    "ACTIONS",
    "CONTROLS",
    "StateBinding",
    "Kind",
    "StateType",
    "bindings",
    "date_problem",
]

Kind = Literal["string", "boolean", "number", "integer", "date"]

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_ARTICLE = {"string": "a", "boolean": "a", "number": "a", "integer": "an", "date": "a"}


def date_problem(value: object) -> str | None:
    """None for a real `YYYY-MM-DD` calendar date in 1900..2100 (the Material date picker's
    range, AutoMobile's `isPrototypeDate`), else what is wrong with it."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return "needs a YYYY-MM-DD date"
    year, month, day = (int(part) for part in value.split("-"))
    leap = (year % 4 == 0 and year % 100 != 0) or year % 400 == 0
    days = 29 if month == 2 and leap else _DAYS[month - 1] if 1 <= month <= 12 else 0
    if not 1 <= day <= days:
        return "needs a YYYY-MM-DD date"
    if not 1900 <= year <= 2100:
        return "needs a date in 1900..2100"
    return None


@dataclass(frozen=True)
class StateType:
    """What a state key must hold for one control: a kind and, for numbers, bounds."""

    kind: Kind
    minimum: float | None = None
    maximum: float | None = None
    accepts: Callable[[object], bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "accepts", _predicate(self.kind, self.minimum, self.maximum))

    def problem(self, value: object) -> str | None:
        """None when `value` fits (`accepts`), else what is wrong, e.g. `needs at most 1` (a
        missing key is None: it fits no type)."""
        if self.accepts(value):
            return None
        kind = self.kind
        if kind == "date":
            return date_problem(value)
        if kind == "integer" and is_number(value):
            if not float(value).is_integer():  # type: ignore[arg-type]  # a number
                return "needs an integer"
        elif kind == "string" or kind == "boolean" or not is_number(value):
            return f"needs {_ARTICLE[kind]} {kind}"
        if self.minimum is not None and value < self.minimum:  # type: ignore[operator]
            return f"needs at least {_show(self.minimum)}"
        return f"needs at most {_show(self.maximum or 0)}"


def _predicate(kind: Kind, low: float | None, high: float | None) -> Callable[[object], bool]:
    """The acceptance test of a state type, as one small function (the validator runs it for
    every bound control of a spec)."""
    if kind == "string":
        return lambda value: type(value) is str
    if kind == "boolean":
        return lambda value: type(value) is bool
    if kind == "date":
        return lambda value: date_problem(value) is None
    bottom = -MAX_DOUBLE if low is None else low
    top = MAX_DOUBLE if high is None else high
    if kind == "integer":

        def integer(value: Any) -> bool:  # finite (NaN fails every comparison), integral by value
            kind = type(value)
            return (
                kind is int or (kind is float and value.is_integer())
            ) and bottom <= value <= top

        return integer

    def number(value: Any) -> bool:
        kind = type(value)
        return (kind is int or kind is float) and bottom <= value <= top

    return number


def _show(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else repr(bound)


@dataclass(frozen=True)
class StateBinding:
    """One state-key field of a control (or action) and the type the key must hold.

    `field` is the path to the key inside the node (`("trailing", "stateKey")`); the bounds are
    fixed (`minimum`, `maximum`) or read from the node (`minimum_field`, `maximum_field`,
    `default_maximum` when that field is absent). `declared_only`: the validator checks the
    initial state only when the key is declared (a modal's `openWhen`)."""

    field: tuple[str, ...]
    kind: Kind
    message: str
    minimum: float | None = None
    maximum: float | None = None
    minimum_field: str | None = None
    maximum_field: str | None = None
    default_maximum: float | None = None
    declared_only: bool = False

    @cached_property
    def fixed(self) -> StateType | None:
        """The type when it does not depend on the node (no bound read from its fields)."""
        if self.minimum_field is None and self.maximum_field is None:
            return StateType(self.kind, self.minimum, self.maximum)
        return None

    @property
    def where(self) -> str:
        """The field as a path suffix, e.g. `.trailing.stateKey`."""
        return "".join(f".{part}" for part in self.field)

    def key(self, node: Mapping[str, Any]) -> str | None:
        """The state key this node binds through the field, or None."""
        value: Any = node
        for part in self.field:
            value = value.get(part) if type(value) is dict or isinstance(value, Mapping) else None
        return value if type(value) is str else None

    def type_for(self, node: Mapping[str, Any]) -> StateType:
        """The type with its bounds resolved against the node's own fields."""
        if self.fixed is not None:
            return self.fixed
        low = self.minimum
        if self.minimum_field is not None:
            found = node.get(self.minimum_field)
            low = found if is_number(found) else None
        high = self.maximum
        if self.maximum_field is not None:
            found = node.get(self.maximum_field)
            high = found if is_number(found) else self.default_maximum
        return StateType(self.kind, low, high)


def _one(field: str, kind: Kind, message: str, **bounds: Any) -> tuple[StateBinding, ...]:
    return (StateBinding(tuple(field.split(".")), kind, message, **bounds),)


_TOGGLE = "Toggle control requires a boolean state key"
_SELECTION = "Selection requires a nonnegative integer state key"

#: Per node type, the state keys it binds (AutoMobile's order where a node binds two).
CONTROLS: dict[str, tuple[StateBinding, ...]] = {
    "textField": _one("stateKey", "string", "Text field requires a string state key"),
    "switch": _one("stateKey", "boolean", _TOGGLE),
    "checkbox": _one("stateKey", "boolean", _TOGGLE),
    "chip": _one("stateKey", "boolean", "Filter chip requires a boolean state key"),
    "slider": _one(
        "stateKey",
        "number",
        "Slider requires a numeric state key within min and max",
        minimum_field="min",
        maximum_field="max",
    ),
    "progress": _one(
        "stateKey",
        "number",
        "Progress requires a numeric state key within 0 and max",
        minimum=0,
        maximum_field="max",
        default_maximum=1,
    ),
    "radioGroup": _one("stateKey", "string", "Radio group requires a string state key"),
    "segmentedButton": _one("stateKey", "string", "Segmented button requires a string state key"),
    "tabBar": _one("stateKey", "integer", _SELECTION, minimum=0),
    "bottomNav": _one("stateKey", "integer", _SELECTION, minimum=0),
    "datePicker": _one(
        "stateKey", "date", "Date picker requires a YYYY-MM-DD state key in 1900..2100"
    ),
    "timePicker": (
        StateBinding(
            ("hourKey",), "integer", "Time picker hour requires an integer 0..23 state key", 0, 23
        ),
        StateBinding(
            ("minuteKey",),
            "integer",
            "Time picker minute requires an integer 0..59 state key",
            0,
            59,
        ),
    ),
    "listItem": _one("trailing.stateKey", "boolean", _TOGGLE),
    "bottomSheet": _one(
        "openWhen.key", "boolean", "Sheet requires a boolean state key", declared_only=True
    ),
    "dialog": _one(
        "openWhen.key", "boolean", "Dialog requires a boolean state key", declared_only=True
    ),
    "snackbar": _one(
        "openWhen.key", "boolean", "Snackbar requires a boolean state key", declared_only=True
    ),
}

#: Per state action type, the key it reads and writes.
ACTIONS: dict[str, StateBinding] = {
    "toggle": StateBinding(("key",), "boolean", "Toggle requires a boolean state key"),
    "increment": StateBinding(("key",), "number", "Increment requires a numeric state key"),
    "decrement": StateBinding(("key",), "number", "Decrement requires a numeric state key"),
}


def bindings(node: Mapping[str, Any]) -> Iterator[tuple[StateBinding, str, StateType]]:
    """(binding, state key, type) for every key the node binds through its own fields."""
    for binding in CONTROLS.get(node.get("type"), ()):  # type: ignore[arg-type]
        key = binding.key(node)
        if key is not None:
            yield binding, key, binding.type_for(node)
