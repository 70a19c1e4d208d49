"""The registry of platform modules: what this build advertises, validates and executes."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from studio.platform.credentials import ModuleCredentials, carries_secret
from studio.platform.module import (
    JSON,
    NUMERIC_TEXT,
    CallContext,
    PlatformCall,
    PlatformError,
    PlatformEvent,
    PlatformModule,
    ResultLink,
)
from studio.platform.modules import calc, clipboard, device, echo, share, units
from studio.spec.coerce import coerce_args, schema_types

MAX_MESSAGE = 200


class PlatformRegistry:
    """Modules by name. Implements the validator's `PlatformCatalog` (`has_module`,
    `call_schema`) and the agent's `capabilities()` / `modules()`, and runs calls."""

    def __init__(self, modules: Iterable[PlatformModule] = ()):
        self._modules: dict[str, PlatformModule] = {}
        self._validators: dict[str, tuple[Draft202012Validator, Draft202012Validator]] = {}
        self._event_validators: dict[str, Draft202012Validator] = {}
        for module in modules:
            self.add(module)
        self.check_links()

    def add(self, module: PlatformModule) -> None:
        if module.name in self._modules:
            raise ValueError(f"platform module {module.name!r} is registered twice")
        for call in module.calls.values():
            Draft202012Validator.check_schema(call.args)
            Draft202012Validator.check_schema(call.result)
            if (
                call.args.get("type") != "object"
                or call.args.get("additionalProperties") is not False
            ):
                raise ValueError(f"{module.name}.{call.name}: args must be a strict object schema")
            if (call.sensitive or call.side_effect) and not call.consent.strip():
                raise ValueError(
                    f"{module.name}.{call.name}: a call that asks for consent says what it "
                    "will do (PlatformCall.consent)"
                )
            unknown = set(call.secret_args) - set(call.args.get("properties", {}))
            if unknown:
                raise ValueError(
                    f"{module.name}.{call.name}: secret_args {sorted(unknown)} are not arguments"
                )
            self._validators[f"{module.name}.{call.name}"] = (
                Draft202012Validator(call.args),
                Draft202012Validator(call.result),
            )
        for event in module.events.values():
            Draft202012Validator.check_schema(event.payload)
            self._event_validators[f"{module.name}.{event.name}"] = Draft202012Validator(
                event.payload
            )
        self._modules[module.name] = module

    # -- the validator's catalog ------------------------------------------------------------
    def has_module(self, module: str) -> bool:
        return module in self._modules

    def call_schema(self, call: str) -> dict[str, Any] | None:
        found = self.lookup(call)
        return copy.deepcopy(found[1].args) if found else None

    # -- what the agent and the generator read -----------------------------------------------
    def lookup(self, call: str) -> tuple[PlatformModule, PlatformCall] | None:
        """The module and call for `"module.op"`, or None."""
        module_name, _, op = call.partition(".")
        module = self._modules.get(module_name)
        if module is None or op not in module.calls:
            return None
        return module, module.calls[op]

    def lookup_event(self, event: str) -> tuple[PlatformModule, PlatformEvent] | None:
        """The module and event for `"module.event"` (e.g. `"test.tick"`), or None."""
        module_name, _, name = event.partition(".")
        module = self._modules.get(module_name)
        if module is None or name not in module.events:
            return None
        return module, module.events[name]

    def module(self, name: str) -> PlatformModule | None:
        return self._modules.get(name)

    # -- result links ---------------------------------------------------------------------------
    def links_of(self, call: str) -> list[ResultLink]:
        """The result links of `call` whose target this build has (a link to a module the
        build lacks is not offered)."""
        found = self.lookup(call)
        if found is None:
            return []
        return [link for link in found[1].links if self.lookup(link.call) is not None]

    def check_links(self) -> None:
        """Every link to a call this build has names its arguments, and each pointer reaches a
        part of the result whose type the argument takes; ValueError names the link."""
        for module in self._modules.values():
            for call in module.calls.values():
                for n, link in enumerate(call.links):
                    where = f"{module.name}.{call.name} links[{n}] ({link.call})"
                    target = self.lookup(link.call)
                    if not link.label.strip():
                        raise ValueError(f"{where}: a link needs a label")
                    if target is None:
                        continue
                    params = target[1].args.get("properties", {})
                    for name, pointer in link.args.items():
                        if name not in params:
                            raise ValueError(f"{where}: {link.call} has no argument {name!r}")
                        part = _result_part(call.result, pointer)
                        if part is None:
                            raise ValueError(
                                f"{where}: {pointer!r} is not in the result of "
                                f"{module.name}.{call.name}"
                            )
                        if not _fits(part, params[name]):
                            raise ValueError(
                                f"{where}: the result at {pointer!r} cannot be the argument "
                                f"{name!r} ({sorted(schema_types(part))} vs "
                                f"{sorted(schema_types(params[name]))})"
                            )

    def capabilities(self) -> list[str]:
        """The `prototype_platform_<module>_v<n>` capabilities this build advertises, sorted."""
        return sorted(m.capability for m in self._modules.values())

    def calls(self) -> list[str]:
        return sorted(f"{m.name}.{c}" for m in self._modules.values() for c in m.calls)

    def modules(self) -> list[dict[str, Any]]:
        """Every module with its calls, as the agent's `capabilities` tool shows them."""
        out: list[dict[str, Any]] = []
        for module in sorted(self._modules.values(), key=lambda m: m.name):
            out.append(
                {
                    "module": module.name,
                    "description": module.description,
                    "capability": module.capability,
                    "permissions": list(module.permissions),
                    "calls": [
                        {
                            "call": f"{module.name}.{call.name}",
                            "description": call.description,
                            "args": copy.deepcopy(call.args),
                            "result": copy.deepcopy(call.result),
                            "sensitive": call.sensitive,
                            "sideEffect": call.side_effect,
                        }
                        for call in module.calls.values()
                    ],
                    "events": [
                        {
                            "event": f"{module.name}.{e.name}",
                            "description": e.description,
                            "payload": copy.deepcopy(e.payload),
                        }
                        for e in module.events.values()
                    ],
                }
            )
        return out

    # -- checking and running ----------------------------------------------------------------
    def check_args(self, call: str, args: Any) -> JSON:
        """`args` coerced and checked against the call's schema; raises `PlatformError` with
        the argument's place (`units.convert: args.from: ...`)."""
        found = self.lookup(call)
        if found is None:
            raise PlatformError(unknown_call_message(self, call))
        if not isinstance(args, dict):
            raise PlatformError(f"{call}: args must be an object")
        coerced = coerce_args(found[1].args, args)
        validator = self._validators[call][0]
        error = _first_error(validator, coerced)
        if error is not None:
            raise PlatformError(f"{call}: {describe(error, 'args')}")
        return coerced

    def check_event(self, event: str, payload: Any) -> Any:
        """`payload` checked against the schema of a declared event (`"test.tick"`); raises
        `PlatformError` naming the event and the place (`test.tick: payload.count: ...`)."""
        if self.lookup_event(event) is None:
            module_name, _, name = event.partition(".")
            module = self._modules.get(module_name)
            known = ", ".join(module.events) if module else ""
            raise PlatformError(
                f"{event}: unknown platform event" + (f" (it has: {known})" if known else "")
            )
        error = _first_error(self._event_validators[event], payload)
        if error is not None:
            raise PlatformError(f"{event}: {describe(error, 'payload')}")
        return payload

    async def execute(self, call: str, args: Any, *, context: CallContext) -> Any:
        """Run `call` with `args` (checked first); returns its result (checked against the
        result shape). Raises `PlatformError` with a one-line message. Consent is not asked
        here: the host asks the broker and marks the context approved; a sensitive or
        side-effecting call without that mark is refused."""
        checked = self.check_args(call, args)
        found = self.lookup(call)
        assert found is not None  # check_args raised otherwise
        module, spec = found
        if (spec.sensitive or spec.side_effect) and context.approved_call != call:
            raise PlatformError(f"{call}: needs the user's consent (run it through PlatformHost)")
        creds = ModuleCredentials(module.name, module.credentials) if module.credentials else None
        secrets = await creds.secrets() if creds else []
        if carries_secret(checked, secrets):
            raise PlatformError(f"{call}: arguments may not carry a credential")
        context.credentials = creds
        try:
            result = await spec.handler(checked, context)
        finally:
            context.credentials = None
        error = _first_error(self._validators[call][1], result)
        if error is not None:
            raise PlatformError(
                f"{call}: module returned a bad result: {describe(error, 'result')}"
            )
        if carries_secret(result, secrets):
            raise PlatformError(f"{call}: the result would expose a credential; withheld")
        return result


