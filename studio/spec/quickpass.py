"""The quick structural pass: whether a spec has any structural error, from checking functions
generated as Python source out of the rule table.

`studio.spec.compiled` holds the exact pass (AutoMobile's key order, the first error and its
path). Most specs are valid, so validation first runs this pass, which only answers valid or
not; the exact pass runs only when it says "not". It must never accept what the exact pass
rejects, and it collects the same counters and nodes (in pre-order; its actions are in no
particular order). Its counting variant also collects what `counted_bytes` needs to size an
object spec as `JSON.stringify` would, without serialising it.

Why generated source: a closure interpreting per-field descriptors pays a dispatch chain and
a call per value, which is most of the cost of validating a large spec. Generating one plain
function per object rule, with each field's leaf test written inline (`type(v) is str and v`,
`v in ENUM`), and dispatching keys through a dict of small integers plus a balanced `if c < k`
tree, makes the walk about 2x faster. Each variant is generated and compiled once per process
on first use (under 0.1 s), from the same table as the exact pass, so the two cannot drift
apart by hand (tests/spec/test_quick_pass.py checks that they agree).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from itertools import chain
from typing import Any

from studio.spec import rules as R
from studio.spec.compiled import MARKED_NODES, Ctx, UseNode, slot_uses
from studio.spec.jsvalues import compact_bytes, js_stringify, js_trim, json_cost

__all__ = [
    "CountingCtx",
    "QuickCheck",
    "counted_bytes",
    "counting_spec",
    "quick_node",
    "quick_source",
    "quick_spec",
]

#: `check(value, ctx, depth) -> True when there is no error`; may raise UseNode.
QuickCheck = Callable[[Any, Ctx, int], bool]

_MAX_FLOAT = 1.7976931348623157e308
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").fullmatch


def _unique(values: list[Any]) -> bool:
    """No two items with the same JSON text (JavaScript spelling: 240 and 240.0 are equal)."""
    return len({js_stringify(v) for v in values}) == len(values)


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


class _Generator:
    """Writes one function per object rule, tagged union and limited reference."""

    def __init__(self, table: dict[str, R.Rule], *, count: bool = False) -> None:
        self.table = table
        #: Also collect what the byte count needs (`CountingCtx`), objects and arrays of the
        #: exact built-in types only (anything else leaves the count to json.dumps).
        self.count = count
        self.is_dict = "type({}) is dict" if count else "isinstance({}, dict)"
        self.is_list = "type({}) is list" if count else "isinstance({}, list)"
        self.env: dict[str, Any] = {
            "isinstance": isinstance,
            "type": type,
            "len": len,
            "max": max,
            "dict": dict,
            "list": list,
            "str": str,
            "int": int,
            "float": float,
            "bool": bool,
            "UseNode": UseNode,
            "_trim": js_trim,
            "_json_cost": json_cost,
            "_unique": _unique,
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

    # -- leaves: pure boolean expressions -----------------------------------------------------

    def number_expr(self, rule: R.Num, v: str) -> str:
        """A finite number within bounds: the bounds (at most +-MAX_FLOAT) also refuse NaN
        and the infinities; an int is compared exactly (`number_ok`'s huge-int case)."""
        low = -_MAX_FLOAT if rule.min is None else max(rule.min, -_MAX_FLOAT)
        high = _MAX_FLOAT if rule.max is None else min(rule.max, _MAX_FLOAT)
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
        if isinstance(rule, R.AnyObject):
            return f"isinstance({v}, dict)"
        if isinstance(rule, R.Json):
            budget = rule.max_bytes if rule.max_bytes is not None else math.inf
            return f"_json_cost({v}) <= {self.const(budget)}"
        if isinstance(rule, R.Ref) and rule.name not in ("node", "condition", "container", "item"):
            target = self.table[rule.name]
            if isinstance(target, R.Enum):
                return self.leaf_expr(target, v, typed=typed)
        return None

    def sink(self, rule: R.Rule) -> str:
        """Count mode: where a checked leaf value goes (`CountingCtx`)."""
        if isinstance(rule, R.Ref):
            rule = self.table[rule.name]
        if isinstance(rule, R.Str | R.Key | R.BoundKey | R.Color | R.Enum | R.Pattern):
            return "strings"
        if isinstance(rule, R.Num | R.Bool | R.Scalar):
            return "scalars"
        if isinstance(rule, R.Json | R.AnyObject):
            return "opaque"
        raise TypeError(f"no byte count for rule {rule!r}")

    # -- statements: `return False` on an error -----------------------------------------------

    def check(self, rule: R.Rule, v: str, out: list[str], pad: str) -> None:
        """Lines (indented by `pad`) that return False when `v` breaks `rule`."""
        expr = self.leaf_expr(rule, v)
        if expr is not None:
            out.append(f"{pad}if not ({expr}): return False")
            if self.count:
                out.append(f"{pad}ctx.{self.sink(rule)}.append({v})")
        elif isinstance(rule, R.BoundKey):
            out.append(f"{pad}if type({v}) is not str: return False")
            out.append(f"{pad}if {v} not in _KEYS and not _key({v}):")
            out.append(f"{pad}    if _BOUND_KEY({v}) is None: return False")
            out.append(f"{pad}    ctx.templated = True")
            if self.count:
                out.append(f"{pad}ctx.strings.append({v})")
        elif isinstance(rule, R.Ref):
            target = self.table[rule.name]
            if isinstance(target, R.Choice) and rule.name not in self.named:
                self.choice(target, v, out, pad)
            else:
                out.append(f"{pad}if not {self.ref(rule.name)}({v}, ctx, depth): return False")
        elif isinstance(rule, R.Arr):
            self.array(rule, v, out, pad)
        elif isinstance(rule, R.Map):
            key, item = f"k{len(pad)}", f"x{len(pad)}"
            out.append(f"{pad}if not {self.is_dict.format(v)}: return False")
            if self.count:
                out.append(f"{pad}ctx.dicts.append({v})")
            out.append(f"{pad}for {key}, {item} in {v}.items():")
            out.append(
                f"{pad}    if type({key}) is not str or ({key} not in _KEYS and not _key({key})):"
            )
            out.append(f"{pad}        return False")
            self.check(rule.item, item, out, pad + "    ")
        elif isinstance(rule, R.Choice):
            self.choice(rule, v, out, pad)
        elif isinstance(rule, R.Obj):
            out.append(f"{pad}if not {self.obj(rule)}({v}, ctx, depth): return False")
        elif isinstance(rule, R.Tagged):
            out.append(f"{pad}if not {self.tagged(rule, '')}({v}, ctx, depth): return False")
        else:
            raise TypeError(f"no quick check for rule {rule!r}")

    def array(self, rule: R.Arr, v: str, out: list[str], pad: str) -> None:
        out.append(f"{pad}if not {self.is_list.format(v)}: return False")
        if self.count:
            out.append(f"{pad}ctx.lists.append({v})")
        if rule.max is not None:
            out.append(f"{pad}if not {rule.min} <= len({v}) <= {rule.max}: return False")
        elif rule.min:
            out.append(f"{pad}if len({v}) < {rule.min}: return False")
        item = f"x{len(pad)}"
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
            self.check(rule.item, item, body, pad + "    ")
        out.append(f"{pad}for {item} in {v}:")
        out.extend(body)
        if rule.unique:
            out.append(f"{pad}if not _unique({v}): return False")

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
        """The options as the exact pass sees them (`Compiler.flat`): references to choices
        of strings only inlined, other references resolved to string leaves (the exact pass
        tries a reference only on strings; other targets are not supported here)."""
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
                    raise TypeError(f"choice option {option!r} has no quick check")
                option = target
            out.append(option)
        return out

    def choice(self, rule: R.Choice, v: str, out: list[str], pad: str) -> None:
        """Valid when any option of the value's JSON type accepts it (the exact pass reports
        the first candidate's error; validity is the same)."""
        strings: list[str] = []
        numbers: list[str] = []
        objects: list[str] = []
        if self.count and sum(isinstance(o, R.Obj) for o in self.options(rule)) > 1:
            # A failing object option could have collected parts of the value.
            raise TypeError(f"choice {rule!r} has several object options")
        for option in self.options(rule):
            if isinstance(option, R.Obj):
                objects.append(f"{self.obj(option)}({v}, ctx, depth)")
            elif isinstance(option, R.Num):
                numbers.append(f"({self.number_expr(option, v)})")
            else:
                expr = self.leaf_expr(option, v, typed=False)
                if expr is None or not isinstance(option, R.Str | R.Key | R.Color | R.Enum):
                    raise TypeError(f"choice option {option!r} has no quick check")
                # Any-of: set lookups (enums) first, pattern tests last.
                strings.insert(0 if isinstance(option, R.Enum) else len(strings), f"({expr})")
        kind = f"t{len(pad)}"
        out.append(f"{pad}{kind} = type({v})")
        branches = [
            (f"{kind} is str", strings, "strings"),
            (f"{kind} is int or {kind} is float", numbers, "scalars"),
            (f"isinstance({v}, dict)", objects, None),
        ]
        if not any(tests for _, tests, _ in branches):
            out.append(f"{pad}return False")
            return
        first = True
        for test, tests, sink in branches:
            if not tests:
                continue
            out.append(f"{pad}{'if' if first else 'elif'} {test}:")
            out.append(f"{pad}    if not ({' or '.join(tests)}): return False")
            if self.count and sink is not None:
                out.append(f"{pad}    ctx.{sink}.append({v})")
            first = False
        out.append(f"{pad}else: return False")

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
            counter, limit = (
                ("cond_depth", R.MAX_CONDITION_DEPTH)
                if name == "condition"
                else ("sel_depth", R.MAX_SELECTOR_DEPTH)
            )
            assert isinstance(target, R.Obj)
            inner = self.obj(target)
            self.functions.append(
                f"def {function}(value, ctx, depth):\n"
                f"    level = ctx.{counter} + 1\n"
                f"    if level > {limit}: return False\n"
                f"    ctx.{counter} = level\n"
                f"    ok = {inner}(value, ctx, depth)\n"
                f"    ctx.{counter} = level - 1\n"
                f"    return ok\n"
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
                f"            if ctx.images > {R.MAX_IMAGES}: return False\n"
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
            self.check(target, "value", body, "    ")
            self.functions.append(
                f"def {function}(value, ctx, depth):\n" + "\n".join(body) + "\n    return True\n"
            )
        return function

    def fields(
        self,
        fields: dict[str, R.Field],
        skip: str | None,
        counted: str | None,
        out: list[str],
        pad: str,
    ) -> None:
        """The loop over an object's present keys: unknown keys fail, fields with the same
        test share one branch of a balanced `if c < k` tree, required keys are counted."""
        if self.count and not all(_IDENTIFIER(key) for key in fields):
            raise TypeError("counted_bytes assumes field names that JSON writes unescaped")
        groups: dict[tuple[str, bool], list[str]] = {}
        if skip is not None:
            assert skip in fields
            groups["ctx.strings.append(v)" if self.count else "pass", False] = [skip]
        for key, spec in fields.items():
            if key == skip:
                continue
            body: list[str] = []
            if key == counted:  # a container's repeat, counted before it is checked
                body.append("ctx.repeats += 1")
            self.check(spec.rule, "v", body, "")
            required = not spec.optional
            if required:
                body.append("seen += 1")
            groups.setdefault(("\n".join(body), required), []).append(key)
        codes = {key: index for index, keys in enumerate(groups.values()) for key in keys}
        required_count = sum(1 for key, spec in fields.items() if not spec.optional and key != skip)
        leaves = [body for body, _ in groups]
        if required_count:
            out.append(f"{pad}seen = 0")
        out.append(f"{pad}for key, v in value.items():")
        out.append(f"{pad}    c = {self.const(codes.get, 'get')}(key)")
        out.append(f"{pad}    if c is None: return False")
        if skip is None or self.count:
            self.tree(leaves, 0, len(leaves), out, pad + "    ")
        elif len(leaves) > 1:  # the tag (code 0) was checked by the dispatcher
            out.append(f"{pad}    if c:")
            self.tree(leaves, 1, len(leaves), out, pad + "        ")
        if required_count:
            out.append(f"{pad}if seen != {required_count}: return False")

    def tree(self, leaves: list[str], low: int, high: int, out: list[str], pad: str) -> None:
        if high - low == 1:
            out.extend(pad + line for line in leaves[low].splitlines())
            return
        middle = (low + high) // 2
        out.append(f"{pad}if c < {middle}:")
        self.tree(leaves, low, middle, out, pad + "    ")
        out.append(f"{pad}else:")
        self.tree(leaves, middle, high, out, pad + "    ")

    def constraint(self, rule: R.Obj, out: list[str]) -> None:
        """Object-level constraints (which one fails first does not matter here)."""

        def count(keys: tuple[str, ...]) -> str:
            return " + ".join(f"({key!r} in value)" for key in keys)

        if rule.binding:
            out.append("    if ('pager' in value) == ('stateKey' in value): return False")
        if rule.exclusive:
            out.append(f"    if {count(rule.exclusive)} != 1: return False")
        if rule.exactly_one:
            out.append(f"    if {count(rule.exactly_one)} != 1: return False")
        for trigger, dependents in rule.dependents:
            out.append(f"    present = {count(dependents)}")
            out.append(f"    if present != 1 if {trigger!r} in value else present: return False")
        if rule.at_least_one:
            out.append("    if not value: return False")

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
            lines.append(f"    if not {self.is_dict.format('value')}: return False")
        if self.count:
            lines.append("    ctx.dicts.append(value)")
        self.fields(rule.fields, skip, "repeat" if prologue else None, lines, "    ")
        self.constraint(rule, lines)
        lines.append("    return True")
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
        self.functions.append(
            f"def {function}(value, ctx, depth):\n"
            f"    if not {self.is_dict.format('value')}: return False\n"
            f"    kind = value.get('type')\n"
            f"    check = {table}.get(kind) if type(kind) is str else None\n"
            f"    if check is None: return False\n"
            f"{record}"
            f"    return check(value, ctx, depth)\n"
        )
        return function

    def node_dispatch(self) -> str:
        """A node: its type picks a variant function that counts it (pre-order), checks the
        node and depth limits, counts images, marks the types the code rules look at."""
        function = "node"
        self.named["node"] = function
        rule = self.table["node"]
        assert isinstance(rule, R.Tagged)
        variants: dict[str, str] = {}
        table = self.fresh("_nodes")
        self.dispatch[function] = (table, False)
        for kind, variant in rule.variants.items():
            prologue = [
                "    nodes = ctx.nodes",
                "    nodes.append(value)",
                f"    if len(nodes) > {R.MAX_NODES} or depth >= {R.MAX_DEPTH}: return False",
            ]
            if kind == "image":
                prologue.append("    ctx.images += max(1, _slot_uses(value.get('asset')))")
                prologue.append(f"    if ctx.images > {R.MAX_IMAGES}: return False")
            if kind in MARKED_NODES:
                prologue.append("    ctx.marked.append(len(nodes) - 1)")
            prologue.append("    depth += 1")
            variants[kind] = self.obj(variant, skip="type", prologue=tuple(prologue))
        self.table_of(table, variants)
        self.functions.append(
            "def node(value, ctx, depth):\n"
            f"    if not {self.is_dict.format('value')}: return False\n"
            "    kind = value.get('type')\n"
            f"    check = {table}.get(kind) if type(kind) is str else None\n"
            "    if check is None:\n"
            "        if kind == 'use': raise UseNode\n"
            "        return False\n"
            "    return check(value, ctx, depth)\n"
        )
        return function

    def source(self) -> str:
        spec = self.ref("spec")
        node = self.ref("node")
        self.functions.append("\n".join([*self.tables, f"SPEC = {spec}", f"NODE = {node}", ""]))
        return "\n\n".join(self.functions)


class CountingCtx(Ctx):
    """A Ctx that also collects what the byte count of the spec needs: every string leaf
    (`strings`), number/boolean/scalar leaf (`scalars`), object (`dicts`), array (`lists`)
    and free-form JSON value (`opaque`: `data`, platform `args`, emit payloads)."""

    __slots__ = ("dicts", "lists", "opaque", "scalars", "strings")

    def __init__(self) -> None:
        super().__init__()
        self.strings: list[str] = []
        self.scalars: list[Any] = []
        self.dicts: list[dict[str, Any]] = []
        self.lists: list[list[Any]] = []
        self.opaque: list[Any] = []


_BUILT: dict[bool, dict[str, Any]] = {}


def _build(count: bool = False) -> dict[str, Any]:
    built = _BUILT.get(count)
    if built is None:
        generator = _Generator(R.definitions(), count=count)
        text = generator.source()
        built = generator.env
        exec(compile(text, f"<studio.spec.quickpass count={count}>", "exec"), built)
        built["__source__"] = text
        _BUILT[count] = built
    return built


def quick_spec() -> QuickCheck:
    """The quick check of a whole spec (generated on first use)."""
    check: QuickCheck = _build()["SPEC"]
    return check


def counting_spec() -> QuickCheck:
    """The quick check of a whole spec that also fills a `CountingCtx` (see `counted_bytes`)."""
    check: QuickCheck = _build(count=True)["SPEC"]
    return check


def quick_node() -> QuickCheck:
    """The quick check of one node, counting like a node met in a spec."""
    check: QuickCheck = _build()["NODE"]
    return check


def quick_source(count: bool = False) -> str:
    """The generated source (for reading and debugging)."""
    text: str = _build(count)["__source__"]
    return text


# Bytes that JSON.stringify escapes in a string: two bytes each (`\"`, `\n`), and those of
# them written as `\u00XX` (six bytes). UTF-8 continuation bytes are never below 0x80.
_ESCAPED = bytes(range(0x20)) + b'"\\'
_ESCAPED_LONG = bytes(c for c in range(0x20) if c not in b"\b\t\n\f\r")


def counted_bytes(ctx: CountingCtx) -> int | None:
    """UTF-8 bytes of `JSON.stringify(spec)` from what a successful counting walk collected,
    exactly; None when a string holds a lone surrogate (left to `compact_bytes`). Raises
    ValueError/TypeError for a free-form value that is not JSON, as `compact_bytes` does.

    Object keys met by the walk are declared field names or state keys (ASCII identifiers), so
    an object of n members costs 4n+1 bytes plus its key lengths; strings are escaped and
    encoded in one C pass over all of them instead of one pass per value."""
    strings = ctx.strings
    try:
        raw = "".join(strings).encode("utf-8")
    except UnicodeEncodeError:
        return None
    size = len(raw) + 2 * len(strings)
    escaped = len(raw) - len(raw.translate(None, _ESCAPED))
    if escaped:
        size += escaped + 4 * (len(raw) - len(raw.translate(None, _ESCAPED_LONG)))
    dicts = ctx.dicts
    empty = len(dicts) - sum(map(bool, dicts))
    size += len(dicts) + empty + 4 * sum(map(len, dicts))
    size += len("".join(chain.from_iterable(dicts)))
    lists = ctx.lists
    size += len(lists) + len(lists) - sum(map(bool, lists)) + sum(map(len, lists))
    for values in (ctx.scalars, ctx.opaque):
        if values:  # `[a,b]` less its brackets and commas
            size += compact_bytes(values, exact=True) - 1 - len(values)
    return size
