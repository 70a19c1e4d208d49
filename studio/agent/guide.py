"""The spec guide for the model, generated at run time from our JSON Schema so it cannot drift.

`full` (cloud models) lists every node and action type with its fields; `short` (small local
models) lists the types with their required fields only. Both end with the working rules.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

SCHEMA_PARTS = ("schema", "prototype-spec.schema.json")

#: The one show-time rule the validator does not enforce (AutoMobile's host refuses it when the
#: spec is shown: `studio.spec.anchors`); edits that break it carry a `warning` (tools.py).
ANCHOR_RULE = """- In a floating window only the root may have an `anchor` (the phone shows nothing otherwise);
  an edit that breaks this still applies, with a `warning` in its result: fix it then."""

RULES = f"""Rules:
- You edit a DRAFT prototype spec with tools; the user reviews it before applying.
- Start with `outline`; read only what you need with `readNode` / `readData`.
- Change the draft ONLY with `patch`: replaceNode swaps one node by id or address (not the root);
  add/replace/remove/test work under /state, /data and /requires. Declare a state key (add
  /state/KEY) before a node binds it, and a platform module (add /requires/platform/-) before a
  `platform` action calls it. Give new nodes an `id`. A new theme, window or root (what patch
  cannot change) goes through `reviseSpec`, whole.
- Every patch is validated; if it is rejected, read the op index, path and message, fix it and
  patch again. Nothing changed when a patch is rejected.
{ANCHOR_RULE}
- Give every patch a one-line `summary` for the user.
- Use `askUser` only for genuine ambiguity. When done, answer with a one-line description."""


COMPOUND_RULES = f"""Rules:
- You edit a DRAFT prototype spec with tools; the user reviews it before applying.
- Start with `outline`; use `readNode` for the one node you change.
- Change the draft with `edit` (a node's own properties), `insert`, `remove` and `move` (the
  tree), `setState` (state keys) and `setTheme`. Give new nodes an `id`. State keys and platform
  modules a new node uses are declared for you.
