"""The structural check of a spec: the rule table (`studio.spec.rules`) generated once into plain
Python checking functions, in three modes that share every rule's code.

- `quick`: valid or not (`True`/`False`), keys in any order; what validation runs first, since
  most specs are valid.
- `count`: `quick` that also collects what `studio.spec.size.counted_bytes` needs to size an
  object spec as `JSON.stringify` would, without serialising it.
- `ordered`: AutoMobile's contract walk (`OverlaySpecValidator.kt` / `prototypeValidation.ts`
  `walk`): object keys in sorted order of present and declared keys, the first error only, choice
  candidates picked by JSON type, tagged unions by `type`, node/image/depth/selector/condition
  counters; it returns `Err` (message and path segments) or None, and runs only when `quick`
  said "not valid", to find the first error.

Each rule (a leaf test and its message, a number's bounds, an object constraint, a node's
limits, a depth-limited reference, a choice's options) is written once, as a generator method;
the modes differ only in control flow (visit order, and `return False` or `return Err(...)`).

Why generated source: a closure interpreting per-field descriptors pays a dispatch chain and a
call per value, which is most of the cost of validating a large spec. Generating one plain
function per object rule, with each field's leaf test written inline (`type(v) is str and v`,
`v in ENUM`), and dispatching keys through a dict of small integers plus a balanced `if c < k`
tree, makes the walk about 2x faster than closures. Each mode is generated and compiled once per
process on first use (well under 0.1 s; `warm_up` does it ahead of time). Hand-written instead of
a JSON Schema engine (fastjsonschema, jsonschema) because those report other errors than
AutoMobile and cannot collect the limit counters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, Literal

from studio.spec import rules as R
from studio.spec.jsvalues import (
    MAX_DOUBLE,
    js_sort_keys,
    js_stringify,
    js_trim,
    json_cost,
    json_problem,
)

__all__ = [
    "MARKED_NODES",
    "Check",
    "Ctx",
    "Err",
    "Mode",
    "UseNode",
    "node_check",
    "slot_uses",
    "source",
    "spec_check",
]

Mode = Literal["quick", "count", "ordered"]

#: `check(value, ctx, depth)`: True/False (quick, count) or `Err | None` (ordered); raises
#: UseNode when a `use` node is met.
Check = Callable[[Any, "Ctx", int], Any]


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
    """Counters and the nodes/actions met (`marked`: indices into `nodes` of the node types in
    MARKED_NODES). Nodes are in pre-order in every mode; actions are in walk order only in the
    ordered mode. The counting fields are filled only by the count mode."""

    __slots__ = (
        "actions",
        "cond_depth",
        "dicts",
        "images",
        "lists",
        "marked",
        "nodes",
        "opaque",
        "repeats",
        "scalars",
        "sel_depth",
        "strings",
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
        #: Count mode: every string leaf, number/boolean/scalar leaf, object, array and
        #: free-form JSON value (`data`, platform `args`, emit payloads) met.
        self.strings: list[str] = []
        self.scalars: list[Any] = []
        self.dicts: list[dict[str, Any]] = []
        self.lists: list[list[Any]] = []
        self.opaque: list[Any] = []


def slot_uses(value: object) -> int:
    """What one image slot costs (AutoMobile's `imageSlotUses`): an asset id 1, a
    `{light, dark}` pair of two different ids 2, anything else (absent) 0."""
    if isinstance(value, str):
        return 1
    if not isinstance(value, dict):
        return 0
    light, dark = value.get("light"), value.get("dark")
    return 2 if isinstance(light, str) and isinstance(dark, str) and light != dark else 1


def _unique(values: list[Any]) -> bool:
    """No two items with the same JSON text (JavaScript spelling: 240 and 240.0 are equal)."""
    return len({js_stringify(v) for v in values}) == len(values)


def _first_unknown(value: dict[str, Any], key: str, declared: frozenset[str]) -> str:
    """The first undeclared key in JavaScript's order, given Python's first. Both orders agree
    on ASCII keys and put every ASCII key before every other; declared keys are ASCII."""
    if not isinstance(key, str):
        raise TypeError("object keys must be strings")
    if key.isascii():
        return key
    return js_sort_keys([k for k in value if k not in declared])[0]


def _present(value: dict[str, Any], keys: tuple[str, ...], at: int) -> str:
    """The `at`-th of `keys` present in `value`, else the first of `keys`."""
    found = [k for k in keys if k in value]
    return found[at] if len(found) > at else keys[0]


class _Matched:
    """The strings a pattern has matched, remembered (bounded): a set lookup instead of a
    regex per value, since specs repeat their state keys and colours many times."""

    __slots__ = ("fullmatch", "known", "limit")

    def __init__(self, pattern: str, limit: int = 4096) -> None:
        self.fullmatch = re.compile(pattern[1:-1]).fullmatch
        self.known: set[str] = set()
        self.limit = limit

    def matches(self, text: str) -> bool:
        if self.fullmatch(text) is None:
            return False
        if len(self.known) >= self.limit:
            self.known.clear()
        self.known.add(text)
        return True


_KEYS = _Matched(R.STATE_KEY_PATTERN)
_COLORS = _Matched(R.COLOR_PATTERN)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").fullmatch
_MISSING = object()


def leaf_message(rule: R.Rule) -> str:
    """AutoMobile's message for a value a leaf rule refuses (`Invalid <kind> value`)."""
    if isinstance(rule, R.Pattern):
        return rule.message
    if isinstance(rule, R.AnyObject):
        return "Expected object"
    kinds: dict[type, str] = {
        R.Str: "string",
        R.Key: "key",
        R.BoundKey: "key",
        R.Color: "color",
        R.Num: "number",
        R.Bool: "boolean",
        R.Scalar: "scalar",
        R.Enum: "enum",
        R.Json: "json",
    }
    return f"Invalid {kinds[type(rule)]} value"


class _Generator:
    """Writes one function per object rule, tagged union and limited reference, in one mode."""

    def __init__(self, table: dict[str, R.Rule], mode: Mode) -> None:
        self.table = table
        self.mode = mode
        self.ordered = mode == "ordered"
        #: Count mode collects objects and arrays of the exact built-in types only (anything
        #: else leaves the count to json.dumps).
        self.count = mode == "count"
        self.is_dict = "type({}) is dict" if self.count else "isinstance({}, dict)"
        self.is_list = "type({}) is list" if self.count else "isinstance({}, list)"
        self.env: dict[str, Any] = {
            "isinstance": isinstance,
            "type": type,
            "len": len,
            "max": max,
            "sorted": sorted,
            "enumerate": enumerate,
            "list": list,
            "dict": dict,
            "str": str,
            "int": int,
            "float": float,
            "bool": bool,
            "Err": Err,
            "UseNode": UseNode,
            "_MISSING": _MISSING,
            "_trim": js_trim,
            "_json_cost": json_cost,
            "_json_problem": json_problem,
            "_unique": _unique,
            "_stringify": js_stringify,
            "_js_sort": js_sort_keys,
            "_first_unknown": _first_unknown,
            "_present": _present,
            "_slot_uses": slot_uses,
            "_KEYS": _KEYS.known,
            "_key": _KEYS.matches,
            "_COLORS": _COLORS.known,
            "_color": _COLORS.matches,
            "_BOUND_KEY": re.compile(R.BOUND_KEY_PATTERN[1:-1]).fullmatch,
        }
        self.constants: dict[tuple[str, Any], str] = {}
        self.functions: list[str] = []
        self.named: dict[str, str] = {}
        self.tables: list[str] = []
        self.dispatch: dict[str, tuple[str, bool]] = {}
        self.objects: dict[tuple[int, str | None, tuple[str, ...]], str] = {}
        self.counter = 0

    # -- names --------------------------------------------------------------------------------

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def const(self, value: Any, kind: str = "c") -> str:
        key = (kind, value) if isinstance(value, frozenset | str | int | float | tuple) else None
        if key is not None and key in self.constants:
            return self.constants[key]
        name = self.fresh(f"_{kind}")
        self.env[name] = value
        if key is not None:
            self.constants[key] = name
        return name

    # -- failing and passing errors up --------------------------------------------------------

    def fail(self, message: str, segs: list[str] | None = None) -> str:
        """The statement that reports `message` at the value `segs` leads to (innermost first,
        as expressions): `return False`, or in the ordered mode `return Err(...)`."""
        if not self.ordered:
            return "return False"
        if not segs:
            return f"return Err({message!r})"
        return f"return Err({message!r}, [{', '.join(segs)}])"

    def call(self, function: str, v: str, segs: list[str], out: list[str], pad: str) -> None:
        """Lines that run a generated check on `v` and stop at its failure."""
        if not self.ordered:
            out.append(f"{pad}if not {function}({v}, ctx, depth): return False")
            return
        error = f"e{len(pad)}"
        out.append(f"{pad}{error} = {function}({v}, ctx, depth)")
        out.append(f"{pad}if {error} is not None:")
        if segs:
            out.append(f"{pad}    {error}.segments.extend(({', '.join(segs)},))")
        out.append(f"{pad}    return {error}")

    # -- leaves: pure boolean expressions -----------------------------------------------------

    def number_expr(self, rule: R.Num, v: str) -> str:
        """A finite number within bounds (`jsvalues.is_number` inlined): the bounds (at most
        +-MAX_DOUBLE) also refuse NaN and the infinities; an int is compared exactly."""
        low = -MAX_DOUBLE if rule.min is None else max(rule.min, -MAX_DOUBLE)
        high = MAX_DOUBLE if rule.max is None else min(rule.max, MAX_DOUBLE)
        floats = (
            f"(type({v}) is float and {v}.is_integer())" if rule.integer else f"type({v}) is float"
        )
        return f"(type({v}) is int or {floats}) and {low!r} <= {v} <= {high!r}"

    def leaf_expr(  # noqa: C901 - one case per kind
        self, rule: R.Rule, v: str, *, typed: bool = True
    ) -> str | None:
        """A side-effect-free test of `v`, or None when the rule needs statements. With
        `typed=False` the value is known to be a str (a choice's string branch)."""
        strings: list[str] = [f"type({v}) is str"] if typed else []
        if isinstance(rule, R.Str):
            if not rule.empty:
                strings.append(v)
            if rule.nonblank:
                strings.append(f"_trim({v})")
            return " and ".join(strings) or "True"
        if isinstance(rule, R.Key):
            return " and ".join([*strings, f"({v} in _KEYS or _key({v}))"])
        if isinstance(rule, R.Color):
            return " and ".join([*strings, f"({v} in _COLORS or _color({v}))"])
        if isinstance(rule, R.Enum):
            values = self.const(frozenset(rule.values), "e")
            return " and ".join([*strings, f"{v} in {values}"])
        if isinstance(rule, R.Pattern):
            match = self.const(re.compile(rule.pattern).search, "p")
            return " and ".join([*strings, f'"\\n" not in {v}', f"{match}({v}) is not None"])
        if isinstance(rule, R.Num):
            return self.number_expr(rule, v)
        if isinstance(rule, R.Bool):
            return f"type({v}) is bool"
        if isinstance(rule, R.Scalar):
            number = self.number_expr(R.Num(), v)
            return f"(type({v}) is str or type({v}) is bool or ({number}))"
        if isinstance(rule, R.Json):
            budget = rule.max_bytes if rule.max_bytes is not None else math.inf
            return f"_json_cost({v}) <= {self.const(budget)}"
        if isinstance(rule, R.Ref) and rule.name not in ("node", "condition", "container", "item"):
            target = self.table[rule.name]
            if isinstance(target, R.Enum):
                return self.leaf_expr(target, v, typed=typed)
        return None

    def leaf(self, rule: R.Rule) -> R.Rule:
        """The leaf a rule stands for (a reference to an enum is the enum)."""
        return self.table[rule.name] if isinstance(rule, R.Ref) else rule

    def sink(self, rule: R.Rule) -> str:
        """Count mode: where a checked leaf value goes (`Ctx` counting fields)."""
        rule = self.leaf(rule)
        if isinstance(rule, R.Str | R.Key | R.BoundKey | R.Color | R.Enum | R.Pattern):
            return "strings"
        if isinstance(rule, R.Num | R.Bool | R.Scalar):
            return "scalars"
        if isinstance(rule, R.Json | R.AnyObject):
            return "opaque"
        raise TypeError(f"no byte count for rule {rule!r}")

    # -- statements: stop at the first error --------------------------------------------------

    def check(self, rule: R.Rule, v: str, segs: list[str], out: list[str], pad: str) -> None:
        """Lines (indented by `pad`) that stop when `v` breaks `rule`; `segs` leads from the
        function's own value to `v` (innermost first)."""
        expr = self.leaf_expr(rule, v)
        if expr is not None:
            out.append(f"{pad}if not ({expr}): {self.fail(leaf_message(self.leaf(rule)), segs)}")
            if self.count:
                out.append(f"{pad}ctx.{self.sink(rule)}.append({v})")
        elif isinstance(rule, R.BoundKey):
            fail = self.fail(leaf_message(rule), segs)
            out.append(f"{pad}if type({v}) is not str: {fail}")
            out.append(f"{pad}if {v} not in _KEYS and not _key({v}):")
            out.append(f"{pad}    if _BOUND_KEY({v}) is None: {fail}")
            out.append(f"{pad}    ctx.templated = True")
            if self.count:
                out.append(f"{pad}ctx.strings.append({v})")
        elif isinstance(rule, R.AnyObject):
            self.any_object(v, segs, out, pad)
        elif isinstance(rule, R.Ref):
            target = self.table[rule.name]
            if isinstance(target, R.Choice) and rule.name not in self.named:
                self.choice(target, v, segs, out, pad)
            else:
                self.call(self.ref(rule.name), v, segs, out, pad)
        elif isinstance(rule, R.Arr):
            self.array(rule, v, segs, out, pad)
        elif isinstance(rule, R.Map):
            self.map(rule, v, segs, out, pad)
        elif isinstance(rule, R.Choice):
            self.choice(rule, v, segs, out, pad)
        elif isinstance(rule, R.Obj):
            self.call(self.obj(rule), v, segs, out, pad)
        elif isinstance(rule, R.Tagged):
            self.call(self.tagged(rule, ""), v, segs, out, pad)
        else:
            raise TypeError(f"no check for rule {rule!r}")

    def any_object(self, v: str, segs: list[str], out: list[str], pad: str) -> None:
        """Studio extension (`data`, platform `args`): any JSON object that can be stored and
        read back the same (`jsvalues.json_problem`: finite numbers, bounded nesting)."""
        out.append(f"{pad}if not isinstance({v}, dict): {self.fail('Expected object', segs)}")
        if self.ordered:
            problem = f"p{len(pad)}"
            where = ", ".join([f"*{problem}[0]", *segs])
            out.append(f"{pad}{problem} = _json_problem({v}, ordered=True)")
            out.append(f"{pad}if {problem} is not None: return Err({problem}[1], [{where}])")
        else:
            out.append(f"{pad}if _json_problem({v}) is not None: return False")
        if self.count:
            out.append(f"{pad}ctx.opaque.append({v})")

    def array(self, rule: R.Arr, v: str, segs: list[str], out: list[str], pad: str) -> None:
        out.append(f"{pad}if not {self.is_list.format(v)}: {self.fail('Expected array', segs)}")
        if self.count:
            out.append(f"{pad}ctx.lists.append({v})")
        length = self.fail("Array length out of range", segs)
        if rule.max is not None:
            out.append(f"{pad}if not {rule.min} <= len({v}) <= {rule.max}: {length}")
        elif rule.min:
            out.append(f"{pad}if len({v}) < {rule.min}: {length}")
        item, index, seen = f"x{len(pad)}", f"i{len(pad)}", f"s{len(pad)}"
        if self.ordered:  # item by item; a duplicate is reported where it is met
            inner = [index, *segs]
            if rule.unique:
                out.append(f"{pad}{seen} = set()")
            out.append(f"{pad}for {index}, {item} in enumerate({v}):")
            self.check(rule.item, item, inner, out, pad + "    ")
            if rule.unique:
                text = f"t{len(pad)}"
                out.append(f"{pad}    {text} = _stringify({item})")
                out.append(
                    f"{pad}    if {text} in {seen}: {self.fail('Duplicate array value', inner)}"
                )
                out.append(f"{pad}    {seen}.add({text})")
            return
        body: list[str] = []
        dispatched = self.dispatched(rule.item)
        if dispatched is not None:
            # The tagged union's dispatch inlined for the common case (one call per item
            # less); anything unusual goes through the dispatcher function.
            function, table, record = dispatched
            kind, check = f"k{len(pad)}", f"f{len(pad)}"
            body.append(
                f"{pad}    if type({item}) is dict and type({kind} := {item}.get('type')) is str"
                f" and ({check} := {table}.get({kind})) is not None:"
            )
            if record:
                body.append(f"{pad}        ctx.actions.append({item})")
            body.append(f"{pad}        if not {check}({item}, ctx, depth): return False")
            body.append(f"{pad}    elif not {function}({item}, ctx, depth): return False")
        else:
            self.check(rule.item, item, [], body, pad + "    ")
        out.append(f"{pad}for {item} in {v}:")
        out.extend(body)
        if rule.unique:
            out.append(f"{pad}if not _unique({v}): return False")

    def map(self, rule: R.Map, v: str, segs: list[str], out: list[str], pad: str) -> None:
        """An object of state keys: each key valid (`Invalid state key`), each value `item`."""
        key, item = f"k{len(pad)}", f"x{len(pad)}"
        out.append(f"{pad}if not {self.is_dict.format(v)}: {self.fail('Expected object', segs)}")
        if self.count:
            out.append(f"{pad}ctx.dicts.append({v})")
        if self.ordered:
            out.append(f"{pad}for {key} in _js_sort(list({v})):")
            out.append(f"{pad}    {item} = {v}[{key}]")
        else:
            out.append(f"{pad}for {key}, {item} in {v}.items():")
        bad = self.fail("Invalid state key", [key, *segs])
        out.append(
            f"{pad}    if type({key}) is not str or ({key} not in _KEYS and not _key({key})): {bad}"
        )
        self.check(rule.item, item, [key, *segs], out, pad + "    ")

    def dispatched(self, rule: R.Rule) -> tuple[str, str, bool] | None:
        """(dispatcher function, its variant table, whether it records actions) when `rule`
        is a reference to a tagged union (nodes, actions, ...)."""
        if not isinstance(rule, R.Ref):
            return None
        if rule.name != "node" and not isinstance(self.table[rule.name], R.Tagged):
            return None
        function = self.ref(rule.name)
        table, record = self.dispatch[function]
        return function, table, record

    def options(self, rule: R.Choice) -> list[R.Rule]:
        """The options as candidates: references to choices of strings only inlined (the
        first candidate's error stays the same, one call level less per value), other
        references resolved to their string leaves."""
        out: list[R.Rule] = []
        for option in rule.options:
            if isinstance(option, R.Ref):
                target = self.table[option.name]
                if isinstance(target, R.Choice) and not any(
                    isinstance(o, R.Obj | R.Num) for o in target.options
                ):
                    out.extend(self.options(target))
                    continue
                if not isinstance(target, R.Enum | R.Str | R.Color):
                    raise TypeError(f"choice option {option!r} has no check")
                option = target
            out.append(option)
        return out

    def choice(self, rule: R.Choice, v: str, segs: list[str], out: list[str], pad: str) -> None:
        """AutoMobile's choice: the candidates of the value's JSON type (objects, numbers,
        strings), valid when one accepts it, else the first candidate's error; no candidate
        of its type is `Invalid union value`."""
        strings: list[tuple[str, R.Rule]] = []
        numbers: list[tuple[str, R.Rule]] = []
        objects: list[str] = []
        options = self.options(rule)
        if self.count and sum(isinstance(o, R.Obj) for o in options) > 1:
            # A failing object option could have collected parts of the value.
            raise TypeError(f"choice {rule!r} has several object options")
        for option in options:
            if isinstance(option, R.Obj):
                objects.append(self.obj(option))
            elif isinstance(option, R.Num):
                numbers.append((f"({self.number_expr(option, v)})", option))
            else:
                expr = self.leaf_expr(option, v, typed=False)
                if expr is None or not isinstance(option, R.Str | R.Key | R.Color | R.Enum):
                    raise TypeError(f"choice option {option!r} has no check")
                strings.append((f"({expr})", option))
        if not self.ordered:  # any-of: set lookups (enums) first, pattern tests last
            strings.sort(key=lambda pair: not isinstance(pair[1], R.Enum))
        kind = f"t{len(pad)}"
        out.append(f"{pad}{kind} = type({v})")
        branches = [
            (f"{kind} is str", strings, "strings"),
            (f"{kind} is int or {kind} is float", numbers, "scalars"),
        ]
        first = True
        for test, tests, sink in branches:
            if not tests:
                continue
            message = leaf_message(tests[0][1])
            either = " or ".join(expr for expr, _ in tests)
            out.append(f"{pad}{'if' if first else 'elif'} {test}:")
            out.append(f"{pad}    if not ({either}): {self.fail(message, segs)}")
            if self.count:
                out.append(f"{pad}    ctx.{sink}.append({v})")
            first = False
        if objects:
            out.append(f"{pad}{'if' if first else 'elif'} isinstance({v}, dict):")
            self.objects_branch(objects, v, segs, out, pad + "    ")
            first = False
        if first:
            out.append(f"{pad}{self.fail('Invalid union value', segs)}")
        else:
            out.append(f"{pad}else: {self.fail('Invalid union value', segs)}")

    def objects_branch(
        self, objects: list[str], v: str, segs: list[str], out: list[str], pad: str
    ) -> None:
        """Object candidates in order: the first that accepts the value, else the first's error."""
        if not self.ordered:
            calls = " or ".join(f"{function}({v}, ctx, depth)" for function in objects)
            out.append(f"{pad}if not ({calls}): return False")
            return
        if len(objects) == 1:
            self.call(objects[0], v, segs, out, pad)
            return
        first = f"e{len(pad)}"
        out.append(f"{pad}{first} = {objects[0]}({v}, ctx, depth)")
        tests = " and ".join(f"{function}({v}, ctx, depth) is not None" for function in objects[1:])
        out.append(f"{pad}if {first} is not None and {tests}:")
        if segs:
            out.append(f"{pad}    {first}.segments.extend(({', '.join(segs)},))")
        out.append(f"{pad}    return {first}")

    # -- functions ----------------------------------------------------------------------------

    def ref(self, name: str) -> str:
        """The function checking a reference, with its counters (node, condition, ...)."""
        found = self.named.get(name)
        if found is not None:
            return found
        if name == "node":
            return self.node_dispatch()
        target = self.table[name]
        if name in ("condition", "container"):
            function = self.named[name] = self.fresh(f"ref_{name}_")
            counter, limit, what = (
                ("cond_depth", R.MAX_CONDITION_DEPTH, "Condition")
                if name == "condition"
                else ("sel_depth", R.MAX_SELECTOR_DEPTH, "Selector")
            )
            assert isinstance(target, R.Obj)
            inner = self.obj(target)
            self.functions.append(
                f"def {function}(value, ctx, depth):\n"
                f"    level = ctx.{counter} + 1\n"
                f"    if level > {limit}: {self.fail(f'{what} depth limit exceeded')}\n"
                f"    ctx.{counter} = level\n"
                f"    result = {inner}(value, ctx, depth)\n"
                f"    ctx.{counter} = level - 1\n"
                f"    return result\n"
            )
        elif name == "item":
            function = self.named[name] = self.fresh(f"ref_{name}_")
            assert isinstance(target, R.Obj)
            inner = self.obj(target)
            self.functions.append(
                f"def {function}(value, ctx, depth):\n"
                f"    if isinstance(value, dict):\n"
                f"        uses = _slot_uses(value.get('image'))\n"
                f"        if uses:\n"
                f"            ctx.images += uses\n"
                f"            if ctx.images > {R.MAX_IMAGES}:"
                f" {self.fail('Image limit exceeded', [repr('image')])}\n"
                f"    return {inner}(value, ctx, depth)\n"
            )
        elif isinstance(target, R.Obj):
            function = self.named[name] = self.fresh(f"obj_{name}_")
            self.obj(target, function=function)
        elif isinstance(target, R.Tagged):
            function = self.named[name] = self.fresh(f"tagged_{name}_")
            self.tagged(target, name, function)
        else:
            function = self.named[name] = self.fresh(f"ref_{name}_")
            body: list[str] = []
            self.check(target, "value", [], body, "    ")
            self.functions.append(
                f"def {function}(value, ctx, depth):\n"
                + "\n".join(body)
                + f"\n    return {'None' if self.ordered else 'True'}\n"
            )
        return function

    def groups(
        self, fields: dict[str, R.Field], skip: str | None
    ) -> tuple[dict[str, int], list[tuple[str, bool]]]:
        """Field codes and the checks they dispatch to: fields with the same check share one
        code (one branch of the `if c < k` tree)."""
        if self.count and not all(_IDENTIFIER(key) for key in fields):
            raise TypeError("counted_bytes assumes field names that JSON writes unescaped")
        segs = [] if not self.ordered else ["key"]
        groups: dict[tuple[str, bool], list[str]] = {}
        if skip is not None:  # the tag, checked by the dispatcher (code 0)
            assert skip in fields
            groups["ctx.strings.append(v)" if self.count else "pass", False] = [skip]
        for key, spec in fields.items():
            if key == skip:
                continue
            body: list[str] = []
            self.check(spec.rule, "v", segs, body, "")
            required = not spec.optional and not self.ordered
            if required:
                body.append("seen += 1")
            groups.setdefault(("\n".join(body), required), []).append(key)
        codes = {key: index for index, keys in enumerate(groups.values()) for key in keys}
        return codes, list(groups)

    def fields(self, rule: R.Obj, skip: str | None, out: list[str]) -> None:
        """The loop over an object's keys: unknown keys fail, each field's check, required
        keys present. Quick: the present keys in any order, required keys counted. Ordered:
        AutoMobile's order (sorted present and declared keys), the first error."""
        fields = rule.fields
        codes, leaves = self.groups(fields, skip)
        get = self.const(codes.get, "get")
        bodies = [body for body, _ in leaves]
        if self.ordered:
            declared = self.const(frozenset(fields), "k")
            required = self.const(frozenset(k for k, f in fields.items() if not f.optional), "k")
            out.append(f"    if value.keys() >= {required}:")
            out.append("        keys = sorted(value)  # every required key is present")
            out.append("    else:")
            out.append(f"        keys = _js_sort([*value, *({declared} - value.keys())])")
            out.append("    for key in keys:")
            out.append(f"        c = {get}(key)")
            unknown = self.fail("Unknown property", [f"_first_unknown(value, key, {declared})"])
            out.append(f"        if c is None: {unknown}")
            out.append("        v = value.get(key, _MISSING)")
            out.append("        if v is _MISSING:")
            out.append(
                f"            if key in {required}: {self.fail('Required property', ['key'])}"
            )
            out.append("            continue")
            self.tree(bodies, 0, len(bodies), out, "        ")
            return
        count = sum(1 for key, spec in fields.items() if not spec.optional and key != skip)
        if count:
            out.append("    seen = 0")
        out.append("    for key, v in value.items():")
        out.append(f"        c = {get}(key)")
        out.append("        if c is None: return False")
        if skip is None or self.count:
            self.tree(bodies, 0, len(bodies), out, "        ")
        elif len(bodies) > 1:  # the tag (code 0) was checked by the dispatcher
            out.append("        if c:")
            self.tree(bodies, 1, len(bodies), out, "            ")
        if count:
            out.append(f"    if seen != {count}: return False")

    def tree(self, leaves: list[str], low: int, high: int, out: list[str], pad: str) -> None:
        if high - low == 1:
            out.extend(pad + line for line in leaves[low].splitlines() or ["pass"])
            return
        middle = (low + high) // 2
        out.append(f"{pad}if c < {middle}:")
        self.tree(leaves, low, middle, out, pad + "    ")
        out.append(f"{pad}else:")
        self.tree(leaves, middle, high, out, pad + "    ")

    def constraint(self, rule: R.Obj, out: list[str]) -> None:
        """Object-level constraints after the fields, in AutoMobile's order (`objectConstraint`,
        `formConstraint`)."""

        def count(keys: tuple[str, ...]) -> str:
            return " + ".join(f"({key!r} in value)" for key in keys)

        if rule.binding:
            fail = self.fail("Exactly one of pager or stateKey is required", [repr("pager")])
            out.append(f"    if ('pager' in value) == ('stateKey' in value): {fail}")
        if rule.exclusive:
            fail = self.fail(
                "Exactly one container selector is required", [repr(rule.exclusive[0])]
            )
            out.append(f"    if {count(rule.exclusive)} != 1: {fail}")
        if rule.exactly_one:
            listed = ", ".join(rule.exactly_one)
            fail = self.fail(f"Exactly one of {listed} is required", [repr(rule.exactly_one[0])])
            out.append(f"    if {count(rule.exactly_one)} != 1: {fail}")
        for trigger, dependents in rule.dependents:
            listed = ", ".join(dependents)
            out.append(f"    present = {count(dependents)}")
            out.append(f"    if {trigger!r} not in value:")
            first = f"_present(value, {dependents!r}, 0)"
            out.append(f"        if present: {self.fail(f'Requires {trigger}', [first])}")
            second = f"_present(value, {dependents!r}, 1)"
            fail = self.fail(f"Exactly one of {listed} is required", [second])
            out.append(f"    elif present != 1: {fail}")
        if rule.at_least_one:
            out.append(f"    if not value: {self.fail('At least one selector field is required')}")

    def obj(
        self,
        rule: R.Obj,
        skip: str | None = None,
        prologue: tuple[str, ...] = (),
        function: str | None = None,
    ) -> str:
        cache_key = (id(rule), skip, prologue)
        found = self.objects.get(cache_key)
        if found is not None:
            return found
        function = function or self.fresh("obj")
        self.objects[cache_key] = function
        lines = [f"def {function}(value, ctx, depth):"]
        lines.extend(prologue)
        if skip is None:  # else the dispatcher of the tagged union checked the type
            lines.append(
                f"    if not {self.is_dict.format('value')}: {self.fail('Expected object')}"
            )
        if self.count:
            lines.append("    ctx.dicts.append(value)")
        self.fields(rule, skip, lines)
        self.constraint(rule, lines)
        lines.append(f"    return {'None' if self.ordered else 'True'}")
        self.functions.append("\n".join(lines) + "\n")
        return function

    def table_of(self, name: str, functions: dict[str, str]) -> None:
        """A dict from names to generated functions, defined after every function."""
        entries = ", ".join(f"{key!r}: {function}" for key, function in functions.items())
        self.tables.append(f"{name} = {{{entries}}}")

    def tagged(self, rule: R.Tagged, name: str, function: str | None = None) -> str:
        function = function or self.fresh(f"tagged_{name}_")
        table = self.fresh("_variants")
        self.dispatch[function] = (table, name == "action")
        variants = {kind: self.obj(variant, skip="type") for kind, variant in rule.variants.items()}
        self.table_of(table, variants)
        record = "    ctx.actions.append(value)\n" if name == "action" else ""
        unknown = self.fail("Unknown or missing discriminator", [repr("type")])
        self.functions.append(
            f"def {function}(value, ctx, depth):\n"
            f"    if not {self.is_dict.format('value')}: {self.fail('Expected object')}\n"
            f"    kind = value.get('type')\n"
            f"    check = {table}.get(kind) if type(kind) is str else None\n"
            f"    if check is None: {unknown}\n"
            f"{record}"
            f"    return check(value, ctx, depth)\n"
        )
        return function

    def node_limits(self) -> list[str]:
        """A node's first checks (AutoMobile's `visitReference` for `node`): counted, then the
        node and depth limits (one test when only validity counts)."""
        lines = ["    nodes = ctx.nodes", "    nodes.append(value)"]
        if not self.ordered:
            lines.append(
                f"    if len(nodes) > {R.MAX_NODES} or depth >= {R.MAX_DEPTH}: return False"
            )
            return lines
        lines.append(f"    if len(nodes) > {R.MAX_NODES}: {self.fail('Node limit exceeded')}")
        lines.append(f"    if depth >= {R.MAX_DEPTH}: {self.fail('Tree depth limit exceeded')}")
        return lines

    def node_kind(self, kind: str, variant: R.Obj) -> list[str]:
        """What a node of a known type adds: its images, the marks the code rules read, its
        repeat; then its children are one level deeper."""
        lines: list[str] = []
        if kind == "image":
            lines.append("    ctx.images += max(1, _slot_uses(value.get('asset')))")
            lines.append(f"    if ctx.images > {R.MAX_IMAGES}: {self.fail('Image limit exceeded')}")
        if kind in MARKED_NODES:  # `nodes` is local where the limits were checked in this function
            nodes = "ctx.nodes" if self.ordered else "nodes"
            lines.append(f"    ctx.marked.append(len({nodes}) - 1)")
        if "repeat" in variant.fields:
            lines.append("    if 'repeat' in value: ctx.repeats += 1")
        lines.append("    depth += 1")
        return lines

    def node_dispatch(self) -> str:
        """A node: its type picks a variant function. Ordered: the limits first, then the
        type (as upstream); quick: each variant function counts and limits its node."""
        function = "node"
        self.named["node"] = function
        rule = self.table["node"]
        assert isinstance(rule, R.Tagged)
        variants: dict[str, str] = {}
        table = self.fresh("_nodes")
        self.dispatch[function] = (table, False)
        for kind, variant in rule.variants.items():
            prologue = self.node_kind(kind, variant)
            if not self.ordered:
                prologue = [*self.node_limits(), *prologue]
            variants[kind] = self.obj(variant, skip="type", prologue=tuple(prologue))
        self.table_of(table, variants)
        limits = "\n".join(self.node_limits()) + "\n" if self.ordered else ""
        unknown = self.fail("Unknown or missing discriminator", [repr("type")])
        self.functions.append(
            "def node(value, ctx, depth):\n"
            f"    if not {self.is_dict.format('value')}: {self.fail('Expected object')}\n"
            f"{limits}"
            "    kind = value.get('type')\n"
            f"    check = {table}.get(kind) if type(kind) is str else None\n"
            "    if check is None:\n"
            "        if kind == 'use': raise UseNode\n"
            f"        {unknown}\n"
            "    return check(value, ctx, depth)\n"
        )
        return function

    def source(self) -> str:
        spec = self.ref("spec")
        node = self.ref("node")
        self.functions.append("\n".join([*self.tables, f"SPEC = {spec}", f"NODE = {node}", ""]))
        return "\n\n".join(self.functions)


_BUILT: dict[str, dict[str, Any]] = {}


def _build(mode: Mode) -> dict[str, Any]:
    built = _BUILT.get(mode)
    if built is None:
        generator = _Generator(R.definitions(), mode)
        text = generator.source()
        built = generator.env
        exec(compile(text, f"<studio.spec.structure {mode}>", "exec"), built)
        built["__source__"] = text
        _BUILT[mode] = built
    return built


def spec_check(mode: Mode = "quick") -> Check:
    """The check of a whole spec in `mode` (generated on first use)."""
    check: Check = _build(mode)["SPEC"]
    return check


def node_check(mode: Mode = "quick") -> Check:
    """The check of one node in `mode`, counting like a node met in a spec."""
    check: Check = _build(mode)["NODE"]
    return check


def source(mode: Mode = "quick") -> str:
    """The generated source of a mode (for reading and debugging)."""
    text: str = _build(mode)["__source__"]
    return text
