"""Validation of a prototype spec: the first error exactly as AutoMobile reports it, plus the
studio extensions.

Order: whole input (`$`: bytes, JSON), component expansion, the structural walk
(`studio.spec.compiled`), then AutoMobile's code rules (`studio.spec.coderules`), then the
studio extension rules (`studio.spec.platform_rules`).

Speed: a quick walk (`studio.spec.quickpass`) decides validity first and the exact walk runs
only to find the first error. An object spec is sized by a counting variant of the quick walk
instead of serialising it; any doubt (an error, a `use` node, a non-JSON or non-plain value)
falls back to the general path, so results are those of the exact order in every case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from studio.spec import rules as R
from studio.spec.coderules import Layout, layout, pager_errors, repeat_errors, state_type_errors
from studio.spec.compiled import Ctx, Err, UseNode, spec_check
from studio.spec.errors import SpecInputError
from studio.spec.extensions import PlatformCatalog
from studio.spec.io import decode_text, parse_json_text
from studio.spec.jsvalues import compact_bytes, js_string
from studio.spec.platform_rules import platform_errors
from studio.spec.quickpass import CountingCtx, counted_bytes, counting_spec, quick_spec
from studio.spec.tree import walk

__all__ = ["VALID", "ValidationResult", "path_text", "validate", "validate_value"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class ValidationResult:
    """The outcome: `ok`, or the first error's `path` (AutoMobile syntax) and `message`."""

    ok: bool
    path: str | None = None
    message: str | None = None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "valid" if self.ok else f"{self.path}: {self.message}"


VALID = ValidationResult(True)


def _fail(path: str, message: str) -> ValidationResult:
    return ValidationResult(False, path or "$", message)


def path_text(segments: list[str | int], prefix: str = "") -> str:
    """AutoMobile's path syntax from segments (`root.children[0].stateKey`, `a["b-c"]`, `$`)."""
    path = prefix
    for segment in segments:
        if isinstance(segment, int):
            path = f"{path or '$'}[{segment}]"
        elif _IDENTIFIER.fullmatch(segment):
            path = f"{path}.{segment}" if path else segment
        else:
            path = f"{path or '$'}[{js_string(segment)}]"
    return path or "$"


def _err_path(error: Err) -> str:
    return path_text(error.segments[::-1])


# --- whole input ------------------------------------------------------------------------------


def _decode(spec: object) -> tuple[Any, ValidationResult | None]:
    """The parsed value, or the whole-input error at `$` (byte limit first, as upstream)."""
    if isinstance(spec, bytes | bytearray | memoryview):
        raw = bytes(spec)
        if len(raw) > R.MAX_SPEC_BYTES:
            return None, _fail("$", "Spec byte limit exceeded")
        try:
            text = decode_text(raw)
        except SpecInputError as exc:
            return None, _fail("$", f"Invalid JSON: {exc}")
    elif isinstance(spec, str):
        text = spec
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:
            return None, _fail("$", "Invalid JSON: lone surrogate in the text")
        if size > R.MAX_SPEC_BYTES:
            return None, _fail("$", "Spec byte limit exceeded")
    else:
        try:
            size = compact_bytes(spec)
        except ValueError:
            return None, _fail("$", "Expected JSON: NaN and Infinity are not JSON")
        except (TypeError, RecursionError):
            return None, _fail("$", "Expected JSON")
        if size > R.MAX_SPEC_BYTES:
            return None, _fail("$", "Spec byte limit exceeded")
        return spec, None
    try:
        return parse_json_text(text), None
    except SpecInputError as exc:
        return None, _fail("$", str(exc))


# --- the value --------------------------------------------------------------------------------


def validate(
    spec: dict[str, Any] | bytes | str, *, catalog: PlatformCatalog | None = None
) -> ValidationResult:
    """The first error of `spec` (a parsed object, or JSON text as str/bytes), or VALID.

    Bytes are counted as AutoMobile counts them: the raw UTF-8 of text input, compact JSON for
    an object. Specs with `components`/`use` are expanded first; errors inside an expansion are
    reported where they were authored."""
    if type(spec) is dict and "components" not in spec:
        counted = _validate_counted(spec, catalog)
        if counted is not None:
            return counted
    value, problem = _decode(spec)
    if problem is not None:
        return problem
    try:
        return validate_value(value, catalog=catalog)
    except RecursionError:
        return _fail("$", "Expected JSON: nested too deeply")
    except TypeError:  # an object given with non-string keys (JSON objects have string keys)
        return _fail("$", "Expected JSON: object keys must be strings")