def unknown_call_message(registry: PlatformRegistry, call: str) -> str:
    module_name, _, op = call.partition(".")
    module = registry.module(module_name)
    if not op:
        return f"{call!r}: a platform call is written module.call (e.g. units.convert)"
    if module is None:
        known = ", ".join(sorted(m["module"] for m in registry.modules()))
        return f"{call}: unknown platform module {module_name!r} (this build has: {known})"
    return f"{call}: module {module_name!r} has no call {op!r} (it has: {', '.join(module.calls)})"


def _first_error(validator: Draft202012Validator, value: Any) -> ValidationError | None:
    errors = sorted(validator.iter_errors(value), key=lambda e: (list(e.path), e.message))
    return errors[0] if errors else None


def describe(error: ValidationError, root: str) -> str:
    """One line: the argument's place and what is wrong with it."""
    place = root
    for part in error.absolute_path:
        place += f"[{part}]" if isinstance(part, int) else f".{part}"
    validator = error.validator
    numbers = schema_types(error.schema) & {"number", "integer"}
    if validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        allowed = ", ".join(error.schema.get("properties", {})) or "none"
        message = f"unknown argument {', '.join(map(repr, extra))} (allowed: {allowed})"
    elif validator == "required":
        message = error.message.replace("is a required property", "is required")
    elif validator == "enum":
        options = error.schema.get("enum", [])
        shown = ", ".join(map(str, options[:12])) + (", ..." if len(options) > 12 else "")
        message = f"{_short(error.instance)} is not one of: {shown}"
    elif validator == "pattern" and error.validator_value == NUMERIC_TEXT:
        message = f"expected a number, got {_short(error.instance)}"
    elif validator in ("maxLength", "minLength"):
        # Never echo the text itself: it may be what the user is copying or sharing.
        bound = "at most" if validator == "maxLength" else "at least"
        message = f"must be {bound} {error.validator_value} characters"
    elif validator == "pattern":
        message = "does not have the expected format"
    elif validator == "type" and isinstance(error.instance, str) and numbers:
        wanted = "a number" if "number" in numbers else "a whole number"
        message = f"{wanted} was expected, got {_short(error.instance)}"
    elif validator == "type":
        message = f"expected {error.validator_value}, got {type(error.instance).__name__}"
    else:
        message = error.message
    line = f"{place}: {message}".replace("\n", " ")
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 1] + "…"


