"""Reading spec files and texts strictly, with one-line errors that name the place.

JSON text is read as AutoMobile's parsers read it (kotlinx `parseToJsonElement`, `JSON.parse`):
a duplicate key keeps its last value, a lone-surrogate escape is a lone surrogate (the validator
then reports it where it is), an integer or exponent beyond a double is Infinity, and any depth
of nesting parses. What is not JSON is refused: NaN/Infinity, a byte order mark, raw control
characters in strings, invalid UTF-8, more than 1 MiB.
"""

from __future__ import annotations

import json
import os
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # public, untyped in typeshed
from pathlib import Path
from typing import Any

from studio.spec.errors import SpecInputError
from studio.spec.rules import MAX_SPEC_BYTES

__all__ = [
    "load_spec_file",
    "spec_file_bytes",
    "parse_json_text",
    "parse_spec_text",
    "read_file_bytes",
    "read_spec_bytes",
]


def _reject_constant(name: str) -> Any:
    raise SpecInputError(f"Invalid JSON: {name} is not a JSON number")


def _integer(digits: str) -> int | float:
    """An integer token; one too long for Python to convert is Infinity, as in JavaScript."""
    try:
        return int(digits)
    except ValueError:
        return float(digits)


def _invalid(exc: json.JSONDecodeError) -> SpecInputError:
    return SpecInputError(f"Invalid JSON: {exc.msg} at line {exc.lineno}:{exc.colno}")


