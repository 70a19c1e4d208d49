"""Checks of the studio extensions (architecture decision 2) after AutoMobile's own rules:
`platform` actions against `requires.platform`, this build's catalog and each call's schema.

An argument is a literal or a reference: an object with exactly one of these keys --
`{"state": KEY}` (a declared state key), `{"data": "/data/..."}` (a JSON pointer under `/data`),
`{"time": {"hour": KEY, "minute": KEY}}` (two declared integer keys, 0..23 and 0..59, read as
one "HH:MM" string: what a timePicker writes) or `{"chips": {VALUE: KEY, ...}}` (declared
boolean keys, read as the list of the VALUEs whose key is true, in the order written: what a
row of filter chips writes). Literals and references to state are resolved with the declared
values, coerced as the registry coerces form text (numeric text where a number may go, see
`studio.spec.coerce`) and checked against the call's JSON Schema with jsonschema; each chip
VALUE is also checked against the argument's `items`. Data-bound values only need to be present.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from studio.spec import rules as R
from studio.spec.binding import child_path, js_string
from studio.spec.coerce import coerce_args
from studio.spec.extensions import PlatformCatalog, default_catalog
from studio.spec.state_rules import CONTROLS

if TYPE_CHECKING:  # jsonschema is imported on the first platform action checked: opening a
    # prototype without one (most) must not pay its ~50 ms import before the first frame
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

Raw = dict[str, Any]
Failure = tuple[str, str]
_POINTER = re.compile(R.DATA_POINTER_PATTERN[1:-1])


REFERENCE_KINDS = ("state", "data", "time", "chips")
#: A time reference reads what a timePicker writes: its two keys' types are the picker's.
TIME_PARTS = tuple(
    (binding.field[0].removesuffix("Key"), binding.type_for({}))
    for binding in CONTROLS["timePicker"]
)


def binding_of(value: Any) -> tuple[str, Any] | None:
    """(kind, what) when an argument is a reference (`state`, `data`, `time`, `chips`),
    else None (a literal)."""
    if isinstance(value, dict) and len(value) == 1:
        kind = next(iter(value))
        if kind in REFERENCE_KINDS:
            return kind, value[kind]
    return None


@lru_cache(maxsize=256)
def _validator(schema_text: str) -> Draft202012Validator:
    import json

    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(schema_text))


def _schema_validator(schema: dict[str, Any]) -> Draft202012Validator:
    import json

    return _validator(json.dumps(schema, sort_keys=True))


def _module(call: str) -> str:
    return call.split(".", 1)[0]


def platform_errors(
    spec: Raw,
    actions: list[Raw],
    where: Callable[[str, int], str],
    catalog: PlatformCatalog | None,
) -> Failure | None:
    """The first extension error: per platform action (walk order), then `requires.platform`."""
    requires = spec.get("requires")
    declared = requires.get("platform", []) if isinstance(requires, dict) else []
    uses = [i for i, a in enumerate(actions) if a.get("type") == "platform"]
    if not uses and not declared:
        return None
    if catalog is None:
        catalog = default_catalog()
    found = spec.get("state")
    state: Raw = found if isinstance(found, dict) else {}
    for index in uses:
        error = _action_error(actions[index], state, declared, catalog)
        if error is not None:
            at, message = error
            return where("action", index) + at, message
    for index, module in enumerate(declared):
        if not catalog.has_module(module):
            return (
                f"requires.platform[{index}]",
                f"Platform module {js_string(module)} is not available in this build",
            )
    return None


def _action_error(
    action: Raw, state: Raw, declared: list[str], catalog: PlatformCatalog
) -> Failure | None:
    call: str = action["call"]
    module = _module(call)
    if module not in declared:
        return ".call", f"Platform module {js_string(module)} is not declared in requires.platform"
    if not catalog.has_module(module):
        return ".call", f"Platform module {js_string(module)} is not available in this build"
    schema = catalog.call_schema(call)
    if schema is None:
        return ".call", f"Unknown platform call {js_string(call)}"
    args = action.get("args", {})
    error = _args_error(args, schema, state)
    if error is not None:
        return error
    status = action.get("statusKey")
    if status is not None and not isinstance(state.get(status), str):
        return ".statusKey", "Platform status key must be a declared string state key"
    return None


def _args_error(args: Raw, schema: dict[str, Any], state: Raw) -> Failure | None:
    instance: Raw = {}
    sources: dict[str, str] = {}
    unresolved: set[str] = set()
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    for name, value in args.items():
        bound = binding_of(value)
        at = child_path(".args", name)
        if bound is None:
            instance[name] = value
        elif bound[0] == "state":
            key = bound[1]
            if not isinstance(key, str) or key not in state:
                return f"{at}.state", f"Unknown state key {_show(key)} (declare it in state)"
            instance[name] = state[key]
            sources[name] = f"state key {js_string(key)}"
        elif bound[0] == "time":
            found = _time_reference(bound[1], state, f"{at}.time")
            if isinstance(found, tuple):
                return found
            instance[name] = found
            keys = bound[1]
            sources[name] = f"time keys {js_string(keys['hour'])}, {js_string(keys['minute'])}"
        elif bound[0] == "chips":
            chosen = _chips_reference(bound[1], state, f"{at}.chips", props.get(name))
            if isinstance(chosen, tuple):
                return chosen
            instance[name] = chosen
            sources[name] = "chip keys " + ", ".join(js_string(k) for k in bound[1].values())
        else:
            pointer = bound[1]
            if not isinstance(pointer, str) or not _POINTER.fullmatch(pointer):
                return f"{at}.data", "Expected a JSON pointer under /data/"
            unresolved.add(name)
    instance = coerce_args(schema, instance)
    errors = [
        e
        for e in _schema_validator(schema).iter_errors(instance)
        if not _about_unresolved(e, unresolved)
    ]
    if not errors:
        return None
    from jsonschema.exceptions import best_match

    worst = best_match(errors)
    parts = list(worst.absolute_path)
    at = ".args"
    for part in parts:
        at = f"{at}[{part}]" if isinstance(part, int) else child_path(at, part)
    message = worst.message
    source = sources.get(str(parts[0])) if parts else None
    if source is not None:
        return at, f"Platform argument from {source}: {message}"
    return at, f"Platform argument: {message}"


def _time_reference(ref: Any, state: Raw, at: str) -> str | Failure:
    """The "HH:MM" a time reference reads from the declared state, or the failure."""
    if not isinstance(ref, dict) or set(ref) != {"hour", "minute"}:
        return at, 'A time reference is {"hour": KEY, "minute": KEY}'
    values: dict[str, int] = {}
    for part, kind in TIME_PARTS:
        key = ref[part]
        if not isinstance(key, str) or key not in state:
            return f"{at}.{part}", f"Unknown state key {_show(key)} (declare it in state)"
        if not kind.accepts(state[key]):
            top = _show(kind.maximum)
            return f"{at}.{part}", f"Time {part} requires an integer 0..{top} state key"
        values[part] = int(state[key])
    if ref["hour"] == ref["minute"]:
        return f"{at}.minute", "Time hour and minute keys must differ"
    return f"{values['hour']:02d}:{values['minute']:02d}"


def _chips_reference(ref: Any, state: Raw, at: str, schema: Any) -> list[str] | Failure:
    """The chip VALUEs whose declared boolean key is true (in the order written), or the
    failure; every VALUE must fit the argument's `items` schema."""
    if not isinstance(ref, dict) or not ref:
        return at, "A chips reference is a non-empty object {VALUE: boolean state key, ...}"
    items = schema.get("items") if isinstance(schema, dict) else None
    check = _schema_validator(items) if isinstance(items, dict) else None
    chosen: list[str] = []
    for value, key in ref.items():
        place = child_path(at, value)
        if not isinstance(key, str) or key not in state:
            return place, f"Unknown state key {_show(key)} (declare it in state)"
        if not isinstance(state[key], bool):
            return place, f"Chip {js_string(value)} requires a boolean state key"
        if check is not None:
            from jsonschema.exceptions import best_match

            wrong = best_match(check.iter_errors(value))
            if wrong is not None:
                return place, f"Chip value {js_string(value)}: {wrong.message}"
        if state[key]:
            chosen.append(value)
    return chosen


