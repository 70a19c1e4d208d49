"""The rule table compiled once into specialised checking closures (the structural walk).

Each closure is `check(value, ctx, depth) -> Err | None` and reproduces AutoMobile's generic
contract walk: object keys in sorted order of present and declared keys, the first error only,
choice candidates picked by JSON type, tagged unions by `type`, node/image/depth/selector/
condition counters. Paths are built only when an error unwinds (`Err.segments`), so a valid
spec never pays for path strings. Hand-written instead of a JSON Schema engine because a
generic interpreter is several times too slow and reports other errors than AutoMobile.

This is the exact pass, run when there is an error to report; whether there is one at all is
decided first by the quick pass that `studio.spec.quickpass` generates from the same table.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from studio.spec import rules as R
from studio.spec.jsvalues import js_sort_keys, js_stringify, js_trim, json_cost

Check = Callable[[Any, "Ctx", int], "Err | None"]


class Err:
    """The first error: `segments` from the failing value up (keys and indices), reversed."""

    __slots__ = ("message", "segments")

    def __init__(self, message: str, segments: list[str | int] | None = None) -> None:
        self.message = message
        self.segments: list[str | int] = segments if segments is not None else []


class UseNode(Exception):
    """A `use` node was met: the spec must be expanded first (components)."""


#: Node types the code rules look at (pagers, pager references, state typing, repeat).
MARKED_NODES = frozenset(
    {
        "pager",
        "tabBar",
        "bottomNav",
        "textField",
        "switch",
        "checkbox",
        "slider",
        "radioGroup",
        "segmentedButton",
        "chip",
        "fab",
        "progress",
        "timePicker",
        "datePicker",
        "listItem",
        "bottomSheet",
        "dialog",
        "snackbar",
    }
)


class Ctx:
    """Counters and the nodes/actions met, in walk order (`marked`: indices into `nodes` of
    the node types in MARKED_NODES)."""

    __slots__ = (
        "actions",
        "cond_depth",
        "images",
        "marked",
        "nodes",
        "repeats",
        "sel_depth",
        "templated",
    )

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.marked: list[int] = []
        self.actions: list[dict[str, Any]] = []
        self.images = 0
        self.sel_depth = 0
        self.cond_depth = 0
        self.repeats = 0
        self.templated = False


_STATE_KEY = re.compile(R.STATE_KEY_PATTERN[1:-1]).fullmatch
_BOUND_KEY = re.compile(R.BOUND_KEY_PATTERN[1:-1]).fullmatch
_COLOR = re.compile(R.COLOR_PATTERN[1:-1]).fullmatch
_MAX_FLOAT = 1.7976931348623157e308


def slot_uses(value: object) -> int:
    """What one image slot costs: an id 1, a `{light, dark}` pair of two different ids 2."""
    if isinstance(value, str):
        return 1
    if not isinstance(value, dict):
        return 0
    light, dark = value.get("light"), value.get("dark")
    return 2 if isinstance(light, str) and isinstance(dark, str) and light != dark else 1


def number_ok(value: Any, integer: bool, low: float | None, high: float | None) -> bool:
    """A finite JSON number (never a boolean) within bounds; integer by value."""
    kind = type(value)
    if kind is int:
        if not -_MAX_FLOAT <= value <= _MAX_FLOAT:
            return False  # JavaScript reads it as Infinity
    elif kind is float:
        if not math.isfinite(value) or (integer and not value.is_integer()):
            return False
    else:
        return False
    if low is not None and value < low:
        return False
    return high is None or bool(value <= high)


def is_scalar(value: object) -> bool:
    kind = type(value)
    if kind is str or kind is bool:
        return True
    return (kind is int or kind is float) and number_ok(value, False, None, None)


class Compiler:
    """Builds one closure per rule; named references are resolved once, lazily."""

    def __init__(self, table: dict[str, R.Rule]) -> None:
        self.table = table
        self.named: dict[str, Check] = {}

    def named_check(self, name: str) -> Check:
        found = self.named.get(name)
        if found is not None:
            return found
        cell: list[Check] = []

        def late(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return cell[0](value, ctx, depth)

        self.named[name] = late  # a reference back into a definition being compiled
        compiled = self.compile(self.table[name], name)
        cell.append(compiled)
        self.named[name] = compiled
        return compiled

    def compile(self, rule: R.Rule, name: str = "") -> Check:
        if isinstance(rule, R.Ref):
            return self.ref(rule.name)
        if isinstance(rule, R.Obj):
            return self.obj(rule)
        if isinstance(rule, R.Tagged):
            return self.tagged(rule, name)
        if isinstance(rule, R.Arr):
            return self.arr(rule)
        if isinstance(rule, R.Choice):
            return self.choice(rule)
        if isinstance(rule, R.Map):
            return self.map(rule)
        return primitive(rule)

    # -- references with limits ---------------------------------------------------------------

    def ref(self, name: str) -> Check:
        if name == "node":
            return self.node_ref()
        if name == "condition":
            return self.depth_ref(name, "cond_depth", R.MAX_CONDITION_DEPTH, "Condition")
        if name == "container":
            return self.depth_ref(name, "sel_depth", R.MAX_SELECTOR_DEPTH, "Selector")
        if name == "item":
            target = self.named_check(name)

            def item(value: Any, ctx: Ctx, depth: int) -> Err | None:
                if isinstance(value, dict):
                    uses = slot_uses(value.get("image"))
                    if uses:
                        ctx.images += uses
                        if ctx.images > R.MAX_IMAGES:
                            return Err("Image limit exceeded", ["image"])
                return target(value, ctx, depth)

            return item
        return self.named_check(name)

    def depth_ref(self, name: str, counter: str, limit: int, what: str) -> Check:
        key = f"@{name}"
        found = self.named.get(key)
        if found is not None:
            return found
        holder: list[Check] = []
        message = f"{what} depth limit exceeded"

        def check(value: Any, ctx: Ctx, depth: int) -> Err | None:
            level = getattr(ctx, counter) + 1
            setattr(ctx, counter, level)
            if level > limit:
                return Err(message)
            error = holder[0](value, ctx, depth)
            setattr(ctx, counter, level - 1)
            return error

        self.named[key] = check
        holder.append(self.named_check(name))
        return check

    def node_ref(self) -> Check:
        """A node: counted, depth-checked, images counted, then its variant by `type`.
        Nodes whose types the later rules look at are marked in `ctx.marked`."""
        found = self.named.get("@node")
        if found is not None:
            return found
        variants: dict[str, Check] = {}
        marked = MARKED_NODES

        def node(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if not isinstance(value, dict):
                return Err("Expected object")
            nodes = ctx.nodes
            nodes.append(value)
            if len(nodes) > R.MAX_NODES:
                return Err("Node limit exceeded")
            if depth >= R.MAX_DEPTH:
                return Err("Tree depth limit exceeded")
            kind = value.get("type")
            if kind == "image":
                ctx.images += max(1, slot_uses(value.get("asset")))
                if ctx.images > R.MAX_IMAGES:
                    return Err("Image limit exceeded")
            variant = variants.get(kind) if type(kind) is str else None
            if variant is None:
                if kind == "use":
                    raise UseNode
                return Err("Unknown or missing discriminator", ["type"])
            if kind in marked:
                ctx.marked.append(len(nodes) - 1)
            elif "repeat" in value:
                ctx.repeats += 1
            return variant(value, ctx, depth + 1)

        rule = self.table["node"]
        assert isinstance(rule, R.Tagged)
        self.named["@node"] = node
        for kind, variant in rule.variants.items():
            variants[kind] = self.obj(variant)
        return node

    # -- structures ---------------------------------------------------------------------------

    def obj(self, rule: R.Obj) -> Check:
        checks = {key: self.compile(f.rule) for key, f in rule.fields.items()}
        lookup = checks.get
        declared = frozenset(checks)
        required = frozenset(k for k, f in rule.fields.items() if not f.optional)
        constraint = _constraint(rule)

        def check(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if not isinstance(value, dict):
                return Err("Expected object")
            if value.keys() >= required:
                # Every required key is present, so the first error in sorted order of
                # present and declared keys is among the present keys (see _unknown).
                for key in sorted(value):
                    sub = lookup(key)
                    if sub is None:
                        return Err("Unknown property", [_first_unknown(value, key, declared)])
                    error = sub(value[key], ctx, depth)
                    if error is not None:
                        error.segments.append(key)
                        return error
            else:
                for key in js_sort_keys([*value, *(declared - value.keys())]):
                    sub = lookup(key)
                    if sub is None:
                        return Err("Unknown property", [key])
                    if key not in value:
                        if key in required:
                            return Err("Required property", [key])
                        continue
                    error = sub(value[key], ctx, depth)
                    if error is not None:
                        error.segments.append(key)
                        return error
            return constraint(value) if constraint is not None else None

        return check

    def tagged(self, rule: R.Tagged, name: str) -> Check:
        variants = {key: self.obj(variant) for key, variant in rule.variants.items()}
        is_action = name == "action"

        def check(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if not isinstance(value, dict):
                return Err("Expected object")
            kind = value.get("type")
            variant = variants.get(kind) if type(kind) is str else None
            if variant is None:
                return Err("Unknown or missing discriminator", ["type"])
            if is_action:
                ctx.actions.append(value)
            return variant(value, ctx, depth)

        return check

    def arr(self, rule: R.Arr) -> Check:
        item = self.compile(rule.item)
        low = rule.min
        high = rule.max if rule.max is not None else math.inf
        unique = rule.unique

        def check(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if not isinstance(value, list):
                return Err("Expected array")
            if not low <= len(value) <= high:
                return Err("Array length out of range")
            if unique:
                seen: set[str] = set()
                for index, entry in enumerate(value):
                    error = item(entry, ctx, depth)
                    if error is not None:
                        error.segments.append(index)
                        return error
                    text = js_stringify(entry)
                    if text in seen:
                        return Err("Duplicate array value", [index])
                    seen.add(text)
                return None
            for index, entry in enumerate(value):
                error = item(entry, ctx, depth)
                if error is not None:
                    error.segments.append(index)
                    return error
            return None

        return check

    def map(self, rule: R.Map) -> Check:
        item = self.compile(rule.item)

        def check(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if not isinstance(value, dict):
                return Err("Expected object")
            for key in js_sort_keys(list(value)):
                if not _STATE_KEY(key):
                    return Err("Invalid state key", [key])
                error = item(value[key], ctx, depth)
                if error is not None:
                    error.segments.append(key)
                    return error
            return None

        return check

    def flat(self, options: tuple[R.Rule, ...]) -> list[R.Rule]:
        """Options with references to string-only choices inlined (`colorValue` -> hex or role):
        the first candidate's error stays the same, one call level less per value."""
        out: list[R.Rule] = []
        for option in options:
            target = self.table.get(option.name) if isinstance(option, R.Ref) else None
            if isinstance(target, R.Choice) and not any(
                isinstance(o, R.Obj | R.Num) for o in target.options
            ):
                out.extend(self.flat(target.options))
            else:
                out.append(option)
        return out

    def choice(self, rule: R.Choice) -> Check:
        compiled = [(option, self.compile(option)) for option in self.flat(rule.options)]
        objects = [c for o, c in compiled if isinstance(o, R.Obj)]
        numbers = [c for o, c in compiled if isinstance(o, R.Num)]
        strings = [c for o, c in compiled if not isinstance(o, R.Obj | R.Num)]

        def check(value: Any, ctx: Ctx, depth: int) -> Err | None:
            kind = type(value)
            if isinstance(value, dict):
                candidates = objects
            elif kind is int or kind is float:
                candidates = numbers
            elif kind is str:
                candidates = strings
            else:
                candidates = []
            first: Err | None = None
            for candidate in candidates:
                error = candidate(value, ctx, depth)
                if error is None:
                    return None
                if first is None:
                    first = error
            return first if first is not None else Err("Invalid union value")

        return check


