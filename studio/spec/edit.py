"""Structural edits of a spec's node tree as patch ops: insert, delete, duplicate, move (up,
down, re-parent), wrap, unwrap, copy and paste.

Each command reads the spec (never changes it) and returns an `Edit`: one `replaceNode` of the
lowest node that holds every change (the root too, which only the studio's own edits may
replace), plus the `/state` and `/requires` ops that declare what new nodes need, a summary
naming the nodes as a designer reads them ("Insert button into column 'form'") and the paths to
select afterwards. Nothing here validates: the ops go through the one gate
(`Document.apply_ops`), which refuses an invalid result with its path and message and changes
nothing. What no valid spec could hold (a second child in a scroll, a sibling of the root) is
refused here first, as an `EditError` with one line saying why.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.spec import catalog, tree
from studio.spec.names import phrase
from studio.spec.state_rules import ACTIONS, bindings

__all__ = [
    "CLIP_FORMAT",
    "Clip",
    "Edit",
    "EditError",
    "Position",
    "clip",
    "default_target",
    "delete",
    "duplicate",
    "insert",
    "insert_new",
    "move",
    "move_by",
    "parse_clip",
    "paste",
    "requires_ops",
    "state_ops",
    "unwrap",
    "wrap",
]

JSON = dict[str, Any]
Position = Literal["before", "after", "inside"]
#: The rich clipboard form (also on the clipboard as plain node JSON for text editors).
CLIP_FORMAT = "proto-studio.nodes"
WRAPPERS = ("column", "row", "box", "card")


class EditError(ValueError):
    """A structural edit that cannot be made; the message is one line saying why."""


@dataclass(frozen=True)
class Edit:
    """Patch ops for one revision, its summary, and the node paths to select once applied."""

    ops: tuple[JSON, ...]
    summary: str
    select: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()


# --- paths ---------------------------------------------------------------------------------------


def _steps(path: str) -> list[tree.Step]:
    return tree.path_steps(path)


def _path(steps: Iterable[tree.Step]) -> str:
    out = "root"
    for step in steps:
        out = tree.child_path(out, step)
    return out


def _order(path: str) -> tuple[int, ...]:
    """A sort key putting paths in document order."""
    return tuple(-1 if step == "child" else int(step) for step in _steps(path))


def _within(path: str, ancestor: str) -> bool:
    return path == ancestor or path.startswith((f"{ancestor}.",))


def _parent(path: str) -> str | None:
    steps = _steps(path)
    return _path(steps[:-1]) if steps else None


def _common(paths: Iterable[str]) -> str:
    """The deepest path every one of `paths` is at or below."""
    lists = [_steps(p) for p in paths]
    common: list[tree.Step] = []
    for column in zip(*lists, strict=False):
        if all(step == column[0] for step in column):
            common.append(column[0])
        else:
            break
    return _path(common)


def _node(spec: JSON, path: str) -> JSON:
    found = tree.node_at(spec, path)
    if found is None:
        raise EditError(f"{path}: no node there (it may have been removed)")
    return found  # type: ignore[no-any-return]  # a node of the spec


def _topmost(spec: JSON, paths: Iterable[str]) -> list[str]:
    """The distinct paths naming nodes, in document order, without those inside another."""
    unique = sorted(set(paths), key=_order)
    for path in unique:
        _node(spec, path)
    out: list[str] = []
    for path in unique:
        if not any(_within(path, kept) for kept in out):
            out.append(path)
    return out


def _many(spec: JSON, paths: Sequence[str], what: str = "node") -> str:
    if len(paths) == 1:
        return phrase(_node(spec, paths[0]))
    return f"{len(paths)} {what}s"


# --- a working copy of one subtree ---------------------------------------------------------------


class _Work:
    """A deep copy of the subtree at `base` to change in place, turned into one replaceNode."""

    def __init__(self, spec: JSON, base: str) -> None:
        self.spec = spec
        self.base = base
        self.root: JSON = copy.deepcopy(_node(spec, base))

    def at(self, path: str) -> JSON:
        node: Any = self.root
        for step in _steps(path)[len(_steps(self.base)) :]:
            node = node["child"] if step == "child" else node["children"][step]
        return node  # type: ignore[no-any-return]

    def locate(self, target: JSON) -> tuple[JSON, tree.Step]:
        """The parent holding `target` in the copy and the step to it."""
        stack: list[JSON] = [self.root]
        while stack:
            node = stack.pop()
            single = node.get("child")
            if single is target:
                return node, "child"
            if isinstance(single, dict):
                stack.append(single)
                continue
            entries = node.get("children")
            if isinstance(entries, list):
                for index, entry in enumerate(entries):
                    if entry is target:
                        return node, index
                    if isinstance(entry, dict):
                        stack.append(entry)
        raise EditError("the node is not in this subtree")

    def path_of(self, target: JSON) -> str:
        steps: list[tree.Step] = []
        current = target
        while current is not self.root:
            parent, step = self.locate(current)
            steps.append(step)
            current = parent
        return _path([*_steps(self.base), *reversed(steps)])

    def remove(self, target: JSON) -> None:
        parent, step = self.locate(target)
        if step == "child":
            del parent["child"]
        else:
            del parent["children"][step]

    def op(self) -> JSON:
        return {"op": "replaceNode", "address": self.base, "node": self.root}


# --- what new nodes need -------------------------------------------------------------------------


def state_ops(spec: JSON, state: dict[str, Any]) -> list[JSON]:
    """Ops declaring the state keys of `state` the spec does not declare yet."""
    declared = spec.get("state")
    if not isinstance(declared, dict):
        return [{"op": "add", "path": "/state", "value": copy.deepcopy(state)}] if state else []
    return [
        {"op": "add", "path": f"/state/{_escape(key)}", "value": copy.deepcopy(value)}
        for key, value in state.items()
        if key not in declared
    ]


def requires_ops(spec: JSON, modules: Iterable[str]) -> list[JSON]:
    """Ops declaring platform modules in `requires.platform` that are not declared yet."""
    requires = spec.get("requires")
    declared = requires.get("platform") if isinstance(requires, dict) else None
    have = list(declared) if isinstance(declared, list) else []
    wanted = [m for m in dict.fromkeys(modules) if m not in have]
    if not wanted:
        return []
    if not isinstance(requires, dict):
        return [{"op": "add", "path": "/requires", "value": {"platform": wanted}}]
    if not isinstance(declared, list):
        return [{"op": "add", "path": "/requires/platform", "value": wanted}]
    return [{"op": "add", "path": "/requires/platform/-", "value": m} for m in wanted]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _own_values(node: JSON) -> Iterator[Any]:
    """Every JSON value inside a node's own fields (not its child nodes), depth first."""
    stack: list[Any] = [v for k, v in node.items() if k not in ("child", "children")]
    while stack:
        value = stack.pop()
        yield value
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def _actions(node: JSON) -> Iterator[JSON]:
    for value in _own_values(node):
        if (
            isinstance(value, dict)
            and isinstance(value.get("type"), str)
            and (value["type"] in ACTIONS or value["type"] in ("setState", "platform"))
        ):
            yield value


