"""A spec's node tree: which fields hold child nodes, node paths and their parsing, walking in
document order, and finding or replacing a node by path or id.

The one rule for child nodes is AutoMobile's (`prototypeRepeat.ts` `childrenOf`): a node's
children are its `child` when that is an object, otherwise the objects in its `children`. The
contract never declares both fields on one node type (`child`: scroll, bottomSheet, dialog;
`children`: box, row, column, card, pager), so on a valid spec the rule only says which one;
on an invalid node that has both, every part of the studio sees the same single list.

Paths use AutoMobile's syntax: `root`, `root.children[0].child`; `PATH` is the one pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

__all__ = [
    "PATH",
    "child_nodes",
    "child_path",
    "children",
    "find_id",
    "is_node",
    "is_path",
    "map_children",
    "node_at",
    "path_steps",
    "replace_node",
    "root_of",
    "walk",
]

NodeT = TypeVar("NodeT", bound=Mapping[str, Any])
Step = str | int  # "child", or an index into `children`
Entry = tuple[str, Any, int, str | None]  # (path, node, depth, parent path)

#: A node path: `root`, then `.child` or `.children[i]` steps (no leading zeros).
PATH = re.compile(r"root(?:\.child(?!ren)|\.children\[(?:0|[1-9][0-9]*)\])*")
_STEP = re.compile(r"\.child(?!ren)|\.children\[(0|[1-9][0-9]*)\]")


def is_node(value: object) -> bool:
    """True for a JSON object (a dict, or any mapping the runtime hands around)."""
    return type(value) is dict or isinstance(value, Mapping)  # the common case first: no ABC


def children(node: NodeT, path: str = "") -> list[tuple[NodeT, str]]:
    """The node's child nodes with their paths: `child` when it is an object, else the objects
    in `children` (non-objects skipped, their indices kept)."""
    single: Any = node.get("child")
    if is_node(single):
        return [(single, f"{path}.child")]
    entries = node.get("children")
    if not isinstance(entries, list):
        return []
    return [(c, f"{path}.children[{i}]") for i, c in enumerate(entries) if is_node(c)]


def child_nodes(node: Mapping[str, Any]) -> list[Any]:
    """The node's child nodes by the same rule as `children`, without their paths (for walks
    that need no path: half the cost on a large spec)."""
    single: Any = node.get("child")
    if is_node(single):
        return [single]
    entries = node.get("children")
    if not isinstance(entries, list):
        return []
    return [c for c in entries if is_node(c)]


def map_children(node: dict[str, Any], path: str, fn: Callable[[Any, str], Any]) -> dict[str, Any]:
    """A shallow copy of `node` whose child nodes (by the same rule as `children`) are replaced
    by `fn(child, child_path)`; non-object entries of `children` are kept as they are."""
    single = node.get("child")
    if is_node(single):
        return {**node, "child": fn(single, f"{path}.child")}
    entries = node.get("children")
    if not isinstance(entries, list):
        return dict(node)
    mapped = [fn(c, f"{path}.children[{i}]") if is_node(c) else c for i, c in enumerate(entries)]
    return {**node, "children": mapped}


def child_path(path: str, step: Step) -> str:
    """The path one step below `path` (`"child"` or a `children` index)."""
    return f"{path}.child" if step == "child" else f"{path}.children[{step}]"


def is_path(text: object) -> bool:
    """True when `text` is written as a node path (`root...`)."""
    return isinstance(text, str) and PATH.fullmatch(text) is not None


def path_steps(path: str) -> list[Step]:
    """`root.children[2].child` -> [2, "child"]; ValueError for anything but a node path."""
    if not is_path(path):
        raise ValueError(f"not a node path: {path!r}")
    return [int(m.group(1)) if m.group(1) is not None else "child" for m in _STEP.finditer(path, 4)]


def root_of(spec: object) -> Any:
    """The spec's root node, or None when it has none."""
    root = spec.get("root") if isinstance(spec, dict) else None
    return root if is_node(root) else None


def _step(node: Mapping[str, Any], step: Step) -> Any:
    single = node.get("child")
    if step == "child":
        return single if is_node(single) else None
    if is_node(single):
        return None  # a node with a `child` object has no `children` (the one rule)
    entries = node.get("children")
    assert isinstance(step, int)
    if isinstance(entries, list) and step < len(entries) and is_node(entries[step]):
        return entries[step]
    return None


def node_at(spec: object, path: str) -> Any:
    """The node at a node path, or None when the path is not one or names no node."""
    node = root_of(spec)
    if node is None or not is_path(path):
        return None
    for step in path_steps(path):
        node = _step(node, step)
        if node is None:
            return None
    return node


def walk(spec: object) -> Iterator[Entry]:
    """Every node in document order (pre-order) as (path, node, depth, parent path); the root
    has depth 0 and parent None. Iterative, so any depth is walked."""
    root = root_of(spec)
    if root is None:
        return
    stack: list[Entry] = [("root", root, 0, None)]
    while stack:
        entry = stack.pop()
        yield entry
        path, node, depth, _ = entry
        kids = children(node, path)
        stack.extend((at, child, depth + 1, path) for child, at in reversed(kids))


def walk_all(spec: object) -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, node) of every node of the spec's tree and of each of its `components` (their
    paths `components.NAME.root...`), in document order."""
    if not isinstance(spec, dict):
        return
    holders: list[tuple[str, Any]] = [("", spec)]
    components = spec.get("components")
    if isinstance(components, dict):
        holders += [(f"components.{name}", c) for name, c in components.items()]
    for prefix, holder in holders:
        for path, node, _, _ in walk(holder):
            yield (f"{prefix}.{path}" if prefix else path), node


def find_id(spec: object, node_id: str) -> tuple[str, Any] | None:
    """(path, node) of the first node in document order whose `id` is `node_id`, or None."""
    for path, node, _, _ in walk(spec):
        if node.get("id") == node_id:
            return path, node
    return None


def replace_node(spec: dict[str, Any], path: str, node: Any) -> tuple[dict[str, Any], Any]:
    """(a copy of spec with the node at `path` replaced by `node`, the node that was there).
    Only the objects along the path are copied; every other subtree is shared. ValueError when
    `path` names no node of the spec."""
    steps = path_steps(path)
    # The node and its ancestors along the path (one walk), then each ancestor copied with its
    # one changed child, bottom up.
    chain: list[Any] = [root_of(spec)]
    for step in steps:
        if chain[-1] is None:
            break
        chain.append(_step(chain[-1], step))
    old = chain.pop()
    if old is None:
        raise ValueError(f"{path} does not address a node")
    replacement: Any = node
    for parent, step in zip(reversed(chain), reversed(steps), strict=True):
        copy = dict(parent)
        if step == "child":
            copy["child"] = replacement
        else:
            assert isinstance(step, int)
            entries = list(parent["children"])
            entries[step] = replacement
            copy["children"] = entries
        replacement = copy
    patched = dict(spec)
    patched["root"] = replacement
    return patched, old
