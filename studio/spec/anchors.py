"""Which anchors AutoMobile's host refuses to show, as a pure rule on a spec (no Qt).

AutoMobile checks the placement of anchors on the host, before anything is sent to the device,
not in its spec validator (kaeawc/auto-mobile `src/features/prototype/prototypeAnchors.ts`
`prototypeAnchorPlacementError`, called by `src/server/prototypeTools.ts` `assertAnchorsShowable`
on the component-expanded spec): a floating window is only as large as its content and moves onto
its anchored root, so an anchor on any node below the root would be laid out outside the window
and clipped. The show then fails with that one line and nothing is shown on the phone. A valid
spec can break it, so `studio.spec.validate` accepts it too; the studio's own host paths (the
preview and the device show) ask `anchor_placement_error` instead.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from studio.spec.tree import children

__all__ = ["anchor_placement_error", "anchored_nodes", "show_refusal"]

#: The anchor kinds the host recognises (prototypeAnchors.ts `isAnchor`).
_ANCHOR_TYPES = frozenset({"bounds", "element"})


def anchored_nodes(spec: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(path, node) of every node with an anchor, breadth first from the root through `child` and
    `children`, the order in which AutoMobile's host reports them (`anchoredNodes`)."""
    root = spec.get("root")
    if not isinstance(root, Mapping):
        return
    pending: deque[tuple[Mapping[str, Any], str]] = deque([(root, "root")])
    while pending:
        node, path = pending.popleft()
        anchor = node.get("anchor")
        if isinstance(anchor, Mapping) and anchor.get("type") in _ANCHOR_TYPES:
            yield path, node
        pending.extend(children(node, path))


def anchor_placement_error(spec: Mapping[str, Any]) -> str | None:
    """One line naming the first anchored node below the root of a floating window (which the
    phone would not show), else None. Give it the expanded spec, as the host checks it."""
    window = spec.get("window")
    placement = window.get("placement") if isinstance(window, Mapping) else None
    if not isinstance(placement, Mapping) or placement.get("type") != "floating":
        return None
    for path, _node in anchored_nodes(spec):
        if path != "root":
            return (
                f"{path}.anchor: a floating window can anchor only its root (the window moves "
                "onto it), so the phone shows nothing; anchor the root, or use a fullscreen or "
                "sheet placement"
            )
    return None


def show_refusal(spec: Mapping[str, Any]) -> str | None:
    """`anchor_placement_error` of the spec as the host checks it, with its components expanded
    (an anchored node inside a component used below the root counts), for a spec as authored:
    the preview's and the agent's. Only a floating window's spec is expanded; a spec whose
    components do not expand is checked as it is (the validator reports that error)."""
    window = spec.get("window")
    placement = window.get("placement") if isinstance(window, Mapping) else None
    if not isinstance(placement, Mapping) or placement.get("type") != "floating":
        return None  # the common case, without expanding the spec
    from studio.spec.components import expand_components

    expanded, _error = expand_components(spec)
    return anchor_placement_error(expanded if isinstance(expanded, Mapping) else spec)
