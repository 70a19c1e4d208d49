"""Patching a spec: JSON-Patch under /state, /data and /requires plus `replaceNode`, validated whole.

Ops (the agent's `patch` tool, seed section 4.1):

- `{"op": "add"|"replace"|"remove"|"test", "path": "/state/...", "value": ...}` with RFC 6902
  semantics, restricted to pointers under `/state`, `/data` and `/requires` (the studio extension
  that declares platform modules, so an agent can declare a module before wiring a call to it);
- `{"op": "replaceNode", "id": ID, "node": NODE}` (or `"address": ADDR` for a node without an id).

Anything else in the spec (`/root`, `/window`, `/theme`, `/components`, ...) is a whole-spec
revision: `replace_spec(spec, new_spec)`, or `revise_spec(spec, members)` for whole new `root`,
`window` and `theme` members over the rest of the spec (the agent's `reviseSpec` tool), recorded as
one `{"op": "reviseSpec", "members": {...}}` op so a rebase can apply it again (`reapply`). The input spec is never changed; the result is
validated as a whole and on failure `PatchError(index, path, message)` names the op to blame.

The JSON-Patch subset is written here instead of using the `jsonpatch` library because we need
only four ops under two members, copy-on-write application (each intermediate spec shares
unchanged subtrees, so blaming an op costs no deep copies), errors naming the op index and an
AutoMobile path, and a `test` that tells `true` from `1` (Python's `==` does not).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from studio.spec.address import addresses, iter_nodes, resolve
from studio.spec.binding import Raw, bindable_fields, child_path, js_string, record
from studio.spec.outline import split_pointer
from studio.spec.tree import children, replace_node

if TYPE_CHECKING:
    from studio.spec.validator import ValidationResult

_JSON_PATCH_OPS = ("add", "replace", "remove", "test")
_PATCHABLE = ("state", "data", "requires")
_WHOLE_SPEC_HINT = (
    "only /state, /data and /requires can be patched; root, window, theme, components and the other "
    "top-level fields are changed by a whole-spec revision (use replaceNode for one node)"
)


class PatchError(ValueError):
    """A patch was refused: `index` is the op to blame (None for a whole-spec revision),
    `path` the place in AutoMobile's syntax (`ops[2]` for a malformed op)."""

    def __init__(self, index: int | None, path: str, message: str) -> None:
        prefix = f"op {index}: " if index is not None else ""
        super().__init__(f"{prefix}{path}: {message}")
        self.index = index
        self.path = path
        self.message = message


@dataclass(frozen=True)
class PatchResult:
    """The patched spec (a new dict), the addresses of the nodes it changed, and the ops."""

    spec: Raw
    changed: tuple[str, ...]
    ops: tuple[Raw, ...]


# --- strict JSON equality and copy-on-write edits ---------------------------------------------


