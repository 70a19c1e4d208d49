"""State keys across a spec: where each is used, renaming one with every use updated, and the
kind of value each use needs (the state editor's reading and writing).

A key is used where a field names it (`stateKey`, `hourKey`, `minuteKey`, a condition's or a
state action's `key`, a modal's `openWhen.key`, a list item's `trailing.stateKey`, a platform
action's `statusKey` and `{"state": KEY}` arguments) and where a text shows it as a `{key}`
placeholder (AutoMobile's template grammar, `studio.runtime.bindings.scan`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from studio.spec import tree
from studio.spec.binding import is_state_key

__all__ = ["Use", "rename_key", "uses", "uses_by_key"]

JSON = dict[str, Any]
KEY_FIELDS = frozenset({"stateKey", "hourKey", "minuteKey", "key", "statusKey"})
#: Fields whose values are free JSON (an emit payload): never read as keys or placeholders.
FREE_FIELDS = frozenset({"payload"})


@dataclass(frozen=True)
class Use:
    """One use of a key: the node's path (in `root`, or `components.NAME` for a component's)
    and where in the node (`stateKey`, `visibleWhen.all[0].key`, `text`)."""

    path: str
    where: str


def _placeholder(key: str) -> re.Pattern[str]:
    return re.compile(r"\{" + re.escape(key) + r"\}")


Visit = Callable[[Any, str, str], Any]  # (value, where, kind "key" | "text") -> new value


def _map_value(value: Any, where: str, visit: Visit, field_name: str) -> Any:
    if isinstance(value, str):
        if field_name in KEY_FIELDS:
            return visit(value, where, "key")
        return visit(value, where, "text")
    if isinstance(value, dict):
        if set(value) == {"state"} and isinstance(value["state"], str):
            return {"state": visit(value["state"], f"{where}.state", "key")}
        out = {}
        for key, inner in value.items():
            if key in FREE_FIELDS:
                out[key] = inner
                continue
            out[key] = _map_value(inner, f"{where}.{key}", visit, key)
        return out
    if isinstance(value, list):
        return [_map_value(v, f"{where}[{i}]", visit, field_name) for i, v in enumerate(value)]
    return value


def _map_node(node: JSON, visit: Visit) -> JSON:
    """A copy of one node whose own fields (not its child nodes) went through `visit`."""
    out: JSON = {}
    for key, value in node.items():
        if key in ("child", "children", "type") or key in FREE_FIELDS:
            out[key] = value
        elif key == "repeat":
            out[key] = value  # item data, not bindings
        else:
            out[key] = _map_value(value, key, visit, key)
    return out


def _trees(spec: JSON) -> Iterator[tuple[str, JSON]]:
    """(prefix, holder) of every node tree: the spec's root and each component's."""
    yield "", spec
    components = spec.get("components")
    if isinstance(components, dict):
        for name, definition in components.items():
            if isinstance(definition, dict):
                yield f"components.{name}", definition


def uses(spec: JSON, key: str) -> list[Use]:
    """Every use of `key`, in document order (the spec's root first, then its components)."""
    found: list[Use] = []
    pattern = _placeholder(key)
    for prefix, holder in _trees(spec):
        for path, node, _, _ in tree.walk(holder):
            at = f"{prefix}.{path}" if prefix else path

            def visit(value: Any, where: str, kind: str, at: str = at) -> Any:
                if (kind == "key" and value == key) or (kind == "text" and pattern.search(value)):
                    found.append(Use(at, where))
                return value

            _map_node(node, visit)
    return found


def uses_by_key(spec: JSON) -> dict[str, list[Use]]:
    """The uses of every declared state key."""
    declared = spec.get("state")
    keys = list(declared) if isinstance(declared, dict) else []
    return {key: uses(spec, key) for key in keys}


def rename_key(spec: JSON, old: str, new: str) -> JSON:
    """A copy of the spec with state key `old` declared as `new` (same value and place) and
    every use renamed. ValueError (one line) when `new` is not a key or is taken."""
    declared = spec.get("state")
    if not isinstance(declared, dict) or old not in declared:
        raise ValueError(f"state key {old!r} is not declared")
    if not is_state_key(new):
        raise ValueError(
            f"{new!r} is not a state key: letters, digits and _ (not first a digit), at most 64"
        )
    if new != old and new in declared:
        raise ValueError(f"state key {new!r} is already declared")
    pattern = _placeholder(old)

    def visit(value: Any, _where: str, kind: str) -> Any:
        if kind == "key":
            return new if value == old else value
        return pattern.sub(lambda _m: "{" + new + "}", value)

    def rename_tree(node: Any, path: str) -> Any:
        return tree.map_children(_map_node(node, visit), path, rename_tree)

    out = dict(spec)
    out["state"] = {(new if k == old else k): v for k, v in declared.items()}
    root = tree.root_of(spec)
    if root is not None:
        out["root"] = rename_tree(root, "root")
    components = spec.get("components")
    if isinstance(components, dict):
        renamed: JSON = {}
        for name, definition in components.items():
            if isinstance(definition, dict) and tree.is_node(definition.get("root")):
                renamed[name] = {**definition, "root": rename_tree(definition["root"], "root")}
            else:
                renamed[name] = copy.deepcopy(definition)
        out["components"] = renamed
    return out
