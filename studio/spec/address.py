"""Stable node addresses: a node's `id` when it has a usable one, else its AutoMobile path.

Paths use AutoMobile's syntax (`root`, `root.children[0].child`, `root.children[2].children[1]`);
the node-bearing fields are `child` (scroll, bottomSheet, dialog) and `children`. An id is a
node's address only when it is the first node with that id in document order and does not look
like a path (so `root` always means the root); every other node is addressed by its path.
`resolve` accepts either form.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from studio.spec.binding import Raw, record
from studio.spec.errors import SpecError

NodeEntry = tuple[str, Raw, int, str | None]

_PATH = re.compile(r"root(?:\.child|\.children\[(?:0|[1-9][0-9]*)\])*")
_STEP = re.compile(r"\.child(?!ren)|\.children\[(0|[1-9][0-9]*)\]")


def is_path(address: str) -> bool:
    """True when `address` is written as a node path (`root...`)."""
    return _PATH.fullmatch(address) is not None


def node_children(node: Raw, path: str) -> Iterator[tuple[str, Raw]]:
    """A node's child nodes with their paths: `child` (an object), then `children` entries."""
    single = record(node.get("child"))
    if single is not None:
        yield f"{path}.child", single
    children = node.get("children")
    if isinstance(children, list):
        for index, child in enumerate(children):
            if isinstance(child, dict):
                yield f"{path}.children[{index}]", child


def iter_nodes(spec: Any) -> Iterator[NodeEntry]:
    """Every node in document order (pre-order) as (path, node, depth, parent_path);
    the root has depth 0 and parent None."""
    root = record(spec.get("root")) if isinstance(spec, dict) else None
    if root is None:
        return
    stack: list[NodeEntry] = [("root", root, 0, None)]
    while stack:
        path, node, depth, parent = stack.pop()
        yield path, node, depth, parent
        kids = list(node_children(node, path))
        stack.extend((p, n, depth + 1, path) for p, n in reversed(kids))


def _usable_id(node: Raw) -> str | None:
    value = node.get("id")
    return value if isinstance(value, str) and value and not is_path(value) else None


def address_of(path: str, node: Raw) -> str:
    """The node's own address ignoring duplicates: its usable `id`, else its path. Use
    `addresses(spec)` for a whole spec (a duplicated id addresses only its first node)."""
    return _usable_id(node) or path


def addresses(spec: Any) -> dict[str, str]:
    """path -> address for every node of the spec, duplicates of an id falling back to paths."""
    seen: set[str] = set()
    out: dict[str, str] = {}
    for path, node, _, _ in iter_nodes(spec):
        node_id = _usable_id(node)
        if node_id is not None and node_id not in seen:
            seen.add(node_id)
            out[path] = node_id
        else:
            out[path] = path
    return out


def node_at(spec: Any, path: str) -> Raw:
    """The node at an AutoMobile node path; SpecError when there is none."""
    root = record(spec.get("root")) if isinstance(spec, dict) else None
    if root is None or not is_path(path):
        raise _unknown(path)
    node = root
    for step in _STEP.finditer(path, 4):
        if step.group(1) is None:
            child = record(node.get("child"))
        else:
            children = node.get("children")
            index = int(step.group(1))
            child = (
                record(children[index])
                if isinstance(children, list) and index < len(children)
                else None
            )
        if child is None:
            raise _unknown(path)
        node = child
    return node


def resolve(spec: Any, address: str) -> tuple[str, Raw]:
    """(path, node) for an address: a path, or an id (its first node in document order)."""
    if not isinstance(address, str) or not address:
        raise _unknown(str(address))
    if is_path(address):
        return address, node_at(spec, address)
    for path, node, _, _ in iter_nodes(spec):
        if node.get("id") == address:
            return path, node
    raise _unknown(address)


def _unknown(address: str) -> SpecError:
    return SpecError(
        address,
        f"Unknown node address {json.dumps(address, ensure_ascii=False)}"
        " (use a node id or a path such as root.children[0] from the outline)",
    )


def authored_ancestor(spec: Any, path: str) -> str:
    """The deepest prefix of a node path that exists in `spec`: a path taken from the expanded
    spec (the preview) inside a component expansion maps to its `use` node."""
    if not is_path(path):
        raise _unknown(path)
    steps = ["root", *(m.group(0) for m in _STEP.finditer(path, 4))]
    best = "root"
    current = ""
    for step in steps:
        current += step
        try:
            node_at(spec, current)
        except SpecError:
            break
        best = current
    return best