def parse_json_text(text: str) -> Any:
    """Any JSON value from JSON text; SpecInputError ("Invalid JSON: ... at line L:C")."""
    if text.startswith("\ufeff"):
        raise SpecInputError(
            "Invalid JSON: the text starts with a byte order mark (U+FEFF); save it as UTF-8"
            " without one"
        )
    try:
        try:
            return json.loads(text, parse_constant=_reject_constant)
        except SpecInputError:
            raise
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer of more digits than Python converts
            return json.loads(text, parse_constant=_reject_constant, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise _invalid(exc) from None
    except RecursionError:  # nested deeper than Python's recursive scanner goes
        return _parse_deep(text)


_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?")
_LITERALS = (("true", True), ("false", False), ("null", None))
_CONSTANTS = ("NaN", "Infinity", "-Infinity")


def _parse_deep(text: str) -> Any:  # noqa: C901 - one JSON grammar, as a loop
    """`json.loads` of `text` without recursion, for any depth: the same values (the last of
    duplicate keys, in the first one's place), the same errors (`json.JSONDecodeError`'s
    messages and positions), big integers as in `parse_json_text`."""
    end = len(text)

    def space(at: int) -> int:
        found = _SPACE.match(text, at)  # zero or more spaces: always a match
        return found.end() if found is not None else at

    stack: list[tuple[Any, str | None]] = []  # open containers, each with its pending key

    def fail(message: str, at: int) -> SpecInputError:
        return _invalid(json.JSONDecodeError(message, text, at))

    def key_at(at: int) -> tuple[str, int]:
        if text[at : at + 1] != '"':
            raise fail("Expecting property name enclosed in double quotes", at)
        try:
            key, at = scanstring(text, at + 1, True)
        except json.JSONDecodeError as exc:
            raise _invalid(exc) from None
        at = space(at)
        if text[at : at + 1] != ":":
            raise fail("Expecting ':' delimiter", at)
        return key, space(at + 1)

    at = space(0)
    while True:
        # A value starts at `at`; containers are opened here and closed below.
        char = text[at : at + 1]
        value: Any
        if char == "{" or char == "[":
            container: Any = {} if char == "{" else []
            at = space(at + 1)
            if text[at : at + 1] != ("}" if char == "{" else "]"):
                if char == "{":
                    key, at = key_at(at)
                    stack.append((container, key))
                else:
                    stack.append((container, None))
                continue
            value, at = container, at + 1
        elif char == '"':
            try:
                value, at = scanstring(text, at + 1, True)
            except json.JSONDecodeError as exc:
                raise _invalid(exc) from None
        else:
            number = _NUMBER.match(text, at)
            if number is not None:
                integer, fraction, exponent = number.groups()
                value = (
                    float(integer + (fraction or "") + (exponent or ""))
                    if fraction or exponent
                    else _integer(integer)
                )
                at = number.end()
            else:
                for word, literal in _LITERALS:
                    if text.startswith(word, at):
                        value, at = literal, at + len(word)
                        break
                else:
                    for word in _CONSTANTS:
                        if text.startswith(word, at):
                            _reject_constant(word)
                    raise fail("Expecting value", at)
        # The value is complete: it goes into its container, and closed containers go up.
        while True:
            at = space(at)
            if not stack:
                if at != end:
                    raise fail("Extra data", at)
                return value
            parent, pending = stack[-1]
            if pending is not None:
                parent[pending] = value
            else:
                parent.append(value)
            closer = "}" if pending is not None else "]"
            char = text[at : at + 1]
            if char == ",":
                at = space(at + 1)
                if pending is not None:
                    next_key, at = key_at(at)
                    stack[-1] = (parent, next_key)
                break
            if char != closer:
                raise fail("Expecting ',' delimiter", at)
            stack.pop()
            value, at = parent, at + 1


def decode_text(data: bytes) -> str:
    """UTF-8 text of spec bytes; SpecInputError for NUL bytes (binary) or invalid UTF-8."""
    nul = data.find(b"\0")
    if nul >= 0:
        raise SpecInputError(f"binary data, not JSON text (NUL byte at offset {nul})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecInputError(f"not UTF-8 text (invalid byte at offset {exc.start})") from None


def parse_spec_text(text: str | bytes) -> dict[str, Any]:
    """A spec object from JSON text; SpecInputError (one line) when it is not one."""
    if isinstance(text, bytes):
        if len(text) > MAX_SPEC_BYTES:
            raise SpecInputError(f"larger than 1 MiB ({len(text):,} bytes)")
        text = decode_text(text)
    else:
        size = len(text.encode("utf-8", "surrogatepass"))  # a lone surrogate: 3 bytes, as in JS
        if size > MAX_SPEC_BYTES:
            raise SpecInputError(f"larger than 1 MiB ({size:,} bytes)")
    value = parse_json_text(text)
    if not isinstance(value, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(value), "a number"
        )
        raise SpecInputError(f"Expected a JSON object (a spec), got {kind}")
    return value


def read_file_bytes(path: str | os.PathLike[str]) -> bytes:
    """A spec file's bytes, at most one more than the spec limit (enough to tell it is over);
    SpecInputError naming the file only when it cannot be read at all."""
    where = Path(path)
    try:
        if where.is_dir():
            raise SpecInputError(f"{where}: is a directory, not a spec file")
        with where.open("rb") as handle:
            return handle.read(MAX_SPEC_BYTES + 1)
    except FileNotFoundError:
        raise SpecInputError(f"{where}: no such file") from None
    except PermissionError:
        raise SpecInputError(f"{where}: permission denied") from None
    except OSError as exc:
        raise SpecInputError(f"{where}: cannot read ({exc.strerror or exc})") from None


def read_spec_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a spec file; SpecInputError naming the file when it cannot be one."""
    data = read_file_bytes(path)
    if len(data) > MAX_SPEC_BYTES:
        raise SpecInputError(f"{Path(path)}: larger than 1 MiB")
    return data


def load_spec_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The spec object in a file; SpecInputError (`FILE: what is wrong`, one line) otherwise."""
    data = read_spec_bytes(path)
    try:
        return parse_spec_text(data)
    except SpecInputError as exc:
        raise SpecInputError(f"{path}: {exc}") from None


def spec_file_bytes(spec: Any) -> bytes:
    """The bytes a spec is stored as (library, `agent --out`): 2-space indented with a final
    newline for people to read when that fits the 1 MiB spec limit; otherwise compact, exactly
    `JSON.stringify(spec)` (`studio.spec.size.stringify`), the very bytes the validator counts
    for an object. So a spec the validator accepted is always stored within the limit, and read
    back by any reader that enforces it (the studio's own, AutoMobile's)."""
    from studio.spec.binding import escape_lone_surrogates
    from studio.spec.size import stringify

    text = json.dumps(spec, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    data = escape_lone_surrogates(text).encode("utf-8")
    if len(data) <= MAX_SPEC_BYTES:
        return data
    return stringify(spec).encode("utf-8")
