"""Readable node names: a node's id, else its type and visible text, with a breadcrumb of its
ancestors; the one way the tree, the inspector, the agent's context and revision summaries name
a node (instead of `root.children[1].child.children[13]`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.spec import tree
from studio.spec.outline import node_label

__all__ = ["NodeName", "name_at", "name_of", "phrase"]

#: Texts in names are cut to this many characters (an ellipsis marks the cut).
TEXT_LIMIT = 32
SEPARATOR = " › "


def _cut(text: str, limit: int = TEXT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _type(node: Any) -> str:
    kind = node.get("type") if tree.is_node(node) else None
    return kind if isinstance(kind, str) and kind else "node"


def _id(node: Any) -> str | None:
    value = node.get("id") if tree.is_node(node) else None
    return value if isinstance(value, str) and value else None


def short(node: Any) -> str:
    """What a tree row says: the id, else the visible text in quotes, else the type."""
    node_id = _id(node)
    if node_id is not None:
        return _cut(node_id)
    label = node_label(node) if tree.is_node(node) else ""
    return f"“{_cut(label)}”" if label else _type(node)


def phrase(node: Any) -> str:
    """What a sentence says: `column 'form'` (its id), `button “Sign in”` (its text), or the
    type alone (`column`)."""
    kind = _type(node)
    node_id = _id(node)
    if node_id is not None:
        return f"{kind} '{_cut(node_id)}'"
    label = node_label(node) if tree.is_node(node) else ""
    return f"{kind} “{_cut(label)}”" if label else kind


@dataclass(frozen=True)
class NodeName:
    """A node's names: `short` (a tree row, the inspector's title), `phrase` (a summary's
    words), `crumbs` (the short names from the root down to the node) and `path`."""

    short: str
    phrase: str
    crumbs: tuple[str, ...]
    path: str

    @property
    def breadcrumb(self) -> str:
        """`column › scroll › form › submit`: where the node is, root first."""
        return SEPARATOR.join(self.crumbs)

    def __str__(self) -> str:
        return self.phrase


def name_at(spec: Any, path: str) -> NodeName | None:
    """The names of the node at a node path (None when there is none)."""
    node = tree.node_at(spec, path)
    if node is None:
        return None
    crumbs: list[str] = []
    current = "root"
    at = tree.root_of(spec)
    crumbs.append(short(at))
    for step in tree.path_steps(path):
        current = tree.child_path(current, step)
        at = tree.node_at(spec, current)
        crumbs.append(short(at))
    return NodeName(short(node), phrase(node), tuple(crumbs), path)


def name_of(spec: Any, address: str | None) -> NodeName | None:
    """The names of the node at an address (an id or a path; None when it names no node)."""
    if not address:
        return None
    if tree.is_path(address):
        return name_at(spec, address)
    found = tree.find_id(spec, address)
    return name_at(spec, found[0]) if found is not None else None