def _result_part(schema: JSON, pointer: str) -> JSON | None:
    """The sub-schema of a result schema at a JSON pointer ("" the whole), or None."""
    node: Any = schema
    for raw in pointer.split("/")[1:] if pointer else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        props = node.get("properties") if isinstance(node, dict) else None
        if not isinstance(props, dict) or token not in props:
            return None
        node = props[token]
    return node if isinstance(node, dict) else None


def _fits(part: JSON, param: JSON) -> bool:
    """Whether a value of schema `part` can be passed as an argument of schema `param`."""
    given, taken = schema_types(part), schema_types(param)
    if not given or not taken:
        return True  # an untyped side takes anything
    if "integer" in given and "number" in taken:
        given = given | {"number"}
    return bool(given & taken)


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def default_registry(
    *,
    clipboard_backend: clipboard.Clipboard | None = None,
    share_target: share.ShareTarget | None = None,
    device_source: device.DeviceInfoSource | None = None,
) -> PlatformRegistry:
    """The modules of this build. The host injects its clipboard, share target and device
    source; without them the clipboard is in-memory, sharing fails cleanly, `phone` is null."""
    return PlatformRegistry(
        [
            echo.module(),
            units.module(),
            calc.module(),
            clipboard.module(clipboard_backend or clipboard.MemoryClipboard()),
            share.module(share_target),
            device.module(device_source),
        ]
    )
