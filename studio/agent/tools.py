"""The spec tools the model gets: outline, readNode, readData, capabilities, validate, patch,
reviseSpec, preview, inspect, events and askUser. Writes go only through `patch` and, for what the
patch surface cannot express (a new root, window or theme), the guarded whole-spec revision
`reviseSpec`, both on the draft (`write_ops`, `write_revision`: also what the compound tool set of
`studio.agent.compound` expands into)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from studio.agent.draft import Draft
from studio.agent.registry import NeedsInput, Tool, ToolError, ToolRegistry
from studio.library.revisions import Revision

JSON = dict[str, Any]


class PreviewProvider(Protocol):
    """A renderer showing the draft; `summary()` is an observe-style list of what is on screen."""

    async def summary(self) -> list[dict[str, Any]]: ...


@dataclass
class ToolContext:
    """What the spec tools work on. `runtime` is the one the user is trying (None: a fresh one
    on the draft); `on_revision` is told about every accepted patch."""

    draft: Draft
    instruction: Callable[[], str | None] = lambda: None
    preview: PreviewProvider | None = None
    runtime: Any = None
    platform_registry: Callable[[], Any] | None = None
    on_revision: Callable[[Revision], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _jsonable(v) for k, v in dataclasses.asdict(value).items()}
    if hasattr(value, "to_json") and callable(value.to_json):
        return value.to_json()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, set | frozenset) else items
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def _spec_error(exc: Exception) -> ToolError:
    path = getattr(exc, "path", "$")
    message = getattr(exc, "message", str(exc))
    return ToolError(f"{path}: {message}", path=path)


NO_ARGS: JSON = {"type": "object", "properties": {}, "additionalProperties": False}

_OP = {
    "type": "object",
    "properties": {
        "op": {"enum": ["replaceNode", "add", "replace", "remove", "test"]},
        "id": {"type": "string", "description": "replaceNode: the id of the node to replace"},
        "address": {
            "type": "string",
            "description": "replaceNode: the address of a node without an id",
        },
        "node": {"type": "object", "description": "replaceNode: the whole new node (subtree)"},
        "path": {
            "type": "string",
            "description": "JSON-Patch ops: a pointer under /state, /data or /requires",
        },
        "value": {"description": "add/replace/test: the value"},
    },
    "required": ["op"],
}


SUMMARY_MAX = 120


def summary_of(ops: list[Any]) -> str:
    """A one-line summary derived from the ops, for a patch sent without one."""
    parts: list[str] = []
    for op in ops:
        if not isinstance(op, dict):
            continue
        kind = str(op.get("op") or "?")
        if kind == "replaceNode":
            found = op.get("node")
            node: dict[str, Any] = found if isinstance(found, dict) else {}
            label = next(
                (str(node[k]) for k in ("label", "text", "title") if isinstance(node.get(k), str)),
                "",
            )
            target = str(op.get("id") or op.get("address") or "a node")
            parts.append(f"Replace {target}" + (f' ("{label}")' if label else ""))
        else:
            parts.append(f"{kind.capitalize()} {op.get('path', '')}".strip())
    text = "; ".join(parts) or "Change the draft"
    return text if len(text) <= SUMMARY_MAX else text[: SUMMARY_MAX - 3] + "..."


def write_ops(ctx: ToolContext, ops: list[Any], summary: str, *, what: str = "patch") -> JSON:
    """Patch the draft (validated whole; all ops or none): the tool result, or ToolError naming
    the op index, the path and the message. The one write path of `patch` and the compound
    tools."""
    from studio.spec import PatchError

    summary = " ".join(str(summary or "").split())[:SUMMARY_MAX]
    try:
        revision = ctx.draft.patch(ops, summary or summary_of(ops), ctx.instruction())
    except PatchError as exc:
        ctx.extra["last_rejection"] = f"op {exc.index}, {exc.path}: {exc.message}"
        raise ToolError(
            "patch rejected, nothing changed; fix the op and send the patch again"
            if what == "patch"
            else f"{what} rejected, nothing changed; read the path and message, fix it and "
            "call it again",
            opIndex=exc.index,
            path=exc.path,
            message=exc.message,
        ) from None
    return _accepted(ctx, revision)


def _accepted(ctx: ToolContext, revision: Revision) -> JSON:
    if ctx.on_revision is not None:
        ctx.on_revision(revision)
    # The revision number, not its random id, so a replay produces the same tool result.
    out: JSON = {
        "ok": True,
        "revision": len(ctx.draft.revisions),
        "changed": list(revision.changed),
    }
    warning = show_warning(ctx.draft.spec)
    if warning:
        out["warning"] = warning
    return out


def show_warning(spec: JSON) -> str | None:
    """One line naming what of a valid spec the phone's host refuses at show time, else None:
    an anchor below the root of a floating window (`studio.spec.anchors`; AutoMobile's
    prototypeTools.ts `assertAnchorsShowable`). Its validator accepts such a spec, so the edit
    applies; the model reads this beside `ok` and fixes it, instead of the designer meeting
    "Not shown" above the preview."""
    from studio.spec.anchors import show_refusal

    return show_refusal(spec)


def node_ids(node: Any) -> list[str]:
    """The ids of a node and every node below it, in document order."""
    from studio.spec.tree import walk

    return [
        n["id"] for _, n, _, _ in walk({"root": node}) if isinstance(n.get("id"), str) and n["id"]
    ]


def write_revision(
    ctx: ToolContext, members: JSON, summary: str, removed: list[str] | tuple[str, ...] = ()
) -> JSON:
    """A whole-spec revision of root, window and/or theme, with its own guard: a new root must
    keep every node id the draft has unless `removed` names it, so a partial root (a model that
    sent only the part it changed) is refused instead of silently losing the rest. Validated
    whole; ToolError names the place."""
    from studio.spec import PatchError

    members = {k: v for k, v in members.items() if k in ("root", "window", "theme")}
    if not members:
        raise ToolError("reviseSpec needs root, window or theme; nothing changed")
    root = members.get("root")
    if isinstance(root, dict):
        kept = set(node_ids(root))
        lost = [i for i in node_ids(ctx.draft.spec.get("root")) if i not in kept]
        lost = [i for i in dict.fromkeys(lost) if i not in set(removed)]
        if lost:
            shown = ", ".join(lost[:12]) + (f" and {len(lost) - 12} more" if len(lost) > 12 else "")
            ctx.extra["last_rejection"] = f"the new root drops {shown}"
            raise ToolError(
                "reviseSpec refused, nothing changed: the new root drops nodes the draft has "
                f"({shown}). Send the whole new root with them, or list them in `removed` if "
                "removing them is the change; for one node use patch replaceNode",
                dropped=lost[:50],
            )
    summary = " ".join(str(summary or "").split())[:SUMMARY_MAX] or (
        "Change the " + " and ".join(members)
    )
    try:
        revision = ctx.draft.revise(members, summary, ctx.instruction())
    except PatchError as exc:
        ctx.extra["last_rejection"] = f"{exc.path}: {exc.message}"
        raise ToolError(
            "reviseSpec rejected, nothing changed; fix it and send it again",
            path=exc.path,
            message=exc.message,
        ) from None
    return _accepted(ctx, revision)


def build_spec_tools(ctx: ToolContext) -> ToolRegistry:
    """The registry of spec tools bound to one draft."""

    def runtime() -> Any:
        if ctx.runtime is not None:
            return ctx.runtime
        from studio.runtime import Runtime
        from studio.spec import expand

        return Runtime(expand(ctx.draft.spec))

    async def outline(args: JSON) -> Any:
        from studio.spec.outline import outline as outline_list
        from studio.spec.outline import outline_text

        if args.get("format") == "json":
            return {"outline": outline_list(ctx.draft.spec)}
        return outline_text(ctx.draft.spec)

    async def read_node(args: JSON) -> Any:
        from studio.spec import read_node as read

        try:
            return read(ctx.draft.spec, args["id"])
        except ValueError as exc:
            raise _spec_error(exc) from None

    async def read_data(args: JSON) -> Any:
        from studio.spec import read_data as read

        try:
            return read(ctx.draft.spec, args.get("pointer", ""))
        except ValueError as exc:
            raise _spec_error(exc) from None

    async def capabilities(args: JSON) -> Any:
        from studio.platform.registry import default_registry

        registry = (ctx.platform_registry or default_registry)()
        out: JSON = {}
        for name in ("capabilities", "modules"):
            method = getattr(registry, name, None)
            out["platformModules" if name == "modules" else name] = (
                _jsonable(method()) if callable(method) else []
            )
        return out

    async def validate(args: JSON) -> Any:
        from studio.spec import validate as check

        result = check(args["spec"])
        if result.ok:
            warning = show_warning(args["spec"])
            return {"ok": True, **({"warning": warning} if warning else {})}
        return {"ok": False, "path": result.path, "message": result.message}

    async def patch(args: JSON) -> Any:
        return write_ops(ctx, args["ops"], str(args.get("summary") or ""))

    async def revise_spec(args: JSON) -> Any:
        members: JSON = {k: args[k] for k in ("root", "window", "theme") if k in args}
        return write_revision(
            ctx, members, str(args.get("summary") or ""), args.get("removed") or []
        )

    async def preview(args: JSON) -> Any:
        if ctx.preview is not None:
            return {"onScreen": await ctx.preview.summary()}
        return {"onScreen": runtime().visible_summary()}

    async def inspect(args: JSON) -> Any:
        rt = runtime()
        return {"state": dict(rt.state), "pages": dict(rt.pages), "data": _jsonable(dict(rt.data))}

    async def events(args: JSON) -> Any:
        rt = runtime()
        limit = int(args.get("limit", 20))
        recent = list(rt.events)[-limit:] if limit else []
        refused = list(getattr(rt, "refusals", ()))[-limit:] if limit else []
        return {
            "events": [e.to_json() if hasattr(e, "to_json") else _jsonable(e) for e in recent],
            # Writes the runtime refused: no event on the phone, so reported beside the events.
            "refused": [r.to_json() for r in refused],
        }

    async def ask_user(args: JSON) -> Any:
        raise NeedsInput(args["question"], list(args.get("options") or []))

    return ToolRegistry(
        [
            Tool(
                "outline",
                "The compact node tree of the draft: address, type, label, child count. Use it FIRST "
                "to find nodes, and instead of reading the whole spec.",
                {**NO_ARGS, "properties": {"format": {"enum": ["text", "json"]}}},
                outline,
                examples=({}, {"format": "json"}),
                timeout=5,
            ),
            Tool(
                "readNode",
                "The full JSON of one subtree. Use it before replaceNode, to copy the node you change.",
                {
                    "type": "object",
                    "properties": {
                        "id": {
                            "type": "string",
                            "minLength": 1,
                            "description": "a node id or address from outline",
                        }
                    },
                    "required": ["id"],
                    "additionalProperties": False,
                },
                read_node,
                examples=({"id": "title"}, {"id": "root.children[1]"}),
                timeout=5,
            ),
            Tool(
                "readData",
                "A slice of the declared state and data by JSON pointer. Use it to see state keys "
                "before binding or changing them.",
                {
                    "type": "object",
                    "properties": {"pointer": {"type": "string"}},
                    "additionalProperties": False,
                },
                read_data,
                examples=({"pointer": "/state"}, {"pointer": "/data/items/0"}),
                timeout=5,
            ),
            Tool(
                "capabilities",
                "The capability set and platform modules this build supports. Use it before adding "
                "a platform action.",
                NO_ARGS,
                capabilities,
                examples=({},),
                timeout=5,
            ),
            Tool(
                "validate",
                "Check a whole spec without changing the draft: ok, or the error path and message. "
                "Use it only for a whole new spec; patch validates by itself.",
                {
                    "type": "object",
                    "properties": {"spec": {"type": "object"}},
                    "required": ["spec"],
                    "additionalProperties": False,
                },
                validate,
                examples=(
                    {
                        "spec": {
                            "id": "x",
                            "window": {"placement": {"type": "fullscreen"}},
                            "root": {"type": "text", "text": "Hi"},
                        }
                    },
                ),
                timeout=10,
            ),
            Tool(
                "patch",
                "The ONLY way to change the draft. Use it for every edit: replaceNode swaps one node "
                "(by id or address) for a new subtree; add/replace/remove/test edit /state and "
                "/data. All ops apply or none; a rejection names the op index, path and message. "
                "`summary` is one line saying what changed, for the user.",
                {
                    "type": "object",
                    "properties": {
                        "ops": {"type": "array", "minItems": 1, "items": _OP},
                        # No `pattern`: llama.cpp turns "^[^\n]*$" into a grammar whose string
                        # may contain `"` and `}`, so under forced tool calls the summary never
                        # closed (agent-servers.md §1b). One line is enforced in the handler.
                        "summary": {"type": "string", "maxLength": SUMMARY_MAX},
                    },
                    "required": ["ops"],
                    "additionalProperties": False,
                },
                patch,
                examples=(
                    {
                        "ops": [
                            {
                                "op": "replaceNode",
                                "id": "title",
                                "node": {"type": "text", "id": "title", "text": "Inbox"},
                            }
                        ],
                        "summary": "Rename the title to Inbox",
                    },
                    {
                        "ops": [{"op": "add", "path": "/state/darkMode", "value": False}],
                        "summary": "Add a darkMode switch state",
                    },
                ),
                timeout=15,
                idempotent=False,
            ),
            Tool(
                "reviseSpec",
                "A whole-spec revision for what patch cannot change: a whole new `theme` (null "
                "removes it), `window`, or `root` (the whole tree: every node it drops must be "
                "listed in `removed`). The rest of the draft is kept; the result is validated "
                "whole. Use patch for one node, state and data.",
                {
                    "type": "object",
                    "properties": {
                        "theme": {"type": ["object", "null"]},
                        "window": {"type": "object"},
                        "root": {"type": "object"},
                        "removed": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "ids of nodes a new root removes on purpose",
                        },
                        "summary": {"type": "string", "maxLength": SUMMARY_MAX},
                    },
                    "additionalProperties": False,
                },
                revise_spec,
                examples=(
                    {
                        "theme": {"mode": "dark", "colors": {"seed": "#6750A4"}},
                        "summary": "Dark theme with a purple seed",
                    },
                ),
                timeout=15,
                idempotent=False,
            ),
            Tool(
                "preview",
                "What is on screen for the draft now (address, type, text). Use it after patching "
                "to check the result looks right.",
                NO_ARGS,
                preview,
                examples=({},),
                timeout=15,
            ),
            Tool(
                "inspect",
                "The running prototype's state, pager pages and data. Use it when the user says "
                "something behaves wrongly after trying it.",
                NO_ARGS,
                inspect,
                examples=({},),
                timeout=5,
            ),
            Tool(
                "events",
                "Recent runtime events (emit, change, page_changed, dismissed, platform) and refused "
                "writes. Use it with inspect to see what happened when the user tried the draft.",
                {
                    "type": "object",
                    "properties": {"limit": {"type": "integer", "minimum": 1, "maximum": 100}},
                    "additionalProperties": False,
                },
                events,
                examples=({"limit": 10},),
                timeout=5,
            ),
            Tool(
                "askUser",
                "Ask the user one question with a few options. Use it only for genuine ambiguity "
                "that changes the result; otherwise choose sensibly and say so.",
                {
                    "type": "object",
                    "properties": {
                        "question": {"type": "string", "minLength": 1},
                        "options": {"type": "array", "items": {"type": "string"}, "maxItems": 6},
                    },
                    "required": ["question"],
                    "additionalProperties": False,
                },
                ask_user,
                examples=(
                    {"question": "Should the list be sorted?", "options": ["By name", "By date"]},
                ),
                timeout=5,
                idempotent=False,
            ),
        ]
    )
