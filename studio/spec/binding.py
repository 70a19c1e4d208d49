"""Placeholder binding shared by `repeat` templates and components: `{alias.field}`, `{index}`.

The grammar follows AutoMobile (`prototypeTemplate.ts`): a placeholder is `{<alias>.<field>}`
(and, for `repeat`, `{index}`); any other brace text, such as a `{state_key}` state placeholder,
stays literal. A string that is exactly one placeholder keeps the bound value's own type in
"operand" fields (condition operands, `setState.value`, component props).

Also here: the JavaScript-compatible helpers needed to reproduce AutoMobile's error paths
(`js_string`, `js_keys`, `child_path`), since the validator and the expansion share them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

Raw = dict[str, Any]
FieldKind = Literal["text", "operand", "emitName", "key"]
FieldVisitor = Callable[[Any, str, FieldKind], Any]

#: A literal state key; also the shape of repeat field names, prop names and component names.
STATE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: A surrogate code point that is not half of a high-low pair: no character at all.
LONE_SURROGATE = re.compile(
    "[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)


def is_state_key(value: object) -> bool:
    """True for a literal state key (`^[A-Za-z_][A-Za-z0-9_]{0,63}$`, no trailing newline)."""
    return isinstance(value, str) and STATE_KEY.fullmatch(value) is not None


def record(value: object) -> Raw | None:
    """The value when it is a JSON object, else None."""
    return value if isinstance(value, dict) else None


def is_scalar(value: object) -> bool:
    """A string, a boolean or a finite number (the values state and props may hold)."""
    if isinstance(value, bool | str | int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def whole_text(text: str) -> str:
    """The string JavaScript sees: a high and a low surrogate in a row (two code points in
    Python, one UTF-16 pair in JavaScript) combined into their character; lone ones kept."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def escape_lone_surrogates(text: str) -> str:
    """`text` (JSON text, say) with every surrogate code point written as a `\\uXXXX` escape,
    pairs first combined into their character, as `JSON.stringify` writes them."""
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", whole_text(text))


def js_string(text: str) -> str:
    """`JSON.stringify(text)` as JavaScript writes it (non-ASCII kept, lone surrogates escaped)."""
    return escape_lone_surrogates(json.dumps(text, ensure_ascii=False))


def js_keys(obj: Raw) -> list[str]:
    """`Object.keys(obj)` order: array-index keys ascending first, then insertion order."""
    indices = [k for k in obj if _ARRAY_INDEX.fullmatch(k) and int(k) < 2**32 - 1]
    if not indices:
        return list(obj)
    rest = [k for k in obj if k not in set(indices)]
    return sorted(indices, key=int) + rest


def child_path(path: str, key: str) -> str:
    """`path.key`, or `path["key"]` for a key that is not an identifier (`$` for the top)."""
    if _IDENTIFIER.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{js_string(key)}]"


@dataclass(frozen=True)
class Binding:
    """The placeholders an alias binds; `index` is False for components (no `{index}`)."""

    alias: str
    index: bool


#: Components bind `{props.<field>}` and have no `{index}`.
PROPS = Binding("props", index=False)


@dataclass(frozen=True)
class Segment:
    """One piece of a template string: literal text, `{index}`, or a field reference."""

    kind: Literal["literal", "index", "field"]
    text: str = ""


@dataclass(frozen=True)
class Instance:
    """One instance's values: the repeat item (or the props) and, for repeat, its position."""

    binding: Binding
    values: Raw
    index: int = 0


def _token(inner: str, binding: Binding) -> Segment | None:
    if binding.index and inner == "index":
        return Segment("index")
    prefix = f"{binding.alias}."
    if inner.startswith(prefix):
        name = inner[len(prefix) :]
        if is_state_key(name):
            return Segment("field", name)
    return None


def segments(text: str, binding: Binding) -> list[Segment]:
    """Splits `text` into placeholder segments by the same plain left-to-right scan as upstream."""
    found: list[Segment] = []
    literal: list[str] = []
    cursor = 0
    while cursor < len(text):
        close = text.find("}", cursor + 1) if text[cursor] == "{" else -1
        token = _token(text[cursor + 1 : close], binding) if close >= 0 else None
        if token is not None:
            if literal:
                found.append(Segment("literal", "".join(literal)))
                literal = []
            found.append(token)
            cursor = close + 1
        else:
            literal.append(text[cursor])
            cursor += 1
    if literal:
        found.append(Segment("literal", "".join(literal)))
    return found


