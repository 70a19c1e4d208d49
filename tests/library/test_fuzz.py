"""Bounded fuzzing of the bundle reader and the library store (issue 17.8; seconds in CI,
benchmarks/fuzz_library.py runs the same properties for as long as asked): hostile zips (odd
names and modes, bombs of bad JSON, lone surrogates, huge numbers, NaN, a BOM, deep nesting,
byte damage) are read whole or refused in one line with nothing written; hostile library
operations work or are refused in one line, change nothing when refused, and the library
reopens clean."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from tests.helpers.hostile_bundles import (
    hostile_bundles,
    hostile_texts,
    library_ops,
    problems_of_bundle,
    problems_of_ops,
)
from tests.library.helpers import SPEC

FUZZ = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(hostile_bundles())
def test_a_hostile_bundle_is_read_whole_or_refused_in_one_line(data: bytes) -> None:
    assert problems_of_bundle(data) == []


@FUZZ
@given(hostile_texts(SPEC))
def test_a_hostile_spec_in_a_good_bundle_is_read_whole_or_refused(text: str) -> None:
    from studio.library.bundle import bundle_bytes
    from tests.helpers.hostile_bundles import zip_of

    good = bundle_bytes(SPEC, "Counter")
    assert problems_of_bundle(good) == []
    entries: list[tuple[str, bytes, int]] = [
        ("manifest.json", b'{"format": 1, "id": "counter", "name": "C", "createdBy": "f"}',
         0o100644),
        ("spec.json", text.encode("utf-8", "surrogatepass"), 0o100644),
    ]  # fmt: skip
    assert problems_of_bundle(zip_of(entries)) == []


@settings(FUZZ, max_examples=25)
@given(library_ops())
def test_hostile_library_operations_fail_cleanly_and_the_library_reopens(
    ops: list[tuple[Any, ...]],
) -> None:
    assert problems_of_ops(ops) == []
