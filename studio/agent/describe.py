"""What a status line says about a run: short present-tense labels for tool calls (Qt-free)."""

from __future__ import annotations

import json
from typing import Any


def tool_action(name: str, arguments: Any) -> str:
    """A short present-tense label for a tool call ("reading node header", "patching 3 nodes")."""
    args: Any = arguments
    if isinstance(arguments, str):
        try:
            args = json.loads(arguments)
        except ValueError:
            args = {}
    if not isinstance(args, dict):
        args = {}
    if name == "outline":
        return "reading the outline"
    if name == "readNode":
        return f"reading node {args.get('id', '?')}"
    if name == "readData":
        return f"reading data {args.get('pointer') or '/'}"
    if name == "capabilities":
        return "checking capabilities"
    if name == "validate":
        return "validating a spec"
    if name == "patch":
        ops = args.get("ops") if isinstance(args.get("ops"), list) else []
        nodes = sum(1 for op in ops if isinstance(op, dict) and op.get("op") == "replaceNode")
        values = len(ops) - nodes
        parts = []
        if nodes:
            parts.append(f"{nodes} node{'s' if nodes != 1 else ''}")
        if values:
            parts.append(f"{values} value{'s' if values != 1 else ''}")
        return "patching " + (" and ".join(parts) or "the draft")
    if name == "preview":
        return "looking at the preview"
    if name == "inspect":
        return "inspecting the running prototype"
    if name == "events":
        return "reading recent events"
    if name == "askUser":
        return "asking you a question"
    return f"running {name}"