def _first_unknown(value: dict[str, Any], key: str, declared: frozenset[str]) -> str:
    """The first undeclared key in JavaScript's order, given Python's first. Both orders agree
    on ASCII keys and put every ASCII key before every other; declared keys are ASCII."""
    if not isinstance(key, str):
        raise TypeError("object keys must be strings")
    if key.isascii():
        return key
    return js_sort_keys([k for k in value if k not in declared])[0]


def _constraint(rule: R.Obj) -> Callable[[dict[str, Any]], Err | None] | None:
    """Object-level constraints after the fields, in AutoMobile's order."""
    if not (
        rule.binding or rule.exclusive or rule.exactly_one or rule.dependents or rule.at_least_one
    ):
        return None

    def check(data: dict[str, Any]) -> Err | None:
        if rule.binding and ("pager" in data) == ("stateKey" in data):
            return Err("Exactly one of pager or stateKey is required", ["pager"])
        if rule.exclusive and sum(k in data for k in rule.exclusive) != 1:
            return Err("Exactly one container selector is required", [rule.exclusive[0]])
        if rule.exactly_one and sum(k in data for k in rule.exactly_one) != 1:
            listed = ", ".join(rule.exactly_one)
            return Err(f"Exactly one of {listed} is required", [rule.exactly_one[0]])
        for trigger, dependents in rule.dependents:
            present = [k for k in dependents if k in data]
            if trigger not in data:
                if present:
                    return Err(f"Requires {trigger}", [present[0]])
            elif len(present) != 1:
                target = present[1] if len(present) > 1 else dependents[0]
                return Err(f"Exactly one of {', '.join(dependents)} is required", [target])
        if rule.at_least_one and not data:
            return Err("At least one selector field is required")
        return None

    return check


