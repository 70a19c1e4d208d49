"""Placeholder binding: `{key}` state, `{alias.field}`/`{index}` repeat scope, `{page}`/`{pageCount}`.

The scan follows AutoMobile's template grammar (`prototypeTemplate.ts`, Kotlin `PrototypeRepeat.kt`):
a plain left-to-right scan where `{` up to the next `}` is a placeholder only when its inside is a
known token; anything else, such as an unknown key, stays as written. Inserted values are never
rescanned. The bindable field set of a repeat template is AutoMobile's (text, button/fab labels,
segmented option labels, app bar title and parts, dialog/snackbar texts and buttons, conditions,
actions and state keys); other strings (e.g. a listItem headline) are left to `bind_text` with the
instance's scope, which the renderer calls on whatever it displays.

Could later share `studio.spec.binding` (the same grammar, written for the validator); kept here so
the runtime does not depend on validator internals.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from studio.runtime.values import render_scalar
from studio.spec.tree import map_children

Scope = Mapping[str, Any]
FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")

#: How a token inside braces resolves: a value to render, or None to leave it as written.
Resolver = Callable[[str], "Any | None"]


def _scope_parts(scope: Scope | None) -> tuple[dict[str, Mapping[str, Any]], int | None]:
    """Aliases with their item fields, and the `{index}` value, of a scope.

    Accepts what `Runtime.instances` returns (`{"as": alias, "item": {...}, "index": i}`) and the
    plain form `{alias: {...}, "index": i}`."""
    if not scope:
        return {}, None
    index = scope.get("index")
    index = index if isinstance(index, int) and not isinstance(index, bool) else None
    alias = scope.get("as")
    if isinstance(alias, str) and isinstance(scope.get("item"), Mapping):
        return {alias: scope["item"]}, index
    aliases = {k: v for k, v in scope.items() if isinstance(v, Mapping)}
    return aliases, index


def _scope_token(inner: str, aliases: Mapping[str, Mapping[str, Any]], index: int | None) -> Any:
    if inner == "index" and index is not None:
        return index
    alias, dot, field = inner.partition(".")
    if dot and alias in aliases and FIELD.fullmatch(field) and field in aliases[alias]:
        return aliases[alias][field]
    return None


def scan(text: str, resolve: Resolver) -> str:
    """`text` with every `{token}` that `resolve` knows replaced by its rendered value."""
    # Jumps from one `{` to the next (most display text has none): the same left-to-right scan
    # as a character loop, without a Python step per character.
    out: list[str] = []
    cursor = 0
    while (start := text.find("{", cursor)) >= 0:
        close = text.find("}", start + 1)
        if close < 0:
            break
        value = resolve(text[start + 1 : close])
        if value is None:  # not a placeholder: the `{` stays, the scan goes on after it
            out.append(text[cursor : start + 1])
            cursor = start + 1
        else:
            out.append(text[cursor:start])
            out.append(render_scalar(value))
            cursor = close + 1
    out.append(text[cursor:])
    return "".join(out)


def bind_scope_text(text: str, scope: Scope | None) -> str:
    """Only the repeat placeholders (`{alias.field}`, `{index}`) of `text` bound."""
    aliases, index = _scope_parts(scope)
    if not aliases and index is None:
        return text
    return scan(text, lambda inner: _scope_token(inner, aliases, index))


def bind_typed(value: Any, scope: Scope | None) -> Any:
    """An operand (condition `equals`, `setState.value`): a string that is exactly one repeat
    placeholder keeps the item value's own type; other strings render to text."""
    if not isinstance(value, str) or not scope:
        return value
    if value.startswith("{") and value.endswith("}") and value.find("}") == len(value) - 1:
        aliases, index = _scope_parts(scope)
        found = _scope_token(value[1:-1], aliases, index)
        if found is not None:
            return found
    return bind_scope_text(value, scope)


def bind_text(
    text: str,
    state: Mapping[str, Any],
    scope: Scope | None = None,
    page: tuple[int, int] | None = None,
    data: Mapping[str, Any] | None = None,
) -> str:
    """Display text: repeat scope first, then `{page}`/`{pageCount}` (1-based, when `page` is
    `(index, count)` of the enclosing pager), then `{key}` state values, then (studio extension)
    `{/data/...}` JSON pointers into the prototype's `data` when they reach a scalar; unknown
    stays literal."""
    aliases, index = _scope_parts(scope)

    def resolve(inner: str) -> Any:
        found = _scope_token(inner, aliases, index)
        if found is not None:
            return found
        if page is not None and inner == "page":
            return page[0] + 1
        if page is not None and inner == "pageCount":
            return page[1]
        if data is not None and inner.startswith("/data/"):
            return data_pointer(data, inner)
        return state.get(inner)

    return scan(text, resolve)


