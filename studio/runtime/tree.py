"""Walking a spec's node tree: child nodes with their addresses, pagers, repeat instances."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from studio.runtime.bindings import bind_node

Node = Mapping[str, Any]

CONTAINERS = frozenset({"box", "row", "column"})  # the node types that may carry `repeat`


def child_nodes(node: Node, address: str) -> list[tuple[Node, str]]:
    """A node's own child nodes (template children for a repeat) with their addresses."""
    single = node.get("child")
    if isinstance(single, Mapping):
        return [(single, f"{address}.child")]
    children = node.get("children")
    if not isinstance(children, list):
        return []
    return [
        (c, f"{address}.children[{i}]") for i, c in enumerate(children) if isinstance(c, Mapping)
    ]


def repeat_of(node: Node) -> tuple[str, list[Mapping[str, Any]]] | None:
    """`(alias, items)` of a container's `repeat`, or None."""
    repeat = node.get("repeat")
    if node.get("type") not in CONTAINERS or not isinstance(repeat, Mapping):
        return None
    alias, items = repeat.get("as"), repeat.get("items")
    if not isinstance(alias, str) or not isinstance(items, list):
        return None
    return alias, [item for item in items if isinstance(item, Mapping)]


def scope_for(alias: str, item: Mapping[str, Any], index: int) -> dict[str, Any]:
    """The scope of one repeat instance, as `Runtime.instances` hands it out."""
    return {"as": alias, "item": dict(item), "index": index}


def instances(node: Node) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """One `(bound node, scope)` per repeat item, `repeat` removed and the template children
    bound; `[(node, {})]` for a node without `repeat`. The container's own fields are not bound
    (only its template is), and the instances' children are siblings in the one container."""
    found = repeat_of(node)
    if found is None:
        return [(dict(node), {})]
    alias, items = found
    result: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for index, item in enumerate(items):
        scope = scope_for(alias, item, index)
        bound = {k: v for k, v in node.items() if k != "repeat"}
        bound["children"] = [
            bind_node(c, scope) for c in node.get("children", []) if isinstance(c, Mapping)
        ]
        result.append((bound, scope))
    return result


def expanded_children(
    node: Node, address: str, scope: Mapping[str, Any] | None = None
) -> list[tuple[Node, str, Mapping[str, Any] | None]]:
    """The children a node renders, repeat expanded: `(child, address, scope)`. A repeat
    instance's child keeps its template address (what the spec tools edit); its scope says
    which item it is."""
    if repeat_of(node) is None:
        return [(child, at, scope) for child, at in child_nodes(node, address)]
    out: list[tuple[Node, str, Mapping[str, Any] | None]] = []
    for bound, item_scope in instances(node):
        out.extend((child, at, item_scope) for child, at in child_nodes(bound, address))
    return out


def walk(
    node: Node, address: str = "root", scope: Mapping[str, Any] | None = None
) -> Iterator[tuple[Node, str, Mapping[str, Any] | None]]:
    """Every node with its address and repeat scope, parents first, repeat expanded."""
    yield node, address, scope
    for child, at, child_scope in expanded_children(node, address, scope):
        yield from walk(child, at, child_scope)


def pager_counts(root: Node) -> dict[str, int]:
    """Page count of every pager, by id (pagers never sit inside a repeat template)."""
    counts: dict[str, int] = {}
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if node.get("type") == "pager" and isinstance(node.get("id"), str):
            children = node.get("children")
            counts[node["id"]] = len(children) if isinstance(children, list) else 0
        stack.extend(child for child, _ in child_nodes(node, ""))
    return counts
