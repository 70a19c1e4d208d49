"""The rules AutoMobile enforces in code after the contract walk, in its order: repeat
templates, pager ids and references, then state-key typing (docs/research §6.1).

They run only on a structurally valid spec, over the nodes and actions the walk met (in walk
order). Paths are computed only for the error returned (`layout`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from studio.spec import rules as R
from studio.spec.binding import (
    Binding,
    Instance,
    bind_checked_keys,
    bind_text,
    bindable_fields,
    checked_key_values,
    field_references,
    has_placeholder,
    is_state_key,
    js_string,
)
from studio.spec.jsvalues import is_number
from studio.spec.state_rules import ACTIONS, CONTROLS, StateBinding
from studio.spec.structure import Ctx, slot_uses
from studio.spec.tree import children

Raw = dict[str, Any]
Failure = tuple[str, str]


# --- where nodes and actions are -----------------------------------------------------------


def _action_lists(node: Raw, path: str) -> Iterator[tuple[str, Any]]:
    """(path, onTap list) of a node's own action lists, in sorted-key (walk) order; child nodes
    are yielded as ("", node-entry) markers where their actions come in that order."""
    for key in ("action", "actions", "child", "confirm", "dismiss", "navigationIcon"):
        value = node.get(key)
        if key == "child":  # `child` and `children` sort together: the child nodes go here
            for child in children(node, path):
                yield "", child
        elif value is None:
            continue
        elif key == "actions":
            for index, part in enumerate(value if isinstance(value, list) else []):
                if isinstance(part, dict):
                    yield f"{path}.actions[{index}].onTap", part.get("onTap")
        elif isinstance(value, dict):
            yield f"{path}.{key}.onTap", value.get("onTap")
    yield f"{path}.onTap", node.get("onTap")


@dataclass
class Layout:
    """Paths (and repeat scopes) of every node in pre-order and every action in walk order."""

    node_paths: list[str] = field(default_factory=list)
    node_scopes: list[Scope | None] = field(default_factory=list)
    action_paths: list[str] = field(default_factory=list)
    action_scopes: list[Scope | None] = field(default_factory=list)
    #: id(action) -> scope, for the quick pass whose actions are not in walk order.
    scope_by_action: dict[int, Scope | None] = field(default_factory=dict)


@dataclass
class Scope:
    """A repeat container: its path, its alias binding and its (object) items."""

    path: str
    binding: Binding
    items: list[Raw]


def scope_of(node: Raw, path: str) -> Scope | None:
    repeat = node.get("repeat")
    if not isinstance(repeat, dict) or not isinstance(repeat.get("as"), str):
        return None
    items = repeat.get("items")
    entries = [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
    return Scope(path, Binding(repeat["as"], index=True), entries)


def layout(spec: Raw) -> Layout:
    """Walks a structurally valid spec once, giving every node's and action's path."""
    out = Layout()
    root = spec.get("root")
    if not isinstance(root, dict):
        return out

    def visit(node: Raw, path: str, scope: Scope | None) -> None:
        out.node_paths.append(path)
        out.node_scopes.append(scope)
        inner = scope_of(node, path) or scope
        for list_path, value in _action_lists(node, path):
            if not list_path:
                child, child_path = value
                visit(child, child_path, inner)
            elif isinstance(value, list):
                for index, action in enumerate(value):
                    out.action_paths.append(f"{list_path}[{index}]")
                    out.action_scopes.append(scope)
                    out.scope_by_action[id(action)] = scope

    visit(root, "root", None)
    return out


# --- 1. repeat -------------------------------------------------------------------------------

_STATE_KEY = is_state_key


def _template_field_error(value: Any, path: str, kind: str, scope: Scope) -> Failure | None:
    if not isinstance(value, str):
        return None
    for name in field_references(value, scope.binding):
        if not all(name in item for item in scope.items):
            return path, f"Unknown repeat field {js_string(name)}"
    if kind == "emitName":
        for index, item in enumerate(scope.items):
            if bind_text(value, Instance(scope.binding, item, index)) == "":
                return path, f"Expanded emit name is empty for item {index}"
        return None
    if kind != "key":
        return None
    if not has_placeholder(value, scope.binding):
        return None if _STATE_KEY(value) else (path, "Invalid key value")
    for index, item in enumerate(scope.items):
        bound = bind_text(value, Instance(scope.binding, item, index))
        if not _STATE_KEY(bound):
            return (
                f"{scope.path}.repeat.items[{index}]",
                f"Bound state key {js_string(bound)} is invalid",
            )
    return None


def _template_errors(node: Raw, path: str, scope: Scope | None) -> Failure | None:
    if scope is not None:
        if "repeat" in node:
            return f"{path}.repeat", "Nested repeat is not supported"
        if node.get("type") == "pager":
            return path, "Pager cannot appear inside a repeat template"
    for value, field_path, kind in bindable_fields(node, path):
        if scope is not None:
            error = _template_field_error(value, field_path, kind, scope)
            if error is not None:
                return error
        elif kind == "key" and isinstance(value, str) and not _STATE_KEY(value):
            return field_path, "State key placeholder outside a repeat template"
    inner = scope_of(node, path) or scope
    for child, child_path in children(node, path):
        error = _template_errors(child, child_path, inner)
        if error is not None:
            return error
    return None


def image_uses(node: Raw) -> int:
    """Images a node costs: an image node its asset, a tab/nav bar its item images."""
    if node.get("type") == "image":
        return max(1, slot_uses(node.get("asset")))
    items = node.get("items")
    if not isinstance(items, list):
        return 0
    return sum(slot_uses(i.get("image")) for i in items if isinstance(i, dict))


class _Budget:
    __slots__ = ("images", "nodes")

    def __init__(self) -> None:
        self.nodes = 0
        self.images = 0


def _expanded_errors(node: Raw, path: str, budget: _Budget, at: str | None) -> Failure | None:
    where = at if at is not None else path
    budget.nodes += 1
    if budget.nodes > R.MAX_NODES:
        return where, "Expanded node limit exceeded"
    budget.images += image_uses(node)
    if budget.images > R.MAX_IMAGES:
        return where, "Expanded image limit exceeded"
    scope = scope_of(node, path)
    copies = len(scope.items) if scope is not None else 1
    nested = f"{path}.repeat" if scope is not None else at
    kids = children(node, path)
    for _ in range(copies):
        for child, child_path in kids:
            error = _expanded_errors(child, child_path, budget, nested)
            if error is not None:
                return error
    return None


def repeat_errors(spec: Raw, ctx: Ctx) -> Failure | None:
    """Repeat template rules, then the expanded node and image limits (AutoMobile's order)."""
    if not ctx.repeats and not ctx.templated:
        return None  # nothing to bind, and the expanded tree is the tree the walk counted
    root = spec.get("root")
    if not isinstance(root, dict):
        return None
    error = _template_errors(root, "root", None)
    if error is None and ctx.repeats:
        error = _expanded_errors(root, "root", _Budget(), None)
    return error


# --- 2. pagers -------------------------------------------------------------------------------


@dataclass
class Pagers:
    """Pager ids and the references to them (tab and nav bars, `setPage` actions), counted:
    the pager rule is that no id appears twice and every reference names an id."""

    ids: Counter[str]
    refs: Counter[str]

    @classmethod
    def of(cls, ctx: Ctx) -> Pagers:
        ids: Counter[str] = Counter()
        refs: Counter[str] = Counter()
        nodes = ctx.nodes
        for index in ctx.marked:
            node = nodes[index]
            if node.get("type") == "pager" and isinstance(node.get("id"), str):
                ids[node["id"]] += 1
            if isinstance(node.get("pager"), str):
                refs[node["pager"]] += 1
        for action in ctx.actions:
            if isinstance(action.get("pager"), str):
                refs[action["pager"]] += 1
        return cls(ids, refs)

    def __add__(self, other: Pagers) -> Pagers:
        return Pagers(self.ids + other.ids, self.refs + other.refs)

    def __sub__(self, other: Pagers) -> Pagers:
        return Pagers(self.ids - other.ids, self.refs - other.refs)

    @property
    def ok(self) -> bool:
        return (
            all(count == 1 for count in self.ids.values()) and self.refs.keys() <= self.ids.keys()
        )


def pager_errors(ctx: Ctx, where: Callable[[str, int], str]) -> Failure | None:
    """Duplicate pager ids, then references (tab/nav bars, then setPage) to unknown pagers."""
    if Pagers.of(ctx).ok:
        return None  # the common case; the ordered search below finds the first error
    pagers: set[str] = set()
    nodes = ctx.nodes
    for index in ctx.marked:
        node = nodes[index]
        if node.get("type") == "pager" and isinstance(node.get("id"), str):
            if node["id"] in pagers:
                return f"{where('node', index)}.id", "Duplicate pager id"
            pagers.add(node["id"])
    for index in ctx.marked:
        pager = nodes[index].get("pager")
        if isinstance(pager, str) and pager not in pagers:
            return f"{where('node', index)}.pager", "Unknown pager id"
    for index, action in enumerate(ctx.actions):
        pager = action.get("pager")
        if isinstance(pager, str) and pager not in pagers:
            return f"{where('action', index)}.pager", "Unknown pager id"
    return None


# --- 3. state typing -------------------------------------------------------------------------
# What each bound key must hold is the shared table (`studio.spec.state_rules`, also read by the
# runtime); the rules of shape checked around it, in AutoMobile's order, are here.


def _step_fits(step: float, span: float) -> bool:
    if step <= 0:
        return False
    count = span / step
    return count >= 1 and abs(count - math.floor(count + 0.5)) < 1e-9


Rule = Callable[[Raw, str, Raw], "Failure | None"]


def _typed(node: Raw, path: str, binding: StateBinding, state: Raw) -> Failure | None:
    """The binding's state-typing failure for this node's initial state, if any."""
    field = binding.field
    key = node.get(field[0]) if len(field) == 1 else binding.key(node)  # the common case inline
    if type(key) is not str or (binding.declared_only and key not in state):
        return None
    if (binding.fixed or binding.type_for(node)).problem(state.get(key)) is None:
        return None
    return f"{path}{binding.where}", binding.message


def _bound(node: Raw, path: str, state: Raw) -> Failure | None:
    """Every key the node binds, in the table's order."""
    for binding in CONTROLS[node["type"]]:
        error = _typed(node, path, binding, state)
        if error is not None:
            return error
    return None


def _slider(node: Raw, path: str, state: Raw) -> Failure | None:
    low: Any = node.get("min")
    high: Any = node.get("max")
    step: Any = node.get("step")
    if not is_number(low) or not is_number(high) or low >= high:
        return f"{path}.max", "Slider max must be greater than min"
    if is_number(step) and not _step_fits(step, high - low):
        return f"{path}.step", "Slider step must be positive and divide the range evenly"
    return _bound(node, path, state)


def _radio(node: Raw, path: str, state: Raw) -> Failure | None:
    error = _bound(node, path, state)
    if error is not None:
        return error
    seen: set[Any] = set()
    options = node.get("options")
    for index, option in enumerate(options if isinstance(options, list) else []):
        value = option.get("value") if isinstance(option, dict) else None
        if value in seen:
            return f"{path}.options[{index}].value", "Duplicate radio option value"
        seen.add(value)
    return None


def _chip(node: Raw, path: str, state: Raw) -> Failure | None:
    bound = isinstance(node.get("stateKey"), str)
    variant = node.get("variant")
    if variant == "filter" and not bound:
        return f"{path}.stateKey", "Filter chip requires a boolean state key"
    if variant is not None and variant != "filter" and bound:
        return f"{path}.stateKey", "Only a filter chip can bind a state key"
    return _bound(node, path, state)


def _fab(node: Raw, path: str, state: Raw) -> Failure | None:
    if isinstance(node.get("label"), str) and "size" in node:
        return f"{path}.size", "Extended FAB cannot set size"
    return None


def _progress(node: Raw, path: str, state: Raw) -> Failure | None:
    if not isinstance(node.get("stateKey"), str):
        return None if "max" not in node else (f"{path}.max", "Requires stateKey")
    if not _PROGRESS.type_for(node).maximum > 0:  # type: ignore[operator]  # 1 when absent
        return f"{path}.max", "Progress max must be greater than 0"
    return _bound(node, path, state)


def _time(node: Raw, path: str, state: Raw) -> Failure | None:
    error = _bound(node, path, state)
    if error is None and node.get("hourKey") == node.get("minuteKey"):
        return f"{path}.minuteKey", "Time picker hour and minute keys must differ"
    return error


_PROGRESS = CONTROLS["progress"][0]
_MODALS = frozenset({"bottomSheet", "dialog", "snackbar"})

#: Per node type, its binding rule (AutoMobile's `componentBindingErrors` and the selection
#: check); list items and modals are checked in passes of their own, after every node.
NODE_RULES: dict[str, Rule] = {
    "textField": _bound,
    "switch": _bound,
    "checkbox": _bound,
    "slider": _slider,
    "radioGroup": _radio,
    "segmentedButton": _radio,
    "chip": _chip,
    "fab": _fab,
    "progress": _progress,
    "timePicker": _time,
    "datePicker": _bound,
    "tabBar": _bound,
    "bottomNav": _bound,
}
#: Node types with a state-typing rule of any kind (binding, trailing, openWhen).
TYPED_NODES = frozenset(NODE_RULES) | {"listItem"} | _MODALS
TYPED_ACTIONS = frozenset(ACTIONS)


def node_binding_error(node: Raw, path: str, state: Raw) -> Failure | None:
    rule = NODE_RULES.get(node.get("type"))  # type: ignore[arg-type]
    return None if rule is None else rule(node, path, state)


def list_item_error(node: Raw, path: str, state: Raw) -> Failure | None:
    return _bound(node, path, state) if node.get("type") == "listItem" else None


def sheet_error(node: Raw, path: str, state: Raw) -> Failure | None:
    return _bound(node, path, state) if node.get("type") in _MODALS else None


def action_error(action: Raw, path: str, state: Raw) -> Failure | None:
    binding = ACTIONS.get(action.get("type"))  # type: ignore[arg-type]
    return None if binding is None else _typed(action, path, binding, state)


def _instances(
    entries: list[Raw], indices: Iterable[int], scopes: list[Scope | None] | None
) -> Iterator[tuple[int, Raw, int | None]]:
    """(index, value, item): a templated entry once per repeat item with its keys bound."""
    for index in indices:
        entry = entries[index]
        scope = scopes[index] if scopes is not None else None
        if scope is not None and any(
            isinstance(k, str) and has_placeholder(k, scope.binding)
            for k in checked_key_values(entry)
        ):
            for item_index, item in enumerate(scope.items):
                instance = Instance(scope.binding, item, item_index)
                yield index, bind_checked_keys(entry, instance), item_index
        else:
            yield index, entry, None


def state_type_errors(
    spec: Raw, ctx: Ctx, where: Callable[[str, int], str], spec_layout: Layout | None
) -> Failure | None:
    """Binding types per node, list item trailing keys, modal `openWhen` keys, state actions;
    a templated key is checked once per repeat item (message suffixed `(repeat item i)`)."""
    state = spec.get("state")
    state = state if isinstance(state, dict) else {}
    if spec_layout is None and not _any_state_error(ctx, state):
        return None  # the common case, decided in one pass; the ordered search finds the first
    node_scopes = spec_layout.node_scopes if spec_layout is not None else None
    action_scopes = None
    if spec_layout is not None:
        by_id = spec_layout.scope_by_action
        action_scopes = [by_id.get(id(action)) for action in ctx.actions]
    typed = [
        (i, v, item)
        for i, v, item in _instances(ctx.nodes, ctx.marked, node_scopes)
        if v.get("type") in TYPED_NODES
    ]
    for check in (node_binding_error, list_item_error, sheet_error):
        for index, value, item in typed:
            error = check(value, "\0", state)
            if error is not None:
                return _placed(error, where("node", index), item)
    for index, value, item in _instances(ctx.actions, range(len(ctx.actions)), action_scopes):
        if value.get("type") in TYPED_ACTIONS:
            error = action_error(value, "\0", state)
            if error is not None:
                return _placed(error, where("action", index), item)
    return None


def _any_state_error(ctx: Ctx, state: Raw) -> bool:
    """Whether any node or action (without repeat bindings) breaks a state-typing rule: one
    pass, one rule per node type (the three node rules apply to disjoint types)."""
    nodes = ctx.nodes
    rules = NODE_RULES
    for index in ctx.marked:
        node = nodes[index]
        kind = node.get("type")
        rule = rules.get(kind)  # type: ignore[arg-type]
        if rule is not None:
            if rule(node, "\0", state) is not None:
                return True
        elif (kind == "listItem" or kind in _MODALS) and _bound(node, "\0", state) is not None:
            return True
    typed = TYPED_ACTIONS
    for action in ctx.actions:
        if action.get("type") in typed and action_error(action, "\0", state) is not None:
            return True
    return False


def _placed(error: Failure, path: str, item: int | None) -> Failure:
    at, message = error
    at = path + at[1:]
    return (at, message if item is None else f"{message} (repeat item {item})")
