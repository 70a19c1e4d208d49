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

from studio.spec.binding import js_keys, js_string
from studio.spec.rules import MAX_PAYLOAD_DEPTH

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
    if kind is int:
        return 32
    if value is None:
        return 4
    if kind is bool:
        return 4 if value else 5
    if kind is float:
        return 32 if math.isfinite(value) else math.inf
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
