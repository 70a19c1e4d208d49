"""The window's anchor layer: where the preview draws nodes with a bounds `anchor`, as AutoMobile's
Compose renderer does (SC `PrototypeAnchorLayer`, `layeredPrototypeAnchors`,
`layeredPrototypeAnchorsIn`; PrototypeAnchorLayout.kt `Modifier.prototypeAnchor`).

An anchored node below the root takes no slot in its parent and is not clipped by it: it is
measured against the whole space the prototype content is given (its bounds exactly for `cover`)
and placed at screen coordinates (dp), less the content area's origin on the screen, in a layer
above the tree (resources/qml/DeviceScreen.qml `anchorLayer`) or, inside an open dialog or sheet,
above that modal (Overlay.qml). Only the window's content area clips it. The phone's scroll is not lazy (SC "scroll":
`Box(verticalScroll)` composes all its content), so an anchored node is drawn wherever its row
is: a lazily measured scroll is measured on until every layered node's ancestors are laid out
(`stopped_short`), and those ancestors stay instantiated however far they are scrolled out
(`holders`). An anchored root stays
in the tree at its anchor; in a floating window the window itself moves onto it instead
(HO `moveAnchored`). Its delegate is still made by its authored parent (`AnchoredKid.qml`), so
it keeps the content colour there and appears, fades and goes with its ancestors.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from studio.preview.layout import (
    FLOATING,
    Host,
    LNode,
    anchor_cons,
    anchor_origin,
    bounds_anchor,
    measure,
)

#: The types whose children the phone composes inline (SC `PROTOTYPE_INLINE_CONTAINER_ROLES`),
#: and the modals, whose children their own layer lists (`layeredPrototypeAnchorsIn`).
_PARENTS = frozenset({"box", "row", "column", "scroll", "card", "pager"}) | FLOATING
#: A layered anchor and the ids of its ancestors' LNodes.
Layered = tuple[LNode, tuple[int, ...]]


class AnchorScan:
    """Whether a spec holds a node with a bounds anchor, remembered per node object from one call to the next. An edit
    (`studio.spec.patch.apply_patch`) shares every subtree it did not change with the spec
    before it, and specs are values (never modified in place), so a shared subtree's answer
    stands: an edit of the 2,000-node benchmark spec scans the changed path, not 2,000 nodes."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[Mapping[str, Any], bool]] = {}

    def __call__(self, spec: Any) -> bool:
        seen: dict[int, tuple[Mapping[str, Any], bool]] = {}
        found = self._scan(spec, self._seen, seen)
        self._seen = seen  # only the current spec's nodes: the old ones are not kept alive
        return found

    def _scan(
        self,
        value: Any,
        before: dict[int, tuple[Mapping[str, Any], bool]],
        seen: dict[int, tuple[Mapping[str, Any], bool]],
    ) -> bool:
        # Every node is visited (an answer found early does not stop the walk), so that `seen`
        # holds the whole spec for the next edit. Only the tree's own keys are followed.
        if isinstance(value, list):
            found = False
            for v in value:
                if self._scan(v, before, seen):
                    found = True
            return found
        if not isinstance(value, Mapping):
            return False
        key = id(value)
        known = before.get(key)
        if known is not None and known[0] is value:
            seen[key] = known
            return known[1]
        found = "anchor" in value and bounds_anchor(value) is not None
        for k in ("root", "child", "children"):
            kid = value.get(k)
            if kid is not None and self._scan(kid, before, seen):
                found = True
        seen[key] = (value, found)
        return found


class AnchorLayer:
    """The layered anchors of the tree shown, and the ancestors that must stay instantiated so
    that the authored parent can make each anchored node's delegate."""

    def __init__(self) -> None:
        #: The anchored nodes the phone draws in a layer (ids of their LNodes).
        self.listed: set[int] = set()
        #: Their ancestors: never dropped for being out of view.
        self.holders: set[int] = set()

    def clear(self) -> None:
        self.listed.clear()
        self.holders.clear()

    def place_root(
        self, root: LNode, origin: tuple[float, float], floating: bool, rtl: bool = False
    ) -> None:
        """Move a measured root onto its anchor (a floating window instead moves onto it:
        recorded as `extra["window_at"]`, the window's top-start on the screen)."""
        root.extra.pop("window_at", None)
        anchor = bounds_anchor(root.node)
        if anchor is None:
            return
        x, y = anchor_origin(anchor, root.sw, root.sh, rtl)
        if floating:
            # HO `moveAnchored`: the root stays at the window's (0, 0).
            root.extra["window_at"] = (x, y)
        else:
            root.x += x - origin[0]
            root.y += y - origin[1]

    def place(
        self,
        host: Host,
        layered: list[Layered],
        space: tuple[float, float],
        origin: tuple[float, float],
    ) -> None:
        """Measure every layered anchor (`layered(host, root)`) against `space` and place it in
        layer coordinates (the content area's, whose top-left is at `origin` on the screen)."""
        self.clear()
        for ln, chain in layered:
            self.listed.add(id(ln))
            self.holders.update(chain)
            anchor = bounds_anchor(ln.node)
            assert anchor is not None
            measure(host, ln, anchor_cons(anchor, *space))
            x, y = anchor_origin(anchor, ln.sw, ln.sh, host.rtl)
            ln.x = x - origin[0] + (ln.sw - ln.w) / 2
            ln.y = y - origin[1] + (ln.sh - ln.h) / 2


def layered(host: Host, root: LNode) -> list[Layered]:
    """The anchored nodes the phone draws in a layer, in tree order, with their ancestors' ids."""
    return list(_layered(host, root, ()))


def stopped_short(layered: list[Layered]) -> list[LNode]:
    """The lazily measured scrolls that stopped before an ancestor of a layered anchor: measuring
    more of them lays that ancestor out, so that it can make the anchored node's delegate."""
    scrolls: dict[int, LNode] = {}
    for ln, _chain in layered:
        if _reached(ln):
            continue
        up = ln.parent
        while up is not None:
            if up.type == "scroll" and up.extra.get("lazy_below"):
                scrolls[id(up)] = up
            up = up.parent
    return list(scrolls.values())


def _reached(ln: LNode) -> bool:
    """Whether the layout got as far as `ln`: no linear ancestor stopped lazily before the child
    on its way (`LNode.partial`, the index of the first child not measured)."""
    node = ln
    while node.parent is not None:
        partial = node.parent.partial
        if 0 <= partial <= node.index:
            return False
        node = node.parent
    return True


def _layered(host: Host, parent: LNode, chain: tuple[int, ...]) -> Iterator[Layered]:
    """The anchored nodes below `parent` in tree order, with their ancestors' ids
    (`anchorsBelow`): only the children of inline containers and modals, and of a pager only its
    current page; under hidden ancestors too (their parent then makes no delegate for them)."""
    if parent.type not in _PARENTS:
        return
    chain = (*chain, id(parent))
    kids = parent.kids(host)
    if parent.type == "pager":
        current = parent.extra.get("current", host.page(str(parent.node.get("id", ""))))
        kids = kids[current : current + 1] if 0 <= current < len(kids) else []
    for kid in kids:
        if kid.layered:
            yield kid, chain
        yield from _layered(host, kid, chain)
