"""The compound tool set for weak and local models: fewer, larger actions (seed 002's scaffold
harness), each expanding into the same validated patches as the standard set.

`edit(id, props)` merges properties into one node; `insert(parent, index, node)`, `remove(id)`
and `move(id, parent, index)` change the tree; `setState(key, value)` declares or sets a state
key; `setTheme(props)` merges into the theme; `check()` says whether the draft is sound and what
is on screen. Reading is `outline` and `readNode`; `askUser` asks. Each write becomes `patch` ops
(`replaceNode` of the smallest subtree that holds the change, `add` under /state and
/requires) through `tools.write_ops`, or a whole-spec revision through `tools.write_revision`
when the change reaches the root or the theme, so it runs through the same validation, guards,
approvals, trace and replay as a hand-written patch. State keys the new nodes bind and platform
modules their actions call are declared in the same patch when missing (a small model forgets).
The standard set (`tools.build_spec_tools`) is unchanged.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from studio.agent.registry import Tool, ToolError, ToolRegistry
from studio.agent.tools import (
    JSON,
    NO_ARGS,
    SUMMARY_MAX,
    ToolContext,
    build_spec_tools,
    node_ids,
    show_warning,
    write_ops,
    write_revision,
)

ToolSet = Literal["standard", "compound"]
TOOL_SETS: tuple[ToolSet, ...] = ("standard", "compound")
_CONTAINERS = ("child", "children")
_DEFAULTS: dict[str, Any] = {"string": "", "boolean": False, "date": "2000-01-01"}


def build_tools(ctx: ToolContext, tool_set: str = "standard") -> ToolRegistry:
    """The registry for `tool_set` ("standard" or "compound") bound to one draft."""
    if tool_set == "standard":
        return build_spec_tools(ctx)
    if tool_set == "compound":
        return build_compound_tools(ctx)
    raise ValueError(f"unknown tool set {tool_set!r}: use standard or compound")


def _container(node_type: Any) -> str | None:
    """The field that holds a node type's children ("child", "children"), or None (a leaf)."""
    from studio.spec import rules

    node_rule = rules.definitions()["node"]
    variant = node_rule.variants.get(node_type) if isinstance(node_rule, rules.Tagged) else None
    if variant is None:
        return None
    return next((f for f in _CONTAINERS if f in variant.fields), None)


def _steps(path: str) -> list[str | int]:
    from studio.spec.tree import path_steps

    return list(path_steps(path))


def _path(steps: list[str | int]) -> str:
    return "root" + "".join(".child" if s == "child" else f".children[{s}]" for s in steps)


def _descend(node: Any, steps: list[str | int]) -> Any:
    for step in steps:
        node = node["child"] if step == "child" else node["children"][step]
    return node


def _locate(spec: JSON, address: Any, what: str = "node") -> tuple[str, JSON]:
    from studio.spec.address import resolve

    if not isinstance(address, str) or not address:
        raise ToolError(f"{what}: give a node id or address from outline")
    try:
        return resolve(spec, address)
    except ValueError:
        raise ToolError(f"unknown {what} {address!r}; call outline to see the node ids") from None


def _within(path: str, owner: str) -> bool:
    return path == owner or (path.startswith(owner) and path[len(owner)] in ".[")


class _Change:
    """One compound edit: the subtree at `anchor` (a path) copied, changed in place, then
    written back as one replaceNode (or a whole-spec revision of the root)."""

    def __init__(self, spec: JSON, anchor: str) -> None:
        self.spec = spec
        self.anchor = anchor
        self.steps = _steps(anchor)
        self.node: JSON = copy.deepcopy(_descend(spec["root"], self.steps))

    def at(self, path: str) -> JSON:
        """The copy of the node at `path` (inside the anchor)."""
        found: JSON = _descend(self.node, _steps(path)[len(self.steps) :])
        return found


def _insert(parent: JSON, parent_name: str, index: Any, node: JSON) -> int:
    """Put `node` into `parent` at `index` (None or -1: at the end); the index used."""
    field = _container(parent.get("type"))
    if field == "child" or "child" in parent:
        if isinstance(parent.get("child"), dict):
            raise ToolError(
                f"{parent_name} ({parent.get('type')}) holds one child, which it has: insert "
                "into that child, or move/remove it first"
            )
        parent["child"] = node
        return 0
    if field is None:
        raise ToolError(f"{parent_name} is a {parent.get('type')}, which has no children")
    items = parent.setdefault("children", [])
    if not isinstance(items, list):
        raise ToolError(f"{parent_name}.children is not a list")
    at = len(items) if index is None or index == -1 else index
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= len(items):
        raise ToolError(f"index {index!r} is outside 0..{len(items)} for {parent_name}")
    items.insert(at, node)
    return at


