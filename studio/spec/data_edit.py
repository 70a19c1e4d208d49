"""Editing the spec's top-level `data` (studio extension, architecture decision 2) by hand: a
value's kind and text, and add, rename, remove and set at a path of keys and list indexes.

`data` is a JSON object addressed by `/data/...` pointers: `{/data/...}` placeholders in texts
(`studio.runtime.bindings.data_pointer`), platform `args` (`{"data": POINTER}`) and a call's
`into` (`studio.runtime.platform_calls`). Each function reads the value and returns a changed
copy; nothing here validates the spec (the workspace's gate does), but what cannot be a value
of its kind (a number that is not one, a key taken twice) is a `DataError`, one line naming the
place (`data.profile.age: 'ten' is not a number`). Qt-free: the data panel is made from these.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "KINDS",
    "DataError",
    "DataUse",
    "Path",
    "add",
    "convert",
    "get_at",
    "kind_of",
    "parse_value",
    "placeholder",
    "pointer",
    "remove",
    "rename",
    "set_at",
    "show_value",
    "uses",
    "uses_of",
    "where",
]

Kind = Literal["text", "number", "boolean", "null", "object", "list"]
#: The kinds a data value can have, in the order the type picker lists them.
KINDS: tuple[Kind, ...] = ("text", "number", "boolean", "null", "object", "list")
Path = tuple[str | int, ...]


class DataError(ValueError):
    """A data edit that cannot be made; the message is one line naming the place."""


def kind_of(value: Any) -> Kind:
    """The kind of a JSON value (a bool is a boolean, not a number)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "list"
    return "null"


def where(path: Path) -> str:
    """The place of `path` as the validator names it: `data.profile.tags[0]`."""
    out = "data"
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}"
    return out


def pointer(path: Path) -> str:
    """The RFC 6901 pointer of `path` (`/data/profile/tags/0`), `~` and `/` escaped."""
    parts = [str(s).replace("~", "~0").replace("/", "~1") for s in path]
    return "/data" + "".join(f"/{p}" for p in parts)


def placeholder(path: Path) -> str:
    """The text placeholder that shows the value at `path` (`{/data/profile/name}`)."""
    return "{" + pointer(path) + "}"


def show_value(value: Any) -> str:
    """The text the value column shows: text as is, numbers as written, the rest as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float):
        return str(value)
    if value is None:
        return "null"
    count = len(value)
    noun = ("key" if isinstance(value, dict) else "item") + ("" if count == 1 else "s")
    return f"{count} {noun}"


def parse_value(kind: Kind, text: str, path: Path = ()) -> Any:
    """The value of `text` typed for a value of `kind`; DataError when it is not one."""
    if kind == "text":
        return text
    stripped = text.strip()
    if kind == "number":
        try:
            number = float(stripped)
        except ValueError:
            raise DataError(f"{where(path)}: {text!r} is not a number") from None
        if not math.isfinite(number):
            raise DataError(f"{where(path)}: {text!r} is not a finite number")
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if kind == "boolean":
        if stripped not in ("true", "false"):
            raise DataError(f"{where(path)}: true or false, not {text!r}")
        return stripped == "true"
    if kind == "null":
        return None
    try:
        value = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise DataError(f"{where(path)}: not valid JSON ({exc.msg}, column {exc.colno})") from None
    if kind_of(value) != kind:
        raise DataError(f"{where(path)}: expected {'an' if kind == 'object' else 'a'} {kind}")
    return value


def convert(value: Any, kind: Kind) -> Any:
    """`value` changed to `kind` keeping what carries over (text "3" to the number 3, a number
    to its text); what does not (an object to a number) becomes the kind's empty value."""
    if kind_of(value) == kind:
        return value
    text = show_value(value) if kind_of(value) not in ("object", "list", "null") else ""
    if kind == "text":
        return text
    if kind == "number":
        try:
            return parse_value("number", text)
        except DataError:
            return 0
    if kind == "boolean":
        return text.strip() == "true"
    if kind == "object":
        return {}
    if kind == "list":
        return []
    return None


def get_at(data: Any, path: Path) -> Any:
    """The value at `path`; DataError when there is none."""
    value = data
    for step in path:
        in_list = isinstance(step, int) and isinstance(value, list) and 0 <= step < len(value)
        in_object = isinstance(step, str) and isinstance(value, dict) and step in value
        if not (in_list or in_object):
            raise DataError(f"{where(path)}: no such value")
        value = value[step]
    return value