def data_pointer(data: Mapping[str, Any], pointer: str) -> Any:
    """The scalar at a `/data/...` JSON pointer (RFC 6901 escapes), or None when absent."""
    node: Any = data
    for raw in pointer.split("/")[2:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node if isinstance(node, str | int | float | bool) and node is not None else None


# --- binding a repeat template (AutoMobile's bindable field set) --------------------------------


def bind_condition(condition: Mapping[str, Any], scope: Scope | None) -> dict[str, Any]:
    """A condition with its keys and operands bound to `scope`."""
    bound = dict(condition)
    if isinstance(bound.get("key"), str):
        bound["key"] = bind_scope_text(bound["key"], scope)
    for operand in ("equals", "notEquals"):
        if operand in bound:
            bound[operand] = bind_typed(bound[operand], scope)
    if isinstance(bound.get("not"), Mapping):
        bound["not"] = bind_condition(bound["not"], scope)
    for form in ("all", "any"):
        if isinstance(bound.get(form), list):
            bound[form] = [
                bind_condition(c, scope) if isinstance(c, Mapping) else c for c in bound[form]
            ]
    return bound


def bind_action(action: Mapping[str, Any], scope: Scope | None) -> dict[str, Any]:
    """An action with its key, value, emit name (and platform statusKey) bound to `scope`.

    As on the device, an `emit` payload is sent as written."""
    bound = dict(action)
    if not scope:
        return bound
    kind = bound.get("type")
    if kind in ("setState", "toggle", "increment", "decrement") and isinstance(
        bound.get("key"), str
    ):
        bound["key"] = bind_scope_text(bound["key"], scope)
    if kind == "setState" and "value" in bound:
        bound["value"] = bind_typed(bound["value"], scope)
    if kind == "emit" and isinstance(bound.get("name"), str):
        bound["name"] = bind_scope_text(bound["name"], scope)
    if kind == "platform":
        if isinstance(bound.get("statusKey"), str):
            bound["statusKey"] = bind_scope_text(bound["statusKey"], scope)
        if isinstance(bound.get("args"), Mapping):
            bound["args"] = {k: _bind_arg(v, scope) for k, v in bound["args"].items()}
    return bound


def _bind_arg(arg: Any, scope: Scope) -> Any:
    """A platform argument: the keys of a `{"state": KEY}`, `{"time": {"hour", "minute"}}` or
    `{"chips": {VALUE: KEY}}` reference get bound, a literal string is an operand (a lone
    placeholder keeps the item value's type)."""
    if isinstance(arg, Mapping) and len(arg) == 1:
        ((form, ref),) = arg.items()
        if form == "state" and isinstance(ref, str):
            return {"state": bind_scope_text(ref, scope)}
        if form in ("time", "chips") and isinstance(ref, Mapping):
            return {
                form: {
                    k: bind_scope_text(v, scope) if isinstance(v, str) else v
                    for k, v in ref.items()
                }
            }
    return bind_typed(arg, scope)


def _bind_actions(owner: dict[str, Any], scope: Scope) -> None:
    if isinstance(owner.get("onTap"), list):
        owner["onTap"] = [
            bind_action(a, scope) if isinstance(a, Mapping) else a for a in owner["onTap"]
        ]


def _bind_part(part: Any, scope: Scope) -> Any:
    """A `{label, onTap?}` part: dialog/snackbar button, app bar action."""
    if not isinstance(part, Mapping):
        return part
    bound = dict(part)
    if isinstance(bound.get("label"), str):
        bound["label"] = bind_scope_text(bound["label"], scope)
    _bind_actions(bound, scope)
    return bound


_TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "text": ("text",),
    "button": ("label",),
    "fab": ("label",),
    "topAppBar": ("title",),
    "dialog": ("title", "text"),
    "snackbar": ("text",),
}
_PARTS: dict[str, tuple[str, ...]] = {
    "dialog": ("confirm", "dismiss"),
    "snackbar": ("action",),
    "topAppBar": ("navigationIcon",),
}


def bind_node(node: Mapping[str, Any], scope: Scope) -> dict[str, Any]:
    """A deep copy of a template node with every bindable field bound, children included."""
    bound = dict(node)
    kind = bound.get("type")
    for name in _TEXT_FIELDS.get(str(kind), ()):
        if isinstance(bound.get(name), str):
            bound[name] = bind_scope_text(bound[name], scope)
    for name in _PARTS.get(str(kind), ()):
        if name in bound:
            bound[name] = _bind_part(bound[name], scope)
    if kind == "topAppBar" and isinstance(bound.get("actions"), list):
        bound["actions"] = [_bind_part(a, scope) for a in bound["actions"]]
    if kind == "segmentedButton" and isinstance(bound.get("options"), list):
        bound["options"] = [
            {**o, "label": bind_scope_text(o["label"], scope)}
            if isinstance(o, Mapping) and isinstance(o.get("label"), str)
            else o
            for o in bound["options"]
        ]
    if isinstance(bound.get("visibleWhen"), Mapping):
        bound["visibleWhen"] = bind_condition(bound["visibleWhen"], scope)
    if isinstance(bound.get("styleWhen"), list):
        bound["styleWhen"] = [
            {**e, "when": bind_condition(e["when"], scope)}
            if isinstance(e, Mapping) and isinstance(e.get("when"), Mapping)
            else e
            for e in bound["styleWhen"]
        ]
    _bind_actions(bound, scope)
    for name in ("stateKey", "hourKey", "minuteKey"):
        if isinstance(bound.get(name), str):
            bound[name] = bind_scope_text(bound[name], scope)
    for part, name in (("trailing", "stateKey"), ("openWhen", "key")):
        inner = bound.get(part)
        if isinstance(inner, Mapping) and isinstance(inner.get(name), str):
            bound[part] = {**inner, name: bind_scope_text(inner[name], scope)}
    return map_children(bound, "", lambda child, _: bind_node(child, scope))
