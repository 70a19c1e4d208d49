"""The structural walk's three modes are generated from the same rule code and must agree: the
quick mode accepts exactly what the ordered (AutoMobile's order) mode accepts, with the same
counters, and the count mode's byte count of an object spec is `JSON.stringify`'s, escapes,
non-ASCII, lone surrogates and number spellings included."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.spec.incremental import CachedValidation
from studio.spec.rules import MAX_SPEC_BYTES
from studio.spec.size import NotJSON, counted_size, measure, measure_walking
from studio.spec.structure import Ctx, UseNode, spec_check
from studio.spec.validator import validate
from tests.helpers.hostile import slots

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "spec" / "valid"
BASES = [
    json.loads(p.read_text(encoding="utf-8"))
    for p in sorted(FIXTURES.glob("*.json"))
    if not p.stem.startswith("limit-nodes")
]

tricky_strings = st.sampled_from(
    ["", "a", 'say "hi"', "back\\slash", "line\nbreak", "tab\t", "\x01bell", "\x7f", "é", "😀",
     "\ud800", "\u2028", "#FF0000", "#ff000080", "primary", "fill", "home", "k", "{item.k}",
     "state_key", "a b", " ", "next", "box", "pager", "use", "image"]
)  # fmt: skip
tricky_numbers = st.sampled_from(
    [0, 1, -1, 0.5, 100.0, 1e21, 1e-7, 1.5e300, 2**70, 10**400, -0.0, 1e16, 250, 3.0e-5]
)
scalars = st.one_of(
    st.none(), st.booleans(), tricky_numbers, tricky_strings, st.floats(allow_nan=True)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tricky_strings, inner, max_size=3),
    max_leaves=5,
)


def _kin(value: Any) -> st.SearchStrategy[Any]:
    if isinstance(value, str):
        return st.sampled_from(["", " ", "\t", "x"]) | tricky_strings
    if isinstance(value, bool) or value is None:
        return st.booleans()
    if isinstance(value, int | float):
        return st.sampled_from([0, -1, 0.5, 1.5, 2.0, 1e-7]) | tricky_numbers
    return values


def _places(value: Any, out: list[Any]) -> list[Any]:
    if isinstance(value, dict | list):
        out.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            _places(item, out)
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """A valid fixture with a few values replaced, added, deleted or repeated."""
    spec = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2, 3]))):
        target = draw(st.sampled_from(_places(spec, [])))
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        op = draw(st.sampled_from(["set", "set", "delete", "add", "grow"]))
        if op == "add" or not keys:
            if isinstance(target, dict):
                target[draw(tricky_strings)] = draw(values)
            else:
                target.append(draw(values))
        elif op == "delete":
            del target[draw(st.sampled_from(keys))]
        elif op == "grow" and isinstance(target, list):
            target.extend(copy.deepcopy(target) * draw(st.integers(1, 20)))
        else:
            key = draw(st.sampled_from(keys))
            old = target[key]
            how = draw(st.sampled_from(["odd", "kin", "any"]))
            if how == "odd" and isinstance(old, str):
                target[key] = old + draw(tricky_strings)  # a valid value, made odd
            elif how == "kin":  # a value of the same JSON type, often at a boundary
                target[key] = draw(_kin(old))
            else:
                target[key] = draw(values)
    return spec


def _walk(check: Any, spec: Any, ctx: Ctx) -> bool | None:
    """True/False for valid/invalid, None when a `use` node was met (quick checks return a
    bool, the exact one an error or None)."""
    try:
        result = check(spec, ctx, 0)
    except UseNode:
        return None
    return result if isinstance(result, bool) else result is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_quick_pass_accepts_exactly_what_the_exact_walk_accepts(spec: dict[str, Any]) -> None:
    exact, quick = Ctx(), Ctx()
    exact_ok = _walk(spec_check("ordered"), spec, exact)
    quick_ok = _walk(spec_check("quick"), spec, quick)
    if exact_ok is None or quick_ok is None:  # both see the use node, or an error before it
        assert not exact_ok and not quick_ok
        return
    assert quick_ok == exact_ok
    if quick_ok:
        assert [id(n) for n in quick.nodes] == [id(n) for n in exact.nodes]
        assert quick.marked == exact.marked
        assert sorted(map(id, quick.actions)) == sorted(map(id, exact.actions))
        assert (quick.images, quick.repeats, quick.templated) == (
            exact.images,
            exact.repeats,
            exact.templated,
        )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_counting_walk_counts_bytes_like_javascript(spec: dict[str, Any]) -> None:
    ctx = Ctx()
    counted = _walk(spec_check("count"), spec, ctx)
    if not counted:
        return
    assert _walk(spec_check("quick"), spec, Ctx())  # never more lenient than the quick pass
    try:
        expected = measure(spec, exact=True)
    except NotJSON:
        with pytest.raises(NotJSON):
            counted_size(ctx)
        return
    assert counted_size(ctx) == expected
    assert measure_walking(spec) == expected  # the encoder's count and the walking count


def test_object_input_over_the_limit_by_one_byte_is_refused() -> None:
    spec = copy.deepcopy(BASES[0])
    spec["root"] = {"type": "text", "text": ""}
    room = MAX_SPEC_BYTES - measure(spec, exact=True).bytes
    spec["root"]["text"] = "é\n" * (room // 4) + "x" * (room % 4)  # 2 + 2 bytes once escaped
    assert measure(spec, exact=True).bytes == MAX_SPEC_BYTES
    assert validate(spec).ok
    spec["root"]["text"] += "x"
    assert str(validate(spec)) == "$: Spec byte limit exceeded"


@pytest.mark.parametrize(
    "text", ['say "hi"', "back\\slash", "line\nbreak\r\t\b\f", "\x01\x1f", "\x7f", "é😀", "\u2028"]
)
@pytest.mark.parametrize("number", [0, -1, 0.5, 100.0, 1e21, 1e-7, 1.5e300, 2**70, -0.0, 1e16])
def test_counted_bytes_of_escapes_and_number_spellings(text: str, number: float) -> None:
    spec = {
        "id": text,
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"n": number, "s": text, "b": False},
        "data": {text: [number, text, None, {}], "e": []},
        "root": {
            "type": "column",
            "style": {"padding": {}, "alpha": min(abs(number), 1)},
            "children": [
                {"type": "text", "text": text, "contentDescription": text * 3},
                {
                    "type": "button",
                    "label": text,
                    "onTap": [
                        {"type": "setState", "key": "n", "value": number},
                        {"type": "emit", "name": text, "payload": {text: number, "l": [text]}},
                    ],
                },
            ],
        },
    }
    ctx = Ctx()
    assert spec_check("count")(spec, ctx, 0)
    assert counted_size(ctx) == measure(spec, exact=True) == measure_walking(spec)
    assert validate(spec).ok


SUBSTITUTES: list[Any] = [
    "", " ", "x", "#FF0000", "#12345", "primary", "k", "{item.k}", "a.b", "fill", "home",
    0, -1, 0.5, 1.5, 2.0, 1e-7, 10**400, float("nan"), True, None, [], {}, {"dp": 4},
]  # fmt: skip


@pytest.mark.parametrize("base", range(len(BASES)))
def test_quick_pass_agrees_on_every_value_replaced_by_a_boundary_value(base: int) -> None:
    spec = copy.deepcopy(BASES[base])
    for container, key in slots(spec):
        original = container[key]
        for substitute in SUBSTITUTES:
            container[key] = substitute
            exact_ok = _walk(spec_check("ordered"), spec, Ctx())
            quick_ok = _walk(spec_check("quick"), spec, Ctx())
            counting_ok = _walk(spec_check("count"), spec, Ctx())
            if exact_ok is None or quick_ok is None:
                assert not exact_ok and not quick_ok
            else:
                assert quick_ok == exact_ok, (key, substitute)
            assert not counting_ok or quick_ok, (key, substitute)
        container[key] = original


@pytest.mark.parametrize(
    "where", [("state",), ("root", "style"), ("root", "style", "padding"), ("window",)]
)
def test_non_string_keys_anywhere_are_not_json(where: tuple[str, ...]) -> None:
    spec: dict[str, Any] = {
        "id": "t",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"on": True},
        "root": {"type": "spacer", "style": {"padding": {"top": 1}}},
    }
    target = spec
    for key in where:
        target = target[key]
    target[1] = 2
    assert str(validate(spec)) == "$: Expected JSON: object keys must be strings"


@pytest.mark.parametrize("argument", [float("nan"), {1, 2}, "ok", "é" * 10])
def test_incremental_replace_agrees_with_a_full_validation_on_odd_arguments(
    argument: Any,
) -> None:
    spec: dict[str, Any] = {
        "id": "t",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": ["clipboard"]},
        "root": {"type": "column", "children": [{"type": "spacer"}]},
    }
    cached = CachedValidation(spec)
    assert cached.incremental
    node = {
        "type": "button",
        "label": "x",
        "onTap": [{"type": "platform", "call": "clipboard.copy", "args": {"text": argument}}],
    }
    patched = copy.deepcopy(spec)
    patched["root"]["children"][0] = node
    assert cached.replace("root.children[0]", node) == validate(patched)


def test_warm_up_compiles_the_checks_ahead_of_the_first_validation() -> None:
    """The studio compiles the generated checks in a worker thread at start-up, so the first
    edit (validated on the GUI thread) does not pay for it."""
    import subprocess
    import sys

    code = (
        "import time; from studio.spec import structure as q; from studio.spec.validator import "
        "warm_up, validate; warm_up(); assert set(q._BUILT) == {'quick', 'count', 'ordered'}; "
        "s = {'id': 'x', 'window': {'placement': {'type': 'fullscreen'}}, "
        "'root': {'type': 'text', 'text': 'hi'}}; assert validate(s).ok; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
