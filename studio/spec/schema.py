"""Our JSON Schema (draft 2020-12) of the prototype spec, rendered from the rule table.

`resources/schema/prototype-spec.schema.json` is this module's output (regenerate with
`python -m studio.spec.schema`; a test checks the file is current). The schema states the
structure; what JSON Schema cannot state (node/image/depth counts, payload cost, condition and
selector nesting, repeat/pager/state-typing rules, platform calls) is enforced in code and named
in `$comment`s. Known differences of a generic JSON Schema engine from our validator: Python's
`re` lets `$` match before a final newline and treats U+FEFF as non-blank.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from studio.resources import resource_path
from studio.spec import rules as R

SCHEMA_ID = "https://proto-studio.invalid/schema/prototype-spec.schema.json"
CODE_RULES = (
    "Also enforced in code, not expressible here: at most 2000 nodes (after repeat/component "
    "expansion), tree depth 24, 32 images, 1 MiB spec, emit payload cost 4096 and depth 24, "
    "condition and selector nesting 8; repeat templates; unique pager ids and known pager "
    "references; state key types per control; platform calls declared in requires.platform, "
    "available in this build and matching the call's argument schema."
)


def schema_path() -> Path:
    return resource_path("schema", "prototype-spec.schema.json")


def _name(name: str) -> str:
    return f"#/$defs/{name}"


def render(rule: R.Rule, defs: dict[str, Any], name: str = "") -> dict[str, Any]:  # noqa: C901
    """The JSON Schema of one rule; tagged variants become `$defs` entries of their own."""
    if isinstance(rule, R.Str):
        out: dict[str, Any] = {"type": "string"}
        if not rule.empty:
            out["minLength"] = 1
        if rule.nonblank:
            out["pattern"] = r"\S"
        return out
    if isinstance(rule, R.Key):
        return {"type": "string", "pattern": R.STATE_KEY_PATTERN}
    if isinstance(rule, R.BoundKey):
        return {"type": "string", "pattern": R.BOUND_KEY_PATTERN}
    if isinstance(rule, R.Color):
        return {"type": "string", "pattern": R.COLOR_PATTERN}
    if isinstance(rule, R.Pattern):
        return {"type": "string", "pattern": rule.pattern}
    if isinstance(rule, R.Num):
        out = {"type": "integer" if rule.integer else "number"}
        if rule.min is not None:
            out["minimum"] = rule.min
        if rule.max is not None:
            out["maximum"] = rule.max
        return out
    if isinstance(rule, R.Bool):
        return {"type": "boolean"}
    if isinstance(rule, R.Scalar):
        return {"type": ["string", "number", "boolean"]}
    if isinstance(rule, R.Enum):
        return {"enum": list(rule.values)}
    if isinstance(rule, R.Json):
        return {"$comment": f"any JSON; payload cost at most {rule.max_bytes} (code rule)"}
    if isinstance(rule, R.AnyObject):
        return {"type": "object"}
    if isinstance(rule, R.Arr):
        out = {"type": "array", "items": render(rule.item, defs)}
        if rule.min:
            out["minItems"] = rule.min
        if rule.max is not None:
            out["maxItems"] = rule.max
        if rule.unique:
            out["uniqueItems"] = True
        return out
    if isinstance(rule, R.Map):
        return {
            "type": "object",
            "propertyNames": {"pattern": R.STATE_KEY_PATTERN},
            "additionalProperties": render(rule.item, defs),
        }
    if isinstance(rule, R.Ref):
        return {"$ref": _name(rule.name)}
    if isinstance(rule, R.Choice):
        return {"anyOf": [render(option, defs) for option in rule.options]}
    if isinstance(rule, R.Obj):
        return _object(rule, defs)
    if isinstance(rule, R.Tagged):
        branches = []
        for kind, variant in rule.variants.items():
            defs[f"{name}.{kind}"] = _object(variant, defs)
            branches.append(
                {
                    "if": {"properties": {"type": {"const": kind}}},
                    "then": {"$ref": _name(f"{name}.{kind}")},
                }
            )
        return {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"enum": list(rule.variants)}},
            "allOf": branches,
        }
    raise TypeError(f"no schema for {rule!r}")


def _one_of_keys(keys: tuple[str, ...]) -> dict[str, Any]:
    return {"oneOf": [{"required": [key]} for key in keys]}


def _object(rule: R.Obj, defs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "properties": {key: render(f.rule, defs) for key, f in rule.fields.items()},
        "additionalProperties": False,
    }
    required = [key for key, f in rule.fields.items() if not f.optional]
    if required:
        out["required"] = required
    if rule.at_least_one:
        out["minProperties"] = 1
    constraints: list[dict[str, Any]] = []
    if rule.binding:
        constraints.append(_one_of_keys(("pager", "stateKey")))
    if rule.exclusive:
        constraints.append(_one_of_keys(rule.exclusive))
    if rule.exactly_one:
        constraints.append(_one_of_keys(rule.exactly_one))
    for trigger, dependents in rule.dependents:
        constraints.append(
            {
                "if": {"required": [trigger]},
                "then": _one_of_keys(dependents),
                "else": {"not": {"anyOf": [{"required": [key]} for key in dependents]}},
            }
        )
    if constraints:
        out["allOf"] = constraints
    return out


def build_schema() -> dict[str, Any]:
    """The whole schema document."""
    defs: dict[str, Any] = {}
    for name, rule in R.definitions().items():
        defs[name] = render(rule, defs, name)
    defs["iconName"]["$comment"] = (
        "Google's Material Icons names, as listed in resources/schema/material-icon-names.txt"
    )
    defs["action.platform"]["$comment"] = (
        "Studio extension: args values are literals, {state: KEY} or {data: /data/... pointer};"
        " checked against the call's own JSON Schema from the platform catalog."
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "AutoMobile prototype spec (Proto Studio)",
        "description": (
            "AutoMobile's prototype spec plus the studio extensions requires, data and the "
            "platform action. " + CODE_RULES
        ),
        "$ref": _name("spec"),
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    """Writes resources/schema/prototype-spec.schema.json."""
    schema_path().write_text(schema_text(), encoding="utf-8")
    print(schema_path(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
