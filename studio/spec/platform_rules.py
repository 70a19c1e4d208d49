"""Checks of the studio extensions (architecture decision 2) after AutoMobile's own rules:
`platform` actions against `requires.platform`, this build's catalog and each call's schema.

An argument is a literal, `{"state": KEY}` (a declared state key) or `{"data": "/data/..."}`
(a JSON pointer under `/data`); an object with exactly one of those keys is a binding, any
other value is a literal. Literals and state-bound values (their declared value) are checked
against the call's JSON Schema with jsonschema; data-bound values only need to be present.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from studio.spec import rules as R
from studio.spec.binding import child_path, js_string
from studio.spec.extensions import PlatformCatalog

Raw = dict[str, Any]
Failure = tuple[str, str]
_POINTER = re.compile(R.DATA_POINTER_PATTERN[1:-1])


def binding_of(value: Any) -> tuple[str, Any] | None:
    """("state", key) or ("data", pointer) when an argument is a binding, else None."""
    if isinstance(value, dict) and len(value) == 1:
        kind = next(iter(value))
        if kind in ("state", "data"):
            return kind, value[kind]
    return None


@lru_cache(maxsize=256)
def _validator(schema_text: str) -> Draft202012Validator:
    import json

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
        from studio.spec.extensions import default_catalog

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
    unresolved: set[str] = set()
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
        else:
            pointer = bound[1]
            if not isinstance(pointer, str) or not _POINTER.fullmatch(pointer):
                return f"{at}.data", "Expected a JSON pointer under /data/"
            unresolved.add(name)
    errors = [
        e
        for e in _schema_validator(schema).iter_errors(instance)
        if not _about_unresolved(e, unresolved)
    ]
    if not errors:
        return None
    worst = best_match(errors)
    parts = list(worst.absolute_path)
    at = ".args"
    for part in parts:
        at = f"{at}[{part}]" if isinstance(part, int) else child_path(at, part)
    if parts and binding_of(args.get(str(parts[0]))) is not None:
        key = args[str(parts[0])]["state"]
        return at, f"Platform argument from state key {js_string(key)}: {worst.message}"
    return at, f"Platform argument: {worst.message}"


def _about_unresolved(error: ValidationError, unresolved: set[str]) -> bool:
    """A data-bound argument has no value yet: only its presence counts."""
    if error.validator == "required" and not error.absolute_path:
        return any(error.message == f"{name!r} is a required property" for name in unresolved)
    return False


def _show(value: Any) -> str:
    return js_string(value) if isinstance(value, str) else repr(value)
