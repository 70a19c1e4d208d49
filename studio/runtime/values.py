"""State scalars: their type classes, strict equality and how they render inside text."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Literal

from studio.spec.jsvalues import is_number

Scalar = str | int | float | bool
TypeClass = Literal["boolean", "number", "string"]


def type_class(value: object) -> TypeClass | None:
    """`boolean`, `number` or `string` for a state scalar; None for anything else."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):  # finite as JavaScript reads it, as the validator says
        return "number" if is_number(value) else None
    if isinstance(value, str):
        return "string"
    return None


def is_scalar(value: object) -> bool:
    """A string, a boolean or a finite number: what a state key may hold."""
    return type_class(value) is not None


def same_scalar(a: object, b: object) -> bool:
    """Equality as the device compares scalars: never `True == 1`, but `1 == 1.0`."""
    kind = type_class(a)
    return kind is not None and kind == type_class(b) and a == b


def describe(value: object) -> str:
    """A short, one-line rendering of a value for error messages."""
    kind = type_class(value)
    if kind == "string":
        text = str(value)
        return repr(text if len(text) <= 40 else text[:37] + "...")
    if kind is not None:
        return render_scalar(value)
    return type(value).__name__


def render_scalar(value: object) -> str:
    """A scalar as AutoMobile renders it in text (JavaScript's `String()`; integral numbers never
    get a decimal point or exponent). Hand-written: no library reproduces JS number printing."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        if value.is_integer():
            return str(int(value))
        text = repr(value)  # shortest round-trip digits, as JavaScript picks them
        if "e" not in text:
            return text
        mantissa, exponent = text.split("e")
        power = int(exponent)
        if -7 < power < 21:  # JavaScript prints these magnitudes in plain notation
            return format(Decimal(text), "f")
        return f"{mantissa.removesuffix('.0')}e{'+' if power > 0 else '-'}{abs(power)}"
    if value is None:
        return "null"
    return str(value)


def tidy_number(value: float) -> int | float:
    """An integral float as an int, others rounded to 12 places (drops `0.1 + 0.2` noise)."""
    rounded = round(value, 12)
    return int(rounded) if rounded.is_integer() else rounded
