"""Reading spec JSON strictly and validating a spec before the library stores it (the bytes a spec
is stored as are `studio.spec.io.spec_file_bytes`)."""

from __future__ import annotations

import json
from typing import Any

from studio.library.errors import InvalidSpec, LibraryError

MAX_SPEC_BYTES = 1_048_576
"""AutoMobile's spec byte limit: no spec file or bundle entry beyond it is even parsed."""

JSON = dict[str, Any]


def _no_duplicates(pairs: list[tuple[str, Any]]) -> JSON:
    out: JSON = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(data: bytes | str, where: str) -> Any:
    """Strict JSON (UTF-8, no NaN/Infinity, no duplicate keys); LibraryError names `where`."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise LibraryError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise LibraryError(
            f"{where}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise LibraryError(f"{where}: not JSON ({exc})") from None


def parse_spec(data: bytes | str, where: str) -> JSON:
    """A spec from JSON text, size-capped and checked to be an object (not yet validated).

    Read exactly as the validator reads text (`studio.spec.io.parse_json_text`: a duplicate key
    keeps its last value, a byte order mark is not JSON, ...), so importing a file and
    `proto-studio validate` on it give the same verdict."""
    from studio.spec.errors import SpecInputError
    from studio.spec.io import decode_text, parse_json_text

    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_SPEC_BYTES:
        raise LibraryError(f"{where}: {size} bytes; a spec is at most {MAX_SPEC_BYTES} bytes")
    try:
        spec = parse_json_text(decode_text(data) if isinstance(data, bytes) else data)
    except SpecInputError as exc:
        raise LibraryError(f"{where}: {exc}") from None
    if not isinstance(spec, dict):
        raise InvalidSpec(where, "$", "Expected object")
    return spec


def check_spec(spec: Any, where: str = "") -> JSON:
    """Validate with the studio's validator; InvalidSpec (path and message) when refused."""
    from studio.spec import validate

    if not isinstance(spec, dict):
        raise InvalidSpec(where, "$", "Expected object")
    result = validate(spec)
    if not result.ok:
        raise InvalidSpec(where, str(result.path or "$"), str(result.message))
    return spec
