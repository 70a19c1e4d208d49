"""Spec fixtures for the agent tests (our own, in tests/fixtures/agent)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "agent"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def sign_in() -> dict[str, Any]:
    """The shipped sign-in template with its "Sign in" button given the id `submit`, the
    prototype agent-servers.md ran against."""
    from studio.library.templates import templates_dir

    data: dict[str, Any] = json.loads((templates_dir() / "sign-in-form.json").read_text())
    button = data["root"]["children"][1]["child"]["children"][6]
    assert button["type"] == "button" and button["label"] == "Sign in", button
    button["id"] = "submit"
    return data


def first_request_text() -> str:
    """The text of the agent's first request on the sign-in template (short guide and every
    tool), which the bigram model's vocabulary is built from."""
    from studio.agent.draft import Draft
    from studio.agent.guide import system_prompt
    from studio.agent.tools import ToolContext, build_spec_tools

    tools = build_spec_tools(ToolContext(Draft(sign_in())))
    specs = [
        {"name": t.name, "description": t.description, "parameters": t.parameters}
        for t in tools.specs()
    ]
    return system_prompt("short") + json.dumps(specs) + json.dumps(sign_in())
