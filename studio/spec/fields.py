"""The inspector's fields per node type, read from our generated JSON Schema
(`resources/schema/prototype-spec.schema.json`, `studio.spec.schema`): every property with the
kind of editor that fits it, its bounds and choices; and reading, setting and parsing a field's
value in a node. Qt-free: the inspector's widgets are made from these.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

__all__ = [
    "Field",
    "FieldError",
    "fields_for",
    "get_value",
    "icon_names",
    "number_text",
    "parse",
    "set_value",
    "show",
]

JSON = dict[str, Any]
Kind = Literal[
    "text", "number", "integer", "boolean", "enum", "icon", "stateKey", "color", "dimension", "json"
]
Group = Literal["Node", "Content", "Style", "Behaviour"]
#: Properties that hold child nodes: the tree edits them, never the inspector.
CHILD_FIELDS = frozenset({"type", "child", "children"})
NODE_FIELDS = ("id", "testTag", "contentDescription")
BEHAVIOUR_FIELDS = frozenset(
    {"onTap", "visibleWhen", "styleWhen", "transition", "anchor", "safeAreaPadding", "repeat"}
)
KEY_FIELDS = frozenset({"stateKey", "hourKey", "minuteKey"})
#: The style fields that hold objects of their own (edited as a small JSON value).
_REF_KINDS: dict[str, Kind] = {
    "iconName": "icon",
    "colorValue": "color",
    "dimension": "dimension",
    "iconVariant": "enum",
}


class FieldError(ValueError):
    """A value typed into a field that is not of its kind; the message is one line."""


@dataclass(frozen=True)
class Field:
    """One property: `path` in the node (`("label",)`, `("style", "width")`), the editor's
    `kind`, whether the node `required` it, the `choices` of an enum (or the colour roles),
    numeric bounds, and its `group` in the inspector."""

    path: tuple[str, ...]
    kind: Kind
    required: bool = False
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    group: Group = "Content"

    @property
    def name(self) -> str:
        return ".".join(self.path)

    @property
    def label(self) -> str:
        """`contentDescription` -> "Content description"."""
        words: list[str] = []
        for char in self.path[-1]:
            if char.isupper() and words:
                words.append(" ")
            words.append(char.lower())
        text = "".join(words)
        return text[:1].upper() + text[1:]


@cache
def _defs() -> dict[str, Any]:
    from studio.spec.schema import schema_path

    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    return dict(schema["$defs"])


def _ref(rule: dict[str, Any]) -> str | None:
    ref = rule.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def _enum(rule: dict[str, Any]) -> tuple[str, ...]:
    name = _ref(rule)
    if name is not None:
        rule = _defs()[name]
    values = rule.get("enum")
    return tuple(str(v) for v in values) if isinstance(values, list) else ()


def _classify(name: str, rule: dict[str, Any]) -> tuple[Kind, dict[str, Any]]:
    """The editor kind for one property's schema, and its extras (choices, bounds)."""
    ref = _ref(rule)
    if ref in _REF_KINDS:
        kind = _REF_KINDS[ref]
        if kind == "enum":
            return kind, {"choices": _enum(rule)}
        if kind == "color":
            return kind, {"choices": _enum(_defs()["colorRole"])}
        return kind, {}
    if "enum" in rule:
        return "enum", {"choices": _enum(rule)}
    kind_name = rule.get("type")
    if kind_name == "string":
        return ("stateKey" if name in KEY_FIELDS else "text"), {}
    if kind_name in ("number", "integer"):
        extras = {
            "minimum": rule.get("minimum", rule.get("exclusiveMinimum")),
            "maximum": rule.get("maximum"),
        }
        return ("integer" if kind_name == "integer" else "number"), extras
    if kind_name == "boolean":
        return "boolean", {}
    return "json", {}


@cache
def icon_names() -> tuple[str, ...]:
    """Every Material icon name the format accepts (the icon picker's list)."""
    return _enum({"$ref": "#/$defs/iconName"})


def _group(name: str) -> Group:
    if name in NODE_FIELDS:
        return "Node"
    if name in BEHAVIOUR_FIELDS:
        return "Behaviour"
    return "Content"


