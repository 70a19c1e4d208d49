"""The rules AutoMobile enforces in code after the contract walk, in its order: repeat
templates, pager ids and references, then state-key typing (docs/research §6.1).

They run only on a structurally valid spec, over the nodes and actions the walk met (in walk
order). Paths are computed only for the error returned (`layout`).
"""

from __future__ import annotations

import math
import re
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
from studio.spec.compiled import Ctx, number_ok, slot_uses
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


def pager_errors(ctx: Ctx, where: Callable[[str, int], str]) -> Failure | None:
    """Duplicate pager ids, then references (tab/nav bars, then setPage) to unknown pagers."""
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

_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_prototype_date(value: object) -> bool:
    """A real `YYYY-MM-DD` calendar date in 1900..2100."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return False
    year, month, day = (int(part) for part in value.split("-"))
    if not 1 <= month <= 12:
        return False
    leap = (year % 4 == 0 and year % 100 != 0) or year % 400 == 0
    days = 29 if month == 2 and leap else _DAYS[month - 1]
    return 1900 <= year <= 2100 and 1 <= day <= days


def _finite_number(value: object) -> bool:
    return number_ok(value, False, None, None)


def _step_fits(step: float, span: float) -> bool:
    if step <= 0:
        return False
    count = span / step
    return count >= 1 and abs(count - math.floor(count + 0.5)) < 1e-9


Rule = Callable[[Raw, str, Any, Raw], "Failure | None"]


def _slider(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    low: Any = node.get("min")
    high: Any = node.get("max")
    step: Any = node.get("step")
    if not _finite_number(low) or not _finite_number(high) or low >= high:
        return f"{path}.max", "Slider max must be greater than min"
    if _finite_number(step) and not _step_fits(step, high - low):
        return f"{path}.step", "Slider step must be positive and divide the range evenly"
    if not _finite_number(stored) or stored < low or stored > high:
        return f"{path}.stateKey", "Slider requires a numeric state key within min and max"
    return None


def _radio(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    name = "Segmented button" if node.get("type") == "segmentedButton" else "Radio group"
    if not isinstance(stored, str):
        return f"{path}.stateKey", f"{name} requires a string state key"
    seen: set[Any] = set()
    options = node.get("options")
    for index, option in enumerate(options if isinstance(options, list) else []):
        value = option.get("value") if isinstance(option, dict) else None
        if value in seen:
            return f"{path}.options[{index}].value", "Duplicate radio option value"
        seen.add(value)
    return None


def _chip(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    bound = isinstance(node.get("stateKey"), str)
    variant = node.get("variant")
    if variant == "filter" and not bound:
        return f"{path}.stateKey", "Filter chip requires a boolean state key"
    if variant is not None and variant != "filter" and bound:
        return f"{path}.stateKey", "Only a filter chip can bind a state key"
    if bound and not isinstance(stored, bool):
        return f"{path}.stateKey", "Filter chip requires a boolean state key"
    return None


def _fab(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    if isinstance(node.get("label"), str) and "size" in node:
        return f"{path}.size", "Extended FAB cannot set size"
    return None


def _progress(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    if not isinstance(node.get("stateKey"), str):
        return None if "max" not in node else (f"{path}.max", "Requires stateKey")
    top = node["max"] if _finite_number(node.get("max")) else 1
    if top <= 0:
        return f"{path}.max", "Progress max must be greater than 0"
    if not _finite_number(stored) or stored < 0 or stored > top:
        return f"{path}.stateKey", "Progress requires a numeric state key within 0 and max"
    return None


def _time(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    for key_field, top, message in (
        ("hourKey", 23, "Time picker hour requires an integer 0..23 state key"),
        ("minuteKey", 59, "Time picker minute requires an integer 0..59 state key"),
    ):
        key = node.get(key_field)
        value = state.get(key) if isinstance(key, str) else None
        if not number_ok(value, True, 0, top):
            return f"{path}.{key_field}", message
    if node.get("hourKey") == node.get("minuteKey"):
        return f"{path}.minuteKey", "Time picker hour and minute keys must differ"
    return None


def _date(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    if is_prototype_date(stored):
        return None
    return f"{path}.stateKey", "Date picker requires a YYYY-MM-DD state key in 1900..2100"


def _text_field(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    if isinstance(stored, str):
        return None
    return f"{path}.stateKey", "Text field requires a string state key"


def _toggle(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    if isinstance(stored, bool):
        return None
    return f"{path}.stateKey", "Toggle control requires a boolean state key"


def _selection(node: Raw, path: str, stored: Any, state: Raw) -> Failure | None:
    if not isinstance(node.get("stateKey"), str) or number_ok(stored, True, 0, None):
        return None
    return f"{path}.stateKey", "Selection requires a nonnegative integer state key"


#: Per node type, the binding rule (AutoMobile's `componentBindingErrors` + selection check).
NODE_RULES: dict[str, Rule] = {
    "textField": _text_field,
    "switch": _toggle,
    "checkbox": _toggle,
    "slider": _slider,
    "radioGroup": _radio,
    "segmentedButton": _radio,
    "chip": _chip,
    "fab": _fab,
    "progress": _progress,
    "timePicker": _time,
    "datePicker": _date,
    "tabBar": _selection,
    "bottomNav": _selection,
}
_MODALS = {"bottomSheet": "Sheet", "dialog": "Dialog", "snackbar": "Snackbar"}
_ACTION_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "toggle": (lambda v: isinstance(v, bool), "Toggle requires a boolean state key"),
    "increment": (_finite_number, "Increment requires a numeric state key"),
    "decrement": (_finite_number, "Decrement requires a numeric state key"),
}
#: Node types with a state-typing rule of any kind (binding, trailing, openWhen).
TYPED_NODES = frozenset(NODE_RULES) | {"listItem"} | frozenset(_MODALS)
TYPED_ACTIONS = frozenset(_ACTION_RULES)


def _stored(state: Raw, key: object) -> Any:
    return state.get(key) if isinstance(key, str) else None


def node_binding_error(node: Raw, path: str, state: Raw) -> Failure | None:
    rule = NODE_RULES.get(node.get("type"))  # type: ignore[arg-type]
    if rule is None:
        return None
    return rule(node, path, _stored(state, node.get("stateKey")), state)


def list_item_error(node: Raw, path: str, state: Raw) -> Failure | None:
    trailing = node.get("trailing") if node.get("type") == "listItem" else None
    key = trailing.get("stateKey") if isinstance(trailing, dict) else None
    if isinstance(key, str) and not isinstance(state.get(key), bool):
        return f"{path}.trailing.stateKey", "Toggle control requires a boolean state key"
    return None


def sheet_error(node: Raw, path: str, state: Raw) -> Failure | None:
    name = _MODALS.get(node.get("type"))  # type: ignore[arg-type]
    condition = node.get("openWhen")
    if name is None or not isinstance(condition, dict):
        return None
    key = condition.get("key")
    if isinstance(key, str) and key in state and not isinstance(state[key], bool):
        return f"{path}.openWhen.key", f"{name} requires a boolean state key"
    return None


def action_error(action: Raw, path: str, state: Raw) -> Failure | None:
    rule = _ACTION_RULES.get(action.get("type"))  # type: ignore[arg-type]
    key = action.get("key")
    if rule is not None and isinstance(key, str) and not rule[0](state.get(key)):
        return f"{path}.key", rule[1]
    return None


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
            if rule(node, "\0", _stored(state, node.get("stateKey")), state) is not None:
                return True
        elif kind == "listItem":
            if list_item_error(node, "\0", state) is not None:
                return True
        elif kind in _MODALS and sheet_error(node, "\0", state) is not None:
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
