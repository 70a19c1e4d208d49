"""Bounded fuzzing of `validate` (issue 17.8; a few seconds in CI, `benchmarks/fuzz_validate.py`
runs the same properties for long): hostile spec text (huge numbers, 1e400, lone surrogates,
duplicate keys, a byte order mark, deep nesting) and objects holding NaN, the infinities and
huge ints never make it raise; text, bytes and the parsed object agree; and whatever it accepts
can be stored and read back the same."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.hostile import (
    base_spec,
    hostile_spec_texts,
    non_json_numbers,
    problems_of_object,
    problems_of_text,
    slots,
)

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(hostile_spec_texts())
def test_hostile_text_gets_one_verdict_in_every_form(text: str) -> None:
    assert problems_of_text(text) == []


@FUZZ
@given(st.data())
def test_objects_holding_what_text_cannot_spell_get_a_result(data: st.DataObject) -> None:
    spec = base_spec(state={"v": 1}, data={"a": [1, {"b": 2}]})
    spec = copy.deepcopy(spec)
    for _ in range(data.draw(st.integers(1, 3))):
        container, key = data.draw(st.sampled_from(slots(spec)))
        container[key] = data.draw(non_json_numbers | st.sampled_from([{1, 2}, b"x", "\ud800"]))
    assert problems_of_object(spec) == []


@FUZZ
@given(st.integers(0, 4), st.integers(1, 20_000))
def test_deep_objects_get_a_result(where: int, depth: int) -> None:
    deep: Any = 0
    for _ in range(depth):
        deep = [deep] if depth % 2 else {"a": deep}
    spec = base_spec()
    [
        lambda: spec.update(data={"d": deep}),
        lambda: spec["root"].update(zz=deep),
        lambda: spec.update(state={"v": deep}),
        lambda: spec["root"]["children"][0].update(text=deep),
        lambda: spec.update(extra=deep),
    ][where]()
    assert problems_of_object(spec) == []


def test_the_corpus_survives_byte_damage(conformance_dir: Any) -> None:
    """A fixed sample of single-byte damage to every valid corpus file (the deep-fuzz script
    does this at random, for long)."""
    files = sorted((conformance_dir / "fixtures").glob("*/valid/*.json"))
    assert files
    failures: dict[str, list[str]] = {}
    for number, path in enumerate(files):
        text = path.read_text(encoding="utf-8")
        compact = json.dumps(json.loads(text))
        for at in range(number % 7, len(compact), max(1, len(compact) // 6)):
            for damage in ("", "\\ud800", "9" * 400, "{", "1e400"):
                found = problems_of_text(compact[:at] + damage + compact[at + 1 :])
                if found:
                    failures[f"{path.name}@{at}{damage[:6]!r}"] = found
    assert failures == {}