def _take(parent: JSON, step: str | int) -> JSON:
    """Remove and return the child at `step` of `parent`."""
    if step == "child":
        found: JSON = parent.pop("child")
        return found
    taken: JSON = parent["children"].pop(step)
    return taken


def _declarations(spec: JSON, nodes: list[Any]) -> tuple[list[JSON], list[str]]:
    """The `add` ops declaring what the nodes need and the spec lacks: state keys their
    controls and state actions bind (with the control's default) and platform modules their
    actions call; and a line per declaration for the tool result."""
    from studio.spec.state_rules import ACTIONS, bindings
    from studio.spec.tree import walk

    state = spec.get("state") if isinstance(spec.get("state"), dict) else {}
    requires = spec.get("requires") if isinstance(spec.get("requires"), dict) else {}
    modules = list(requires.get("platform") or []) if isinstance(requires, dict) else []
    wanted: dict[str, Any] = {}
    calls: list[str] = []
    for node in nodes:
        for _, item, _, _ in walk({"root": node}):
            for _, bound, kind in bindings(item):
                default = _DEFAULTS.get(kind.kind, kind.minimum if kind.minimum else 0)
                wanted.setdefault(bound, default)
            for action in item.get("onTap") or []:
                if not isinstance(action, dict):
                    continue
                kind_name = action.get("type")
                key = action.get("key")
                if kind_name in ACTIONS and isinstance(key, str):
                    wanted.setdefault(key, False if kind_name == "toggle" else 0)
                elif kind_name == "setState" and isinstance(key, str):
                    wanted.setdefault(key, action.get("value"))
                elif kind_name == "platform" and isinstance(action.get("call"), str):
                    calls.append(action["call"].split(".", 1)[0])
    ops: list[JSON] = []
    notes: list[str] = []
    for key, value in wanted.items():
        if key in (state or {}) or "{" in key or value is None:
            continue  # declared, or a repeat template's key (declared per item by the model)
        ops.append({"op": "add", "path": f"/state/{_escape(key)}", "value": value})
        notes.append(f"declared state {key} = {value!r}")
    new_modules = [m for m in dict.fromkeys(calls) if m not in modules]
    if new_modules:
        if not requires:
            ops.append({"op": "add", "path": "/requires", "value": {"platform": new_modules}})
        elif "platform" not in requires:
            ops.append({"op": "add", "path": "/requires/platform", "value": new_modules})
        else:
            ops.extend(
                {"op": "add", "path": "/requires/platform/-", "value": m} for m in new_modules
            )
        notes.extend(f"declared platform module {m}" for m in new_modules)
    return ops, notes


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _op_line(op: JSON) -> str:
    if op.get("op") == "replaceNode":
        return f"replaceNode {op.get('id') or op.get('address')}"
    if op.get("op") == "reviseSpec":
        return "reviseSpec " + ", ".join(op.get("members") or {})
    return f"{op.get('op')} {op.get('path')}"


def _write(
    ctx: ToolContext,
    change: _Change,
    summary: str,
    extra: list[JSON],
    notes: list[str],
    *,
    what: str,
    removed: list[str] | None = None,
) -> JSON:
    """Write a changed subtree back (plus `extra` declaration ops first), all or nothing.
    `removed`: the ids a removal takes out on purpose (the whole-root guard's exception)."""
    from studio.spec import PatchError, apply_patch
    from studio.spec.patch import revise_spec
    from studio.spec.tree import find_id, node_at

    spec, anchor, node = change.spec, change.anchor, change.node
    if anchor == "root":
        if extra:  # two revisions: check both before writing either
            try:
                revise_spec(apply_patch(spec, extra).spec, {"root": node})
            except PatchError as exc:
                ctx.extra["last_rejection"] = f"{exc.path}: {exc.message}"
                raise ToolError(
                    f"{what} rejected, nothing changed; read the path and message, fix it and "
                    "call it again",
                    path=exc.path,
                    message=exc.message,
                ) from None
            write_ops(ctx, extra, summary, what=what)
        result = write_revision(ctx, {"root": node}, summary, removed or ())
        lines = [_op_line(op) for op in extra] + ["reviseSpec root"]
    else:
        # By id when the node there has one that finds it (robust to a rebase), else by path.
        own = node_at(spec, anchor).get("id")
        found = find_id(spec, own) if isinstance(own, str) and own else None
        target = {"id": own} if found is not None and found[0] == anchor else {"address": anchor}
        ops = [*extra, {"op": "replaceNode", **target, "node": node}]
        result = write_ops(ctx, ops, summary, what=what)
        lines = [_op_line(op) for op in ops]
    return {**result, "expandedTo": lines, **({"declared": notes} if notes else {})}


