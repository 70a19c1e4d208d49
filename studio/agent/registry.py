"""The tool registry: each tool's schema, when-to-use description, examples, timeout and effects."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from studio.agent.events import ToolSpec

JSON = dict[str, Any]
Handler = Callable[[JSON], Awaitable[Any]]


class ToolError(Exception):
    """A tool failed in a way the model can act on; the message goes back as the tool result."""

    def __init__(self, error: str, /, **details: Any) -> None:
        super().__init__(error)
        self.message = error
        self.details = details


class NeedsInput(Exception):
    """Raised by a tool (askUser) to pause the run until the user answers."""

    def __init__(self, question: str, options: list[str]) -> None:
        super().__init__(question)
        self.question = question
        self.options = options


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Tool:
    """One tool. `idempotent` tools may run together; the others run one at a time, in order."""

    name: str
    description: str
    parameters: JSON
    handler: Handler
    examples: tuple[JSON, ...] = ()
    timeout: float = 10.0
    idempotent: bool = True
    needs_approval: bool = False
    #: A tool of something outside the studio (a hosted MCP server): a replay answers it from
    #: the recording instead of calling it again (`studio.agent.replay`).
    external: bool = False
    _validator: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        jsonschema.Draft202012Validator.check_schema(self.parameters)
        object.__setattr__(self, "_validator", jsonschema.Draft202012Validator(self.parameters))

    def fingerprint(self) -> str:
        """Hash of name + schema: replay reports drift when it changes."""
        return hashlib.sha256((self.name + canonical_json(self.parameters)).encode()).hexdigest()[
            :16
        ]

    def check_arguments(self, args: Any) -> str | None:
        """None when `args` fit the schema, else every problem at once (one round trip for a
        weak model instead of one per error), each naming its place, without echoing the
        whole arguments back."""
        errors = sorted(
            self._validator.iter_errors(args), key=lambda e: [str(p) for p in e.absolute_path]
        )
        if not errors:
            return None
        lines = [_describe(e) for e in errors[:MAX_REPORTED]]
        if len(errors) > MAX_REPORTED:
            lines.append(f"and {len(errors) - MAX_REPORTED} more")
        return "; ".join(lines)

    def repair(self, args: Any) -> tuple[Any, list[str]]:
        """Cheap repairs of what weak models send, before the schema check: the whole
        arguments as a JSON string inside a string, and a string holding the JSON of a
        property whose schema wants an object or an array. Returns (args, what was repaired)."""
        notes: list[str] = []
        if isinstance(args, str):
            inner = _json_or_none(args)
            if isinstance(inner, dict):
                args = inner
                notes.append("the arguments were a JSON string, not an object")
        if isinstance(args, dict):
            props = self.parameters.get("properties")
            if isinstance(props, dict):
                for key, value in list(args.items()):
                    schema = props.get(key)
                    if not isinstance(value, str) or not isinstance(schema, dict):
                        continue
                    want = schema.get("type")
                    if want not in ("array", "object"):
                        continue
                    inner = _json_or_none(value)
                    if isinstance(inner, list if want == "array" else dict):
                        args[key] = inner
                        notes.append(f"{key} was a JSON string, not an {want}")
        return args, notes

    def spec(self) -> ToolSpec:
        text = self.description
        if self.examples:
            text += "\nExamples: " + " | ".join(canonical_json(e) for e in self.examples)
        return ToolSpec(self.name, text, self.parameters)


MAX_REPORTED = 8


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _shown(value: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _describe(error: Any) -> str:
    where = "/" + "/".join(str(p) for p in error.absolute_path)
    if error.validator == "type":
        message = f"{_shown(error.instance)} is not of type {_shown(error.validator_value)}"
    elif error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties") or {}))
        message = f"unknown properties {', '.join(map(repr, extra))}"
    else:
        message = error.message
        if len(message) > 200:
            message = message[:200] + "..."
    return f"arguments at {where}: {message}"


class ToolRegistry:
    """Tools by name, in registration order (the model sees the same list every turn)."""

    def __init__(self, tools: list[Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} is registered twice")
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def resolve(self, name: str) -> Tool | None:
        """The tool a model meant: the exact name, else without a `functions.` prefix (OpenAI's
        routing namespace, as llama-cpp-python prints it), else ignoring case (`Patch`)."""
        tool = self._tools.get(name)
        if tool is not None:
            return tool
        bare = name.strip()
        if bare.startswith("functions."):
            bare = bare[len("functions.") :]
        tool = self._tools.get(bare)
        if tool is not None:
            return tool
        lowered = bare.lower()
        matches = [t for n, t in self._tools.items() if n.lower() == lowered]
        return matches[0] if len(matches) == 1 else None

    def names(self) -> list[str]:
        return list(self._tools)

    def __iter__(self) -> Any:
        return iter(self._tools.values())

    def specs(self) -> list[ToolSpec]:
        return [t.spec() for t in self._tools.values()]

    def fingerprints(self) -> dict[str, str]:
        return {t.name: t.fingerprint() for t in self._tools.values()}
