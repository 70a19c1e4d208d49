"""What a draft changed, node by node: the subtrees it owns and a property-level diff.

Qt-free. The draft *owns* the subtrees its `replaceNode` ops replaced: a rebase puts the draft's
version of them back, so the workspace refuses user edits inside them. Everything outside them
is at the same path in the draft and in its base, because `replaceNode` never moves anything
outside its own subtree; user edits there go to the document and the draft is rebased on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.library.revisions import Revision
from studio.spec import tree
from studio.spec.address import addresses, iter_nodes, node_at, resolve

JSON = dict[str, Any]
NODE_FIELDS = ("child", "children")
#: Top-level members compared key by key (the rest as a whole).
KEYED_SECTIONS = ("state", "data")


def _children(node: JSON, path: str) -> list[tuple[str, JSON]]:
    """A node's child nodes as (path, node), by the one rule of `studio.spec.tree`."""
    return [(at, child) for child, at in tree.children(node, path)]


def json_equal(a: object, b: object) -> bool:
    """`studio.spec.patch.json_equal` (`true` is not `1`), its module loaded on first use: the
    workspace is built before the first frame, the patch module is needed at the first edit."""
    from studio.spec.patch import json_equal as equal

    return equal(a, b)


def own(node: JSON) -> JSON:
    """A node's own properties (without its child nodes)."""
    return {k: v for k, v in node.items() if k not in NODE_FIELDS}


def replaced_paths(base: JSON, revisions: Sequence[Revision]) -> tuple[str, ...]:
    """The paths of the subtrees a draft's `replaceNode` ops replaced (each target resolved where
    its op applied, as `apply_patch` does), topmost only, in document order. Everything below
    one is the draft's: a rebase would put the draft's version back there."""
    found: list[str] = []
    for revision in revisions:
        stage = base
        for op in revision.ops or []:
            members = op.get("members") if op.get("op") == "reviseSpec" else None
            if isinstance(members, dict) and isinstance(members.get("root"), dict):
                found.append("root")  # a whole new tree: all of it is the draft's
                continue
            if op.get("op") != "replaceNode" or not isinstance(op.get("node"), dict):
                continue
            target = op.get("id", op.get("address"))
            try:
                path, _ = resolve(stage, str(target))
                root = with_node(stage["root"], "root", path, op["node"])
            except ValueError:
                continue  # not in this stage: the revision itself was validated, so it did apply
            found.append(path)
            stage = {**stage, "root": root}
        base = revision.spec
    top = [p for p in found if not any(o != p and within(p, o) for o in found)]
    order = {path: n for n, (path, _, _, _) in enumerate(iter_nodes(base))}
    return tuple(sorted(dict.fromkeys(top), key=lambda p: order.get(p, len(order))))


def within(path: str, owner: str) -> bool:
    """Whether node path `path` is `owner` or a node below it."""
    return path == owner or (path.startswith(owner) and path[len(owner)] in ".[")


@dataclass(frozen=True)
class NodeDiff:
    """One node the draft added, removed or changed: `added`/`removed` map property -> value,
    `changed` maps property -> (before, after). Own properties only (child nodes have their own
    entries). `address` is in the draft for added/changed nodes, in the base for removed ones."""

    address: str
    node_type: str
    kind: Literal["added", "removed", "changed"]
    added: JSON = field(default_factory=dict)
    removed: JSON = field(default_factory=dict)
    changed: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def summary(self) -> str:
        """One line: `submit (button): label "Go" -> "Send"; removed icon, onTap`."""
        head = f"{self.address} ({self.node_type})"
        if self.kind == "added":
            return f"{head}: added"
        if self.kind == "removed":
            return f"{head}: removed"
        parts = [f"{k} {_short(a)} → {_short(b)}" for k, (a, b) in self.changed.items()]
        if self.added:
            parts.append("added " + ", ".join(self.added))
        if self.removed:
            parts.append("removed " + ", ".join(self.removed))
        return f"{head}: " + "; ".join(parts)


@dataclass(frozen=True)
class ValueDiff:
    """A top-level member the draft changed: a key of `state` or `data` (`key`), or a whole
    member such as `requires` (`key` None)."""

    section: str
    key: str | None
    kind: Literal["added", "removed", "changed"]
    before: Any = None
    after: Any = None

    def summary(self) -> str:
        where = f"{self.section}.{self.key}" if self.key is not None else self.section
        if self.kind == "added":
            return f"{where}: added {_short(self.after)}"
        if self.kind == "removed":
            return f"{where}: removed"
        return f"{where}: {_short(self.before)} → {_short(self.after)}"


def _short(value: Any, limit: int = 40) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _node_diff(address: str, old: JSON, new: JSON) -> NodeDiff | None:
    a, b = own(old), own(new)
    if json_equal(a, b):
        return None
    added = {k: v for k, v in b.items() if k not in a}
    removed = {k: v for k, v in a.items() if k not in b}
    changed = {k: (a[k], b[k]) for k in b if k in a and not json_equal(a[k], b[k])}
    return NodeDiff(address, str(new.get("type")), "changed", added, removed, changed)


