"""Validation of a prototype spec: the first error exactly as AutoMobile reports it, plus the
studio extensions.

Order: the whole input (`$`: byte limit, JSON), component expansion, the structural walk
(`studio.spec.structure`), AutoMobile's code rules (`studio.spec.coderules`), then the studio
extension rules (`studio.spec.platform_rules`).

One path for every input: the quick walk decides validity (for an object it also collects what
`studio.spec.size.counted_bytes` needs, so the spec is sized without serialising it); only when
it finds an error does the ordered walk run to find the first one, in AutoMobile's order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from studio.spec import rules as R
from studio.spec.coderules import Layout, layout, pager_errors, repeat_errors, state_type_errors
from studio.spec.errors import SpecInputError
from studio.spec.extensions import PlatformCatalog
from studio.spec.io import decode_text, parse_json_text
from studio.spec.jsvalues import js_string, lone_surrogate_at
from studio.spec.platform_rules import platform_errors
from studio.spec.size import NotJSON, Size, counted_size, measure, measure_walking
from studio.spec.structure import Ctx, Err, UseNode, spec_check
from studio.spec.tree import walk

__all__ = ["VALID", "Checked", "ValidationResult", "check", "path_text", "validate", "warm_up"]

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


class Checked:
    """One validation's outcome with what incremental checks reuse: the walk's `ctx` (None when
    the input was refused as a whole) and `size`, the bytes counted against the limit."""

    __slots__ = ("ctx", "layout", "result", "size", "spec")

    def __init__(
        self, spec: Any, ctx: Ctx | None, result: ValidationResult, size: int | None = None
    ) -> None:
        self.spec = spec
        self.ctx = ctx
        self.result = result
        self.size = size
        self.layout: Layout | None = None

    def where(self, kind: str, index: int) -> str:
        """The path of the index-th node (pre-order) or action (walk order)."""
        if self.layout is None:
            self.layout = layout(self.spec)
        paths = self.layout.node_paths if kind == "node" else self.layout.action_paths
        return paths[index]


def _refused(result: ValidationResult) -> Checked:
    return Checked(None, None, result)


# --- whole input ------------------------------------------------------------------------------

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


@dataclass
class _Input:
    """A value to validate: its size when it came as text (else sized later), and whether it
    may hold a lone surrogate (then the studio's rule looks for one)."""

    value: Any
    size: int | None
    lone: bool


def _read(spec: object) -> _Input | ValidationResult:
    """The parsed value of text (sized by its raw UTF-8, as upstream), or an object as it is;
    or the whole-input error at `$` (the byte limit first, as upstream)."""
    if isinstance(spec, bytes | bytearray | memoryview):
        raw = bytes(spec)
        if len(raw) > R.MAX_SPEC_BYTES:
            return _fail("$", "Spec byte limit exceeded")
        try:
            text = decode_text(raw)
        except SpecInputError as exc:
            return _fail("$", f"Invalid JSON: {exc}")
        size, lone = len(raw), False
    elif isinstance(spec, str):
        text = spec
        try:
            size, lone = len(text.encode("utf-8")), False
        except UnicodeEncodeError:  # a raw lone surrogate: 3 bytes, as JavaScript counts it
            size, lone = len(text.encode("utf-8", "surrogatepass")), True
        if size > R.MAX_SPEC_BYTES:
            return _fail("$", "Spec byte limit exceeded")
    else:
        return _Input(spec, None, False)
    try:
        value = parse_json_text(text)
    except SpecInputError as exc:
        return _fail("$", str(exc))
    # `"\\" in text` is a memchr (~100x faster than the regex on 1 MiB): no backslash, no escape.
    lone = lone or ("\\" in text and _SURROGATE_ESCAPE.search(text) is not None)
    return _Input(value, size, lone)


def _object_size(value: Any) -> Size | ValidationResult:
    """`JSON.stringify`'s UTF-8 bytes of an object spec, or the `$` error when it is not JSON."""
    try:
        return measure(value, exact=True)
    except NotJSON as exc:
        return _fail("$", f"Expected JSON: {exc}")


# --- the value --------------------------------------------------------------------------------


def validate(
    spec: dict[str, Any] | bytes | str, *, catalog: PlatformCatalog | None = None
) -> ValidationResult:
    """The first error of `spec` (a parsed object, or JSON text as str/bytes), or VALID; never
    raises. Text, bytes and the object the text parses to get the same verdict.

    Bytes are counted as AutoMobile counts them: the raw UTF-8 of text input, compact JSON for
    an object. Specs with `components`/`use` are expanded first; errors inside an expansion are
    reported where they were authored."""
    return check(spec, catalog=catalog).result


def check(spec: object, *, catalog: PlatformCatalog | None = None) -> Checked:
    """`validate`, keeping the walk's counters and the size (what `CachedValidation` reuses)."""
    try:
        read = _read(spec)
        if isinstance(read, ValidationResult):
            return _refused(read)
        return _check_value(read, catalog)
    except RecursionError:
        return _refused(_fail("$", "Expected JSON: nested too deeply"))
    except TypeError as exc:  # non-string keys (JSON objects have string keys), or worse
        return _refused(_fail("$", f"Expected JSON: {_not_json(spec, exc)}"))
    except NotJSON as exc:
        return _refused(_fail("$", f"Expected JSON: {exc}"))
    except Exception as exc:  # noqa: BLE001 - a verdict for any input; the fuzz tests never see it
        return _refused(_fail("$", f"Cannot validate this input ({type(exc).__name__}: {exc})"))


def _not_json(spec: object, error: TypeError) -> str:
    """What makes an object that broke the walk not JSON (keys that are not strings, say)."""
    try:
        measure_walking(spec)
    except NotJSON as exc:
        return str(exc)
    return f"cannot be read as JSON ({error})"


def _check_value(read: _Input, catalog: PlatformCatalog | None) -> Checked:
    """The walks and every rule, with the byte limit checked before any error they find."""
    value, size, lone = read.value, read.size, read.lone
    if isinstance(value, dict) and "components" in value:
        if size is None:
            found = _object_size(value)
            if isinstance(found, ValidationResult):
                return _refused(found)
            size, lone = found.bytes, found.lone
        if size > R.MAX_SPEC_BYTES:
            return _refused(_fail("$", "Spec byte limit exceeded"))
        return _refused(_validate_expanded(value, lone, catalog))
    ctx = Ctx()
    ok: bool | None
    try:
        ok = spec_check("quick" if size is not None else "count")(value, ctx, 0)
    except UseNode:
        ok = None
    if size is None:
        found = counted_size(ctx) if ok else _object_size(value)
        if isinstance(found, ValidationResult):
            return _refused(found)
        size, lone = found.bytes, found.lone
    if size > R.MAX_SPEC_BYTES:
        return _refused(_fail("$", "Spec byte limit exceeded"))
    if ok is None:
        return _refused(_validate_expanded(value, lone, catalog))
    if not ok:
        ctx = Ctx()
        try:
            error = spec_check("ordered")(value, ctx, 0)
        except UseNode:
            return _refused(_validate_expanded(value, lone, catalog))
        if error is not None:
            if _has_use(value):  # components are expanded before anything is reported
                return _refused(_validate_expanded(value, lone, catalog))
            return Checked(value, ctx, _fail(_err_path(error), error.message), size)
    checked = _code_rules(value, ctx, catalog, size)
    if checked.result.ok and lone:
        checked.result = _lone_surrogate_error(value)
    return checked


def _code_rules(value: Any, ctx: Ctx, catalog: PlatformCatalog | None, size: int) -> Checked:
    """AutoMobile's code rules, then the studio extension rules, after a clean walk."""
    checked = Checked(value, ctx, VALID, size)
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


def _lone_surrogate_error(value: Any) -> ValidationResult:
    """The studio's last rule: a string or key that holds a lone surrogate is refused where it
    is (AutoMobile's parsers take it, but it is no text and UTF-8 cannot store it)."""
    found = lone_surrogate_at(value)
    if found is None:
        return VALID
    segments, message = found
    return _fail(path_text(segments[::-1]), message)


def _has_use(value: Any) -> bool:
    return any(node.get("type") == "use" for _, node, _, _ in walk(value))


def _validate_expanded(value: Any, lone: bool, catalog: PlatformCatalog | None) -> ValidationResult:
    from studio.spec.components import expand_with_locations

    expansion = expand_with_locations(value)
    if expansion.error is not None:
        return _fail(*expansion.error)
    size = 0  # unexpanded: the size already checked
    if expansion.expanded:
        found = _object_size(expansion.spec)
        if isinstance(found, ValidationResult):
            return found
        if found.bytes > R.MAX_SPEC_BYTES:
            return _fail("$", "Expanded spec byte limit exceeded")
        size = found.bytes
    if _has_use(expansion.spec):  # expansion leaves no `use`; a stray one is an unknown node
        return _fail("$", "Unexpanded use node")
    result = _check_value(_Input(expansion.spec, size, False), catalog).result
    if not result.ok and result.path is not None:
        return ValidationResult(False, expansion.locate(result.path), result.message)
    return _lone_surrogate_error(value) if result.ok and lone else result


def warm_up() -> None:
    """Generate and compile the walks now (~0.1 s each, once per process) rather than on the
    first validation, which in the studio is the user's first edit on the GUI thread. Call it
    from a worker thread at start-up. jsonschema, which checks platform actions' arguments, is
    imported here too, so that neither the first frame nor the first such check pays for it."""
    import jsonschema  # noqa: F401

    for mode in ("quick", "count", "ordered"):
        spec_check(mode)