def primitive(rule: R.Rule) -> Check:  # noqa: C901 - one closure per primitive kind
    """The closure of a leaf rule; failures are `Invalid <kind> value` as upstream."""
    if isinstance(rule, R.Str):
        empty, nonblank = rule.empty, rule.nonblank

        def string(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if type(value) is str and (value or empty) and (not nonblank or js_trim(value)):
                return None
            return Err("Invalid string value")

        return string
    if isinstance(rule, R.Key):

        def key(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if type(value) is str and _STATE_KEY(value):
                return None
            return Err("Invalid key value")

        return key
    if isinstance(rule, R.BoundKey):

        def bound_key(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if type(value) is str:
                if _STATE_KEY(value):
                    return None
                if _BOUND_KEY(value):
                    ctx.templated = True
                    return None
            return Err("Invalid key value")

        return bound_key
    if isinstance(rule, R.Color):

        def color(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return None if type(value) is str and _COLOR(value) else Err("Invalid color value")

        return color
    if isinstance(rule, R.Num):
        integer, low, high = rule.integer, rule.min, rule.max

        def number(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return None if number_ok(value, integer, low, high) else Err("Invalid number value")

        return number
    if isinstance(rule, R.Bool):

        def boolean(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return None if type(value) is bool else Err("Invalid boolean value")

        return boolean
    if isinstance(rule, R.Scalar):

        def scalar(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return None if is_scalar(value) else Err("Invalid scalar value")

        return scalar
    if isinstance(rule, R.Enum):
        values = frozenset(rule.values)

        def enum(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return None if type(value) is str and value in values else Err("Invalid enum value")

        return enum
    if isinstance(rule, R.Json):
        budget = rule.max_bytes if rule.max_bytes is not None else math.inf

        def json_value(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return None if json_cost(value) <= budget else Err("Invalid json value")

        return json_value
    if isinstance(rule, R.Pattern):
        match = re.compile(rule.pattern).search
        message = rule.message

        def pattern(value: Any, ctx: Ctx, depth: int) -> Err | None:
            if type(value) is str and "\n" not in value and match(value):
                return None
            return Err(message)

        return pattern
    if isinstance(rule, R.AnyObject):

        def any_object(value: Any, ctx: Ctx, depth: int) -> Err | None:
            return None if isinstance(value, dict) else Err("Expected object")

        return any_object
    raise TypeError(f"no closure for rule {rule!r}")


_COMPILED: dict[str, Check] = {}


def _compiled(name: str) -> Check:
    found = _COMPILED.get(name)
    if found is None:
        compiler = Compiler(R.definitions())
        _COMPILED["spec"] = compiler.named_check("spec")
        _COMPILED["node"] = compiler.ref("node")
        found = _COMPILED[name]
    return found


def spec_check() -> Check:
    """The compiled check of a whole spec (built on first use, then cached). The quick pass
    that only tells whether there is an error is `studio.spec.quickpass`."""
    return _compiled("spec")


def node_check() -> Check:
    """The compiled check of one node, counting like a node met in a spec (incremental use)."""
    return _compiled("node")
