"""Placeholder registry (replaced by the platform modules work): only `test.echo`."""

from __future__ import annotations

from typing import Any


class _MinimalRegistry:
    _calls: dict[str, dict[str, Any]] = {
        "test.echo": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
            "additionalProperties": False,
        }
    }

    def has_module(self, module: str) -> bool:
        return any(call.split(".", 1)[0] == module for call in self._calls)

    def call_schema(self, call: str) -> dict[str, Any] | None:
        return self._calls.get(call)


def default_registry() -> _MinimalRegistry:
    return _MinimalRegistry()