def validate_value(value: Any, *, catalog: PlatformCatalog | None = None) -> ValidationResult:
    """Validates a parsed value whose byte size was already checked."""
    if isinstance(value, dict) and "components" in value:
        return _validate_expanded(value, catalog)
    try:
        return check_plain(value, catalog).result
    except UseNode:
        return _validate_expanded(value, catalog)


class Checked:
    """The outcome of one plain (expanded) validation, with what incremental checks reuse."""

    __slots__ = ("ctx", "layout", "result", "spec")

    def __init__(self, spec: Any, ctx: Ctx, result: ValidationResult) -> None:
        self.spec = spec
        self.ctx = ctx
        self.result = result
        self.layout: Layout | None = None

    def where(self, kind: str, index: int) -> str:
        """The path of the index-th node (pre-order) or action (walk order)."""
        if self.layout is None:
            self.layout = layout(self.spec)
        paths = self.layout.node_paths if kind == "node" else self.layout.action_paths
        return paths[index]


def check_plain(value: Any, catalog: PlatformCatalog | None) -> Checked:
    """The walk and every rule on a spec without components; raises UseNode when a `use`
    node is met (or exists after an earlier error), so the caller expands first.

    A quick pass (keys in any order, `studio.spec.quickpass`) decides validity; only when it
    finds an error does the exact pass (AutoMobile's order) run to find the first one."""
    ctx = Ctx()
    if quick_spec()(value, ctx, 0):
        quick = _code_rules(value, ctx, catalog)
        if quick.result.ok:
            return quick
    elif _has_use(value):
        raise UseNode
    return _check_exact(value, catalog)


def _check_exact(value: Any, catalog: PlatformCatalog | None) -> Checked:
    ctx = Ctx()
    error = spec_check()(value, ctx, 0)
    if error is not None:
        if _has_use(value):
            raise UseNode
        return Checked(value, ctx, _fail(_err_path(error), error.message))
    return _code_rules(value, ctx, catalog)


def _code_rules(value: Any, ctx: Ctx, catalog: PlatformCatalog | None) -> Checked:
    """AutoMobile's code rules, then the studio extension rules, after a clean walk."""
    checked = Checked(value, ctx, VALID)
    failure = repeat_errors(value, ctx) or pager_errors(ctx, checked.where)
    if failure is None:
        spec_layout = None
        if ctx.repeats:
            checked.where("node", 0)
            spec_layout = checked.layout
        failure = state_type_errors(value, ctx, checked.where, spec_layout)
    if failure is None:
        failure = platform_errors(value, ctx.actions, checked.where, catalog)
    if failure is not None:
        checked.result = _fail(*failure)
    return checked


def _validate_counted(
    spec: dict[str, Any], catalog: PlatformCatalog | None
) -> ValidationResult | None:
    """A plain dict spec in one walk that also counts its bytes (no `json.dumps` of the whole
    spec): the result when the spec is valid or only over the byte limit, else None (the
    caller takes the general path, which finds the first error)."""
    ctx = CountingCtx()
    try:
        if not counting_spec()(spec, ctx, 0):
            return None
        size = counted_bytes(ctx)
        if size is None:
            return None
        if size > R.MAX_SPEC_BYTES:
            return _fail("$", "Spec byte limit exceeded")
        result = _code_rules(spec, ctx, catalog).result
    except (UseNode, ValueError, TypeError, RecursionError):
        return None
    return result if result.ok else None


def _has_use(value: Any) -> bool:
    return any(node.get("type") == "use" for _, node, _, _ in walk(value))


def _validate_expanded(value: Any, catalog: PlatformCatalog | None) -> ValidationResult:
    from studio.spec.components import expand_with_locations

    expansion = expand_with_locations(value)
    if expansion.error is not None:
        return _fail(*expansion.error)
    if expansion.expanded:
        try:
            if compact_bytes(expansion.spec) > R.MAX_SPEC_BYTES:
                return _fail("$", "Expanded spec byte limit exceeded")
        except (TypeError, ValueError):
            return _fail("$", "Expected JSON")
    try:
        result = check_plain(expansion.spec, catalog).result
    except UseNode:  # expansion leaves no `use`; a stray one is an unknown node type
        return _fail("$", "Unexpanded use node")
    if result.ok or result.path is None:
        return result
    return ValidationResult(False, expansion.locate(result.path), result.message)


def warm_up() -> None:
    """Generate and compile the quick checks now (~0.1 s, once per process) rather than on the
    first validation, which in the studio is the user's first edit on the GUI thread. Call it
    from a worker thread at start-up."""
    from studio.spec import quickpass

    quickpass.quick_spec()
    quickpass.counting_spec()
