"""Deep fuzzing of `validate` and the spec CLI, on demand (issue 17.8; the bounded version runs in
CI as tests/spec/test_validate_fuzz.py).

Run: `.venv/bin/python benchmarks/fuzz_validate.py [--seconds 600] [--seed 1] [--keep DIR]`.
Rounds of four kinds until the time is up, every case checked against the same properties
(tests/helpers/hostile.py: no exception, one verdict for text, bytes and the parsed object, text
that does not parse judged at `$`, whatever is accepted storable and read back the same):

- hypothesis' hostile spec texts (huge numbers, 1e400, lone surrogates, duplicate keys, a byte
  order mark, deep nesting);
- random damage to AutoMobile's valid corpus files (bytes and text: flips, cuts, hostile tokens,
  invalid UTF-8, megabytes of padding);
- objects: corpus specs holding NaN, the infinities, huge ints, sets, cycles, deep values;
- `proto-studio validate --json` on damaged files, whose verdict must be `validate(bytes)`'s.

Prints the cases run and the failures by kind, the slowest call, and keeps failing inputs in
`--keep` (default: a temp folder) for reproduction.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from studio.cli import main as cli  # noqa: E402
from studio.spec.validator import validate  # noqa: E402
from tests.helpers.hostile import (  # noqa: E402
    hostile_spec_texts,
    problems_of_object,
    problems_of_text,
    slots,
)

CORPUS = Path("/work/shared/conformance/automobile/fixtures")
TOKENS = [
    "\\ud800", "\\udfff", "9" * 5000, "-" + "1" * 400, "1e400", "-1e400", "NaN", "Infinity",
    "[" * 3000, "]", "{", "}", '"', "\\", "\n", "\t", "\ufeff", "\x00", ",", ":", "null", "01",
    '"\\ud83d"', "\u2028", "é", "😀", "1.0", "1e-7", " " * 1000,
]  # fmt: skip
ODD = [float("nan"), float("inf"), float("-inf"), 10**5000, -(10**400), {1, 2}, b"x", "\ud800"]


class Run:
    def __init__(self, keep: Path) -> None:
        self.cases: Counter[str] = Counter()
        self.failures: Counter[str] = Counter()
        self.examples: dict[str, str] = {}
        self.slowest = (0.0, "")
        self.keep = keep

    def check(self, kind: str, found: list[str], case: Any, took: float) -> None:
        self.cases[kind] += 1
        if took > self.slowest[0]:
            self.slowest = (took, f"{kind} #{self.cases[kind]}")
        if not found:
            return
        self.failures[kind] += 1
        key = found[0][:120]
        if key not in self.examples:
            self.examples[key] = kind
            path = self.keep / f"{kind}-{self.failures[kind]}.txt"
            text = case if isinstance(case, str) else repr(case)[:1_000_000]
            path.write_text(text, encoding="utf-8", errors="backslashreplace")


def _timed(fn: Any, *args: Any) -> tuple[list[str], float]:
    start = time.perf_counter()
    try:
        found = fn(*args)
    except Exception as exc:  # noqa: BLE001 - a raise is exactly what the fuzz looks for
        found = [f"raised {type(exc).__name__}: {exc}"]
    return found, time.perf_counter() - start


def hypothesis_round(run: Run, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(hostile_spec_texts())
    def one(text: str) -> None:
        found, took = _timed(problems_of_text, text)
        run.check("hypothesis-text", found, text, took)

    one()


def damaged_text(rng: random.Random, texts: list[str]) -> str:
    text = rng.choice(texts)
    if rng.random() < 0.5:
        text = json.dumps(json.loads(text), ensure_ascii=rng.random() < 0.5)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.3:
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        elif roll < 0.55:
            text = text[:at] + text[at + rng.randint(1, 8) :]
        elif roll < 0.8:
            text = text[:at] + rng.choice(TOKENS) + text[at + 1 :]
        elif roll < 0.9:
            text = text[:at] + text[at:][::-1][:16][::-1] + text[at:]
        else:
            text = text[:at] + " " * rng.randint(1, 1_100_000) + text[at:]
    return text


def corpus_round(run: Run, rng: random.Random, texts: list[str], count: int) -> None:
    for _ in range(count):
        text = damaged_text(rng, texts)
        found, took = _timed(problems_of_text, text)
        run.check("corpus-text", found, text, took)
        raw = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.2:  # invalid UTF-8 as well
            at = rng.randrange(len(raw) + 1)
            raw = raw[:at] + bytes([rng.randrange(128, 256)]) + raw[at:]
        found, took = _timed(_bytes_problems, raw)
        run.check("corpus-bytes", found, raw, took)


def _bytes_problems(raw: bytes) -> list[str]:
    result = validate(raw)
    if result.message is not None and result.message.startswith("Cannot validate"):
        return [str(result)]
    return []


def object_round(run: Run, rng: random.Random, specs: list[Any], count: int) -> None:
    for _ in range(count):
        spec = copy.deepcopy(rng.choice(specs))
        places = slots(spec)  # before any change: a cycle or a deep value has no end
        for _ in range(rng.randint(1, 3)):
            container, key = rng.choice(places)
            roll = rng.random()
            if roll < 0.6:
                container[key] = rng.choice(ODD)
            elif roll < 0.8:
                container[key] = container  # a cycle
            else:
                deep: Any = 0
                for _ in range(rng.randint(1, 30_000)):
                    deep = [deep]
                container[key] = deep
        found, took = _timed(problems_of_object, spec)
        run.check("objects", found, spec, took)


def _cli_problems(path: Path, raw: bytes) -> list[str]:
    """`proto-studio validate --json` on the file says what `validate(bytes)` says."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli(["validate", "--json", str(path)])
    line = json.loads(out.getvalue())
    result = validate(raw)
    expected = 0 if result.ok else 1
    if (code, line["valid"], line["path"]) != (expected, result.ok, result.path):
        return [f"CLI says {code} {line['path']}, validate {result}"]
    return []


