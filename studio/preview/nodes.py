"""The QObjects the QML delegates read: one per instantiated node, and the node helpers around them.

A `NodeObject` exists while its node is instantiated (on screen, or about to come into view); it
reads through to its layout node (`studio.preview.layout.LNode`: the node, its scope, pager and
measured place). QML reads `props`, `st` (resolved style), `geo` (size and place), `kids` (the
children to instantiate) and `rev`; `rev` is bumped when runtime state the node reads changes,
and `generation` when the node was replaced so that its delegate rebuilds its content.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from PySide6.QtCore import Property, QObject, Signal

from studio.preview.layout import LNode
from studio.spec.address import is_path
from studio.spec.repeat import repeat_instances

#: Node types whose content floats above the screen (reparented into the overlay layer).
OVERLAY_TYPES = frozenset({"dialog", "snackbar", "bottomSheet"})
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]{0,63})\}")
_KEY_FIELDS = ("stateKey", "hourKey", "minuteKey")
ANY_KEY = "*"


def own_fields(node: Mapping[str, Any]) -> dict[str, Any]:
    """A node without its child nodes (what its own delegate reads)."""
    return {k: v for k, v in node.items() if k not in ("children", "child", "repeat")}


def _without_actions(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_actions(v) for k, v in value.items() if k != "onTap"}
    if isinstance(value, list):
        return [_without_actions(v) for v in value]
    return value


def qml_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Own fields as QML reads them: actions stripped (they run in Python, and their opaque
    payloads may hold keys such as `__proto__` that a JavaScript object cannot carry)."""
    return {
        k: _without_actions(v)
        for k, v in fields.items()
        if k not in ("onTap", "styleWhen", "visibleWhen")
    }


def _walk_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _walk_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk_strings(item)


def _condition_keys(condition: Any, out: set[str]) -> None:
    if not isinstance(condition, dict):
        return
    if isinstance(condition.get("key"), str):
        out.add(condition["key"])
    for part in condition.get("all", []) + condition.get("any", []):
        _condition_keys(part, out)
    _condition_keys(condition.get("not"), out)


def dependencies(fields: Mapping[str, Any], templated: bool) -> frozenset[str]:
    """The state keys a node's rendering reads (placeholders, conditions, bound keys).
    A repeat instance with templated keys reads `*` (any key), which is always refreshed."""
    keys: set[str] = set()
    for text in _walk_strings({k: v for k, v in fields.items() if k != "onTap"}):
        keys.update(_PLACEHOLDER.findall(text))
    _condition_keys(fields.get("visibleWhen"), keys)
    for entry in fields.get("styleWhen") or []:
        _condition_keys(entry.get("when") if isinstance(entry, dict) else None, keys)
    _condition_keys(fields.get("openWhen"), keys)
    for name in _KEY_FIELDS:
        if isinstance(fields.get(name), str):
            keys.add(fields[name])
    trailing = fields.get("trailing")
    if isinstance(trailing, dict) and isinstance(trailing.get("stateKey"), str):
        keys.add(trailing["stateKey"])
    if templated and any("{" in k for k in keys):
        keys.add(ANY_KEY)
    return frozenset(keys)


