"""The studio's `platform` action (architecture decision 2): requests, argument resolution, and
writing results into the `data` object at a `/data/...` JSON pointer."""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from studio.runtime.bindings import bind_text

Status = Literal["ok", "denied", "cancelled", "error"]
STATUSES: tuple[Status, ...] = ("ok", "denied", "cancelled", "error")


class PlatformActionError(ValueError):
    """A platform action that cannot be issued (bad argument reference, bad `into`), one line."""


@dataclass(frozen=True)
class PlatformRequest:
    """A platform call the host must run, then answer with `Runtime.resolve_platform`.

    `args` are resolved from state and data at the moment the action ran."""

    call: str
    args: Mapping[str, Any]
    into: str | None
    status_key: str | None
    request_id: str

    @property
    def module(self) -> str:
        """The module part of `call` (`"units"` for `"units.convert"`)."""
        return self.call.split(".", 1)[0]


def pointer_tokens(pointer: str) -> list[str]:
    """The reference tokens of a `/data/...` pointer below `data` (RFC 6901 unescaped).
    Hand-written: the pointer grammar is five lines, a dependency is not worth it."""
    if pointer == "/data":
        return []
    if not pointer.startswith("/data/"):
        raise PlatformActionError(f"pointer {pointer!r} must start with /data/")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[len("/data/") :].split("/")]


def read_pointer(data: Mapping[str, Any], pointer: str) -> Any:
    """The value at a `/data/...` pointer; PlatformActionError when it does not exist."""
    node: Any = data
    for token in pointer_tokens(pointer):
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise PlatformActionError(f"no data at {pointer!r}")
    return copy.deepcopy(node)


def write_pointer(data: dict[str, Any], pointer: str, value: Any) -> None:
    """Writes `value` at a `/data/...` pointer, creating missing objects on the way; an array
    index replaces an element and `-` appends. PlatformActionError when the path cannot hold it."""
    tokens = pointer_tokens(pointer)
    if not tokens:
        if not isinstance(value, dict):
            raise PlatformActionError("only an object can replace /data itself")
        data.clear()
        data.update(copy.deepcopy(value))
        return
    node: Any = data
    for depth, token in enumerate(tokens):
        last = depth == len(tokens) - 1
        if isinstance(node, dict):
            if last:
                node[token] = copy.deepcopy(value)
                return
            node = node.setdefault(token, {})
        elif isinstance(node, list):
            if token == "-" and last:
                node.append(copy.deepcopy(value))
                return
            if not token.isdigit() or int(token) >= len(node):
                raise PlatformActionError(f"{pointer!r}: no array element {token!r}")
            if last:
                node[int(token)] = copy.deepcopy(value)
                return
            node = node[int(token)]
        else:
            raise PlatformActionError(f"{pointer!r}: cannot write below a {type(node).__name__}")


def check_into(into: object) -> str | None:
    """A valid `into` pointer (or None when absent); PlatformActionError otherwise."""
    if into is None:
        return None
    if not isinstance(into, str) or into == "/data":
        raise PlatformActionError(f"into must be a /data/... pointer, got {into!r}")
    pointer_tokens(into)
    return into


def resolve_args(
    args: Mapping[str, Any] | None, state: Mapping[str, Any], data: Mapping[str, Any]
) -> dict[str, Any]:
    """Arguments with references replaced by current values: `{"state": KEY}` by the key's
    value, `{"data": POINTER}` by the data there, `{"time": {"hour": KEY, "minute": KEY}}` by
    "HH:MM" (zero-padded) and `{"chips": {VALUE: KEY, ...}}` by the VALUEs whose boolean key is
    true, in the order written; any other value is a literal, whose text (at any depth) has its
    placeholders bound as display text is (`{key}` state, `{/data/...}` data; unknown stays as
    written), so what the host runs, and the user is asked about, is what the prototype shows.
    PlatformActionError for an undeclared key, a key holding the wrong type, or missing data."""
    resolved: dict[str, Any] = {}
    for name, arg in (args or {}).items():
        kind = next(iter(arg)) if isinstance(arg, Mapping) and len(arg) == 1 else None
        if kind == "state" and isinstance(arg["state"], str):
            resolved[name] = _state_value(name, arg["state"], state)
        elif kind == "data" and isinstance(arg["data"], str):
            try:
                resolved[name] = read_pointer(data, arg["data"])
            except PlatformActionError as error:
                raise PlatformActionError(f"argument {name!r}: {error}") from None
        elif kind == "time":
            resolved[name] = _time_value(name, arg["time"], state)
        elif kind == "chips":
            resolved[name] = _chips_value(name, arg["chips"], state)
        else:
            resolved[name] = _bind_literal(arg, state, data)
    return resolved


def _bind_literal(value: Any, state: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
    """A copy of a literal argument with the placeholders of its strings bound."""
    if isinstance(value, str):
        return bind_text(value, state, data=data) if "{" in value else value
    if isinstance(value, Mapping):
        return {k: _bind_literal(v, state, data) for k, v in value.items()}
    if isinstance(value, list):
        return [_bind_literal(v, state, data) for v in value]
    return copy.deepcopy(value)


def _state_value(name: str, key: str, state: Mapping[str, Any]) -> Any:
    if key not in state:
        raise PlatformActionError(f"argument {name!r}: state key {key!r} is not declared")
    return state[key]


def _time_value(name: str, ref: Any, state: Mapping[str, Any]) -> str:
    """ "HH:MM" from the two integer keys a timePicker writes."""
    if (
        not isinstance(ref, Mapping)
        or set(ref) != {"hour", "minute"}
        or not all(isinstance(k, str) for k in ref.values())
    ):
        raise PlatformActionError(
            f'argument {name!r}: a time reference is {{"hour": KEY, "minute": KEY}}'
        )
    parts: list[int] = []
    for part, top in (("hour", 23), ("minute", 59)):
        value = _state_value(name, ref[part], state)
        whole = (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and float(value).is_integer()
        )
        if not whole or not 0 <= value <= top:
            raise PlatformActionError(
                f"argument {name!r}: time {part} key {ref[part]!r} holds {value!r}, "
                f"not an integer 0..{top}"
            )
        parts.append(int(value))
    return f"{parts[0]:02d}:{parts[1]:02d}"


def _chips_value(name: str, ref: Any, state: Mapping[str, Any]) -> list[Any]:
    """The chip values whose boolean key is true, in the order the reference lists them."""
    if not isinstance(ref, Mapping) or not all(isinstance(k, str) for k in ref.values()):
        raise PlatformActionError(
            f"argument {name!r}: a chips reference is {{VALUE: boolean state key, ...}}"
        )
    chosen: list[Any] = []
    for value, key in ref.items():
        on = _state_value(name, key, state)
        if not isinstance(on, bool):
            raise PlatformActionError(
                f"argument {name!r}: chip {value!r} key {key!r} holds {on!r}, not a boolean"
            )
        if on:
            chosen.append(value)
    return chosen
