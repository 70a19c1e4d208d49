"""How many bytes a spec is, as AutoMobile counts them: `JSON.stringify`'s UTF-8 for an object
(raw text is counted by the validator as it comes), computed without serialising when the count
walk (`studio.spec.structure`, mode `count`) has collected the spec's parts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import chain
from typing import Any

from studio.spec.binding import LONE_SURROGATE, escape_lone_surrogates, whole_text
from studio.spec.jsvalues import is_number, js_number
from studio.spec.structure import Ctx

__all__ = ["NotJSON", "Size", "counted_size", "measure", "measure_walking", "stringify"]

# Numbers Python spells differently from JavaScript: a fraction or an exponent. Strings are
# matched first (unrolled loop) so that digits inside strings are skipped.
_NUMBER_OR_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?[eE][-+]?\d+|-?\d+\.\d+')
_EXPONENT = re.compile(r"e[-+][0-9]")
_NULL = 4  # `JSON.stringify` writes NaN, the infinities (and what JavaScript reads as them) as null


class NotJSON(ValueError):
    """A value `JSON.stringify` cannot write (a cycle, a set, a key that is not a string)."""


@dataclass(frozen=True)
class Size:
    """`JSON.stringify`'s UTF-8 bytes of a value, and whether a string in it holds a lone
    surrogate (written as a `\\uXXXX` escape; the studio refuses it, see the validator)."""

    bytes: int
    lone: bool = False


def _encoded(text: str) -> tuple[int, bool]:
    """UTF-8 bytes of text as `JSON.stringify` writes it, and whether it held a lone surrogate."""
    try:
        return len(text.encode("utf-8")), False
    except UnicodeEncodeError:
        whole = whole_text(text)  # pairs combined; what is left is lone: a 6-byte escape each
        lone = len(LONE_SURROGATE.findall(whole))
        return len(whole.encode("utf-8", "surrogatepass")) + 3 * lone, lone > 0


def measure(value: Any, *, exact: bool = False) -> Size:
    """`JSON.stringify(value)`'s UTF-8 bytes: NaN, the infinities and ints beyond a double are
    written `null`; NotJSON for what it cannot write. Python's C encoder gives the length;
    number spellings are corrected when `exact` or when they could matter for the 1 MiB limit
    (JavaScript's text is at most ~3.4x longer than Python's). Any depth."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError, RecursionError):  # NaN, a huge int, a cycle, a set, depth
        return measure_walking(value)
    size, lone = _encoded(text)
    if size <= 262_144 and not exact:  # even at 3.4x still under 1 MiB: no need to be exact
        return Size(size, lone)
    if not _may_differ(text):
        return Size(size, lone)  # no number Python spells differently: already exact
    for match in _NUMBER_OR_STRING.finditer(text):
        token = match.group()
        if token[0] != '"':
            size += len(js_number(float(token))) - len(token)
    return Size(size, lone)


def stringify(value: Any) -> str:
    """`JSON.stringify(value)` of a JSON value with finite numbers: compact, numbers in
    JavaScript's spelling (`100.0` -> `100`, `1e-07` -> `1e-7`), a lone surrogate as its
    escape. Its UTF-8 bytes are exactly `measure(value, exact=True).bytes`. ValueError for NaN
    or Infinity (not JSON text), as `json.dumps(allow_nan=False)` raises it."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if _may_differ(text):
        text = _NUMBER_OR_STRING.sub(_js_token, text)
    return escape_lone_surrogates(text)


def _js_token(match: re.Match[str]) -> str:
    token = match.group()
    return token if token[0] == '"' else js_number(float(token))


def _number_bytes(value: int | float) -> int:
    return len(js_number(value)) if is_number(value) else _NULL


def measure_walking(value: Any) -> Size:
    """`measure` by walking the value (iteratively, exactly), for what Python's encoder refuses
    or cannot reach: NaN and huge ints (`null`), very deep values; NotJSON names the rest."""
    total = 0
    lone = False
    open_ids: set[int] = set()
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        item, leaving = stack.pop()
        if leaving:
            open_ids.discard(id(item))
            continue
        kind = type(item)
        if kind is str:
            size, has_lone = _encoded(json.dumps(item, ensure_ascii=False))
            total += size
            lone = lone or has_lone
        elif item is None or kind is bool:
            total += 5 if item is False else 4
        elif kind is int or kind is float:
            total += _number_bytes(item)
        elif isinstance(item, dict | list | tuple):
            if id(item) in open_ids:
                name = "an object" if isinstance(item, dict) else "an array"
                raise NotJSON(f"{name} contains itself (a cycle)")
            open_ids.add(id(item))
            stack.append((item, True))
            members = item.items() if isinstance(item, dict) else enumerate(item)
            count = 0
            for key, child in members:
                if isinstance(item, dict):
                    if type(key) is not str:
                        raise NotJSON("object keys must be strings")
                    size, has_lone = _encoded(json.dumps(key, ensure_ascii=False))
                    total += size + 1
                    lone = lone or has_lone
                stack.append((child, False))
                count += 1
            total += 2 + max(0, count - 1)
        else:
            raise NotJSON(f"a {kind.__name__} is not a JSON value")
    return Size(total, lone)


def _may_differ(text: str) -> bool:
    """An integral float (`100.0`, JS `100`) or an exponent (`1e-07`, JS `1e-7`) may be in the
    text; plain substring searches, a hit inside a string only costs the exact scan."""
    return (
        ".0," in text
        or ".0]" in text
        or ".0}" in text
        or (("e-" in text or "e+" in text) and _EXPONENT.search(text) is not None)
    )


# Bytes that JSON.stringify escapes in a string: two bytes each (`\"`, `\n`), and those of
# them written as `\u00XX` (six bytes). UTF-8 continuation bytes are never below 0x80.
_ESCAPED = bytes(range(0x20)) + b'"\\'
_ESCAPED_LONG = bytes(c for c in range(0x20) if c not in b"\b\t\n\f\r")


def counted_size(ctx: Ctx) -> Size:
    """`measure(spec, exact=True)` from what a successful count walk collected; NotJSON as
    `measure` raises it.

    Object keys met by the walk are declared field names or state keys (ASCII identifiers), so
    an object of n members costs 4n+1 bytes plus its key lengths; strings are escaped and
    encoded in one C pass over all of them instead of one pass per value."""
    strings = ctx.strings
    joined = "".join(strings)
    try:
        raw = joined.encode("utf-8")
        lone = 0
    except UnicodeEncodeError:
        # Only lone ones stay (a walk's strings come from JSON text, or they are refused later;
        # a pair split across two strings is counted as two lone halves, as JavaScript would).
        raw = joined.encode("utf-8", "surrogatepass")
        lone = len(LONE_SURROGATE.findall(whole_text(joined)))
    size = len(raw) + 2 * len(strings) + 3 * lone
    escaped = len(raw) - len(raw.translate(None, _ESCAPED))
    if escaped:
        size += escaped + 4 * (len(raw) - len(raw.translate(None, _ESCAPED_LONG)))
    dicts = ctx.dicts
    empty = len(dicts) - sum(map(bool, dicts))
    size += len(dicts) + empty + 4 * sum(map(len, dicts))
    size += len("".join(chain.from_iterable(dicts)))
    lists = ctx.lists
    size += len(lists) + len(lists) - sum(map(bool, lists)) + sum(map(len, lists))
    for values in (ctx.scalars, ctx.opaque):
        if values:  # `[a,b]` less its brackets and commas
            part = measure(values, exact=True)
            size += part.bytes - 1 - len(values)
            lone = lone or part.lone
    return Size(size, bool(lone))
