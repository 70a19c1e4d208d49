"""JSON values as JavaScript sees them: key order, number text, trimming, byte and payload cost.

AutoMobile's validator runs on JavaScript, so reproducing its acceptance and its error paths
needs JavaScript's `JSON.stringify` spelling (240.0 is `240`), UTF-16 key sorting and
`String.prototype.trim`. Python's json module spells these differently, hence these helpers.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

from studio.spec.binding import LONE_SURROGATE, js_keys, js_string, whole_text
from studio.spec.rules import MAX_DATA_DEPTH, MAX_PAYLOAD_DEPTH

__all__ = [
    "MAX_DOUBLE",
    "is_number",
    "js_keys",
    "js_number",
    "js_sort_keys",
    "js_string",
    "js_stringify",
    "js_trim",
    "json_cost",
    "json_problem",
    "lone_surrogate_at",
]

#: The largest finite double: JavaScript and Kotlin read any bigger JSON number as Infinity.
MAX_DOUBLE = 1.7976931348623157e308


def is_number(value: object) -> bool:
    """A JSON number that is finite as JavaScript reads it (never a boolean): a finite float,
    or an int within the doubles' range."""
    kind = type(value)
    if kind is float:
        return math.isfinite(value)  # type: ignore[arg-type]  # a float, by the check above
    return kind is int and -MAX_DOUBLE <= value <= MAX_DOUBLE  # type: ignore[operator]


# JavaScript's WhiteSpace and LineTerminator code points (what `String.prototype.trim` removes).
_JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """`text.trim()` as JavaScript does it."""
    return text.strip(_JS_SPACE)


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def js_sort_keys(keys: list[str]) -> list[str]:
    """`keys.sort()`: JavaScript compares UTF-16 code units, not code points. TypeError for
    a key that is not a string (an object given in Python with, say, int keys)."""
    if not all(isinstance(key, str) for key in keys):
        raise TypeError("object keys must be strings")
    if all(key.isascii() for key in keys):
        return sorted(keys)
    return sorted(keys, key=_utf16)


def js_number(value: float | int) -> str:
    """A number as `JSON.stringify` writes it (`240.0` -> `240`, `1e-7`, `1e+21`)."""
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return "null"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    power = int(exponent)
    if -7 < power < 21:
        return format(Decimal(text), "f")
    mantissa = mantissa.removesuffix(".0")
    return f"{mantissa}e{'+' if power > 0 else '-'}{abs(power)}"


def js_stringify(value: Any) -> str:
    """`JSON.stringify(value)` (compact, JavaScript key order and number spelling)."""
    if isinstance(value, str):
        return js_string(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, list):
        return "[" + ",".join(js_stringify(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ",".join(f"{js_string(k)}:{js_stringify(value[k])}" for k in js_keys(value)) + "}"
        )
    raise TypeError(f"not JSON: {type(value).__name__}")


def json_cost(value: Any, depth: int = 0) -> float:
    """An emit payload's cost: numbers 32, null 4, strings/booleans their JSON bytes, arrays and
    objects their punctuation plus members; deeper than the payload depth limit costs infinity."""
    if depth > MAX_PAYLOAD_DEPTH:
        return math.inf
    kind = type(value)
    if kind is str:
        return _string_bytes(value)
    if kind is int:  # JavaScript reads a number beyond a double as Infinity
        return 32 if -MAX_DOUBLE <= value <= MAX_DOUBLE else math.inf
    if kind is float:
        return 32 if math.isfinite(value) else math.inf
    if value is None:
        return 4
    if kind is bool:
        return 4 if value else 5
    total: float
    if isinstance(value, dict):
        total = len(value) + 1 if value else 2
        depth += 1
        for key, item in value.items():
            total += _string_bytes(key) + 1 + json_cost(item, depth)
        return total
    if isinstance(value, list):
        total = len(value) + 1 if value else 2
        depth += 1
        for item in value:
            total += json_cost(item, depth)
        return total
    return math.inf


_PLAIN_ASCII = re.compile(r"[ !#-\[\]-~]*").fullmatch


def _string_bytes(text: str) -> int:
    if _PLAIN_ASCII(text):
        return len(text) + 2
    return len(js_string(text).encode("utf-8"))


def json_problem(
    value: Any, *, ordered: bool = False, limit: int = MAX_DATA_DEPTH
) -> tuple[list[str | int], str] | None:
    """What keeps a free-form JSON value (`data`, platform `args`) from being stored and read
    back the same, as (segments below `value`, innermost first; message), or None: a number
    JavaScript reads as NaN or Infinity (a float that is not finite, an int beyond a double) or
    nesting deeper than `limit`. Iterative (any depth). `ordered` finds the first in the
    validator's order (object keys sorted as JavaScript sorts them); otherwise any. TypeError for
    a key that is not a string."""
    stack: list[tuple[Any, list[str | int], int]] = [(value, [], 0)]
    while stack:
        item, at, depth = stack.pop()
        kind = type(item)
        if kind is int or kind is float:
            if not is_number(item):
                return at, "Invalid number value"
            continue
        if kind is str or kind is bool or item is None:
            continue
        if isinstance(item, dict):
            keys = list(item)
            if not all(type(k) is str for k in keys):
                raise TypeError("object keys must be strings")
            entries: list[tuple[str | int, Any]] = [
                (k, item[k]) for k in (js_sort_keys(keys) if ordered else keys)
            ]
        elif isinstance(item, list):
            entries = list(enumerate(item))
        else:
            return at, "Invalid json value"
        if entries and depth >= limit:
            return at, "Data nesting depth limit exceeded"
        stack.extend((child, [key, *at], depth + 1) for key, child in reversed(entries))
    return None


def _lone(text: str) -> str | None:
    found = LONE_SURROGATE.search(whole_text(text)) if _ANY_SURROGATE(text) else None
    return found.group() if found is not None else None


_ANY_SURROGATE = re.compile("[\ud800-\udfff]").search


def lone_surrogate_at(value: Any) -> tuple[list[str | int], str] | None:
    """The first string or key holding a lone surrogate (half of a UTF-16 pair: no character,
    and nothing UTF-8 can store), in the validator's order (object keys sorted as JavaScript
    sorts them, each key before its value), as (segments from `value`, innermost first;
    message), or None. Iterative."""
    stack: list[tuple[Any, list[str | int], str | None]] = [(value, [], None)]
    while stack:
        item, at, key = stack.pop()
        if key is not None:
            half = _lone(key)
            if half is not None:
                return (
                    at,
                    f"Lone surrogate U+{ord(half):04X} in a key (half of a UTF-16 pair, not text)",
                )
        if isinstance(item, str):
            half = _lone(item)
            if half is not None:
                return (
                    at,
                    f"Lone surrogate U+{ord(half):04X} in a string (half of a UTF-16 pair, not text)",
                )
        elif isinstance(item, dict):
            keys = js_sort_keys(list(item))
            stack.extend((item[k], [k, *at], k) for k in reversed(keys))
        elif isinstance(item, list):
            stack.extend((c, [i, *at], None) for i, c in reversed(list(enumerate(item))))
    return None
