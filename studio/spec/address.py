"""Stable node addresses: a node's `id` when it has a usable one, else its AutoMobile path.

Paths, child nodes and walking are `studio.spec.tree`'s (one rule for `child`/`children`). An id is a
node's address only when it is the first node with that id in document order and does not look
like a path (so `root` always means the root); every other node is addressed by its path.
`resolve` accepts either form.
"""

from __future__ import annotations

import json
from typing import Any

from studio.spec import tree
from studio.spec.binding import Raw
from studio.spec.errors import SpecError
from studio.spec.tree import is_path
from studio.spec.tree import walk as iter_nodes

__all__ = [
    "address_of",
    "addresses",
    "authored_ancestor",
    "is_path",
    "iter_nodes",
    "node_at",
    "resolve",
]


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
    node = tree.node_at(spec, path)
    if node is None:
        raise _unknown(path)
    return node  # type: ignore[no-any-return]  # a node of the spec: a JSON object


def resolve(spec: Any, address: str) -> tuple[str, Raw]:
    """(path, node) for an address: a path, or an id (its first node in document order)."""
    if not isinstance(address, str) or not address:
        raise _unknown(str(address))
    if is_path(address):
        return address, node_at(spec, address)
    found = tree.find_id(spec, address)
    if found is None:
        raise _unknown(address)
    return found


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
    best = current = "root"
    if tree.node_at(spec, current) is None:
        return best
    for step in tree.path_steps(path):
        current = tree.child_path(current, step)
        if tree.node_at(spec, current) is None:
            break
        best = current
    return best