def field_references(text: str, binding: Binding) -> list[str]:
    """Field names `text` references through the binding's alias, in order."""
    return [s.text for s in segments(text, binding) if s.kind == "field"]


def has_placeholder(text: str, binding: Binding) -> bool:
    """True when `text` holds at least one placeholder of this binding."""
    return any(s.kind != "literal" for s in segments(text, binding))


def render_scalar(value: object) -> str:
    """A scalar as JavaScript's `String()` renders it; integral numbers never get `.0`/exponent."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return str(int(value))
        return _js_float(value)
    if value is None:
        return "null"
    return str(value)


def _js_float(value: float) -> str:
    # Python's repr is the shortest round-trip form, as JS's; only exponent spelling differs.
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    text = repr(value)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    exp = int(exponent)
    if -7 < exp < 21:  # JS writes these magnitudes in plain decimal notation
        return format(Decimal(text), "f")
    mantissa = mantissa.removesuffix(".0")
    return f"{mantissa}e{'+' if exp > 0 else '-'}{abs(exp)}"


def bind_text(text: str, instance: Instance) -> str:
    """The text with this instance's placeholders bound; unknown fields stay literal."""
    out: list[str] = []
    for segment in segments(text, instance.binding):
        if segment.kind == "literal":
            out.append(segment.text)
        elif segment.kind == "index":
            out.append(str(instance.index))
        elif segment.text in instance.values:
            out.append(render_scalar(instance.values[segment.text]))
        else:
            out.append(f"{{{instance.binding.alias}.{segment.text}}}")
    return "".join(out)


def bind_typed(value: object, instance: Instance) -> object:
    """A string that is exactly one placeholder keeps the bound value's type; others render."""
    if not isinstance(value, str):
        return value
    parts = segments(value, instance.binding)
    only = parts[0] if len(parts) == 1 else None
    if only is not None and only.kind == "index":
        return instance.index
    if only is not None and only.kind == "field" and only.text in instance.values:
        return instance.values[only.text]
    return bind_text(value, instance)


# --- the bindable field set -------------------------------------------------------------------


def _map_field(data: Raw, key: str, path: str, kind: FieldKind, visit: FieldVisitor) -> None:
    if key in data:
        data[key] = visit(data[key], f"{path}.{key}", kind)


def _map_list(data: Raw, key: str, path: str, fn: Callable[[Raw, str], Raw]) -> None:
    entries = data.get(key)
    if isinstance(entries, list):
        data[key] = [
            fn(dict(entry), f"{path}.{key}[{i}]") if isinstance(entry, dict) else entry
            for i, entry in enumerate(entries)
        ]


def _map_object(data: Raw, key: str, path: str, fn: Callable[[Raw, str], Raw]) -> None:
    value = data.get(key)
    if isinstance(value, dict):
        data[key] = fn(dict(value), f"{path}.{key}")


def _map_condition(condition: Raw, path: str, visit: FieldVisitor) -> Raw:
    _map_field(condition, "key", path, "key", visit)
    _map_field(condition, "equals", path, "operand", visit)
    _map_field(condition, "notEquals", path, "operand", visit)
    _map_object(condition, "not", path, lambda e, p: _map_condition(e, p, visit))
    for form in ("all", "any"):
        _map_list(condition, form, path, lambda e, p: _map_condition(e, p, visit))
    return condition


def _map_action(action: Raw, path: str, visit: FieldVisitor) -> Raw:
    kind = action.get("type")
    if kind == "setState":
        _map_field(action, "key", path, "key", visit)
        _map_field(action, "value", path, "operand", visit)
    elif kind == "emit":
        _map_field(action, "name", path, "emitName", visit)
    elif kind in ("toggle", "increment", "decrement"):
        _map_field(action, "key", path, "key", visit)
    return action


def _map_actions(data: Raw, path: str, visit: FieldVisitor) -> None:
    _map_list(data, "onTap", path, lambda e, p: _map_action(e, p, visit))


def _map_part(part: Raw, path: str, visit: FieldVisitor) -> Raw:
    """A `{label, onTap?}` part (dialog/snackbar button, app bar action)."""
    _map_field(part, "label", path, "text", visit)
    _map_actions(part, path, visit)
    return part


def _map_option_label(entry: Raw, path: str, visit: FieldVisitor) -> Raw:
    _map_field(entry, "label", path, "text", visit)
    return entry


