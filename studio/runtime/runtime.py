"""`Runtime`: one running prototype (state, pager pages, data, events), driven by interactions."""

from __future__ import annotations

import copy
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from studio.runtime import actions as act
from studio.runtime.bindings import Scope, bind_condition, bind_scope_text, bind_text
from studio.runtime.conditions import holds, is_open, resolve_style
from studio.runtime.controls import (
    ControlRule,
    StateWriteError,
    check_write,
    control_rules,
    rules_by_key,
    snap_control_value,
)
from studio.runtime.events import Change, EventKind, EventLog, Listener, Refusal, RuntimeEvent
from studio.runtime.platform_calls import (
    STATUSES,
    PlatformActionError,
    PlatformRequest,
    write_pointer,
)
from studio.runtime.summary import summarize, text_field_on_screen
from studio.runtime.tree import SubtreeFacts, instances, own_pager_count
from studio.runtime.values import Scalar, TypeClass, is_scalar, same_scalar, type_class

DISMISS_REASONS = ("user", "agent", "disconnect", "ttl", "teardown")
#: `appearance_changed` payload values (AutoMobile's `PrototypeAppearanceMode` and
#: `PrototypeAppearanceSource` wire names, as its host tool lists them).
APPEARANCE_MODES = ("light", "dark")
APPEARANCE_SOURCES = ("explicit", "override", "roleLuminance", "authoredBackground", "system")
#: How many refusals `Runtime.refusals` keeps (studio-only notices, not events).
MAX_REFUSALS = 64


#: What the runtime gathers from each node: `(state key, control rule)` claims and
#: `(pager id, page count)`.
_Fact = tuple[str, ControlRule | int]


def _own_facts(node: Mapping[str, Any], address: str) -> list[_Fact]:
    found: list[_Fact] = []
    found.extend(control_rules(node, address))
    if node.get("type") == "pager":
        found.extend(own_pager_count(node, address))
    return found


def _initial_state(spec: Mapping[str, Any]) -> dict[str, Scalar]:
    state = spec.get("state")
    if not isinstance(state, Mapping):
        return {}
    return {k: v for k, v in state.items() if isinstance(k, str) and is_scalar(v)}


def _initial_data(spec: Mapping[str, Any]) -> dict[str, Any]:
    data = spec.get("data")
    return copy.deepcopy(dict(data)) if isinstance(data, Mapping) else {}


def _refill(target: dict[str, Any], values: Mapping[str, Any]) -> None:
    target.clear()
    target.update(values)


