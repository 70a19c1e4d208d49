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
        """None when `args` fit the schema, else a one-line message naming the place."""
        error = jsonschema.exceptions.best_match(self._validator.iter_errors(args))
        if error is None:
            return None
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        return f"arguments at {where}: {error.message}"

    def spec(self) -> ToolSpec:
        text = self.description
        if self.examples:
            text += "\nExamples: " + " | ".join(canonical_json(e) for e in self.examples)
        return ToolSpec(self.name, text, self.parameters)


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

    def names(self) -> list[str]:
        return list(self._tools)

    def __iter__(self) -> Any:
        return iter(self._tools.values())

    def specs(self) -> list[ToolSpec]:
        return [t.spec() for t in self._tools.values()]

    def fingerprints(self) -> dict[str, str]:
        return {t.name: t.fingerprint() for t in self._tools.values()}