@cache
def fields_for(type_: str) -> tuple[Field, ...]:
    """Every property of a node type (its own first, then the common ones, then its style's),
    as the schema states them. Empty for an unknown type."""
    definition = _defs().get(f"node.{type_}")
    if not isinstance(definition, dict):
        return ()
    required = set(definition.get("required", ()))
    own: list[Field] = []
    common: list[Field] = []
    behaviour: list[Field] = []
    style: list[Field] = []
    for name, rule in definition.get("properties", {}).items():
        if name in CHILD_FIELDS:
            continue
        if name == "style":
            for key, inner in _defs()["style"]["properties"].items():
                kind, extras = _classify(key, inner)
                style.append(Field(("style", key), kind, False, group="Style", **extras))
            continue
        kind, extras = _classify(name, rule)
        made = Field((name,), kind, name in required, group=_group(name), **extras)
        {"Node": common, "Behaviour": behaviour, "Content": own}[made.group].append(made)
    return (*common, *own, *behaviour, *style)


def get_value(node: JSON, field: Field) -> Any:
    """The field's value in the node (None when it is not set)."""
    value: Any = node
    for key in field.path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def set_value(node: JSON, field: Field, value: Any) -> JSON:
    """A copy of the node with the field set (None: removed; an emptied style goes too)."""
    out = copy.deepcopy(node)
    holder = out
    for key in field.path[:-1]:
        inner = holder.get(key)
        if not isinstance(inner, dict):
            if value is None:
                return out
            inner = {}
            holder[key] = inner
        holder = inner
    if value is None:
        holder.pop(field.path[-1], None)
        # Objects the removal emptied go too (an empty style, theme or colours).
        for depth in range(len(field.path) - 1, 0, -1):
            parent: Any = out
            for key in field.path[: depth - 1]:
                parent = parent[key]
            if (
                isinstance(parent.get(field.path[depth - 1]), dict)
                and not parent[field.path[depth - 1]]
            ):
                del parent[field.path[depth - 1]]
    else:
        holder[field.path[-1]] = value
    return out


def definition(name: str) -> dict[str, Any] | None:
    """A named definition of our JSON Schema (`placement`, `anchor.bounds`), or None."""
    found = _defs().get(name)
    return found if isinstance(found, dict) else None


def ref_name(rule: dict[str, Any]) -> str | None:
    """The definition a schema rule refers to (`{"$ref": "#/$defs/offset"}` -> `offset`)."""
    return _ref(rule)


def field_of(name: str, rule: dict[str, Any], required: bool = False) -> Field:
    """The field of one property of any object in the schema (a part of a structured editor:
    `height` of a sheet placement), classified as the node fields are."""
    kind, extras = _classify(name, rule)
    return Field((name,), kind, required, **extras)


def rule_of(field: Field, node_type: str | None = None) -> dict[str, Any]:
    """The schema rule of a node type's property (`style.*` from the style), or of a document
    field (`window.placement`) when `node_type` is None; {} when the schema has none."""
    defs = _defs()
    if field.path[0] == "style" and len(field.path) == 2:
        found = defs["style"]["properties"].get(field.path[1])
    elif node_type is not None:
        found = defs.get(f"node.{node_type}", {}).get("properties", {}).get(field.path[0])
    else:
        found = defs["spec"]["properties"].get(field.path[0])
        for key in field.path[1:]:
            name = _ref(found) if isinstance(found, dict) else None
            holder = defs.get(name, {}) if name else found
            found = holder.get("properties", {}).get(key) if isinstance(holder, dict) else None
    return found if isinstance(found, dict) else {}


@cache
def document_fields() -> tuple[Field, ...]:
    """The document-level properties the document panel edits: the theme (mode, seed colour,
    typography, shapes) and the window (its placement as JSON, opacity, layer, persistence)."""
    defs = _defs()
    out: list[Field] = []
    for path, rule in (
        (("theme", "mode"), defs["theme"]["properties"]["mode"]),
        (("theme", "colors", "seed"), defs["themeColors"]["properties"]["seed"]),
        (("theme", "typography", "scale"), defs["themeTypography"]["properties"]["scale"]),
        (
            ("theme", "typography", "fontFamily"),
            defs["themeTypography"]["properties"]["fontFamily"],
        ),
        (("theme", "shapes", "corner"), defs["themeShapes"]["properties"]["corner"]),
        (("window", "placement"), defs["window"]["properties"]["placement"]),
        (("window", "opacity"), defs["window"]["properties"]["opacity"]),
        (("window", "layer"), defs["window"]["properties"]["layer"]),
        (("window", "persistence"), defs["window"]["properties"]["persistence"]),
    ):
        kind, extras = _classify(path[-1], rule)
        out.append(Field(path, kind, path == ("window", "placement"), group="Node", **extras))
    return tuple(out)


def show(field: Field, value: Any) -> str:
    """The text an editor shows for a value ("" when unset)."""
    if value is None:
        return ""
    if field.kind == "dimension" and isinstance(value, dict) and set(value) == {"dp"}:
        return number_text(value["dp"])
    if field.kind in ("number", "integer") and isinstance(value, int | float):
        return number_text(value)
    if field.kind == "boolean":
        return "true" if value else "false"
    if isinstance(value, str) and field.kind != "json":
        return value
    return json.dumps(value, ensure_ascii=False)


