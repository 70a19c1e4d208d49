"""How many bytes a spec is, as AutoMobile counts them: `JSON.stringify`'s UTF-8 for an object
(raw text is counted by the validator as it comes), computed without serialising when the count
walk (`studio.spec.structure`, mode `count`) has collected the spec's parts.
"""

from __future__ import annotations

import json
import re
from itertools import chain
from typing import Any

from studio.spec.jsvalues import js_number
from studio.spec.structure import Ctx

__all__ = ["compact_bytes", "counted_bytes"]

# Numbers Python spells differently from JavaScript: a fraction or an exponent. Strings are
# matched first (unrolled loop) so that digits inside strings are skipped.
_NUMBER_OR_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?[eE][-+]?\d+|-?\d+\.\d+')
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_EXPONENT = re.compile(r"e[-+][0-9]")


def compact_bytes(value: Any, *, exact: bool = False) -> int:
    """UTF-8 bytes of `JSON.stringify(value)`; raises ValueError/TypeError for non-JSON values
    (NaN, Infinity, sets, ...). Python's C encoder gives the length; number spellings and lone
    surrogates are corrected when `exact` or when they could matter for the 1 MiB limit
    (JavaScript's text is at most ~3.4x longer than Python's)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        size = len(text.encode("utf-8"))
        lone = False
    except UnicodeEncodeError:
        size = len(text.encode("utf-8", "surrogatepass"))
        lone = True
    if size <= 262_144 and not exact:  # even at 3.4x still under 1 MiB: no need to be exact
        return size
    if not lone and not _may_differ(text):
        return size  # no number Python spells differently: already exact
    for match in _NUMBER_OR_STRING.finditer(text):
        token = match.group()
        if token[0] != '"':
            size += len(js_number(float(token))) - len(token)
        elif lone and _LONE_SURROGATE.search(token):
            size += 3 * len(_LONE_SURROGATE.findall(token))
    return size


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


def counted_bytes(ctx: Ctx) -> int | None:
    """UTF-8 bytes of `JSON.stringify(spec)` from what a successful counting walk collected,
    exactly; None when a string holds a lone surrogate (left to `compact_bytes`). Raises
    ValueError/TypeError for a free-form value that is not JSON, as `compact_bytes` does.

    Object keys met by the walk are declared field names or state keys (ASCII identifiers), so
    an object of n members costs 4n+1 bytes plus its key lengths; strings are escaped and
    encoded in one C pass over all of them instead of one pass per value."""
    strings = ctx.strings
    try:
        raw = "".join(strings).encode("utf-8")
    except UnicodeEncodeError:
        return None
    size = len(raw) + 2 * len(strings)
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
            size += compact_bytes(values, exact=True) - 1 - len(values)
    return size
