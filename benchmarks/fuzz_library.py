"""Deep fuzzing of the bundle reader and the library store, on demand (issue 17.8; the bounded
version runs in CI as tests/library/test_fuzz.py).

Run: `.venv/bin/python benchmarks/fuzz_library.py [--seconds 600] [--keep DIR]`.
Rounds of three kinds until the time is up, every case checked against the properties in
tests/helpers/hostile_bundles.py:

- hostile bundles (odd names and modes, hostile manifests and specs, extra entries, byte damage,
  truncation, noise): read whole or refused in one line, nothing written when refused, what is
  imported reads back the same and exports to a bundle that reads back;
- hostile spec text (huge numbers, NaN, lone surrogates, a BOM, deep nesting, duplicate keys,
  cuts) in an otherwise good bundle;
- sequences of library operations with hostile names, specs, extras, thumbnails and pasted text:
  each works or is refused in one line without a change, and the library reopens clean.

Prints the cases run per kind, the failures by kind with the first message, and the slowest
case; a failing input is written to `--keep` (default: a temp folder) for reproduction.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from studio.library.bundle import bundle_bytes  # noqa: E402
from tests.helpers.hostile_bundles import (  # noqa: E402
    hostile_bundles,
    hostile_texts,
    library_ops,
    problems_of_bundle,
    problems_of_ops,
    zip_of,
)
from tests.library.helpers import SPEC  # noqa: E402

ROUND = settings(
    max_examples=50,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


class Run:
    def __init__(self, keep: Path) -> None:
        self.cases: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.first: dict[str, str] = {}
        self.slowest = (0.0, "")
        self.keep = keep

    def check(self, kind: str, case: Any, problems: Callable[[], list[str]]) -> None:
        start = time.perf_counter()
        found = problems()
        took = time.perf_counter() - start
        self.cases[kind] += 1
        if took > self.slowest[0]:
            self.slowest = (took, kind)
        if found:
            self.failures[kind] += 1
            self.first.setdefault(kind, found[0][:300])
            name = f"{kind}-{self.failures[kind]}"
            path = self.keep / (name + (".zip" if isinstance(case, bytes) else ".json"))
            if isinstance(case, bytes):
                path.write_bytes(case)
            else:
                path.write_text(json.dumps(case, default=repr, ensure_ascii=True))


def _bundle_round(run: Run) -> None:
    @ROUND
    @given(hostile_bundles())
    def prop(data: bytes) -> None:
        run.check("bundle", data, lambda: problems_of_bundle(data))

    prop()


def _spec_round(run: Run) -> None:
    manifest = b'{"format": 1, "id": "counter", "name": "C", "createdBy": "f"}'

    @ROUND
    @given(hostile_texts(SPEC))
    def prop(text: str) -> None:
        data = zip_of(
            [
                ("manifest.json", manifest, 0o100644),
                ("spec.json", text.encode("utf-8", "surrogatepass"), 0o100644),
            ]
        )
        run.check("spec in bundle", data, lambda: problems_of_bundle(data))

    prop()


def _ops_round(run: Run) -> None:
    @settings(ROUND, max_examples=20)
    @given(library_ops())
    def prop(ops: list[tuple[Any, ...]]) -> None:
        run.check("library ops", ops, lambda: problems_of_ops(ops))

    prop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="fuzz-library-"))
    keep.mkdir(parents=True, exist_ok=True)
    run = Run(keep)
    assert problems_of_bundle(bundle_bytes(SPEC, "Counter")) == []  # the baseline is clean
    started = time.monotonic()
    rounds = 0
    while time.monotonic() - started < args.seconds:
        for one in (_bundle_round, _spec_round, _ops_round):
            one(run)
        rounds += 1
    elapsed = time.monotonic() - started
    total = sum(run.cases.values())
    print(f"fuzz_library: {total} cases in {elapsed:.0f} s ({rounds} rounds)")
    for kind, count in sorted(run.cases.items()):
        failed = run.failures[kind]
        line = f"  {kind}: {count} cases, {failed} failures"
        print(line + (f" (first: {run.first[kind]})" if failed else ""))
    print(f"  slowest case: {run.slowest[0]:.2f} s ({run.slowest[1]})")
    if run.failures:
        print(f"  failing inputs kept in {keep}")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
