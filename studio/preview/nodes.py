"""The Python-side node tree the QML delegates read: one QObject per rendered node.

Each `NodeObject` holds its node's own fields (children stripped), its child NodeObjects, its
address (`studio.spec.address`: id, else path), its repeat scope and its nearest pager. QML
reads `props`, `kids` and `rev`; `rev` is bumped when runtime state the node reads changes, and
`generation` when the node was replaced so that its delegate rebuilds its subtree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from PySide6.QtCore import Property, QObject, Signal

from studio.spec.address import address_of, addresses
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
    """One rendered node: its own fields, child NodeObjects and binding context."""

    propsChanged = Signal()
    kidsChanged = Signal()
    revChanged = Signal()
    generationChanged = Signal()

    def __init__(
        self,
        node: dict[str, Any],
        path: str,
        address: str,
        scope: dict[str, Any],
        pager: str,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.node = node
        self.path = path
        self._address = address
        self._type = str(node.get("type", ""))
        self._props = own_fields(node)
        self._qml_props: dict[str, Any] | None = None
        self._scope = scope
        self._pager = pager
        self._kids: list[NodeObject] = []
        self._rev = 0
        self._generation = 0
        self.deps = dependencies(self._props, bool(scope))
        self.indexed_keys: frozenset[str] = frozenset()

    # -- read by QML ------------------------------------------------------------------
    def _get_address(self) -> str:
        return self._address

    def _get_type(self) -> str:
        return self._type

    def _get_props(self) -> dict[str, Any]:
        if self._qml_props is None:
            self._qml_props = qml_fields(self._props)
        return self._qml_props

    def _get_tappable(self) -> int:  # int, not bool: see PreviewController
        return int(bool(self._props.get("onTap")))

    def _get_conditional(self) -> int:
        """1 when the node has a `visibleWhen`: only those animate their visibility on the phone
        (PrototypeSpecContent.kt `RenderPrototypeNode`: AnimatedVisibility for visibleWhen)."""
        return int("visibleWhen" in self._props)

    def _get_kids(self) -> list[QObject]:
        return list(self._kids)

    def _get_rev(self) -> int:
        return self._rev

    def _get_generation(self) -> int:
        return self._generation

    def _get_scope(self) -> dict[str, Any]:
        return self._scope

    def _get_pager(self) -> str:
        return self._pager

    address = Property(str, _get_address, constant=True)
    type = Property(str, _get_type, constant=True)
    props = Property("QVariantMap", _get_props, notify=propsChanged)  # type: ignore[arg-type]
    tappable = Property(int, _get_tappable, notify=propsChanged)
    conditional = Property(int, _get_conditional, notify=propsChanged)
    kids = Property("QVariantList", _get_kids, notify=kidsChanged)  # type: ignore[arg-type]
    rev = Property(int, _get_rev, notify=revChanged)
    generation = Property(int, _get_generation, notify=generationChanged)
    scope = Property("QVariantMap", _get_scope, constant=True)  # type: ignore[arg-type]
    pager = Property(str, _get_pager, constant=True)

    # -- updated by the controller ----------------------------------------------------
    @property
    def children_nodes(self) -> list[NodeObject]:
        return self._kids

    def bump(self) -> None:
        """Re-evaluate this node's bindings (state it reads changed)."""
        self._rev += 1
        self.revChanged.emit()

    def set_fields(self, node: dict[str, Any]) -> None:
        """New own fields for the same node (same type and child structure)."""
        self.node = node
        props = own_fields(node)
        if props != self._props:
            self._props = props
            self._qml_props = None
            self.deps = dependencies(props, bool(self._scope))
            self.propsChanged.emit()
            self.bump()

    def replace(self, node: dict[str, Any], kids: list[NodeObject]) -> None:
        """A replaced node: new fields and a new subtree; the delegate rebuilds."""
        old = self._kids
        self.node = node
        self._props = own_fields(node)
        self._qml_props = None
        self.deps = dependencies(self._props, bool(self._scope))
        self._kids = kids
        self.propsChanged.emit()
        self.bump()
        self._generation += 1
        self.generationChanged.emit()
        for kid in old:
            kid.deleteLater()

    def reload(self) -> None:
        """Rebuild this node's delegate subtree from the same objects (e.g. after a theme
        change: Controls Material does not restyle live controls on a theme switch)."""
        self._generation += 1
        self.generationChanged.emit()

    def walk(self) -> Iterator[NodeObject]:
        yield self
        for kid in self._kids:
            yield from kid.walk()


AddressFn = Callable[[str, dict[str, Any]], str]


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


def build_tree(
    node: dict[str, Any],
    path: str,
    addresses: AddressTable,
    scope: dict[str, Any] | None = None,
    pager: str = "",
    parent: QObject | None = None,
) -> NodeObject:
    """A NodeObject tree for `node` at `path` (addresses: path -> address of the whole spec)."""
    # A node without an id is addressed by its path whatever else the spec holds.
    address = path if not node.get("id") else (addresses.get(path) or address_of(path, node))
    obj = NodeObject(node, path, address, dict(scope or {}), pager, parent)
    obj._kids = build_children(obj, addresses)
    return obj


#: path -> address lookups: a dict, or the controller's lazily computed table (has `.get`).
AddressTable = Any


def build_children(obj: NodeObject, addresses: AddressTable) -> list[NodeObject]:
    node = obj.node
    inner_pager = str(node.get("id", "")) if node.get("type") == "pager" else obj._pager
    out = []
    for child, path, scope in child_entries(node, obj.path):
        merged = {**obj._scope, **scope}
        out.append(build_tree(child, path, addresses, merged, inner_pager, obj))
    return out


def same_shape(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Same type, same repeat and same number of child nodes (so child objects can be kept)."""
    if old.get("type") != new.get("type") or old.get("repeat") != new.get("repeat"):
        return False
    if isinstance(old.get("child"), dict) != isinstance(new.get("child"), dict):
        return False
    return len(old.get("children") or []) == len(new.get("children") or [])


class LazyAddresses:
    """`studio.spec.address.addresses(spec)`, computed on the first lookup only."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self._spec = spec
        self._table: dict[str, str] | None = None

    def get(self, path: str, default: str | None = None) -> str | None:
        if self._table is None:
            self._table = addresses(self._spec)
        return self._table.get(path, default)
