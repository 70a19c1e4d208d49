"""Generated surfaces: a deterministic form spec for a platform call, built from its schemas.

Argument schema -> control: string -> textField; number with minimum and maximum -> slider, else
textField; boolean -> switch; string enum of 2..4 -> segmentedButton, 5..16 -> radioGroup;
format "date" -> datePicker. A run button calls the op with the `platform` action (each argument
`{"state": key}`, `into` /data/result, a statusKey) and a result view follows the result shape
(object -> a listItem per field, array -> a repeat, scalar -> text), reading `{/data/...}`.

Arguments a single state key cannot carry fall back to a textField: format "time" (a timePicker
writes two integer keys) and arrays (filter chips write one boolean per option); the registry
reads "HH:MM" and comma-separated text for them (`registry.coerce_args`).
"""

from __future__ import annotations

import math
import re
from typing import Any, TypeGuard

from studio.platform.module import JSON
from studio.platform.registry import PlatformRegistry, unknown_call_message

STATUS_KEY = "status"
RESULT_POINTER = "/data/result"
MAX_SEGMENTED = 4
MAX_RADIO = 16
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


def _field(name: str, schema: JSON) -> tuple[list[JSON], Any]:
    """The nodes for one argument, and the initial value of its state key."""
    key = state_key(name)
    label = _label(name, schema)
    types = _types(schema)
    default = schema.get("default")
    caption: JSON = {"type": "text", "text": label, "style": {"textStyle": "labelLarge"}}
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
            return [caption, {**node, "options": options}], initial
        if MAX_SEGMENTED < len(values) <= MAX_RADIO:
            node = {"type": "radioGroup", "id": f"field_{key}", "stateKey": key}
            return [caption, {**node, "options": options}], initial
    if types == {"boolean"}:
        node = {"type": "switch", "id": f"field_{key}", "stateKey": key, "label": label}
        return [node], bool(default) if isinstance(default, bool) else False
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
            return [slider], start
    if types == {"string"} and schema.get("format") == "date":
        initial = default if isinstance(default, str) else "2000-01-01"
        return [caption, {"type": "datePicker", "id": f"field_{key}", "stateKey": key}], initial
    if types and "string" not in types and types & {"number", "integer", "array"}:
        # A textField holds text, and the validator checks its state against the schema.
        raise SurfaceError(
            f"argument {name!r} can only be typed as text: declare it as numeric text "
            "(studio.platform.module.numeric) or comma-separated text (type [array, string]), "
            "or bound the number (minimum and maximum) for a slider"
        )
    examples = schema.get("examples")
    if default is None and isinstance(examples, list) and examples:
        default = examples[0]
    if default is None and isinstance(enum, list) and enum:
        default = enum[0]
    placeholder, initial = label, "" if default is None else _text(default)
    if schema.get("format") == "time":
        placeholder, initial = f"{label} (HH:MM)", initial or "12:00"
    elif "array" in types:
        items = schema.get("items") or {}
        choices = items.get("enum") if isinstance(items, dict) else None
        hint = ", ".join(map(str, choices[:6])) if isinstance(choices, list) else "a, b, c"
        placeholder = f"{label} (comma-separated: {hint})"
    elif types & {"number", "integer"}:
        placeholder, initial = f"{label} (number)", initial or "0"
    node = {"type": "textField", "id": f"field_{key}", "stateKey": key, "placeholder": placeholder}
    return [node], initial


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


def generate_surface(call: str, args: JSON, result: JSON, *, description: str = "") -> JSON:
    """The form spec for `call` ("module.op") with argument schema `args` and result `result`."""
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
            nodes, initial = _field(name, schema)
        except SurfaceError as exc:
            raise SurfaceError(f"{call}: {exc}") from None
        fields.extend(nodes)
        state[state_key(name)] = initial
        refs[name] = {"state": state_key(name)}
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
    return {
        "id": f"surface-{module}-{_KEY_CHARS.sub('-', op)}",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": [module]},
        "state": state,
        "data": {},
        "root": {
            "type": "column",
            "style": {"padding": {"top": 0, "bottom": 16, "start": 0, "end": 0}},
            "children": [
                *header,
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


def surface_for(registry: PlatformRegistry, call: str) -> JSON:
    """The generated surface of a registered call; `SurfaceError` for an unknown one."""
    found = registry.lookup(call)
    if found is None:
        raise SurfaceError(unknown_call_message(registry, call))
    _, spec = found
    return generate_surface(call, spec.args, spec.result, description=spec.description)
