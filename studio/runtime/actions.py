"""Planning an action list atomically: every write is bound, typed and checked before anything
is applied, as AutoMobile's device does (`PrototypeRuntime.plannedWrites`, #11408).

`plan_actions` never changes the runtime; it returns the steps to apply in order, or raises
`ActionRejected` naming the first bad action. Actions after a `dismiss` never run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from studio.runtime.bindings import Scope, bind_action
from studio.runtime.controls import ControlRule, StateWriteError, check_write
from studio.runtime.platform_calls import PlatformActionError, check_into, resolve_args
from studio.runtime.values import TypeClass, describe, type_class

ACTION_TYPES = frozenset(
    {"emit", "setPage", "setState", "toggle", "increment", "decrement", "dismiss", "platform"}
)


class ActionRejected(ValueError):
    """An action list that cannot run; nothing was applied. One line naming the action."""

    def __init__(self, index: int, action_type: str, message: str, key: str | None = None):
        super().__init__(f"action {index} ({action_type}): {message}")
        self.index = index
        self.action_type = action_type
        self.message = message
        self.key = key


@dataclass(frozen=True)
class Emit:
    name: str
    payload: Any


@dataclass(frozen=True)
class Write:
    key: str
    value: Any


@dataclass(frozen=True)
class Page:
    pager: str
    page: int


@dataclass(frozen=True)
class Call:
    call: str
    args: dict[str, Any]
    into: str | None
    status_key: str | None


@dataclass(frozen=True)
class Dismiss:
    pass


Step = Emit | Write | Page | Call | Dismiss


@dataclass
class Plan:
    """The steps of an accepted action list, in order, and the keys it writes (first-touch order)."""

    steps: list[Step] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    """What planning reads: current state, pages, page counts, data and the typing rules."""

    state: Mapping[str, Any]
    pages: Mapping[str, int]
    counts: Mapping[str, int]
    data: Mapping[str, Any]
    declared: Mapping[str, TypeClass]
    rules: Mapping[str, list[ControlRule]]


def _target_page(page: object, current: int, count: int) -> int | None:
    if page == "next":
        wanted = current + 1
    elif page == "prev":
        wanted = current - 1
    elif isinstance(page, int) and not isinstance(page, bool):
        wanted = page
    else:
        return None
    return min(max(wanted, 0), max(count - 1, 0))


def _step_value(current: Any, by: Any, sign: int) -> Any:
    """increment/decrement: None when the result would not be finite (a no-op, as on device)."""
    step = 1 if by is None else by
    result = current + sign * step
    return result if math.isfinite(result) else None


def plan_actions(actions: list[Any], scope: Scope | None, ctx: Context) -> Plan:
    """The steps `actions` take from `ctx`, or ActionRejected for the first bad one."""
    state = dict(ctx.state)
    pages = dict(ctx.pages)
    plan = Plan()

    def write(index: int, kind: str, key: Any, value: Any) -> None:
        if not isinstance(key, str):
            raise ActionRejected(index, kind, f"key must be a string, got {describe(key)}")
        try:
            value = check_write(key, value, ctx.declared, ctx.rules)
        except StateWriteError as error:
            raise ActionRejected(index, kind, str(error), key) from None
        state[key] = value
        plan.steps.append(Write(key, value))
        if key not in plan.touched:
            plan.touched.append(key)

    for index, raw in enumerate(actions):
        if not isinstance(raw, Mapping):
            raise ActionRejected(index, "?", "an action must be an object")
        action = bind_action(raw, scope)
        kind = action.get("type")
        if kind not in ACTION_TYPES:
            raise ActionRejected(index, str(kind), "unknown action type")
        key = action.get("key")
        if kind == "dismiss":
            plan.steps.append(Dismiss())
            break
        if kind == "emit":
            name = action.get("name")
            if not isinstance(name, str) or not name:
                raise ActionRejected(index, kind, "emit needs a non-empty name")
            plan.steps.append(Emit(name, action.get("payload")))
        elif kind == "setState":
            if "value" not in action:
                raise ActionRejected(index, kind, "setState needs a value", key)
            write(index, kind, key, action["value"])
        elif kind == "toggle":
            current = _stored(index, kind, key, "boolean", state, ctx)
            write(index, kind, key, not current)
        elif kind in ("increment", "decrement"):
            by = action.get("by")
            if by is not None and type_class(by) != "number":
                raise ActionRejected(index, kind, f"by must be a number, got {describe(by)}", key)
            current = _stored(index, kind, key, "number", state, ctx)
            stepped = _step_value(current, by, 1 if kind == "increment" else -1)
            if stepped is not None:
                write(index, kind, key, stepped)
        elif kind == "setPage":
            pager = action.get("pager")
            if not isinstance(pager, str) or pager not in pages:
                continue  # an unknown pager is skipped, as on the device
            target = _target_page(action.get("page"), pages[pager], ctx.counts.get(pager, 1))
            if target is None:
                raise ActionRejected(
                    index,
                    kind,
                    f"page must be next, prev or an integer, got {describe(action.get('page'))}",
                )
            if target != pages[pager]:
                pages[pager] = target
                plan.steps.append(Page(pager, target))
        elif kind == "platform":
            plan_call(index, action, state, ctx, plan, write)
    return plan


def _stored(
    index: int, kind: str, key: object, wanted: TypeClass, state: Mapping[str, Any], ctx: Context
) -> Any:
    """The current value a toggle/increment/decrement starts from, or ActionRejected."""
    if not isinstance(key, str):
        raise ActionRejected(index, kind, f"key must be a string, got {describe(key)}")
    if key not in ctx.declared:
        raise ActionRejected(
            index, kind, f"state key {key!r}: is not declared in the spec's state", key
        )
    if type_class(state.get(key)) != wanted:
        raise ActionRejected(index, kind, f"state key {key!r}: {kind} needs a {wanted}", key)
    return state[key]


Writer = Callable[[int, str, Any, Any], None]


def plan_call(
    index: int,
    action: Mapping[str, Any],
    state: Mapping[str, Any],
    ctx: Context,
    plan: Plan,
    write: Writer,
) -> None:
    """A platform action: arguments resolved now; its statusKey becomes "pending"."""
    call = action.get("call")
    if not isinstance(call, str) or "." not in call:
        raise ActionRejected(index, "platform", f'call must be "module.call", got {describe(call)}')
    args = action.get("args")
    if args is not None and not isinstance(args, Mapping):
        raise ActionRejected(index, "platform", "args must be an object")
    try:
        resolved = resolve_args(args, state, ctx.data)
        into = check_into(action.get("into"))
    except PlatformActionError as error:
        raise ActionRejected(index, "platform", str(error)) from None
    status_key = action.get("statusKey")
    if status_key is not None:
        write(index, "platform", status_key, "pending")
    plan.steps.append(Call(call, resolved, into, status_key))