def _map_component_fields(node: Raw, path: str, visit: FieldVisitor) -> None:
    kind = node.get("type")
    if kind in ("button", "fab"):
        _map_field(node, "label", path, "text", visit)
    elif kind == "segmentedButton":
        _map_list(node, "options", path, lambda e, p: _map_option_label(e, p, visit))
    elif kind == "topAppBar":
        _map_field(node, "title", path, "text", visit)
        _map_object(node, "navigationIcon", path, lambda e, p: _map_part(e, p, visit))
        _map_list(node, "actions", path, lambda e, p: _map_part(e, p, visit))
    elif kind == "dialog":
        _map_field(node, "title", path, "text", visit)
        _map_field(node, "text", path, "text", visit)
        _map_object(node, "confirm", path, lambda e, p: _map_part(e, p, visit))
        _map_object(node, "dismiss", path, lambda e, p: _map_part(e, p, visit))
    elif kind == "snackbar":
        _map_field(node, "text", path, "text", visit)
        _map_object(node, "action", path, lambda e, p: _map_part(e, p, visit))


def _map_key_part(entry: Raw, path: str, key: str, visit: FieldVisitor) -> Raw:
    _map_field(entry, key, path, "key", visit)
    return entry


def map_bindable_fields(node: Raw, path: str, visit: FieldVisitor) -> Raw:
    """Visits one node's own bindable fields (not its children) in upstream's fixed order:
    `text`, component fields, `visibleWhen`, `styleWhen`, `onTap`, then the state-key fields.
    Returns a shallow copy with each visited value replaced by the visitor's result; the input
    is never changed."""
    copy = dict(node)
    if copy.get("type") == "text":
        _map_field(copy, "text", path, "text", visit)
    _map_component_fields(copy, path, visit)
    _map_object(copy, "visibleWhen", path, lambda e, p: _map_condition(e, p, visit))

    def style_when(entry: Raw, entry_path: str) -> Raw:
        _map_object(entry, "when", entry_path, lambda c, cp: _map_condition(c, cp, visit))
        return entry

    _map_list(copy, "styleWhen", path, style_when)
    _map_actions(copy, path, visit)
    for key in ("stateKey", "hourKey", "minuteKey"):
        _map_field(copy, key, path, "key", visit)
    _map_object(copy, "trailing", path, lambda e, p: _map_key_part(e, p, "stateKey", visit))
    _map_object(copy, "openWhen", path, lambda e, p: _map_key_part(e, p, "key", visit))
    return copy


def bindable_fields(node: Raw, path: str = "") -> Iterator[tuple[Any, str, FieldKind]]:
    """Every (value, path, kind) of one node's own bindable fields, in visiting order."""
    seen: list[tuple[Any, str, FieldKind]] = []

    def collect(value: Any, at: str, kind: FieldKind) -> Any:
        seen.append((value, at, kind))
        return value

    map_bindable_fields(node, path, collect)
    return iter(seen)


def bind_node_fields(node: Raw, instance: Instance) -> Raw:
    """A copy of one node with every bindable field bound to `instance` (children untouched)."""

    def bind(value: Any, _path: str, kind: FieldKind) -> Any:
        if not isinstance(value, str):
            return value
        return bind_typed(value, instance) if kind == "operand" else bind_text(value, instance)

    return map_bindable_fields(node, "", bind)


def checked_key_values(value: Raw) -> list[object]:
    """The state-key values the validators type-check: node keys and an action's `key`."""
    trailing = record(value.get("trailing"))
    open_when = record(value.get("openWhen"))
    return [
        value.get("key"),
        value.get("stateKey"),
        value.get("hourKey"),
        value.get("minuteKey"),
        trailing.get("stateKey") if trailing is not None else None,
        open_when.get("key") if open_when is not None else None,
    ]


def bind_checked_keys(value: Raw, instance: Instance) -> Raw:
    """A copy with only the type-checked state-key fields bound (see `checked_key_values`)."""
    copy = dict(value)
    for key in ("key", "stateKey", "hourKey", "minuteKey"):
        if isinstance(copy.get(key), str):
            copy[key] = bind_text(copy[key], instance)
    for part, key in (("trailing", "stateKey"), ("openWhen", "key")):
        inner = record(copy.get(part))
        if inner is not None and isinstance(inner.get(key), str):
            copy[part] = {**inner, key: bind_text(inner[key], instance)}
    return copy