def cli_round(run: Run, rng: random.Random, texts: list[str], count: int, folder: Path) -> None:
    for number in range(count):
        raw = damaged_text(rng, texts).encode("utf-8", "surrogatepass")
        path = folder / f"case-{number}.json"
        path.write_bytes(raw)
        found, took = _timed(_cli_problems, path, raw)
        run.check("cli", found, raw.decode("utf-8", "backslashreplace"), took)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="fuzz-validate-"))
    keep.mkdir(parents=True, exist_ok=True)
    files = sorted(CORPUS.glob("*/valid/*.json"))
    texts = [p.read_text(encoding="utf-8") for p in files]
    specs = [json.loads(t) for t in texts]
    rng = random.Random(args.seed)
    run = Run(keep)
    started = time.monotonic()
    rounds = 0
    with tempfile.TemporaryDirectory() as scratch:
        while time.monotonic() - started < args.seconds:
            hypothesis_round(run, 200)
            corpus_round(run, rng, texts, 200)
            object_round(run, rng, specs, 100)
            cli_round(run, rng, texts, 20, Path(scratch))
            rounds += 1
    elapsed = time.monotonic() - started
    total = sum(run.cases.values())
    print(f"fuzz_validate: {total:,} cases in {elapsed:.0f} s ({rounds} rounds, seed {args.seed})")
    for kind in sorted(run.cases):
        print(f"  {kind:16} {run.cases[kind]:8,} cases  {run.failures[kind]:5,} failures")
    print(f"  slowest call {run.slowest[0]:.3f} s ({run.slowest[1]})")
    for message, kind in run.examples.items():
        print(f"  FAIL {kind}: {message}")
    print(f"  failing inputs: {keep}" if run.examples else "  no failures")
    return 1 if run.examples else 0


if __name__ == "__main__":
    raise SystemExit(main())