def _changed_keys(old: Mapping[str, Any], new: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(k for k in old.keys() | new.keys() if not same_scalar(old.get(k), new.get(k)))


class Runtime:
    """A running prototype, Qt-free. See docs/runtime.md for the contract.

    `spec` must be a valid spec with components expanded (repeat is expanded here)."""

    def __init__(
        self,
        spec: Mapping[str, Any],
        *,
        clock: Callable[[], float] = time.time,
        max_events: int = 256,
    ) -> None:
        self._clock = clock
        self._log = EventLog(max_events)
        self._refusals: deque[Refusal] = deque(maxlen=MAX_REFUSALS)
        self._listeners: list[Listener] = []
        self._pending: dict[str, PlatformRequest] = {}
        self._request_counter = 0
        # Per-subtree caches: a replace() re-walks only the subtrees the edit changed. The
        # whole tree is first walked on first need (see `_index`), not here: showing a big spec
        # must not pay for walking what the preview never instantiates.
        self._facts: SubtreeFacts[_Fact] = SubtreeFacts(_own_facts)
        self._known: tuple[_Fact, ...] | None = None
        self._indexed = False
        self._rules_by_key: dict[str, list[ControlRule]] = {}
        self._page_counts: dict[str, int] = {}
        #: Each pager's page; until the tree is indexed, empty (every pager is on page 0).
        self._page_of: dict[str, int] = {}
        self._load(spec)
        self._state: dict[str, Scalar] = _initial_state(self._spec)
        self._data: dict[str, Any] = _initial_data(self._spec)
        self._active = True

    def _load(self, spec: Mapping[str, Any]) -> None:
        if not isinstance(spec, Mapping) or not isinstance(spec.get("root"), Mapping):
            raise ValueError("runtime: spec must be an object with a root node")
        if not isinstance(spec.get("id"), str):
            raise ValueError("runtime: spec must have a string id")
        # Specs are values: apply_patch and the Document build new objects and never mutate one
        # in place, so the runtime keeps a reference (a deep copy cost ~12 ms per edit on a
        # 2,000-node spec, most of a one-node re-render). It never mutates the spec either.
        self._spec: dict[str, Any] = dict(spec)
        initial = _initial_state(self._spec)
        self._declared: dict[str, TypeClass] = {
            k: kind for k, v in initial.items() if (kind := type_class(v)) is not None
        }
        if self._indexed:
            self._walk_facts()

    def _walk_facts(self) -> None:
        """The control rules and page counts of the spec's tree; only the path an edit changed is
        re-walked (see `SubtreeFacts`)."""
        facts = self._facts.update(self._spec["root"])
        if facts != self._known:  # unchanged facts are the same objects: compared by identity
            self._known = facts
            self._rules_by_key = rules_by_key(
                (k, v) for k, v in facts if isinstance(v, ControlRule)
            )
            self._page_counts = {k: v for k, v in facts if isinstance(v, int)}

    def _index(self) -> None:
        """Walk the tree on first need: the first read of the pages or page counts, the first
        write, event or re-show. Until then no pager has moved, so each is on page 0."""
        if not self._indexed:
            self._indexed = True
            self._walk_facts()
            self._page_of.update(dict.fromkeys(self._page_counts, 0))

    @property
    def _rules(self) -> dict[str, list[ControlRule]]:
        """The control rules of each state key (the tree indexed first)."""
        self._index()
        return self._rules_by_key

    @property
    def _counts(self) -> dict[str, int]:
        """Each pager's page count (the tree indexed first)."""
        self._index()
        return self._page_counts

    @property
    def _pages(self) -> dict[str, int]:
        """Each pager's current page, one entry per pager (the tree indexed first)."""
        self._index()
        return self._page_of

    # --- reading -------------------------------------------------------------------------------

    @property
    def spec(self) -> dict[str, Any]:
        """The spec as loaded (initial state); do not mutate. See `current_spec()`."""
        return self._spec

    @property
    def id(self) -> str:
        """The spec's id."""
        return str(self._spec["id"])

    @property
    def state(self) -> Mapping[str, Scalar]:
        """A read-only live view of the current state."""
        return MappingProxyType(self._state)

    @property
    def pages(self) -> Mapping[str, int]:
        """A read-only live view of each pager's current page (0-based)."""
        return MappingProxyType(self._pages)

    @property
    def page_counts(self) -> Mapping[str, int]:
        """Each pager's number of pages."""
        return MappingProxyType(self._counts)

    @property
    def data(self) -> Mapping[str, Any]:
        """A read-only live view of the studio `data` object (platform results land here)."""
        return MappingProxyType(self._data)

    @property
    def events(self) -> Sequence[RuntimeEvent]:
        """The newest events (at most `max_events`), oldest first."""
        return self._log.snapshot()

    @property
    def refusals(self) -> Sequence[Refusal]:
        """The newest writes the runtime refused, oldest first: studio-only notices (the phone
        applies nothing and emits no event for them)."""
        return tuple(self._refusals)

    @property
    def dropped_events(self) -> int:
        """How many events the bounded buffer has dropped."""
        return self._log.dropped

    @property
    def active(self) -> bool:
        """False once dismissed; interactions are then ignored until `reset()`."""
        return self._active

    @property
    def pending_requests(self) -> Sequence[PlatformRequest]:
        """Platform requests issued and not yet resolved, oldest first."""
        return tuple(self._pending.values())

    def current_spec(self) -> dict[str, Any]:
        """A copy of the spec carrying the current state and data (what to re-show on a device
        to keep what the user changed)."""
        spec = copy.deepcopy(self._spec)
        if self._state or "state" in spec:
            spec["state"] = dict(self._state)
        if self._data or "data" in spec:
            spec["data"] = copy.deepcopy(self._data)
        return spec

    def value(self, key: str) -> Scalar | None:
        """The current value of a state key, None when undeclared."""
        return self._state.get(key)

    def bind_text(self, text: str, scope: Scope | None = None, *, pager: str | None = None) -> str:
        """Display text with `{key}`, `{alias.field}`/`{index}` and, when `pager` is given,
        `{page}` (1-based) / `{pageCount}` bound; unknown placeholders stay as written."""
        page = None
        if pager is not None and pager in self._counts:
            page = (self._pages.get(pager, 0), self._counts[pager])
        return bind_text(text, self._state, scope, page, self._data)

    def bind_key(self, key: str, scope: Scope | None) -> str:
        """A templated state key (`liked_{item.id}`) as the concrete key of this scope."""
        return bind_scope_text(key, scope)

    def evaluate(self, condition: Mapping[str, Any], scope: Scope | None = None) -> bool:
        """Whether a condition (`visibleWhen`, `styleWhen[].when`) holds now."""
        return holds(bind_condition(condition, scope), self._state)

    def is_visible(self, node: Mapping[str, Any], scope: Scope | None = None) -> bool:
        """False when the node has a `visibleWhen` that does not hold."""
        condition = node.get("visibleWhen")
        return not isinstance(condition, Mapping) or self.evaluate(condition, scope)

    def effective_style(
        self, node: Mapping[str, Any], scope: Scope | None = None
    ) -> dict[str, Any]:
        """`style` with every matching `styleWhen[].style` merged over it, in authored order."""
        entries = node.get("styleWhen")
        bound = [
            {**e, "when": bind_condition(e["when"], scope)}
            for e in (entries if isinstance(entries, list) else [])
            if isinstance(e, Mapping) and isinstance(e.get("when"), Mapping)
        ]
        style = node.get("style")
        return resolve_style(style if isinstance(style, Mapping) else None, bound, self._state)

    def is_open(self, node: Mapping[str, Any], scope: Scope | None = None) -> bool:
        """Whether a dialog, snackbar or bottomSheet is open (`openWhen`)."""
        open_when = node.get("openWhen")
        if not isinstance(open_when, Mapping):
            return False
        return is_open(bind_condition(open_when, scope), self._state)

    def instances(self, node: Mapping[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Repeat: one `(bound container, scope)` per item, whose `children` are that item's
        bound template (render all instances' children, in order, inside the one container);
        a node without `repeat` gives `[(node, {})]`."""
        return instances(node)

    def visible_summary(self) -> list[dict[str, Any]]:
        """`[{address, type, text}]` (+ `item`, `value`) of what is on screen now."""
        return summarize(
            self._spec["root"],
            visible=self.is_visible,
            is_open=self.is_open,
            page_of=lambda pager: self._pages.get(pager, 0),
            bind=lambda text, scope, pager: self.bind_text(text, scope, pager=pager),
            value=self._state.get,
        )

    def text_field_on_screen(self) -> bool:
        """Whether a text field is on screen now, which is when the phone's window takes the
        focus and so Back (RM `hasVisibleTextField`, HO `prototypeBackDecision`)."""
        return text_field_on_screen(
            self._spec["root"],
            visible=self.is_visible,
            is_open=self.is_open,
            page_of=lambda pager: self._pages.get(pager, 0),
        )

    # --- subscriptions and events ----------------------------------------------------------------

    def subscribe(self, callback: Listener) -> Callable[[], None]:
        """Calls `callback(Change)` after every interaction, replace and reset; returns the
        function that unsubscribes it."""
        self._listeners.append(callback)

        def unsubscribe() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return unsubscribe

    def _notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    def _log_event(self, kind: EventKind, name: str | None, payload: Any = None) -> RuntimeEvent:
        return self._log.append(
            spec_id=self.id,
            kind=kind,
            name=name,
            payload=payload,
            state=self._state,
            pages=self._pages,
            timestamp=int(self._clock() * 1000),
        )

    def _change_event(self, keys: Sequence[str]) -> RuntimeEvent | None:
        """AutoMobile's one `change` event: `{key, value}` for one key, `{keys, values}` for more."""
        if not keys:
            return None
        if len(keys) == 1:
            payload: dict[str, Any] = {"key": keys[0], "value": self._state[keys[0]]}
        else:
            payload = {"keys": list(keys), "values": {k: self._state[k] for k in keys}}
        return self._log_event("emit", "change", payload)

    def _reject(self, message: str, key: str | None, action: int | None = None) -> Refusal:
        """A refused write: nothing applied and no event (as on the phone: RT `plannedWrites`
        throws and the controller only logs it); the studio keeps a notice and tells
        subscribers, with the key, so a control showing the refused value reverts."""
        refusal = Refusal(message, key, action, int(self._clock() * 1000))
        self._refusals.append(refusal)
        self._notify(Change(keys=frozenset({key} if key else ()), refusal=refusal))
        return refusal

    # --- writing ---------------------------------------------------------------------------------

    def set_value(self, key: str, value: Any) -> None:
        """A control's write (text typed, switch flipped, slider moved, tab chosen, ...): one
        `change` event when the value changed. A slider value is clamped and snapped; any other
        bad write raises StateWriteError (a ValueError, one line) after noting a `Refusal`."""
        self.set_values({key: value})

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Several control writes as one interaction (a time picker's hour and minute): all or
        nothing, one `change` event with `{keys, values}`."""
        if not self._active:
            return
        accepted: dict[str, Scalar] = {}
        for key, raw in values.items():
            try:
                if not isinstance(key, str):
                    raise StateWriteError(str(key), "a state key must be a string")
                snapped = snap_control_value(raw, self._rules.get(key, []))
                accepted[key] = check_write(key, snapped, self._declared, self._rules)
            except StateWriteError as error:
                self._reject(str(error), error.key)
                raise
        changed = [k for k, v in accepted.items() if not same_scalar(self._state.get(k), v)]
        if not changed:
            return
        self._state.update({k: accepted[k] for k in changed})
        for key in changed:
            self._declare(key, accepted[key])
        event = self._change_event(changed)
        self._notify(Change(keys=frozenset(changed), event=event))

    def set_page(self, pager_id: str, page: int) -> None:
        """A settled pager swipe or a tab/nav tap on a pager: clamped to the page count; a
        `page_changed` event when it moved (as the phone sends it: no name, no payload, the page
        in `pages`; RT `setPage`). ValueError for an unknown pager or a non-integer page."""
        if not self._active:
            return
        if pager_id not in self._counts:
            raise ValueError(f"unknown pager {pager_id!r}")
        if not isinstance(page, int) or isinstance(page, bool):
            raise ValueError(f"pager {pager_id!r}: page must be an integer, got {page!r}")
        if self._move_page(pager_id, page):
            self._notify(Change(pagers=frozenset({pager_id}), event=self._last_event()))

    def _move_page(self, pager_id: str, page: int) -> bool:
        target = min(max(page, 0), max(self._counts[pager_id] - 1, 0))
        if target == self._pages.get(pager_id):
            return False
        self._pages[pager_id] = target
        self._log_event("page_changed", None)
        return True

    def _last_event(self) -> RuntimeEvent | None:
        events = self._log.snapshot()
        return events[-1] if events else None

    def dismiss(self, reason: str = "user") -> None:
        """Closes the prototype: a `dismissed` event `{reason}`; later interactions are ignored."""
        if reason not in DISMISS_REASONS:
            raise ValueError(f"dismiss reason must be one of {', '.join(DISMISS_REASONS)}")
        if not self._active:
            return
        event = self._dismiss(reason)
        self._notify(Change(event=event))

    def _dismiss(self, reason: str) -> RuntimeEvent:
        self._active = False
        self._pending.clear()
        return self._log_event(
            "dismissed", None, {"reason": reason}
        )  # RT `finishDismissal`: no name

    def run_actions(
        self, actions: Sequence[Mapping[str, Any]], scope: Scope | None = None
    ) -> list[PlatformRequest]:
        """One tap's action list, atomically. Returns the platform requests it issued (the host
        runs them and calls `resolve_platform`). A rejected list applies nothing, emits nothing
        and returns [] after noting a `Refusal` (it does not raise)."""
        if not self._active:
            return []
        ctx = act.Context(
            state=self._state,
            pages=self._pages,
            counts=self._counts,
            data=self._data,
            declared=self._declared,
            rules=self._rules,
        )
        try:
            plan = act.plan_actions(list(actions), scope, ctx)
        except act.ActionRejected as error:
            self._reject(str(error), error.key, error.index)
            return []
        baseline = dict(self._state)
        requests: list[PlatformRequest] = []
        pagers: set[str] = set()
        last: RuntimeEvent | None = None
        for step in plan.steps:
            if isinstance(step, act.Write):
                self._state[step.key] = step.value
                self._declare(step.key, step.value)
            elif isinstance(step, act.Emit):
                last = self._log_event("emit", step.name, step.payload)
            elif isinstance(step, act.Page):
                self._pages[step.pager] = step.page
                pagers.add(step.pager)
                last = self._log_event("page_changed", None)
            elif isinstance(step, act.Call):
                request = self._issue(step)
                requests.append(request)
                last = self._log_event(
                    "platform",
                    step.call,
                    {"requestId": request.request_id, "status": "pending", "args": request.args},
                )
            elif isinstance(step, act.Dismiss):
                last = self._dismiss("user")
        changed = [k for k in plan.touched if not same_scalar(baseline.get(k), self._state.get(k))]
        if self._active:  # as on the device, a dismissed list sends no trailing change event
            last = self._change_event(changed) or last
        if changed or pagers or last is not None:
            self._notify(Change(keys=frozenset(changed), pagers=frozenset(pagers), event=last))
        return requests

    # --- interactions (PrototypeRuntime.kt `handle`: a control's write, then its onTap) ---------

    def toggle(
        self,
        key: str,
        actions: Sequence[Mapping[str, Any]] = (),
        scope: Scope | None = None,
    ) -> list[PlatformRequest]:
        """A switch, checkbox, filter chip or toggle list item tapped anywhere on its row: the
        bound boolean flips (one `change` event), then its `onTap` runs (RT `Toggle`). A key
        that does not hold a boolean leaves the control inert, as on the phone; a refused flip
        runs no actions."""
        current = self._state.get(key)
        if not self._active or not isinstance(current, bool):
            return []
        return self._write_then(key, not current, actions, scope)

    def choose(
        self,
        key: str,
        value: str,
        actions: Sequence[Mapping[str, Any]] = (),
        scope: Scope | None = None,
    ) -> list[PlatformRequest]:
        """A radio option, segment or date picked: the string key takes `value` (a `change`
        event when it moved), then `onTap` runs even when it did not (RT `Choose`). A key that
        does not hold a string leaves the control inert."""
        if not self._active or not isinstance(self._state.get(key), str):
            return []
        return self._write_then(key, value, actions, scope)

    def slide(
        self,
        key: str,
        value: float,
        actions: Sequence[Mapping[str, Any]] = (),
        scope: Scope | None = None,
    ) -> list[PlatformRequest]:
        """A slider moved: the value is clamped and snapped to its step; an unchanged value does
        nothing at all, a new one is written (`change`) and then `onTap` runs (RT `Slide`). A key
        that does not hold a number leaves the slider inert."""
        current = self._state.get(key)
        if not self._active or not isinstance(current, int | float) or isinstance(current, bool):
            return []
        try:
            snapped = snap_control_value(value, self._rules.get(key, []))
        except StateWriteError as error:
            self._reject(str(error), error.key)
            return []
        if same_scalar(current, snapped) or (
            isinstance(snapped, int | float) and float(snapped) == float(current)
        ):
            return []
        return self._write_then(key, snapped, actions, scope)

    def set_time(
        self,
        hour_key: str,
        minute_key: str,
        hour: int,
        minute: int,
        actions: Sequence[Mapping[str, Any]] = (),
        scope: Scope | None = None,
    ) -> list[PlatformRequest]:
        """A time picker settled on a new time: both keys are written together (one `change`
        event with `{keys, values}` when both moved), then `onTap` runs (RT `SetTime`). The same
        time does nothing; keys that do not hold numbers leave the picker inert."""
        if not self._active:
            return []
        keys = (hour_key, minute_key)
        if any(
            not isinstance(self._state.get(k), int | float) or isinstance(self._state.get(k), bool)
            for k in keys
        ):
            return []
        if all(self._state.get(k) == v for k, v in zip(keys, (hour, minute), strict=True)):
            return []
        try:
            self.set_values({hour_key: hour, minute_key: minute})
        except StateWriteError:
            return []
        return self.run_actions(actions, scope)

    def select(
        self,
        pager: str | None,
        key: str | None,
        index: int,
        actions: Sequence[Mapping[str, Any]] = (),
        scope: Scope | None = None,
    ) -> list[PlatformRequest]:
        """A tab or navigation item tapped: its pager moves to `index` (a `page_changed` event),
        else its integer key takes `index`; then `onTap` runs (RT `Select`)."""
        if not self._active:
            return []
        if pager is not None:
            if pager in self._counts and self._move_page(pager, index):
                self._notify(Change(pagers=frozenset({pager}), event=self._last_event()))
        elif key is not None:
            try:
                self.set_value(key, index)
            except StateWriteError:
                return []
        return self.run_actions(actions, scope)

    def close(self, open_when: Mapping[str, Any], scope: Scope | None = None) -> None:
        """A modal's scrim tapped, a sheet swiped away, a snackbar timed out: the `openWhen` key
        takes the opposite of `equals` when it holds it now (RT `close`); no actions run."""
        if not self._active:
            return
        condition = bind_condition(open_when, scope)
        key, equals = condition.get("key"), condition.get("equals")
        if isinstance(key, str) and isinstance(equals, bool) and self._state.get(key) is equals:
            try:
                self.set_value(key, not equals)
            except StateWriteError:
                return

    def close_then(
        self,
        open_when: Mapping[str, Any],
        actions: Sequence[Mapping[str, Any]] = (),
        scope: Scope | None = None,
    ) -> list[PlatformRequest]:
        """A dialog or snackbar button: the modal closes first (its own `change` event), then
        the button's `onTap` runs (RT `CloseModal`)."""
        if not self._active:
            return []
        self.close(open_when, scope)
        return self.run_actions(actions, scope)

    def appearance_changed(self, mode: str, source: str) -> None:
        """The resolved light or dark mode of the shown prototype changed (the device setting
        flipped, or an interaction changed the background the mode is inferred from): one
        `appearance_changed` event `{mode, source}` (PrototypeController.kt `syncAppearance`,
        RT `appearanceChanged`). Ignored once dismissed."""
        if mode not in APPEARANCE_MODES:
            raise ValueError(f"appearance mode must be light or dark, got {mode!r}")
        if source not in APPEARANCE_SOURCES:
            raise ValueError(
                f"appearance source must be one of {', '.join(APPEARANCE_SOURCES)}, got {source!r}"
            )
        if not self._active:
            return
        event = self._log_event("appearance_changed", None, {"mode": mode, "source": source})
        self._notify(Change(event=event))

    def _write_then(
        self,
        key: str,
        value: Any,
        actions: Sequence[Mapping[str, Any]],
        scope: Scope | None,
    ) -> list[PlatformRequest]:
        try:
            self.set_value(key, value)
        except StateWriteError:
            return []
        return self.run_actions(actions, scope) if actions else []

    def _declare(self, key: str, value: Scalar) -> None:
        """A write to an undeclared key declares it with the type of its first value."""
        kind = type_class(value)
        if kind is not None:
            self._declared.setdefault(key, kind)

    def _issue(self, step: act.Call) -> PlatformRequest:
        self._request_counter += 1
        request = PlatformRequest(
            call=step.call,
            args=step.args,
            into=step.into,
            status_key=step.status_key,
            request_id=f"{self.id}#{self._request_counter}",
        )
        self._pending[request.request_id] = request
        return request

    def resolve_platform(self, request: PlatformRequest, status: str, result: Any = None) -> None:
        """The host's answer to a platform request: `ok` writes `result` at `into`, then the
        status goes into `statusKey` (`denied`/`error` write only the status). One `platform`
        event, then one `change` event when the status changed. An unknown or stale request
        (after reset/dismiss, or answered already) is ignored."""
        if status not in STATUSES:
            raise ValueError(
                f"platform status must be one of {', '.join(STATUSES)}, got {status!r}"
            )
        if not self._active or self._pending.pop(request.request_id, None) is None:
            return
        payload: dict[str, Any] = {"requestId": request.request_id, "status": status}
        wrote_data = False
        if status == "ok" and request.into is not None:
            try:
                write_pointer(self._data, request.into, result)
                wrote_data = True
            except PlatformActionError as error:
                status = payload["status"] = "error"
                payload["error"] = str(error)
        keys: list[str] = []
        if request.status_key is not None:
            key = request.status_key
            try:
                check_write(key, status, self._declared, self._rules)
                if not same_scalar(self._state.get(key), status):
                    self._state[key] = status
                    keys.append(key)
            except StateWriteError as error:
                payload["error"] = str(error)
        last = self._log_event("platform", request.call, payload)
        last = self._change_event(keys) or last
        self._notify(Change(keys=frozenset(keys), data=wrote_data, event=last))

    def platform_event(self, module: str, name: str, payload: Any = None) -> None:
        """An event a platform module raised, pushed by the host (e.g. `test.tick`): one
        `platform` event named `module.name` with a copy of `payload` (JSON), subscribers
        notified. No state changes; ignored once the prototype is dismissed. ValueError for a
        blank or dotted module name or a blank event name."""
        if not module or "." in module or not name:
            raise ValueError(
                f"a platform event is module.name with both parts set, got {module!r}.{name!r}"
            )
        if not self._active:
            return
        event = self._log_event("platform", f"{module}.{name}", copy.deepcopy(payload))
        self._notify(Change(event=event))

    # --- whole-prototype updates -----------------------------------------------------------------

    def replace(self, spec: Mapping[str, Any]) -> None:
        """An in-place re-show (AutoMobile's same-id show): each pager keeps its page, clamped to
        the new page count; the new spec's `state` and `data` win; no event. Pending platform
        requests stay pending. Only the subtrees that are new objects are walked again (an
        `apply_patch` edit shares the rest with the previous spec; see `SubtreeFacts`)."""
        old_state, old_pages = dict(self._state), dict(self._pages)
        self._load(spec)
        data = _initial_data(self._spec)
        data_changed = data != self._data
        # Views handed out by .state/.pages/.data stay live: update the dicts in place.
        _refill(self._state, _initial_state(self._spec))
        _refill(self._data, data)
        _refill(
            self._pages,
            {
                pager: min(max(old_pages.get(pager, 0), 0), max(count - 1, 0))
                for pager, count in self._counts.items()
            },
        )
        self._notify(
            Change(
                keys=_changed_keys(old_state, self._state),
                pagers=frozenset(
                    p
                    for p in old_pages.keys() | self._pages.keys()
                    if old_pages.get(p) != self._pages.get(p)
                ),
                data=data_changed,
                spec=True,
            )
        )

    def reset(self) -> None:
        """Back to the spec's initial state and data, every pager on page 0, active again;
        pending platform requests are dropped. No event; the sequence keeps counting."""
        old_state, old_pages, old_data = (
            dict(self._state),
            dict(self._pages),
            copy.deepcopy(self._data),
        )
        _refill(self._state, _initial_state(self._spec))
        _refill(self._data, _initial_data(self._spec))
        _refill(self._pages, dict.fromkeys(self._counts, 0))
        self._active = True
        self._pending.clear()
        self._notify(
            Change(
                keys=_changed_keys(old_state, self._state),
                pagers=frozenset(p for p in self._pages if old_pages.get(p) != 0),
                data=old_data != self._data,
            )
        )