class NodeObject(QObject):
    """One instantiated node, as its delegate reads it: its own fields, resolved style, the
    layout's results (`geo`) and the children to instantiate (`kids`). Made when the node comes
    into view and deleted when it leaves; the layout node (`ln`) lives on."""

    propsChanged = Signal()
    styleChanged = Signal()
    geoChanged = Signal()
    kidsChanged = Signal()
    revChanged = Signal()
    generationChanged = Signal()

    _next_key = 0

    def __init__(self, ln: LNode, address: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        NodeObject._next_key += 1
        self.key = NodeObject._next_key
        self.ln = ln
        self._address = address
        self._qml_props: dict[str, Any] | None = None
        self._style: dict[str, Any] | None = ln.st
        known = ln.known_shown
        self._shown_seen = int(known if known is not None else "visibleWhen" not in ln.node)
        self._geo: dict[str, Any] = {}
        self._kids: list[NodeObject] = []
        self._rev = 0
        self._generation = 0
        ln.obj = self

    # -- what the controller's slots read -------------------------------------------------
    @property
    def node(self) -> dict[str, Any]:
        return self.ln.node

    @property
    def path(self) -> str:
        return self.ln.path

    @property
    def _type(self) -> str:
        return self.ln.type

    @property
    def _scope(self) -> dict[str, Any]:
        return self.ln.scope

    @property
    def _pager(self) -> str:
        return self.ln.pager

    @property
    def children_nodes(self) -> list[NodeObject]:
        return self._kids

    # -- read by QML ------------------------------------------------------------------
    def _get_key(self) -> int:
        return self.key

    def _get_address(self) -> str:
        return self._address

    def _get_order(self) -> int:
        return self.ln.index

    def _get_type(self) -> str:
        return self.ln.type

    def _get_props(self) -> dict[str, Any]:
        if self._qml_props is None:
            self._qml_props = qml_fields(own_fields(self.ln.node))
        return self._qml_props

    def _get_style(self) -> dict[str, Any]:
        return self._style or {}

    def _get_style_key(self) -> int:
        """The resolved style's key, shared by every node with an equal style (0: none)."""
        return int((self._style or {}).get("key", 0))

    def _get_shown(self) -> int:  # int, not bool: see PreviewController
        shown = self.ln.known_shown
        if shown is None:
            # Not evaluated since it changed (a restyle invalidates every node, then reloads the
            # delegates before the next layout): what was last announced stands until the layout
            # evaluates it and `sync_view` announces the change. A delegate that read the
            # default here would keep it, as `styleChanged` only fires on a change.
            return self._shown_seen
        return int(shown)

    def _get_tappable(self) -> int:
        return int(bool(self.ln.node.get("onTap")))

    def _get_conditional(self) -> int:
        """1 when the node has a `visibleWhen`: only those animate their visibility on the phone
        (PrototypeSpecContent.kt `RenderPrototypeNode`: AnimatedVisibility for visibleWhen)."""
        return int("visibleWhen" in self.ln.node)

    def _get_layered(self) -> int:
        """1 for an anchored node below the root: its delegate goes into the anchor layer
        (`studio.preview.anchors`)."""
        return int(self.ln.layered)

    def _get_geo(self) -> dict[str, Any]:
        return self._geo

    def _get_kids(self) -> list[QObject]:
        return list(self._kids)

    def _get_rev(self) -> int:
        return self._rev

    def _get_generation(self) -> int:
        return self._generation

    def _get_scope(self) -> dict[str, Any]:
        return self.ln.scope

    def _get_pager(self) -> str:
        return self.ln.pager

    nodeKey = Property(int, _get_key, constant=True)
    address = Property(str, _get_address, constant=True)
    #: Its place among its parent's children (delegates stack in this order).
    order = Property(int, _get_order, constant=True)
    type = Property(str, _get_type, constant=True)
    props = Property("QVariantMap", _get_props, notify=propsChanged)  # type: ignore[arg-type]
    tappable = Property(int, _get_tappable, notify=propsChanged)
    conditional = Property(int, _get_conditional, notify=propsChanged)
    st = Property("QVariantMap", _get_style, notify=styleChanged)  # type: ignore[arg-type]
    styleKey = Property(int, _get_style_key, notify=styleChanged)
    shown = Property(int, _get_shown, notify=styleChanged)
    layered = Property(int, _get_layered, notify=propsChanged)
    geo = Property("QVariantMap", _get_geo, notify=geoChanged)  # type: ignore[arg-type]
    kids = Property("QVariantList", _get_kids, notify=kidsChanged)  # type: ignore[arg-type]
    rev = Property(int, _get_rev, notify=revChanged)
    generation = Property(int, _get_generation, notify=generationChanged)
    scope = Property("QVariantMap", _get_scope, constant=True)  # type: ignore[arg-type]
    pager = Property(str, _get_pager, constant=True)

    # -- updated by the controller ----------------------------------------------------
    def bump(self) -> None:
        """Re-evaluate this node's bindings (state it reads changed)."""
        self._rev += 1
        self.revChanged.emit()

    def refresh(self) -> None:
        """Its own fields changed (an edit in place)."""
        self._qml_props = None
        self.propsChanged.emit()

    def sync_view(self) -> None:
        """After a layout: re-announce its resolved style and visibility when they changed."""
        style = self.ln.st
        shown = self._get_shown()
        if style is not self._style or shown != self._shown_seen:
            changed = style != self._style or shown != self._shown_seen
            self._style = style
            self._shown_seen = shown
            if changed:
                self.styleChanged.emit()

    def set_geo(self, geo: dict[str, Any]) -> None:
        if geo != self._geo:
            self._geo = geo
            self.geoChanged.emit()

    def set_kids(self, kids: list[NodeObject]) -> None:
        if kids != self._kids:
            self._kids = kids
            self.kidsChanged.emit()

    def reload(self) -> None:
        """Rebuild this node's delegate content (a replaced node, or a theme change: Controls
        Material does not restyle live controls on a theme switch)."""
        self.stale()
        self.announce()

    def stale(self, restyled: bool = False) -> None:
        """Mark the delegate's content out of date without telling QML yet (`announce`): a
        delegate made from now on is made at the new generation and has nothing to rebuild.
        `restyled`: its style was resolved again without a layout to come (a change of colours
        only), so the new content reads the new style, which no `sync_view` would announce."""
        self._qml_props = None
        self._generation += 1
        if restyled and self.ln.st is not None:
            self._style = self.ln.st

    def announce(self) -> None:
        """Tell the delegate its content is out of date (after `stale`)."""
        self.propsChanged.emit()
        self.generationChanged.emit()

    def walk(self) -> Iterator[NodeObject]:
        """This object and the instantiated ones below it."""
        yield self
        for kid in self._kids:
            yield from kid.walk()


def child_entries(
    node: dict[str, Any], path: str
) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    """(child node, child path, scope) in render order; repeat containers yield every instance
    (item-major) with the template child's path and the instance's scope."""
    if isinstance(node.get("child"), dict):
        return [(node["child"], f"{path}.child", {})]
    children = node.get("children")
    if not isinstance(children, list):
        return []
    if isinstance(node.get("repeat"), dict):
        count = max(1, len(children))
        return [
            (child, f"{path}.children[{i % count}]", scope)
            for i, (child, scope) in enumerate(repeat_instances(node))
        ]
    return [(child, f"{path}.children[{i}]", {}) for i, child in enumerate(children)]


def same_shape(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Same type, same repeat and same number of child nodes (so child objects can be kept)."""
    if old.get("type") != new.get("type") or old.get("repeat") != new.get("repeat"):
        return False
    if isinstance(old.get("child"), dict) != isinstance(new.get("child"), dict):
        return False
    return len(old.get("children") or []) == len(new.get("children") or [])


class LazyAddresses:
    """`studio.spec.address.addresses(spec)` (path -> address) without walking the whole spec
    first: an id addresses the first node in document order that has it, so the walk only needs
    to reach the node asked about (the first screen's nodes are usually near the start)."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        from studio.spec.address import iter_nodes

        self._walk = iter_nodes(spec)
        self._table: dict[str, str] = {}
        self._ids: set[str] = set()
        self._done = False

    def get(self, path: str, default: str | None = None) -> str | None:
        while path not in self._table and not self._done:
            self._advance()
        return self._table.get(path, default)

    def _advance(self) -> None:
        for _ in range(64):
            entry = next(self._walk, None)
            if entry is None:
                self._done = True
                return
            walked, node, _, _ = entry
            node_id = node.get("id")
            if (
                isinstance(node_id, str)
                and node_id
                and not is_path(node_id)
                and node_id not in self._ids
            ):
                self._ids.add(node_id)
                self._table[walked] = node_id
            else:
                self._table[walked] = walked
