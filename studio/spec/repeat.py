"""Repeat instances for the runtime and preview: a container's template bound once per item.

A box/row/column with `repeat: {items, as}` renders its children once per item, the instances
being siblings (items × children, item-major). Each instance is bound the way the device binds
it (`{alias.field}`, `{index}`, typed single placeholders in operands; see `studio.spec.binding`).
The spec must already be valid (the validator checks fields, nested repeats and limits).
"""

from __future__ import annotations

from typing import Any

from studio.spec.binding import Binding, Instance, Raw, bind_node_fields, record
from studio.spec.tree import children, map_children


def repeat_binding(node: Raw) -> tuple[Binding, list[Raw]] | None:
    """The binding and items of a container's `repeat`, or None when it has none."""
    repeat = record(node.get("repeat"))
    if repeat is None or not isinstance(repeat.get("as"), str):
        return None
    items = repeat.get("items")
    entries = [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []
    return Binding(repeat["as"], index=True), entries


def bind_tree(node: Raw, instance: Instance) -> Raw:
    """A deep-bound copy of a template node: its own bindable fields and every descendant's."""
    bound = bind_node_fields(node, instance)
    return map_children(bound, "", lambda child, _: bind_tree(child, instance))


def repeat_instances(node: Raw) -> list[tuple[Raw, dict[str, Any]]]:
    """Every instance of a repeat container's template, in render order, with its scope
    `{alias: item, "index": i}`. A node without `repeat` yields its children unchanged with an
    empty scope, so callers can treat both alike."""
    kids = [child for child, _ in children(node)]
    found = repeat_binding(node)
    if found is None:
        return [(child, {}) for child in kids]
    binding, items = found
    out: list[tuple[Raw, dict[str, Any]]] = []
    for index, item in enumerate(items):
        instance = Instance(binding, item, index)
        scope = {binding.alias: item, "index": index}
        out.extend((bind_tree(child, instance), scope) for child in kids)
    return out


def expand_repeat(node: Raw) -> Raw:
    """A copy of a repeat container with its instances as plain children and no `repeat`."""
    if repeat_binding(node) is None:
        return node
    copy = {k: v for k, v in node.items() if k != "repeat"}
    copy["children"] = [child for child, _ in repeat_instances(node)]
    return copy
