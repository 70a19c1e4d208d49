"""Generated surfaces: a deterministic form spec for a platform call, built from its schemas.

Argument schema -> control: string -> textField; number with minimum and maximum -> slider, else
a textField holding numeric text (the registry and the validator read it as the number,
`studio.platform.coerce`); boolean -> switch; string enum of 2..4 -> segmentedButton, 5..16 ->
radioGroup; format "date" -> datePicker; format "time" -> timePicker (two integer keys, passed
as `{"time": {"hour": KEY, "minute": KEY}}`, read as "HH:MM"); array of a string enum of up to
16 -> a row of filter chips (a boolean key each, passed as `{"chips": {VALUE: KEY, ...}}`);
any other array of strings -> comma-separated text. A run button calls the op with the
`platform` action (`into` /data/result, a statusKey) and a result view follows the result shape
(object -> a listItem per field, array -> a repeat, scalar -> text), reading `{/data/...}`.
A call's result links (registry data, `PlatformCall.links`) become buttons under the result
that open the linked call's form in a sheet, its linked arguments set from the result.
"""

from __future__ import annotations

import math
import re
from typing import Any, TypeGuard

from studio.platform.module import JSON, PlatformCall, ResultLink
from studio.platform.registry import PlatformRegistry, unknown_call_message

STATUS_KEY = "status"
RESULT_POINTER = "/data/result"
MAX_SEGMENTED = 4
MAX_RADIO = 16
MAX_CHIPS = 16
DEFAULT_TIME = (12, 0)
_TIME = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")
ARRAY_SLOTS = 8
_KEY_CHARS = re.compile(r"[^A-Za-z0-9_]")


class SurfaceError(ValueError):
    """A call whose schema cannot be turned into a form (one line, names the call)."""


def _label(name: str, schema: JSON) -> str:
    title = schema.get("title") or schema.get("description")
    if isinstance(title, str) and title.strip():
        return title.strip()[:60]
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return spaced[:1].upper() + spaced[1:]


def state_key(name: str) -> str:
    """The state key holding argument `name` (`arg_` prefix: never collides with `status`)."""
    return ("arg_" + _KEY_CHARS.sub("_", name))[:64]


def _types(schema: JSON) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)} - {"null"}
    return set()


Field = tuple[list[JSON], dict[str, Any], Any]