def build_compound_tools(ctx: ToolContext) -> ToolRegistry:
    """The compound registry bound to one draft (reads shared with the standard set)."""
    standard = build_spec_tools(ctx)

    def spec() -> JSON:
        return ctx.draft.spec

    async def edit(args: JSON) -> Any:
        path, _ = _locate(spec(), args["id"], "id")
        props = args["props"]
        if not props:
            raise ToolError("edit needs props to change")
        bad = sorted(set(props) & set(_CONTAINERS))
        if bad:
            raise ToolError(
                f"edit changes a node's own properties, not {bad[0]}: use insert, remove or move"
            )
        change = _Change(spec(), path)
        for key, value in props.items():
            if value is None:
                change.node.pop(key, None)
            else:
                change.node[key] = value
        extra, notes = _declarations(spec(), [change.node])
        summary = args.get("summary") or f"Edit {args['id']}: " + ", ".join(props)
        return _write(ctx, change, summary, extra, notes, what="edit")

    async def insert(args: JSON) -> Any:
        node = args["node"]
        parent_path, parent = _locate(spec(), args["parent"], "parent")
        change = _Change(spec(), parent_path)
        at = _insert(change.node, str(args["parent"]), args.get("index"), node)
        extra, notes = _declarations(spec(), [node])
        label = node.get("id") or node.get("type")
        summary = args.get("summary") or f"Insert {label} into {args['parent']} at {at}"
        return _write(ctx, change, summary, extra, notes, what="insert")

    async def remove(args: JSON) -> Any:
        path, _ = _locate(spec(), args["id"], "id")
        if path == "root":
            raise ToolError("the root cannot be removed; edit it or insert into it")
        steps = _steps(path)
        change = _Change(spec(), _path(steps[:-1]))
        taken = _take(change.node, steps[-1])
        summary = args.get("summary") or f"Remove {args['id']}"
        return _write(ctx, change, summary, [], [], what="remove", removed=node_ids(taken))

    async def move(args: JSON) -> Any:
        path, _ = _locate(spec(), args["id"], "id")
        parent_path, _ = _locate(spec(), args["parent"], "parent")
        if path == "root":
            raise ToolError("the root cannot be moved")
        if _within(parent_path, path):
            raise ToolError(f"cannot move {args['id']} into itself or a node inside it")
        steps, target = _steps(path), _steps(parent_path)
        common: list[str | int] = []
        for a, b in zip(steps[:-1], target, strict=False):
            if a != b:
                break
            common.append(a)
        change = _Change(spec(), _path(common))
        new_parent = change.at(parent_path)  # found before the removal shifts any index
        old_parent = change.at(_path(steps[:-1]))
        node = _take(old_parent, steps[-1])
        at = _insert(new_parent, str(args["parent"]), args.get("index"), node)
        summary = args.get("summary") or f"Move {args['id']} into {args['parent']} at {at}"
        return _write(ctx, change, summary, [], [], what="move")

    async def set_state(args: JSON) -> Any:
        key = args["key"]
        ops = [{"op": "add", "path": f"/state/{_escape(key)}", "value": args["value"]}]
        result = write_ops(ctx, ops, args.get("summary") or f"Set state {key}", what="setState")
        return {**result, "expandedTo": [_op_line(op) for op in ops]}

    async def set_theme(args: JSON) -> Any:
        props = args["props"]
        found = spec().get("theme")
        theme: JSON = copy.deepcopy(found) if isinstance(found, dict) else {}
        for key, value in props.items():
            if value is None:
                theme.pop(key, None)
            elif isinstance(value, dict) and isinstance(theme.get(key), dict):
                merged = {**theme[key], **value}
                theme[key] = {k: v for k, v in merged.items() if v is not None}
            else:
                theme[key] = value
        summary = args.get("summary") or "Theme: " + ", ".join(props)
        result = write_revision(ctx, {"theme": theme or None}, summary)
        return {**result, "expandedTo": ["reviseSpec theme"]}

    async def check(args: JSON) -> Any:
        out = _check(ctx)
        preview = standard.get("preview")
        if preview is not None:
            shown = await preview.handler({})
            out["onScreen"] = shown.get("onScreen", [])[:40] if isinstance(shown, dict) else []
        return out

    summary_field = {"type": "string", "maxLength": SUMMARY_MAX}
    address = {
        "type": "string",
        "minLength": 1,
        "description": "a node id (or address) from outline",
    }
    reads = [standard.get(name) for name in ("outline", "readNode")]
    ask = standard.get("askUser")
    tools: list[Tool] = [t for t in reads if t is not None]
    tools += [
        Tool(
            "edit",
            "Change one node's own properties: `props` are merged into it (null removes one). "
            "State keys it binds are declared for you. Use insert/remove/move for children.",
            {
                "type": "object",
                "properties": {
                    "id": address,
                    "props": {"type": "object", "minProperties": 1},
                    "summary": summary_field,
                },
                "required": ["id", "props"],
                "additionalProperties": False,
            },
            edit,
            examples=({"id": "submit", "props": {"label": "Log in"}},),
            timeout=15,
            idempotent=False,
        ),
        Tool(
            "insert",
            "Add a new node (with an id) inside `parent` at `index` (omit it for the end). "
            "State keys and platform modules it uses are declared for you.",
            {
                "type": "object",
                "properties": {
                    "parent": address,
                    "index": {"type": "integer", "minimum": -1},
                    "node": {"type": "object", "required": ["type"]},
                    "summary": summary_field,
                },
                "required": ["parent", "node"],
                "additionalProperties": False,
            },
            insert,
            examples=(
                {
                    "parent": "form",
                    "index": 0,
                    "node": {"type": "textField", "id": "email", "stateKey": "email"},
                },
            ),
            timeout=15,
            idempotent=False,
        ),
        Tool(
            "remove",
            "Remove one node and everything inside it.",
            {
                "type": "object",
                "properties": {"id": address, "summary": summary_field},
                "required": ["id"],
                "additionalProperties": False,
            },
            remove,
            examples=({"id": "banner"},),
            timeout=15,
            idempotent=False,
        ),
        Tool(
            "move",
            "Move a node into `parent` at `index` (omit it for the end).",
            {
                "type": "object",
                "properties": {
                    "id": address,
                    "parent": address,
                    "index": {"type": "integer", "minimum": -1},
                    "summary": summary_field,
                },
                "required": ["id", "parent"],
                "additionalProperties": False,
            },
            move,
            examples=({"id": "submit", "parent": "footer", "index": 0},),
            timeout=15,
            idempotent=False,
        ),
        Tool(
            "setState",
            "Declare a state key or set its initial value (a string, number or boolean).",
            {
                "type": "object",
                "properties": {
                    "key": {"type": "string", "minLength": 1},
                    "value": {"type": ["string", "number", "boolean"]},
                    "summary": summary_field,
                },
                "required": ["key", "value"],
                "additionalProperties": False,
            },
            set_state,
            examples=({"key": "darkMode", "value": False},),
            timeout=15,
            idempotent=False,
        ),
        Tool(
            "setTheme",
            "Change the theme: `props` are merged into it, e.g. mode (light, dark, system) and "
            "colors (seed: #RRGGBB); null removes one.",
            {
                "type": "object",
                "properties": {
                    "props": {"type": "object", "minProperties": 1},
                    "summary": summary_field,
                },
                "required": ["props"],
                "additionalProperties": False,
            },
            set_theme,
            examples=({"props": {"mode": "dark", "colors": {"seed": "#6750A4"}}},),
            timeout=15,
            idempotent=False,
        ),
        Tool(
            "check",
            "Is the draft sound, and what is on screen: use it after your changes.",
            NO_ARGS,
            check,
            examples=({},),
            timeout=15,
        ),
    ]
    if ask is not None:
        tools.append(ask)
    return ToolRegistry(tools)