def _matched(
    old: JSON, new: JSON, old_path: str, new_path: str
) -> list[tuple[str | None, JSON | None, str | None, JSON | None]]:
    """Child pairs (old path, old, new path, new): children with an id pair by id (an id the old
    children lack is an added node), children without one pair in order; a child without a
    partner is added (old None) or removed (new None)."""
    old_kids = list(_children(old, old_path))
    by_id: dict[str, tuple[str, JSON]] = {}
    for path, node in old_kids:
        if isinstance(node.get("id"), str):
            by_id.setdefault(node["id"], (path, node))
    used: set[str] = set()
    pairs: list[tuple[str | None, JSON | None, str | None, JSON | None]] = []
    anonymous: list[tuple[str, JSON]] = []
    for path, node in _children(new, new_path):
        if not isinstance(node.get("id"), str):
            anonymous.append((path, node))
            continue
        hit = by_id.get(node["id"])
        if hit is not None and hit[0] not in used:
            used.add(hit[0])
            pairs.append((hit[0], hit[1], path, node))
        else:
            pairs.append((None, None, path, node))
    unnamed = [(p, n) for p, n in old_kids if not isinstance(n.get("id"), str)]
    for index, (path, node) in enumerate(anonymous):
        old_p, old_n = unnamed[index] if index < len(unnamed) else (None, None)
        if old_p is not None:
            used.add(old_p)
        pairs.append((old_p, old_n, path, node))
    pairs.extend((p, n, None, None) for p, n in old_kids if p not in used)
    return pairs


def node_diffs(base: JSON, spec: JSON, owned: Sequence[str]) -> list[NodeDiff]:
    """Property-level differences between `base` and `spec` inside the `owned` subtrees."""
    if not owned:
        return []
    new_addresses, old_addresses = addresses(spec), addresses(base)
    out: list[NodeDiff] = []

    def walk(
        old_path: str | None, old: JSON | None, new_path: str | None, new: JSON | None
    ) -> None:
        if new is None and old is not None and old_path is not None:
            for path, node, _, _ in iter_nodes({"root": old}):
                where = old_path + path[4:]
                out.append(
                    NodeDiff(old_addresses.get(where, where), str(node.get("type")), "removed")
                )
            return
        if new is None or new_path is None:
            return
        if old is None:
            for path, node, _, _ in iter_nodes({"root": new}):
                where = new_path + path[4:]
                out.append(
                    NodeDiff(
                        new_addresses.get(where, where), str(node.get("type")), "added", own(node)
                    )
                )
            return
        diff = _node_diff(new_addresses.get(new_path, new_path), old, new)
        if diff is not None:
            out.append(diff)
        for pair in _matched(old, new, old_path or new_path, new_path):
            walk(*pair)

    for path in owned:
        try:
            old_node: JSON | None = node_at(base, path)
        except ValueError:
            old_node = None
        walk(path if old_node is not None else None, old_node, path, node_at(spec, path))
    return out


def value_diffs(base: JSON, spec: JSON) -> list[ValueDiff]:
    """Differences in the top-level members other than the node tree (`state`, `data` key by
    key; `requires`, `theme`, `window`, ... as a whole)."""
    out: list[ValueDiff] = []
    for section in sorted((set(base) | set(spec)) - {"root"}):
        before, after = base.get(section), spec.get(section)
        if json_equal(before, after):
            continue
        if (
            section in KEYED_SECTIONS
            and isinstance(before or {}, dict)
            and isinstance(after or {}, dict)
        ):
            old, new = before or {}, after or {}
            for key in [*old, *(k for k in new if k not in old)]:
                if key not in new:
                    out.append(ValueDiff(section, key, "removed", old[key]))
                elif key not in old:
                    out.append(ValueDiff(section, key, "added", None, new[key]))
                elif not json_equal(old[key], new[key]):
                    out.append(ValueDiff(section, key, "changed", old[key], new[key]))
            continue
        kind: Literal["added", "removed", "changed"] = (
            "added" if section not in base else "removed" if section not in spec else "changed"
        )
        out.append(ValueDiff(section, None, kind, before, after))
    return out


def with_node(node: JSON, node_path: str, target: str, value: JSON) -> JSON:
    """A copy of `node` (at `node_path`) with the node at path `target` replaced by `value`;
    only the nodes along the way are copied (ValueError when there is no such node)."""
    if node_path == target:
        return value
    for child_path, child in _children(node, node_path):
        if within(target, child_path):
            replaced = with_node(child, child_path, target, value)
            out = dict(node)
            if child_path.endswith(".child"):
                out["child"] = replaced
            else:
                index = int(child_path[child_path.rindex("[") + 1 : -1])
                kids = list(node["children"])
                kids[index] = replaced
                out["children"] = kids
            return out
    raise ValueError(f"{target}: no such node under {node_path}")
