"""How form text becomes a platform call's argument value; shared by the validator (at save
time, `studio.spec.platform_rules`) and the platform registry (at call time), so both accept
exactly the same specs. It lives in the spec layer, the lower of the two."""

from __future__ import annotations

import math
from typing import Any


def schema_types(schema: Any) -> set[str]:
    """The JSON types a property schema names (`type` as a string or a list)."""
    if not isinstance(schema, dict):
        return set()
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return set()


def number_from_text(text: str, *, integer: bool) -> int | float | None:
    """The finite number `text` spells ("12", " -0.5 ", "1e3"), or None. With `integer` only
    a whole number counts; an integral value without "." or exponent stays an int."""
    try:
        number = float(text.strip())
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    if number.is_integer() and (integer or not any(c in text for c in ".eE")):
        return int(number)
    return None if integer else number


def coerce_value(schema: Any, value: Any) -> Any:
    """One top-level argument: numeric text becomes its number where the argument may be a
    number (`"12.5"` -> 12.5), comma-separated text becomes a list where it may be an array
    (`"a, b"` -> ["a", "b"]); anything else is returned unchanged."""
    if not isinstance(value, str):
        return value
    types = schema_types(schema)
    if "array" in types:
        return [part.strip() for part in value.split(",") if part.strip()]
    if types & {"number", "integer"}:
        number = number_from_text(value, integer="number" not in types)
        if number is not None:
            return number
    return value


def coerce_args(schema: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """`args` with each top-level value passed through `coerce_value` for its property."""
    props = schema.get("properties", {})
    if not isinstance(props, dict):
        return dict(args)
    return {name: coerce_value(props.get(name), value) for name, value in args.items()}