def _parent(data: dict[str, Any], path: Path) -> tuple[dict[str, Any], Any]:
    """A copy of `data` and the (copied) container that holds `path`'s last step."""
    if not path:
        raise DataError("data: the data object itself has no key")
    out = copy.deepcopy(data)
    holder = get_at(out, path[:-1])
    get_at(holder, path[-1:])  # it exists
    return out, holder


def set_at(data: dict[str, Any], path: Path, value: Any) -> dict[str, Any]:
    """A copy of `data` with the value at `path` replaced (the whole object at `()`)."""
    if not path:
        if not isinstance(value, dict):
            raise DataError("data: must be an object")
        return copy.deepcopy(value)
    out, holder = _parent(data, path)
    holder[path[-1]] = copy.deepcopy(value)
    return out


def remove(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """A copy of `data` without the value at `path` (a list closes up)."""
    out, holder = _parent(data, path)
    del holder[path[-1]]
    return out


def rename(data: dict[str, Any], path: Path, new: str) -> dict[str, Any]:
    """A copy of `data` with the object member at `path` renamed in place (its order kept)."""
    out, holder = _parent(data, path)
    old = path[-1]
    if not isinstance(holder, dict) or not isinstance(old, str):
        raise DataError(f"{where(path)}: a list item has no name to change")
    if new == old:
        return out
    if new == "":
        raise DataError(f"{where(path)}: a key cannot be empty")
    if new in holder:
        raise DataError(f"{where(path[:-1] + (new,))}: the key is already there")
    renamed = {(new if k == old else k): v for k, v in holder.items()}
    holder.clear()
    holder.update(renamed)
    return out


def add(data: dict[str, Any], container: Path, value: Any = "") -> tuple[dict[str, Any], Path]:
    """A copy of `data` with `value` added to the object or list at `container` (a new key
    `key1`, `key2`... in an object; appended to a list), and the new value's path."""
    out = copy.deepcopy(data)
    holder = get_at(out, container)
    if isinstance(holder, list):
        holder.append(copy.deepcopy(value))
        return out, (*container, len(holder) - 1)
    if not isinstance(holder, dict):
        raise DataError(f"{where(container)}: only an object or a list holds values")
    number = 1
    while f"key{number}" in holder:
        number += 1
    holder[f"key{number}"] = copy.deepcopy(value)
    return out, (*container, f"key{number}")


#: A `{/data/...}` placeholder in a text (as `studio.runtime.bindings.scan` reads tokens: from a
#: brace to the next closing one).
_PLACEHOLDER = re.compile(r"\{(/data/[^{}]*)\}")


@dataclass(frozen=True)
class DataUse:
    """One place that reads or writes `data`: the `pointer`, the node's `path` (in `root` or
    `components.NAME`), `where` in the node, and `how` ("text", "argument" or "into")."""

    pointer: str
    path: str
    where: str
    how: Literal["text", "argument", "into"]


def uses(spec: Any) -> list[DataUse]:
    """Every use of `data` in document order: placeholders in texts, platform arguments that
    read it (`{"data": POINTER}`) and the results calls write (`into`)."""
    from studio.spec import tree

    found: list[DataUse] = []

    def scan(value: Any, at: str, where: str, key: str) -> None:
        if isinstance(value, str):
            if key == "into" and value.startswith("/data"):
                found.append(DataUse(value, at, where, "into"))
                return
            for match in _PLACEHOLDER.finditer(value):
                found.append(DataUse(match.group(1), at, where, "text"))
        elif isinstance(value, dict):
            read = value.get("data")
            if len(value) == 1 and isinstance(read, str):
                found.append(DataUse(read, at, f"{where}.data", "argument"))
                return
            for inner_key, inner in value.items():
                scan(inner, at, f"{where}.{inner_key}", inner_key)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                scan(inner, at, f"{where}[{index}]", key)

    if not isinstance(spec, dict):
        return found
    for at, node in tree.walk_all(spec):
        for key, value in node.items():
            if key not in ("child", "children", "type", "repeat"):
                scan(value, at, key, key)
    return found


def uses_of(found: list[DataUse], path: Path) -> list[DataUse]:
    """The uses that reach the value at `path`: its own pointer, one inside it, or one that
    holds it (a call's `into` writes the whole object)."""
    mine = pointer(path)
    return [
        u
        for u in found
        if u.pointer == mine or u.pointer.startswith(mine + "/") or mine.startswith(u.pointer + "/")
    ]