def json_equal(a: object, b: object) -> bool:
    """JSON value equality: `true` differs from `1`, `1` equals `1.0`, objects ignore order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


class _OpFailure(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def _display(tokens: Sequence[str]) -> str:
    """Pointer tokens as an AutoMobile path (`state.count`, `data.items[0]`)."""
    path = ""
    for token in tokens:
        path = f"{path}[{token}]" if token.isdigit() and path else child_path(path, token)
    return path or "$"


def _index(token: str, size: int, *, allow_end: bool, at: Sequence[str]) -> int:
    if token == "-" and allow_end:
        return size
    valid = token == "0" or (token.isascii() and token.isdigit() and not token.startswith("0"))
    if not valid:
        raise _OpFailure(_display(at), f"Invalid array index {js_string(token)}")
    index = int(token)
    if index > size or (index == size and not allow_end):
        raise _OpFailure(_display(at), "Array index out of range")
    return index


def _child(container: object, token: str, at: Sequence[str]) -> object:
    if isinstance(container, dict):
        if token not in container:
            raise _OpFailure(_display(at), "Path does not exist")
        return container[token]
    if isinstance(container, list):
        return container[_index(token, len(container), allow_end=False, at=at)]
    raise _OpFailure(_display(at), "Path does not exist (the parent is not an object or array)")


Edit = Callable[[Any, str, Sequence[str]], None]


def _edited(doc: object, tokens: Sequence[str], edit: Edit, done: Sequence[str] = ()) -> Any:
    """A copy of `doc` with `edit(parent_copy, last_token, full_tokens)` applied at `tokens`;
    only the containers along the way are copied, the rest is shared."""
    head, rest = tokens[0], tokens[1:]
    if not isinstance(doc, dict | list):
        raise _OpFailure(
            _display(done), "Path does not exist (the parent is not an object or array)"
        )
    parent: Any = dict(doc) if isinstance(doc, dict) else list(doc)
    if not rest:
        edit(parent, head, (*done, head))
        return parent
    child = _child(doc, head, (*done, head))
    new_child = _edited(child, rest, edit, (*done, head))
    if isinstance(parent, dict):
        parent[head] = new_child
    else:
        parent[int(head)] = new_child
    return parent


def _add(value: object) -> Edit:
    def edit(parent: Any, token: str, at: Sequence[str]) -> None:
        if isinstance(parent, dict):
            parent[token] = copy.deepcopy(value)
        else:
            parent.insert(_index(token, len(parent), allow_end=True, at=at), copy.deepcopy(value))

    return edit


def _replace(value: object) -> Edit:
    def edit(parent: Any, token: str, at: Sequence[str]) -> None:
        _child(parent, token, at)
        if isinstance(parent, dict):
            parent[token] = copy.deepcopy(value)
        else:
            parent[int(token)] = copy.deepcopy(value)

    return edit


def _remove(parent: Any, token: str, at: Sequence[str]) -> None:
    _child(parent, token, at)
    if isinstance(parent, dict):
        del parent[token]
    else:
        del parent[int(token)]


def _test(doc: object, tokens: Sequence[str], expected: object) -> None:
    current = doc
    for depth, token in enumerate(tokens):
        current = _child(current, token, tokens[: depth + 1])
    if not json_equal(current, expected):
        raise _OpFailure(_display(tokens), "Test failed: the value differs")


# --- ops -------------------------------------------------------------------------------------


def _malformed(index: int, message: str) -> PatchError:
    return PatchError(index, f"ops[{index}]", message)


def _check_op(index: int, op: object) -> Raw:
    if not isinstance(op, dict):
        raise _malformed(index, "Expected an op object")
    kind = op.get("op")
    if kind == "replaceNode":
        target = [key for key in ("id", "address") if key in op]
        if len(target) != 1 or not isinstance(op[target[0]], str) or not op[target[0]]:
            raise _malformed(index, 'replaceNode needs exactly one of "id" or "address"')
        if record(op.get("node")) is None:
            raise _malformed(index, 'replaceNode needs "node" (a node object)')
        return op
    if kind not in _JSON_PATCH_OPS:
        shown = js_string(kind) if isinstance(kind, str) else "missing"
        raise _malformed(
            index, f"Unknown op {shown} (supported: add, replace, remove, test, replaceNode)"
        )
    if not isinstance(op.get("path"), str):
        raise _malformed(index, f'{kind} needs "path" (a JSON pointer such as /state/key)')
    if kind != "remove" and "value" not in op:
        raise _malformed(index, f'{kind} needs "value"')
    return op


def _pointer_tokens(index: int, op: Raw) -> list[str]:
    try:
        tokens = split_pointer(op["path"])
    except ValueError as error:
        raise _malformed(index, str(getattr(error, "message", error))) from None
    if not tokens or tokens[0] not in _PATCHABLE:
        where = op["path"] or "the whole spec"
        raise _malformed(index, f"{where} cannot be patched: {_WHOLE_SPEC_HINT}")
    return tokens


def _apply_one(spec: Raw, index: int, op: Raw) -> tuple[Raw, list[str], set[str]]:
    """The spec after one op, the node paths it replaced and the state keys it touched."""
    if op["op"] == "replaceNode":
        address = str(op["id"] if "id" in op else op["address"])
        try:
            path, _ = resolve(spec, address)
        except ValueError as error:
            raise PatchError(
                index, f"ops[{index}]", str(getattr(error, "message", error))
            ) from None
        if path == "root":
            raise _malformed(
                index,
                "replaceNode cannot replace root: send the whole spec as a revision "
                "(replace_spec, or revise_spec with a new root: the agent's reviseSpec tool)",
            )
        new, _ = replace_node(spec, path, copy.deepcopy(op["node"]))
        return new, [path], set()
    tokens = _pointer_tokens(index, op)
    keys = {tokens[1]} if tokens[0] == "state" and len(tokens) > 1 else set()
    if tokens == ["state"]:
        keys = set(record(spec.get("state")) or {}) | set(record(op.get("value")) or {})
    try:
        if op["op"] == "test":
            _test(spec, tokens, op["value"])
            return spec, [], set()
        edit = (
            _remove
            if op["op"] == "remove"
            else (_add if op["op"] == "add" else _replace)(op.get("value"))
        )
        return _edited(spec, tokens, edit), [], keys
    except _OpFailure as failure:
        raise PatchError(index, failure.path, failure.message) from None


def _validate(spec: Raw) -> ValidationResult:
    from studio.spec.validator import validate  # lazy: importing `studio.spec` stays cheap

    return validate(spec)


def _check(result: ValidationResult) -> tuple[str, str] | None:
    if result.ok:
        return None
    return (result.path or "$", result.message or "Invalid spec")


def apply_patch(spec: Raw, ops: Sequence[object]) -> PatchResult:
    """Applies all ops or none; raises PatchError naming the op, the path and the message."""
    if not isinstance(ops, list | tuple):
        raise PatchError(None, "ops", "Expected an array of ops")
    checked = [_check_op(i, op) for i, op in enumerate(ops)]
    stages: list[Raw] = [spec]
    replaced: list[str] = []
    keys: set[str] = set()
    for index, op in enumerate(checked):
        new, paths, touched = _apply_one(stages[-1], index, op)
        stages.append(new)
        replaced.extend(paths)
        keys |= touched
    final = stages[-1]
    if len(checked) == 1 and checked[0]["op"] == "replaceNode":
        from studio.spec.incremental import validate_replace

        error = _check(validate_replace(spec, replaced[0], checked[0]["node"]))
    else:
        error = _check(_validate(final))
    if error is not None:
        raise PatchError(_blame(stages, _validate), *error)
    if final is spec:  # only `test` ops: still a new dict, as promised
        final = dict(spec)
    return PatchResult(final, changed_addresses(spec, final, keys), tuple(copy.deepcopy(checked)))


def _blame(stages: list[Raw], validate: Callable[[Raw], ValidationResult]) -> int:
    """The op after which the spec stayed invalid: the one after the last valid stage."""
    for stage in range(len(stages) - 2, 0, -1):
        if validate(stages[stage]).ok:
            return stage
    return 0


REVISE_OP = "reviseSpec"
REVISABLE = ("root", "window", "theme")
"""The top-level members a whole-spec revision may replace (the patch surface cannot)."""


def revise_spec(spec: Raw, members: object) -> PatchResult:
    """A whole-spec revision of `root`, `window` and/or `theme`: each given member is replaced
    whole (a null `theme` removes it), everything else is kept, and the result is validated as a
    whole (PatchError with index None naming the place). Its one op records the members."""
    if not isinstance(members, dict) or not members:
        raise PatchError(None, "members", f"Expected an object with {', '.join(REVISABLE)}")
    for key, value in members.items():
        if key not in REVISABLE:
            raise PatchError(
                None,
                str(key),
                f"a whole-spec revision replaces only {', '.join(REVISABLE)} "
                "(state, data and requires are patched)",
            )
        if value is None and key != "theme":
            raise PatchError(None, key, f"{key} is required; send the whole new {key}")
        if value is not None and not isinstance(value, dict):
            raise PatchError(None, key, "Expected an object")
    new = dict(spec)
    for key, value in members.items():
        if value is None:
            new.pop(key, None)
        else:
            new[key] = copy.deepcopy(value)
    error = _check(_validate(new))
    if error is not None:
        raise PatchError(None, *error)
    op = {"op": REVISE_OP, "members": copy.deepcopy(members)}
    return PatchResult(new, changed_addresses(spec, new), (op,))


def reapply(spec: Raw, ops: Sequence[object]) -> PatchResult:
    """A revision's ops applied again (a rebase): patch ops through `apply_patch`, a
    `reviseSpec` op through `revise_spec`."""
    if len(ops) == 1 and isinstance(ops[0], dict) and ops[0].get("op") == REVISE_OP:
        return revise_spec(spec, ops[0].get("members"))
    if any(isinstance(op, dict) and op.get("op") == REVISE_OP for op in ops):
        raise PatchError(None, "ops", "a reviseSpec op is a revision of its own")
    return apply_patch(spec, ops)


def replace_spec(spec: Raw, new_spec: Raw) -> PatchResult:
    """A whole-spec revision: validates `new_spec` (PatchError with index None on failure)."""
    if not isinstance(new_spec, dict):
        raise PatchError(None, "$", "Expected a spec object")
    new = copy.deepcopy(new_spec)
    error = _check(_validate(new))
    if error is not None:
        raise PatchError(None, *error)
    changed_keys = {
        key
        for key in set(record(spec.get("state")) or {}) | set(record(new.get("state")) or {})
        if not json_equal((spec.get("state") or {}).get(key), (new.get("state") or {}).get(key))
    }
    return PatchResult(new, changed_addresses(spec, new, changed_keys), ())


# --- what changed ----------------------------------------------------------------------------


def _own(node: Raw) -> Raw:
    return {k: v for k, v in node.items() if k not in ("child", "children")}


def _diff(old: Raw | None, new: Raw, path: str, out: list[str]) -> None:
    if old is new:
        return  # copy-on-write: an untouched subtree is the very same object
    if old is None or not json_equal(_own(old), _own(new)):
        out.append(path)
    old_kids = {at: child for child, at in children(old, path)} if old is not None else {}
    for child, at in children(new, path):
        _diff(old_kids.get(at), child, at, out)


def _uses_key(node: Raw, keys: Iterable[str]) -> bool:
    wanted = set(keys)
    for value, _, kind in bindable_fields(node):
        if not isinstance(value, str):
            continue
        if kind == "key" and value in wanted:
            return True
        if kind in ("text", "emitName") and any(f"{{{key}}}" in value for key in wanted):
            return True
    return False


def changed_addresses(old: Raw, new: Raw, state_keys: Iterable[str] = ()) -> tuple[str, ...]:
    """Addresses (in `new`) of nodes whose own fields differ from `old` at the same path, or
    that show or bind one of `state_keys`, in document order."""
    paths: list[str] = []
    old_root = record(old.get("root"))
    new_root = record(new.get("root"))
    if new_root is not None:
        _diff(old_root, new_root, "root", paths)
    keys = list(state_keys)
    addressed = addresses(new)
    if keys:
        paths.extend(p for p, node, _, _ in iter_nodes(new) if _uses_key(node, keys))
    wanted = set(paths)
    return tuple(address for path, address in addressed.items() if path in wanted)
