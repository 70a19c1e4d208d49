"""Walking a running prototype's node tree: repeat instances, pagers, cached per-subtree facts
(child nodes and paths are `studio.spec.tree`'s)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from studio.runtime.bindings import bind_node
from studio.spec.tree import children, is_node

Node = Mapping[str, Any]

CONTAINERS = frozenset({"box", "row", "column"})  # the node types that may carry `repeat`


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
        return [(child, at, scope) for child, at in children(node, address)]
    out: list[tuple[Node, str, Mapping[str, Any] | None]] = []
    for bound, item_scope in instances(node):
        out.extend((child, at, item_scope) for child, at in children(bound, address))
    return out


def walk(
    node: Node, address: str = "root", scope: Mapping[str, Any] | None = None
) -> Iterator[tuple[Node, str, Mapping[str, Any] | None]]:
    """Every node with its address and repeat scope, parents first, repeat expanded."""
    yield node, address, scope
    for child, at, child_scope in expanded_children(node, address, scope):
        yield from walk(child, at, child_scope)


def own_pager_count(node: Node, address: str = "") -> list[tuple[str, int]]:
    """`[(pager id, page count)]` for a pager node, `[]` for any other node."""
    if node.get("type") == "pager" and isinstance(node.get("id"), str):
        children = node.get("children")
        return [(node["id"], len(children) if isinstance(children, list) else 0)]
    return []


Fact = TypeVar("Fact")


class _Entry(Generic[Fact]):
    """One node's cached facts (its whole subtree's, in walk order) and its children's entries.
    It holds the node object itself, so an identity match can never be a reused id."""

    __slots__ = ("node", "address", "facts", "children")

    def __init__(
        self,
        node: Node,
        address: str,
        facts: tuple[Fact, ...],
        children: tuple[_Entry[Fact] | None, ...],
    ) -> None:
        self.node = node
        self.address = address
        self.facts = facts
        self.children = children


class SubtreeFacts(Generic[Fact]):
    """What `own(node, address)` finds in every node of a tree (repeat expanded), in `walk`
    order, cached per subtree object.

    Specs are values: an edit (`apply_patch`, the Document) builds new dicts along the edited
    path and shares every other subtree object with the previous spec. `update(new_root)` so
    reuses a cached subtree whenever the new tree holds the very same object at the same
    address, and re-walks only the changed path (plus the direct children of each node on it,
    compared by identity). A repeat container is cached as a whole: its instances are bound
    copies whose identity says nothing. With `expand_repeats=False` a repeat container is
    walked as written instead: its template once, whatever its items, cached as any node."""

    def __init__(
        self, own: Callable[[Node, str], Iterable[Fact]], *, expand_repeats: bool = True
    ) -> None:
        self._own = own
        self._expand = expand_repeats
        self._root: _Entry[Fact] | None = None

    def update(self, root: Node, address: str = "root") -> tuple[Fact, ...]:
        """Every fact of the tree at `root`, re-walking only what changed since the last call."""
        self._root = self._entry(root, address, self._root)
        return self._root.facts

    def _entry(self, node: Node, address: str, old: _Entry[Fact] | None) -> _Entry[Fact]:
        if old is not None and old.node is node and old.address == address:
            return old
        if self._expand and repeat_of(node) is not None:
            facts = [fact for n, at, _ in walk(node, address) for fact in self._own(n, at)]
            return _Entry(node, address, tuple(facts), ())
        facts = list(self._own(node, address))
        single, many = node.get("child"), node.get("children")
        in_list = not is_node(single)  # the one rule: `child` when an object, else `children`
        kids: list[Any] = [single] if not in_list else many if isinstance(many, list) else []
        # Children are matched by position: an entry made for the same object at the same
        # address is reused without building the address (most siblings of an edited path).
        before = old.children if old is not None and old.address == address else ()
        children: list[_Entry[Fact] | None] = []
        for i, child in enumerate(kids):
            prev = before[i] if i < len(before) else None
            if prev is not None and prev.node is child and prev.address.endswith("]") == in_list:
                pass
            elif is_node(child):
                at = f"{address}.children[{i}]" if in_list else f"{address}.child"
                prev = self._entry(child, at, prev)
            else:
                children.append(None)
                continue
            facts.extend(prev.facts)
            children.append(prev)
        return _Entry(node, address, tuple(facts), tuple(children))


def _mode_ids(value: Any) -> list[str]:
    """The asset ids of a mode value: an id, or both sides of a `{light, dark}` pair."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [v for v in (value.get("light"), value.get("dark")) if isinstance(v, str)]
    return []


def own_asset_ids(node: Node, address: str = "") -> list[str]:
    """The asset ids a node itself names (IM PrototypeImages.kt `prototypeAssetReferences`):
    font assets of its `style` and `styleWhen` styles (`fontFamily: {asset}`), then an
    `image`'s asset, or the `image` of each `tabBar` / `bottomNav` item; a `{light, dark}` pair
    names both, whichever mode is drawn. A repeat's template counts as written (`asset_facts`
    walks it so)."""
    ids: list[str] = []
    styles = [node.get("style")]
    when = node.get("styleWhen")
    if isinstance(when, list):
        styles += [entry.get("style") for entry in when if isinstance(entry, Mapping)]
    for style in styles:
        family = style.get("fontFamily") if isinstance(style, Mapping) else None
        if isinstance(family, Mapping) and isinstance(family.get("asset"), str):
            ids.append(family["asset"])
    kind = node.get("type")
    if kind == "image":
        ids += _mode_ids(node.get("asset"))
    elif kind in ("tabBar", "bottomNav") and isinstance(node.get("items"), list):
        for item in node["items"]:
            if isinstance(item, Mapping):
                ids += _mode_ids(item.get("image"))
    return ids


def asset_facts() -> SubtreeFacts[str]:
    """`own_asset_ids` of every node of a tree, kept up to date by `update`. The phone walks a
    repeat's template as written (IM `prototypeAssetReferences` over `prototypeDescendants`), so
    its ids count once and even with no items; a repeat binds no asset id (PrototypeRepeat.kt
    `bound` copies an image as it is), so its instances would only repeat them."""
    return SubtreeFacts(own_asset_ids, expand_repeats=False)


def asset_references(facts: Iterable[str]) -> list[str]:
    """`own_asset_ids` over a whole tree (as `asset_facts` gives them), in
    first-use order without repeats: hidden nodes and other pages too, since they can show
    without another show (`prototypeAssetReferences`)."""
    return list(dict.fromkeys(facts))
