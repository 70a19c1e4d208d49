"""What the library can write: JSON text in UTF-8, and one-line errors that name the place when
a value cannot be (a lone surrogate, NaN/Infinity, nesting too deep) or the disk is full.

A lone surrogate (`"\\ud800"`, which JSON text and Python strings allow) is not a Unicode scalar
value: it has no UTF-8 form, so it can be neither saved nor sent to a phone. Values the library
stores for the user (specs, names, drafts) refuse it, naming the path; an index field this build
does not know is kept, written back as the same `\\ud800` escape it was read from.
"""

from __future__ import annotations

import errno
import json
import math
import re
from pathlib import Path
from typing import Any

from studio.library.errors import LibraryError, NotEnoughSpace, UnstorableText
from studio.spec.binding import child_path

_SURROGATE = re.compile("[\ud800-\udfff]")
#: errno values that mean "the disk (or the user's quota) is full".
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def find_unstorable(value: Any) -> tuple[str, str] | None:
    """The first place in `value` that cannot be written as UTF-8 JSON, as (path, reason), in
    document order; None when everything can. Iterative, so any depth is walked."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        shown = path or "$"
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return shown, f"holds a lone surrogate ({_code(found.group())}), which is not text"
        elif isinstance(item, float) and not math.isfinite(item):
            return shown, f"holds {item!r}, which JSON cannot represent"
        elif isinstance(item, dict):
            children: list[tuple[str, Any]] = []
            for key, child in item.items():
                key_text = str(key)
                where = child_path(path, key_text)
                found = _SURROGATE.search(key_text)
                if found:
                    return where, f"its key holds a lone surrogate ({_code(found.group())})"
                children.append((where, child))
            stack.extend(reversed(children))
        elif isinstance(item, list | tuple):
            stack.extend(reversed([(f"{shown}[{i}]", c) for i, c in enumerate(item)]))
    return None


def check_storable(value: Any, where: str) -> None:
    """UnstorableText (`where: path: reason`) when `value` holds a lone surrogate or NaN."""
    found = find_unstorable(value)
    if found is not None:
        path, reason = found
        raise UnstorableText(f"{where}: {path}: {reason}" if where else f"{path}: {reason}", path)


def check_name(name: str, what: str = "a prototype name") -> None:
    """UnstorableText when a one-line name (prototype, manifest) holds a lone surrogate."""
    found = _SURROGATE.search(name)
    if found:
        raise UnstorableText(
            f"{what} holds a lone surrogate ({_code(found.group())}) at character "
            f"{found.start() + 1}, which is not text"
        )


def _escape_surrogates(text: str) -> str:
    # A raw lone surrogate can only stand inside a JSON string here, where its escape means it.
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_bytes(
    value: Any, *, compact: bool = False, where: str = "", escape_surrogates: bool = False
) -> bytes:
    """`value` as the library's JSON text (UTF-8, a final newline; 2-space indented unless
    `compact`). UnstorableText naming `where` and the path instead of UnicodeEncodeError,
    ValueError (NaN) or RecursionError. `escape_surrogates` writes lone surrogates as `\\udXXX`
    (for fields kept as they were read) instead of refusing them."""
    try:
        if compact:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise UnstorableText(f"{where or 'value'}: nested too deeply to save") from None
    except ValueError:
        check_storable(value, where)
        raise UnstorableText(f"{where or 'value'}: cannot be written as JSON") from None
    text += "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        if escape_surrogates:
            return _escape_surrogates(text).encode("utf-8")
        check_storable(value, where)
        raise UnstorableText(f"{where or 'value'}: cannot be written as UTF-8") from None


def write_failed(exc: OSError, what: str, folder: Path | str) -> LibraryError:
    """The one-line error for a failed write of `what` into `folder`: NotEnoughSpace ("not
    enough space to save <what> in <folder>") on a full disk or quota, else the OS's reason."""
    if exc.errno in NO_SPACE:
        return NotEnoughSpace(f"not enough space to save {what} in {folder}")
    return LibraryError(f"cannot save {what} in {folder} ({exc.strerror or exc})")