def _subtree(node: JSON) -> Iterator[JSON]:
    for _, found, _, _ in tree.walk({"root": node}):
        yield found


def _needs(nodes: Iterable[JSON], known: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The state keys `nodes` bind that must be declared (a value from `known` when it has
    one, else the type's default) and the platform modules their actions call."""
    state: dict[str, Any] = {}
    modules: list[str] = []
    for top in nodes:
        for node in _subtree(top):
            for _binding, key, kind in bindings(node):
                if key not in state:
                    state[key] = (
                        known[key]
                        if key in known
                        else catalog.state_default(kind.kind, kind.minimum)
                    )
            for action in _actions(node):
                kind_name, raw_key = action.get("type"), action.get("key")
                if kind_name == "platform":
                    call = action.get("call")
                    if isinstance(call, str) and "." in call:
                        modules.append(call.partition(".")[0])
                    status = action.get("statusKey")
                    if isinstance(status, str) and status in known:
                        state.setdefault(status, known[status])
                    continue
                if not isinstance(raw_key, str) or raw_key in state:
                    continue
                if raw_key in known:
                    state[raw_key] = known[raw_key]
                elif kind_name == "setState":
                    value = action.get("value")
                    state[raw_key] = catalog.state_default(
                        "boolean" if isinstance(value, bool) else
                        "string" if isinstance(value, str) else "number"
                    )  # fmt: skip
                elif kind_name in ACTIONS:
                    state[raw_key] = catalog.state_default(ACTIONS[kind_name].kind)
            for value in _own_values(node):
                if isinstance(value, dict) and isinstance(value.get("key"), str):
                    used = value["key"]
                    if used in known and used not in state:
                        state[used] = known[used]  # a condition on a key the source declared
    return state, modules


def _fresh_ids(nodes: Sequence[JSON], taken: set[str]) -> tuple[list[JSON], list[tuple[str, str]]]:
    """Copies of `nodes` whose ids collide with `taken` (or with each other) renamed, pager
    references inside them following; `taken` grows by every id they use."""
    out = [copy.deepcopy(n) for n in nodes]
    renamed: list[tuple[str, str]] = []
    pagers: dict[str, str] = {}
    for top in out:
        for node in _subtree(top):
            node_id = node.get("id")
            if not isinstance(node_id, str) or not node_id:
                continue
            if node_id in taken:
                new = catalog.unique_id(node_id, taken)
                renamed.append((node_id, new))
                if node.get("type") == "pager":
                    pagers[node_id] = new
                node["id"] = new
                node_id = new
            taken.add(node_id)
    if pagers:
        for top in out:
            for node in _subtree(top):
                for holder in (node, *_own_values(node)):
                    if isinstance(holder, dict) and holder.get("pager") in pagers:
                        holder["pager"] = pagers[holder["pager"]]
    return out, renamed


# --- inserting -----------------------------------------------------------------------------------


def default_target(spec: JSON, selected: str | None) -> tuple[str, Position]:
    """Where a palette double-click inserts: into the selected container (a list, or an empty
    slot), else after the selected node, else into the root."""
    root = tree.root_of(spec)
    if root is None:
        raise EditError("the prototype has no root node")
    node = tree.node_at(spec, selected) if selected else None
    if node is None:
        return "root", "inside"
    shape = catalog.container(node.get("type"))
    if shape == "list" or (shape == "slot" and not tree.is_node(node.get("child"))):
        return str(selected), "inside"
    if selected == "root":
        return "root", "inside"
    return str(selected), "after"


def _place(
    spec: JSON, target: str, position: Position, index: int | None
) -> tuple[str, int | None]:
    """(the parent path, the index in its children or None for its `child` slot), refusing
    what no spec could hold."""
    node = _node(spec, target)
    if position == "inside":
        shape = catalog.container(node.get("type"))
        name = phrase(node)
        if shape is None:
            raise EditError(f"{name} cannot hold other nodes: drop before or after it")
        if shape == "slot":
            if tree.is_node(node.get("child")):
                raise EditError(
                    f"{name} holds exactly one child: wrap its child in a column or row first"
                )
            return target, None
        entries = node.get("children")
        size = len(entries) if isinstance(entries, list) else 0
        return target, size if index is None else max(0, min(index, size))
    parent = _parent(target)
    if parent is None:
        raise EditError("the root has no siblings: drop inside it")
    step = _steps(target)[-1]
    if step == "child":
        raise EditError(
            f"{phrase(_node(spec, parent))} holds exactly one child: wrap "
            f"{phrase(node)} in a column or row first"
        )
    assert isinstance(step, int)
    return parent, step + (1 if position == "after" else 0)


def _where(spec: JSON, target: str, position: Position) -> str:
    node = _node(spec, target)
    return f"{'into' if position == 'inside' else position} {phrase(node)}"


def insert(
    spec: JSON,
    nodes: Sequence[JSON],
    target: str,
    position: Position = "inside",
    *,
    index: int | None = None,
    state: dict[str, Any] | None = None,
    modules: Sequence[str] = (),
    verb: str = "Insert",
    what: str | None = None,
    rename_ids: bool = True,
) -> Edit:
    """Insert copies of `nodes` before or after the node at `target`, or inside it (at
    `index`, else at the end), declaring `state` keys and platform `modules` they need that
    the spec lacks. Colliding ids are renamed (the summary says so)."""
    if not nodes:
        raise EditError("nothing to insert")
    parent, at = _place(spec, target, position, index)
    if at is None and len(nodes) > 1:
        raise EditError(f"{phrase(_node(spec, parent))} holds exactly one child")
    if rename_ids:
        fresh, renamed = _fresh_ids(nodes, catalog.node_ids(spec))
    else:
        fresh, renamed = [copy.deepcopy(n) for n in nodes], []
    work = _Work(spec, parent)
    holder = work.at(parent)
    if at is None:
        holder["child"] = fresh[0]
    else:
        entries = holder.get("children")
        entries = list(entries) if isinstance(entries, list) else []
        entries[at:at] = fresh
        holder["children"] = entries
    needed, wanted = _needs(fresh, dict(state or {}))
    needed.update({k: v for k, v in (state or {}).items() if k not in needed})
    ops = [*state_ops(spec, needed), *requires_ops(spec, [*modules, *wanted]), work.op()]
    label = what or _label(fresh)
    summary = f"{verb} {label} {_where(spec, target, position)}"
    if renamed:
        summary += " (ids renamed: " + ", ".join(f"{a} → {b}" for a, b in renamed) + ")"
    return Edit(tuple(ops), summary, tuple(work.path_of(n) for n in fresh), tuple(renamed))


def _label(nodes: Sequence[JSON]) -> str:
    return phrase(nodes[0]) if len(nodes) == 1 else f"{len(nodes)} nodes"


def insert_new(
    spec: JSON, type_: str, target: str, position: Position = "inside", *, index: int | None = None
) -> Edit:
    """Insert a new minimal node of `type_` (the palette): "Insert button into column 'form'"."""
    made = catalog.new_node(spec, type_)
    return insert(spec, [made.node], target, position, index=index, state=made.state, what=type_)


# --- removing, duplicating, moving ---------------------------------------------------------------


def delete(spec: JSON, paths: Sequence[str]) -> Edit:
    """Remove the nodes (the root cannot be removed; a required child leaves its container
    invalid, which the gate refuses with its path)."""
    chosen = _topmost(spec, paths)
    if not chosen:
        raise EditError("nothing is selected to delete")
    if "root" in chosen:
        raise EditError("the root cannot be deleted: delete its children, or unwrap it")
    base = _common([p for c in chosen if (p := _parent(c)) is not None])
    work = _Work(spec, base)
    targets = [work.at(p) for p in chosen]
    for node in targets:
        work.remove(node)
    parent = _parent(chosen[0])
    return Edit((work.op(),), f"Delete {_many(spec, chosen)}", (parent,) if parent else ())


def duplicate(spec: JSON, paths: Sequence[str]) -> Edit:
    """A copy of each node right after it, with fresh ids; the copies are selected."""
    chosen = _topmost(spec, paths)
    if not chosen:
        raise EditError("nothing is selected to duplicate")
    for path in chosen:
        _place(spec, path, "after", None)  # refuses the root and a `child` slot
    base = _common([p for c in chosen if (p := _parent(c)) is not None])
    work = _Work(spec, base)
    taken = catalog.node_ids(spec)
    copies: list[JSON] = []
    renamed: list[tuple[str, str]] = []
    for path in reversed(chosen):
        original = work.at(path)
        parent, step = work.locate(original)
        assert isinstance(step, int)
        made, names = _fresh_ids([original], taken)
        renamed.extend(names)
        parent["children"].insert(step + 1, made[0])
        copies.append(made[0])
    selected = tuple(sorted((work.path_of(c) for c in copies), key=_order))
    return Edit((work.op(),), f"Duplicate {_many(spec, chosen)}", selected, tuple(renamed))


def move(
    spec: JSON,
    paths: Sequence[str],
    target: str,
    position: Position,
    *,
    index: int | None = None,
) -> Edit:
    """Move the nodes (in document order) before or after `target`, or inside it: a reorder
    among siblings or a re-parent (a drag in the tree or the preview)."""
    chosen = _topmost(spec, paths)
    if not chosen:
        raise EditError("nothing is selected to move")
    if "root" in chosen:
        raise EditError("the root cannot be moved")
    for path in chosen:
        if _within(target, path) and not (target == path and position != "inside"):
            raise EditError(f"{phrase(_node(spec, path))} cannot be moved into itself")
    parent, at = _place(spec, target, position, index)
    if at is None and len(chosen) > 1:
        raise EditError(f"{phrase(_node(spec, parent))} holds exactly one child")
    base = _common([parent, *(p for c in chosen if (p := _parent(c)) is not None)])
    work = _Work(spec, base)
    moving = [work.at(p) for p in chosen]
    holder = work.at(parent)
    if at is not None:
        before = holder.get("children")
        before = before if isinstance(before, list) else []
        # The insertion point counted among the children that stay.
        at = sum(1 for entry in before[:at] if not any(entry is m for m in moving))
    for node in moving:
        work.remove(node)
    if at is None:
        holder["child"] = moving[0]
    else:
        entries = holder.get("children")
        entries = list(entries) if isinstance(entries, list) else []
        entries[at:at] = moving
        holder["children"] = entries
    new_paths = tuple(work.path_of(n) for n in moving)
    if new_paths == tuple(chosen):
        raise EditError(
            f"{_many(spec, chosen)} {'is' if len(chosen) == 1 else 'are'} already there"
        )
    summary = f"Move {_many(spec, chosen)} {_where(spec, target, position)}"
    return Edit((work.op(),), summary, new_paths)


def move_by(spec: JSON, paths: Sequence[str], delta: Literal[-1, 1]) -> Edit:
    """Move each node one place up (-1) or down (+1) among its siblings; nothing moves when one
    of them is already first (last)."""
    chosen = _topmost(spec, paths)
    if not chosen:
        raise EditError("nothing is selected to move")
    word = "up" if delta < 0 else "down"
    groups: dict[str, list[int]] = {}
    for path in chosen:
        parent = _parent(path)
        step = _steps(path)[-1] if parent is not None else None
        if parent is None or step == "child":
            raise EditError(f"{phrase(_node(spec, path))} has no siblings to move {word} past")
        assert isinstance(step, int)
        groups.setdefault(parent, []).append(step)
    base = _common(list(groups))
    work = _Work(spec, base)
    moved: list[JSON] = []
    for parent, indices in groups.items():
        entries = work.at(parent)["children"]
        last = len(entries) - 1
        edge = min(indices) == 0 if delta < 0 else max(indices) == last
        if edge:
            which = "first" if delta < 0 else "last"
            raise EditError(f"{_many(spec, chosen)} cannot move {word}: already {which}")
        for i in sorted(indices, reverse=delta > 0):
            entries[i], entries[i + delta] = entries[i + delta], entries[i]
            moved.append(entries[i + delta])
    selected = tuple(sorted((work.path_of(n) for n in moved), key=_order))
    return Edit((work.op(),), f"Move {_many(spec, chosen)} {word}", selected)


# --- wrapping ------------------------------------------------------------------------------------


def wrap(spec: JSON, paths: Sequence[str], container: str) -> Edit:
    """Put sibling nodes (in document order) into a new column, row, box or card, where the
    first of them was."""
    if container not in WRAPPERS:
        raise EditError(f"wrap in {container!r}: choose one of {', '.join(WRAPPERS)}")
    chosen = _topmost(spec, paths)
    if not chosen:
        raise EditError("nothing is selected to wrap")
    parents = {_parent(p) for p in chosen}
    if len(parents) > 1:
        raise EditError("select siblings (nodes in the same container) to wrap them together")
    parent = parents.pop()
    made = catalog.new_node(spec, container).node
    if parent is None:  # the root
        made["children"] = [copy.deepcopy(_node(spec, "root"))]
        work = _Work(spec, "root")
        work.root = made
        return Edit((work.op(),), f"Wrap {_many(spec, chosen)} in {container}", ("root",))
    work = _Work(spec, parent)
    holder = work.at(parent)
    targets = [work.at(p) for p in chosen]
    step = _steps(chosen[0])[-1]
    if step == "child":
        made["children"] = [targets[0]]
        holder["child"] = made
    else:
        assert isinstance(step, int)
        for node in targets:
            work.remove(node)
        made["children"] = targets
        holder["children"].insert(step, made)
    summary = f"Wrap {_many(spec, chosen)} in {container}"
    return Edit((work.op(),), summary, (work.path_of(made),))


def unwrap(spec: JSON, path: str) -> Edit:
    """Replace a container with its children (a container in a `child` slot, or the root,
    must hold exactly one)."""
    node = _node(spec, path)
    shape = catalog.container(node.get("type"))
    if shape is None:
        raise EditError(f"{phrase(node)} holds no nodes to unwrap")
    kids = [child for child, _ in tree.children(node)]
    parent = _parent(path)
    in_slot = parent is None or _steps(path)[-1] == "child"
    if in_slot and len(kids) != 1:
        where = "the root" if parent is None else f"the child of {phrase(_node(spec, parent))}"
        raise EditError(
            f"{phrase(node)} is {where}, which is one node: it can be unwrapped only when it "
            f"holds exactly one (it holds {len(kids)})"
        )
    summary = f"Unwrap {phrase(node)}"
    if parent is None:
        work = _Work(spec, "root")
        work.root = copy.deepcopy(kids[0])
        return Edit((work.op(),), summary, ("root",))
    work = _Work(spec, parent)
    holder = work.at(parent)
    inner = [copy.deepcopy(k) for k in kids]
    step = _steps(path)[-1]
    if step == "child":
        holder["child"] = inner[0]
    else:
        assert isinstance(step, int)
        holder["children"][step : step + 1] = inner
    return Edit((work.op(),), summary, tuple(work.path_of(n) for n in inner))


# --- the clipboard -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clip:
    """Nodes on the clipboard with the state their source declared for the keys they use and
    the platform modules their actions call."""

    nodes: tuple[JSON, ...]
    state: dict[str, Any] = field(default_factory=dict)
    requires: tuple[str, ...] = ()

    def text(self) -> str:
        """The plain text form: the node's JSON (a list for several), for text editors."""
        value: Any = self.nodes[0] if len(self.nodes) == 1 else list(self.nodes)
        return json.dumps(value, indent=2, ensure_ascii=False)

    def rich(self) -> str:
        """The studio's form, which keeps the state declarations with the nodes."""
        return json.dumps(
            {
                "format": CLIP_FORMAT,
                "nodes": list(self.nodes),
                "state": self.state,
                "requires": list(self.requires),
            },
            ensure_ascii=False,
        )


def clip(spec: JSON, paths: Sequence[str]) -> Clip:
    """Copies of the nodes (document order) with what they need from the spec."""
    chosen = _topmost(spec, paths)
    if not chosen:
        raise EditError("nothing is selected to copy")
    nodes = tuple(copy.deepcopy(_node(spec, p)) for p in chosen)
    raw = spec.get("state")
    declared: dict[str, Any] = raw if isinstance(raw, dict) else {}
    state, modules = _needs(nodes, dict(declared))
    state = {k: v for k, v in state.items() if k in declared}
    return Clip(nodes, state, tuple(dict.fromkeys(modules)))


def parse_clip(text: str) -> Clip:
    """The nodes in clipboard text: the studio's form, a node object or a list of nodes.
    EditError (one line) for text that is not JSON or holds no node."""
    if not text.strip():
        raise EditError("Paste: the clipboard is empty")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EditError(
            f"Paste: the clipboard's text is not JSON (line {exc.lineno} column {exc.colno}: "
            f"{exc.msg})"
        ) from None
    state: dict[str, Any] = {}
    requires: list[str] = []
    if isinstance(value, dict) and value.get("format") == CLIP_FORMAT:
        raw_state, raw_requires = value.get("state"), value.get("requires")
        state = dict(raw_state) if isinstance(raw_state, dict) else {}
        requires = (
            [m for m in raw_requires if isinstance(m, str)]
            if isinstance(raw_requires, list)
            else []
        )
        value = value.get("nodes")
    items = value if isinstance(value, list) else [value]
    if not items:
        raise EditError("Paste: the clipboard's list holds no nodes")
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            where = (
                "the clipboard's JSON"
                if len(items) == 1 and not isinstance(value, list)
                else (f"item {number} of the clipboard's list")
            )
            raise EditError(
                f'Paste: {where} is not a node (a node is an object with a "type", such as '
                '{"type": "text", "text": "Hello"})'
            )
    return Clip(tuple(items), state, tuple(requires))


def paste(
    spec: JSON, pasted: Clip, target: str, position: Position, *, index: int | None = None
) -> Edit:
    """Insert the clipboard's nodes; ids that collide are renamed, missing state keys and
    platform modules declared."""
    return insert(
        spec,
        pasted.nodes,
        target,
        position,
        index=index,
        state=pasted.state,
        modules=pasted.requires,
        verb="Paste",
    )