def number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def bounds_text(field: Field) -> str:
    """A number field's bounds as a designer reads them ("at least 0, at most 1"; "more than
    0" for the format's positive numbers, whose floor is a tiny epsilon)."""
    from studio.spec.rules import POSITIVE

    low, high = field.minimum, field.maximum
    parts = []
    if low is not None:
        parts.append("more than 0" if low == POSITIVE.min else f"at least {number_text(low)}")
    if high is not None:
        parts.append(f"at most {number_text(high)}")
    return ", ".join(parts)


def _number(field: Field, text: str) -> int | float:
    try:
        number = float(text)
    except ValueError:
        raise FieldError(f"{field.label}: {text!r} is not a number") from None
    if not math.isfinite(number):
        raise FieldError(f"{field.label}: {text!r} is not a finite number")
    if field.kind == "integer" and not number.is_integer():
        raise FieldError(f"{field.label}: a whole number, not {text}")
    if field.minimum is not None and number < field.minimum:
        low = bounds_text(Field(field.path, field.kind, minimum=field.minimum))
        raise FieldError(f"{field.label}: {low}")
    if field.maximum is not None and number > field.maximum:
        raise FieldError(f"{field.label}: at most {number_text(field.maximum)}")
    return int(number) if number.is_integer() else number


def parse(field: Field, text: str) -> Any:
    """The value of what was typed (None for an empty optional field); FieldError (one line)
    for text that is not of the field's kind. The validator still has the last word."""
    text = text.strip() if field.kind != "text" else text
    if text == "" and field.kind != "text":
        return None
    if field.kind == "text":
        return text if text != "" or field.required else None
    if field.kind in ("number", "integer"):
        return _number(field, text)
    if field.kind == "boolean":
        if text not in ("true", "false"):
            raise FieldError(f"{field.label}: true or false")
        return text == "true"
    if field.kind == "dimension":
        if text in ("fill", "wrap"):
            return text
        return {"dp": _number(Field(field.path, "number", minimum=0), text)}
    if field.kind == "json" or (field.kind == "color" and text.startswith("{")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise FieldError(
                f"{field.label}: not valid JSON ({exc.msg}, column {exc.colno})"
            ) from None
    return text  # enum, icon, stateKey, color: the validator checks the name


# --- the parts of compound editors (actions, conditions) -----------------------------------------

#: Condition operators a key is compared with (`condition` in the schema).
OPERATORS = ("equals", "notEquals", "gt", "lt")


@cache
def action_types() -> tuple[str, ...]:
    """Every action type the format has (`action.*` in the schema), in the schema's order."""
    return tuple(name.split(".", 1)[1] for name in _defs() if name.startswith("action."))


@cache
def action_fields(type_: str) -> tuple[tuple[str, bool, Kind], ...]:
    """(property, required, kind) of one action type, `type` left out: "stateKey" for the keys
    it names, "json" for free objects (`args`, `payload`), else "text" (a scalar)."""
    definition = _defs().get(f"action.{type_}")
    if not isinstance(definition, dict):
        return ()
    required = set(definition.get("required", ()))
    out: list[tuple[str, bool, Kind]] = []
    for name, rule in definition.get("properties", {}).items():
        if name == "type":
            continue
        kind: Kind = (
            "stateKey"
            if name in ("key", "statusKey")
            else "json"
            if rule.get("type") == "object" or "$comment" in rule
            else "text"
        )
        out.append((name, name in required, kind))
    return tuple(out)


def parse_scalar(text: str) -> Any:
    """A typed value as a designer writes it: `true`, `false`, a number, `"quoted"` text, or
    plain text (a string)."""
    stripped = text.strip()
    if stripped in ("true", "false"):
        return stripped == "true"
    if stripped.startswith('"') and stripped.endswith('"') and len(stripped) >= 2:
        try:
            return json.loads(stripped)
        except json.JSONDecodeError:
            return stripped[1:-1]
    try:
        number = float(stripped)
    except ValueError:
        return text
    if not math.isfinite(number):
        return text
    return int(number) if number.is_integer() and "." not in stripped else number


def show_scalar(value: Any) -> str:
    """The text `parse_scalar` reads back as `value`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return number_text(value)
    if isinstance(value, str):
        return (
            value if parse_scalar(value) == value and value.strip() == value else json.dumps(value)
        )
    return json.dumps(value, ensure_ascii=False)