def _about_unresolved(error: ValidationError, unresolved: set[str]) -> bool:
    """A data-bound argument has no value yet: only its presence counts."""
    if error.validator == "required" and not error.absolute_path:
        return any(error.message == f"{name!r} is a required property" for name in unresolved)
    return False


def _show(value: Any) -> str:
    return js_string(value) if isinstance(value, str) else repr(value)


def module_calls(spec: Raw, module: str) -> list[tuple[str, str, str]]:
    """Every `platform` action that calls into `module`, in document order (the root's nodes,
    then each component's): (the node's path, where in the node, the call). What removing the
    module from `requires.platform` would break (the platform panel lists them)."""
    from studio.spec import tree

    found: list[tuple[str, str, str]] = []

    def scan(value: Any, at: str, where: str) -> None:
        if isinstance(value, dict):
            call = value.get("call")
            is_call = value.get("type") == "platform" and isinstance(call, str)
            if is_call and str(call).split(".", 1)[0] == module:
                found.append((at, where, str(call)))
            for key, inner in value.items():
                scan(inner, at, f"{where}.{key}" if where else key)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                scan(inner, at, f"{where}[{index}]")

    for at, node in tree.walk_all(spec):
        for key, value in node.items():
            if key not in ("child", "children", "type"):
                scan(value, at, key)
    return found