def _field(name: str, schema: JSON, prefix: str = "") -> Field:
    """The nodes for one argument, the state keys they write (with initial values), and the
    argument as the platform action passes it (a reference to those keys). `prefix` keeps a
    linked call's keys apart from the surface's own."""
    key = state_key(prefix + name)
    label = _label(name, schema)
    types = _types(schema)
    default = schema.get("default")
    caption: JSON = {"type": "text", "text": label, "style": {"textStyle": "labelLarge"}}
    ref: JSON = {"state": key}
    enum = schema.get("enum")
    if (
        isinstance(enum, list)
        and types == {"string"}
        and all(isinstance(v, str) and v for v in enum)
    ):
        values = list(dict.fromkeys(enum))
        initial = default if default in values else values[0]
        options = [{"value": v, "label": v} for v in values]
        if 2 <= len(values) <= MAX_SEGMENTED:
            node = {"type": "segmentedButton", "id": f"field_{key}", "stateKey": key}
            return [caption, {**node, "options": options}], {key: initial}, ref
        if MAX_SEGMENTED < len(values) <= MAX_RADIO:
            node = {"type": "radioGroup", "id": f"field_{key}", "stateKey": key}
            return [caption, {**node, "options": options}], {key: initial}, ref
    if types == {"boolean"}:
        node = {"type": "switch", "id": f"field_{key}", "stateKey": key, "label": label}
        return [node], {key: bool(default) if isinstance(default, bool) else False}, ref
    if types & {"number", "integer"} and types <= {"number", "integer"}:
        low, high = schema.get("minimum"), schema.get("maximum")
        if _finite(low) and _finite(high) and low < high:
            slider: JSON = {
                "type": "slider",
                "id": f"field_{key}",
                "stateKey": key,
                "label": label,
                "min": low,
                "max": high,
            }
            if "integer" in types and float(high - low).is_integer():
                slider["step"] = 1
            start = default if _finite(default) and low <= default <= high else low
            return [slider], {key: start}, ref
    if types == {"string"} and schema.get("format") == "date":
        initial = default if isinstance(default, str) else "2000-01-01"
        return (
            [caption, {"type": "datePicker", "id": f"field_{key}", "stateKey": key}],
            {key: initial},
            ref,
        )
    if types == {"string"} and schema.get("format") == "time":
        return _time_field(key, caption, default)
    chips = _chip_values(schema, types)
    if chips is not None:
        return _chips_field(key, caption, chips, default)
    items = schema.get("items")
    if "array" in types and not _types(items if isinstance(items, dict) else {}) <= {"string"}:
        # Comma-separated text only splits into strings.
        raise SurfaceError(
            f"argument {name!r} is an array of {sorted(_types(items or {}))}: only arrays of "
            "strings can be typed as text (or an enum of up to "
            f"{MAX_CHIPS} strings for filter chips)"
        )
    if types and not types & {"string", "number", "integer", "array"}:
        raise SurfaceError(f"argument {name!r} of type {sorted(types)} has no form control")
    examples = schema.get("examples")
    if default is None and isinstance(examples, list) and examples:
        default = examples[0]
    if default is None and isinstance(enum, list) and enum:
        default = enum[0]
    placeholder, initial = label, "" if default is None else _text(default)
    if "array" in types:
        hint = "a, b, c"
        if isinstance(items, dict) and isinstance(items.get("enum"), list):
            hint = ", ".join(map(str, items["enum"][:6]))
        placeholder = f"{label} (comma-separated: {hint})"
    elif types & {"number", "integer"}:
        # A textField holds text: the registry (and the validator) read numeric text as the
        # number it spells, so the key is a string key.
        placeholder, initial = f"{label} (number)", initial or "0"
    node = {"type": "textField", "id": f"field_{key}", "stateKey": key, "placeholder": placeholder}
    return [node], {key: initial}, ref


def _time_field(key: str, caption: JSON, default: Any) -> Field:
    """A 24-hour timePicker writing `<key>_hour` and `<key>_minute`, passed as "HH:MM"."""
    hour_key, minute_key = f"{key}_hour", f"{key}_minute"
    found = _TIME.fullmatch(default) if isinstance(default, str) else None
    hour, minute = (int(found[1]), int(found[2])) if found else DEFAULT_TIME
    picker = {
        "type": "timePicker",
        "id": f"field_{key}",
        "hourKey": hour_key,
        "minuteKey": minute_key,
        "is24Hour": True,
    }
    ref = {"time": {"hour": hour_key, "minute": minute_key}}
    return [caption, picker], {hour_key: hour, minute_key: minute}, ref


def _chip_values(schema: JSON, types: set[str]) -> list[str] | None:
    """The options of an array-of-string-enum argument that fits a row of chips, else None."""
    items = schema.get("items")
    if "array" not in types or not isinstance(items, dict):
        return None
    enum = items.get("enum")
    if not isinstance(enum, list) or not all(isinstance(v, str) and v for v in enum):
        return None
    values = list(dict.fromkeys(enum))
    return values if 1 <= len(values) <= MAX_CHIPS else None


def _chips_field(key: str, caption: JSON, values: list[str], default: Any) -> Field:
    """A horizontally scrolling row of filter chips, one boolean key per value."""
    chosen = set(default) if isinstance(default, list) else set()
    keys: dict[str, str] = {}
    for index, value in enumerate(values):
        chip_key = f"{key}_{_KEY_CHARS.sub('_', value)}"[:64]
        suffix = index
        while chip_key in keys.values():  # values that differ only in punctuation
            chip_key, suffix = f"{key}_{suffix}", suffix + len(values)
        keys[value] = chip_key
    chips = [
        {
            "type": "chip",
            "id": f"field_{chip_key}",
            "label": value,
            "variant": "filter",
            "stateKey": chip_key,
        }
        for value, chip_key in keys.items()
    ]
    row = {
        "type": "scroll",
        "id": f"field_{key}",
        "axis": "horizontal",
        "child": {"type": "row", "style": {"spacing": 8}, "children": chips},
    }
    state = {chip_key: value in chosen for value, chip_key in keys.items()}
    return [caption, row], state, {"chips": dict(keys)}