- Every change is validated; if one is refused, read the path and message, fix it and try again.
  Nothing changed when a change is refused.
{ANCHOR_RULE}
- Call `check` when you are done, then answer with a one-line description."""


def _first_sentence(text: Any) -> str:
    if not isinstance(text, str):
        return ""
    line = " ".join(text.split())
    cut = line.find(". ")
    return line if cut < 0 else line[: cut + 1]


def _tag(schema: dict[str, Any]) -> str | None:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return None
    kind = props.get("type")
    if not isinstance(kind, dict):
        return None
    if isinstance(kind.get("const"), str):
        return str(kind["const"])
    enum = kind.get("enum")
    if isinstance(enum, list) and len(enum) == 1 and isinstance(enum[0], str):
        return enum[0]
    return None


def _variants(
    schema: Any, group: str, out: dict[str, dict[str, dict[str, Any]]], seen: set[int]
) -> None:
    """Collect every object schema tagged by a constant `type`, grouped by the $defs name above it."""
    if id(schema) in seen:
        return
    seen.add(id(schema))
    if isinstance(schema, dict):
        tag = _tag(schema)
        if tag is not None:
            out.setdefault(group, {}).setdefault(tag, schema)
        for key, value in schema.items():
            if key in ("if", "not"):  # discriminator conditions, not variants
                continue
            if key in ("$defs", "definitions") and isinstance(value, dict):
                for name, sub in value.items():
                    _variants(sub, str(name), out, seen)
            else:
                _variants(value, group, out, seen)
    elif isinstance(schema, list):
        for item in schema:
            _variants(item, group, out, seen)


def _group_kind(group: str) -> str:
    lowered = group.lower()
    if "action" in lowered:
        return "actions"
    if "node" in lowered or "component" in lowered:
        return "nodes"
    return "other"


def _field(name: str, schema: Any) -> str:
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if isinstance(enum, list) and 1 < len(enum) <= 8 and all(isinstance(v, str) for v in enum):
        return f"{name}={'|'.join(enum)}"
    return name


def _describe(
    tag: str, schema: dict[str, Any], short: bool, common: frozenset[str] = frozenset()
) -> str:
    props = schema.get("properties") or {}
    required = [p for p in schema.get("required") or [] if p != "type"]
    line = f"- {tag}"
    if required:
        line += " (" + ", ".join(_field(p, props.get(p)) for p in required) + ")"
    if not short:
        optional = [
            _field(p, props[p])
            for p in props
            if p not in required and p != "type" and p not in common
        ]
        if optional:
            line += " [" + ", ".join(optional) + "]"
        about = _first_sentence(schema.get("description"))
        if about:
            line += ": " + about
    return line


def guide_from_schema(
    schema: dict[str, Any], level: Literal["full", "short"] = "full", rules: str = RULES
) -> str:
    short = level == "short"
    found: dict[str, dict[str, dict[str, Any]]] = {}
    _variants(schema, "spec", found, set())
    sections: dict[str, list[str]] = {"nodes": [], "actions": [], "other": []}
    node_fields = [
        set(sub.get("properties") or {}) - set(sub.get("required") or [])
        for group, variants in found.items()
        if _group_kind(group) == "nodes"
        for sub in variants.values()
    ]
    common = frozenset(set.intersection(*node_fields)) if len(node_fields) > 1 else frozenset()
    tags_seen: set[tuple[str, str]] = set()
    for group, variants in found.items():
        kind = _group_kind(group)
        for tag, sub in variants.items():
            if (kind, tag) in tags_seen:
                continue
            tags_seen.add((kind, tag))
            shared = common if kind == "nodes" else frozenset()
            label = group if kind == "other" and "." in group else tag  # e.g. anchor.bounds
            sections[kind].append(_describe(label, sub, short, shared))
    out = ["AutoMobile prototype spec (JSON)."]
    about = _first_sentence(schema.get("description"))
    if about:
        out.append(about)
    root = schema
    ref = schema.get("$ref")
    defs = schema.get("$defs") or schema.get("definitions") or {}
    if not schema.get("properties") and isinstance(ref, str) and ref.rsplit("/", 1)[-1] in defs:
        root = defs[ref.rsplit("/", 1)[-1]]
    top = root.get("properties") or {}
    if top:
        required = set(root.get("required") or [])
        fields = [f"{k}{'*' if k in required else ''}" for k in top]
        out.append("Top level: " + ", ".join(fields) + " (* required).")
    if sections["nodes"]:
        out.append(
            "Node types (required) [optional]:" if not short else "Node types (required fields):"
        )
        out.extend(sections["nodes"])
        if common and not short:
            out.append("Every node may also have: " + ", ".join(sorted(common)) + ".")
    if sections["actions"]:
        out.append("Actions (in onTap and similar lists):")
        out.extend(sections["actions"])
    if sections["other"] and not short:
        out.append("Other tagged objects:")
        out.extend(sections["other"])
    limits = schema.get("x-limits") or schema.get("limits")
    if isinstance(limits, dict):
        out.append("Limits: " + ", ".join(f"{k} {v}" for k, v in limits.items()))
    out.append(rules)
    return "\n".join(out)


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def spec_guide(
    level: Literal["full", "short"] = "full",
    schema_path: Path | None = None,
    rules: str = RULES,
) -> str:
    """The guide for the model from resources/schema/prototype-spec.schema.json (rules only when
    the schema is missing or unreadable)."""
    if schema_path is None:
        from studio.resources import resource_path

        schema_path = resource_path(*SCHEMA_PARTS)
    try:
        schema = _load(str(schema_path), schema_path.stat().st_mtime)
    except (OSError, ValueError):
        return (
            "AutoMobile prototype spec (JSON); use outline and readNode to learn its shape.\n"
            + rules
        )
    return guide_from_schema(schema, level, rules)


def system_prompt(
    level: Literal["full", "short"] = "full",
    schema_path: Path | None = None,
    tools: str = "standard",
) -> str:
    """The system prompt: the role, the spec guide and the rules of the tool set (`standard` or
    `compound`, studio.agent.compound)."""
    rules = COMPOUND_RULES if tools == "compound" else RULES
    return (
        "You are the prototype editor of Proto Studio. You change an AutoMobile prototype spec "
        "by calling tools, never by writing the spec in a message.\n\n"
        + spec_guide(level, schema_path, rules)
    )