def _check(ctx: ToolContext) -> JSON:
    """What `check` reports: validity, nodes that act without an id, declared state nothing
    uses, and what is on screen (the standard preview)."""
    from studio.spec import validate
    from studio.spec.binding import bindable_fields
    from studio.spec.tree import walk

    spec = ctx.draft.spec
    result = validate(spec)
    out: JSON = {"ok": result.ok}
    if not result.ok:
        out.update(path=result.path, message=result.message)
    elif warning := show_warning(spec):
        out["warning"] = warning
    notes: list[str] = []
    used: set[str] = set()
    count = 0
    for path, node, _, _ in walk(spec):
        count += 1
        if node.get("onTap") and not node.get("id"):
            notes.append(f"{path} ({node.get('type')}) acts on tap but has no id")
        for value, _, kind in bindable_fields(node):
            if not isinstance(value, str):
                continue
            if kind == "key":
                used.add(value)
            else:
                used.update(_placeholders(value))
        for action in node.get("onTap") or []:
            if isinstance(action, dict) and isinstance(action.get("key"), str):
                used.add(action["key"])
    state = spec.get("state") if isinstance(spec.get("state"), dict) else {}
    unused = [k for k in state or {} if k not in used]
    if unused:
        notes.append("declared state nothing shows or binds: " + ", ".join(unused[:12]))
    out["nodes"] = count
    out["notes"] = notes
    out["revisions"] = len(ctx.draft.revisions)
    return out


def _placeholders(text: str) -> set[str]:
    import re

    return set(re.findall(r"\{([^{}/]+)\}", text))