def _finite(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def result_view(schema: JSON, pointer: str = RESULT_POINTER, label: str = "Result") -> list[JSON]:
    """Nodes showing the value at `pointer` per its shape; text reads `{/data/...}`."""
    types = _types(schema)
    if not types and "anyOf" in schema:
        # e.g. `phone: null | {...}`: show the object form.
        objects = [s for s in schema["anyOf"] if isinstance(s, dict) and _types(s) == {"object"}]
        if objects:
            return result_view(objects[0], pointer, label)
    if types == {"object"} and isinstance(schema.get("properties"), dict):
        nodes: list[JSON] = []
        for name, sub in schema["properties"].items():
            child = f"{pointer}/{_escape(name)}"
            sub_label = _label(name, sub)
            if _types(sub) == {"object"} or "anyOf" in sub:
                nodes.append(
                    {"type": "text", "text": sub_label, "style": {"textStyle": "titleSmall"}}
                )
                nodes.extend(result_view(sub, child, sub_label))
            else:
                nodes.append(
                    {"type": "listItem", "headline": sub_label, "supporting": "{" + child + "}"}
                )
        return nodes
    if types == {"array"}:
        # A repeat needs literal items: one slot per index, each reading its element.
        items = [{"slot": i} for i in range(ARRAY_SLOTS)]
        return [
            {"type": "text", "text": label, "style": {"textStyle": "titleSmall"}},
            {
                "type": "column",
                "repeat": {"items": items, "as": "row"},
                "children": [{"type": "text", "text": "{" + pointer + "/{row.slot}}"}],
            },
        ]
    return [{"type": "listItem", "headline": label, "supporting": "{" + pointer + "}"}]


def generate_surface(
    call: str,
    args: JSON,
    result: JSON,
    *,
    description: str = "",
    links: list[tuple[ResultLink, PlatformCall]] | None = None,
) -> JSON:
    """The form spec for `call` ("module.op") with argument schema `args` and result `result`;
    each of `links` (a result link and the linked call) becomes a button under the result that
    opens the linked call's form in a sheet with the linked arguments set from the result."""
    module, _, op = call.partition(".")
    if not module or not op:
        raise SurfaceError(f"{call!r}: expected module.call")
    if args.get("type") != "object":
        raise SurfaceError(f"{call}: argument schema must be an object schema")
    state: dict[str, Any] = {}
    fields: list[JSON] = []
    refs: dict[str, JSON] = {}
    for name, schema in (args.get("properties") or {}).items():
        if not isinstance(schema, dict):
            raise SurfaceError(f"{call}: argument {name!r} has no schema")
        try:
            nodes, keys, refs[name] = _field(name, schema)
        except SurfaceError as exc:
            raise SurfaceError(f"{call}: {exc}") from None
        clash = sorted(set(keys) & set(state))
        if clash:
            raise SurfaceError(f"{call}: argument {name!r} needs state key {clash[0]!r} twice")
        fields.extend(nodes)
        state.update(keys)
    state[STATUS_KEY] = "idle"
    header: list[JSON] = [{"type": "topAppBar", "title": call}]
    if description:
        header.append({"type": "text", "text": description, "style": {"textStyle": "bodyMedium"}})
    run = {
        "type": "button",
        "id": "run",
        "label": "Run",
        "onTap": [
            {
                "type": "platform",
                "call": call,
                "args": refs,
                "into": RESULT_POINTER,
                "statusKey": STATUS_KEY,
            }
        ],
    }
    status = {"type": "text", "id": "status", "text": "Status: {" + STATUS_KEY + "}"}
    body = [*fields, run, status, {"type": "divider"}, *result_view(result)]
    modules = [module]
    sheets: list[JSON] = []
    for n, (link, target) in enumerate(links or [], 1):
        button, sheet, keys = _link(n, link, target)
        clash = sorted(set(keys) & set(state))
        if clash:
            raise SurfaceError(f"{call}: link to {link.call} needs state key {clash[0]!r} twice")
        state.update(keys)
        body.append(button)
        sheets.append(sheet)
        target_module = link.call.partition(".")[0]
        if target_module not in modules:
            modules.append(target_module)
    return {
        "id": f"surface-{module}-{_KEY_CHARS.sub('-', op)}",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": modules},
        "state": state,
        "data": {},
        "root": {
            "type": "column",
            "style": {"padding": {"top": 0, "bottom": 16, "start": 0, "end": 0}},
            "children": [
                *header,
                *sheets,
                {
                    "type": "scroll",
                    "style": {"weight": 1},
                    "child": {
                        "type": "column",
                        "style": {
                            "padding": {"top": 16, "bottom": 16, "start": 16, "end": 16},
                            "spacing": 12,
                        },
                        "children": body,
                    },
                },
            ],
        },
    }


def _link(n: int, link: ResultLink, target: PlatformCall) -> tuple[JSON, JSON, dict[str, Any]]:
    """A result link: the button (shown once the call succeeded) that opens a sheet by setting
    its key (AutoMobile's contract has no push: a sheet opened by setState is the studio's
    push), and the sheet holding the linked call's form. The linked arguments are passed as
    `{"data": pointer}` into this call's result and shown read-only (a setState value is a
    literal in the contract, so the result cannot be copied into a form field); the others
    are fields of their own (`l<n>_` keys)."""
    prefix, open_key, status_key = f"l{n}_", f"link{n}Open", f"link{n}Status"
    into = f"/data/link{n}"
    state: dict[str, Any] = {open_key: False, status_key: "idle"}
    fields: list[JSON] = []
    refs: dict[str, Any] = {}
    for name, schema in (target.args.get("properties") or {}).items():
        if name in link.args:
            pointer = RESULT_POINTER + link.args[name]
            refs[name] = {"data": pointer}
            fields.append(
                {
                    "type": "listItem",
                    "id": f"link{n}_{state_key(name)}",
                    "headline": _label(name, schema),
                    "supporting": "{" + pointer + "} (from the result)",
                }
            )
            continue
        nodes, keys, refs[name] = _field(name, schema, prefix)
        fields.extend(nodes)
        state.update(keys)
    button = {
        "type": "button",
        "id": f"link{n}",
        "label": link.label,
        "variant": "tonal",
        "visibleWhen": {"key": STATUS_KEY, "equals": "ok"},
        "onTap": [{"type": "setState", "key": open_key, "value": True}],
    }
    run = {
        "type": "button",
        "id": f"link{n}_run",
        "label": "Run",
        "onTap": [
            {
                "type": "platform",
                "call": link.call,
                "args": refs,
                "into": into,
                "statusKey": status_key,
            }
        ],
    }
    close = {
        "type": "button",
        "id": f"link{n}_close",
        "label": "Close",
        "variant": "text",
        "onTap": [{"type": "setState", "key": open_key, "value": False}],
    }
    sheet = {
        "type": "bottomSheet",
        "id": f"link{n}_sheet",
        "openWhen": {"key": open_key, "equals": True},
        "detents": ["full"],
        "dragHandle": True,
        "dismissOnSwipe": True,
        "child": {
            "type": "column",
            "style": {"padding": {"top": 16, "bottom": 16, "start": 16, "end": 16}, "spacing": 12},
            "children": [
                {"type": "text", "text": link.call, "style": {"textStyle": "titleLarge"}},
                *fields,
                run,
                {"type": "text", "id": f"link{n}_status", "text": "Status: {" + status_key + "}"},
                {"type": "divider"},
                *result_view(target.result, into),
                close,
            ],
        },
    }
    return button, sheet, state


def surface_for(registry: PlatformRegistry, call: str) -> JSON:
    """The generated surface of a registered call (with its result links to calls this build
    has); `SurfaceError` for an unknown one."""
    found = registry.lookup(call)
    if found is None:
        raise SurfaceError(unknown_call_message(registry, call))
    _, spec = found
    links = []
    for link in registry.links_of(call):
        target = registry.lookup(link.call)
        if target is not None:
            links.append((link, target[1]))
    return generate_surface(call, spec.args, spec.result, description=spec.description, links=links)
