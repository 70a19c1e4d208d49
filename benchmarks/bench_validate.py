"""Benchmark: validating the largest spec the limits allow, against `json.loads` of its bytes.

Run on demand: `.venv/bin/python benchmarks/bench_validate.py`. Prints the median times and
the median ratios with their quartiles (the requirement: a full validation costs at most 3x
`json.loads` of the same bytes; an incremental one-node replace is a small fraction of a full
validation). Timings come in back-to-back pairs so that a loaded machine skews both sides.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from studio.spec.incremental import CachedValidation  # noqa: E402
from studio.spec.rules import MAX_NODES, MAX_SPEC_BYTES  # noqa: E402
from studio.spec.validator import validate  # noqa: E402

STYLE = {
    "padding": {"top": 8, "bottom": 8, "start": 16, "end": 16},
    "background": "surfaceContainer",
    "cornerRadius": "medium",
    "color": {"light": "#1B1B1F", "dark": "#E3E2E6"},
}


def _card(index: int, filler: str) -> dict[str, Any]:
    """A card of 9 nodes (with itself) using most node kinds, actions and conditions."""
    return {
        "type": "card",
        "id": f"card_{index}",
        "variant": "outlined",
        "style": STYLE,
        "visibleWhen": {"key": "show_all", "equals": True},
        "children": [
            {
                "type": "text",
                "text": f"Item {index}: {filler}",
                "style": {"textStyle": "bodyMedium", "maxLines": 3, "overflow": "ellipsis"},
            },
            {
                "type": "row",
                "style": {"arrangement": "spaceBetween", "alignment": "center"},
                "children": [
                    {"type": "icon", "name": "favorite", "variant": "outlined"},
                    {"type": "switch", "stateKey": "enabled", "label": f"Enable {index}"},
                    {"type": "chip", "label": "Filter", "variant": "filter", "stateKey": "on"},
                ],
            },
            {
                "type": "button",
                "label": f"Open {index}",
                "variant": "tonal",
                "icon": "open_in_new",
                "onTap": [
                    {"type": "setState", "key": "selected", "value": f"item_{index}"},
                    {"type": "increment", "key": "count", "by": 1},
                    {"type": "emit", "name": "open", "payload": {"index": index, "tags": ["a"]}},
                ],
                "styleWhen": [
                    {"when": {"key": "count", "gt": 3}, "style": {"alpha": 0.5}},
                ],
            },
            {
                "type": "listItem",
                "headline": f"Row {index}",
                "supporting": filler[:40],
                "leadingIcon": "person",
                "trailing": {"type": "checkbox", "stateKey": "on"},
            },
            {"type": "divider"},
        ],
    }


def largest_spec() -> dict[str, Any]:
    """A valid spec with as many nodes as allowed (2,000) and text filling it to ~1 MiB."""
    state = {"show_all": True, "enabled": False, "on": True, "selected": "", "count": 0}
    spec: dict[str, Any] = {
        "id": "bench",
        "window": {"placement": {"type": "fullscreen"}},
        "theme": {"mode": "light", "colors": {"seed": "#6750A4"}},
        "state": state,
        "root": {"type": "column", "children": []},
    }
    per_card = 9
    cards = (MAX_NODES - 1) // per_card
    filler_len = 1
    for _ in range(2):  # size the filler so the whole spec lands just under the byte limit
        spec["root"]["children"] = [_card(i, "x" * filler_len) for i in range(cards)]
        size = len(json.dumps(spec, separators=(",", ":")).encode())
        filler_len = max(1, filler_len + (MAX_SPEC_BYTES - 4096 - size) // cards)
    spec["root"]["children"] = [_card(i, "lorem " * (filler_len // 6)) for i in range(cards)]
    rest = MAX_NODES - 1 - cards * per_card
    spec["root"]["children"].extend({"type": "spacer"} for _ in range(rest))
    return spec


def paired_ratio(
    fn: Callable[[], object], base: Callable[[], object], runs: int = 61
) -> tuple[float, float, float, float, float]:
    """(median time of fn, of base, median of per-pair ratios, its lower and upper quartile).
    Each pair runs back to back (alternating which goes first), so load from other processes
    and cache warmth affect both sides of a ratio alike; one unmeasured pair warms up first."""
    fn()
    base()
    fn_times, base_times, ratios = [], [], []
    clock = time.perf_counter
    for run in range(runs):
        if run % 2:
            start = clock()
            fn()
            middle = clock()
            base()
            end = clock()
            fn_time, base_time = middle - start, end - middle
        else:
            start = clock()
            base()
            middle = clock()
            fn()
            end = clock()
            base_time, fn_time = middle - start, end - middle
        fn_times.append(fn_time)
        base_times.append(base_time)
        ratios.append(fn_time / base_time)
    low, _, high = statistics.quantiles(ratios, n=4)
    return (
        statistics.median(fn_times),
        statistics.median(base_times),
        statistics.median(ratios),
        low,
        high,
    )


def main() -> int:
    spec = largest_spec()
    text = json.dumps(spec, indent=1).encode()
    if len(text) > MAX_SPEC_BYTES:  # as the library writes large specs: compact
        text = json.dumps(spec, separators=(",", ":")).encode()
    result = validate(text)
    assert result.ok, result
    nodes = sum(1 for _ in _nodes(spec["root"]))
    print(f"spec: {nodes} nodes, {len(text):,} bytes")

    parsed = json.loads(text)
    full_bytes, loads, *bytes_ratio = paired_ratio(lambda: validate(text), lambda: json.loads(text))
    full_dict, _, *dict_ratio = paired_ratio(lambda: validate(parsed), lambda: json.loads(text))
    print(f"json.loads(bytes)    {loads * 1e3:8.2f} ms")
    print(
        f"validate(bytes)      {full_bytes * 1e3:8.2f} ms   ratio {_ratio(bytes_ratio)} json.loads"
    )
    print(f"validate(dict)       {full_dict * 1e3:8.2f} ms   ratio {_ratio(dict_ratio)} json.loads")

    cached = CachedValidation(parsed)
    assert cached.result.ok and cached.incremental
    address = "root.children[100].children[2]"
    new_node = {"type": "button", "label": "Replaced", "onTap": [{"type": "toggle", "key": "on"}]}
    assert cached.replace(address, new_node).ok
    incremental, _, *replace_ratio = paired_ratio(
        lambda: cached.replace(address, new_node), lambda: validate(parsed)
    )
    print(
        f"replace one node     {incremental * 1e3:8.3f} ms   "
        f"ratio {_ratio(replace_ratio, '.4f')} a full validate(dict)"
    )
    return 0


def _ratio(ratio: list[float], spec: str = "5.2f") -> str:
    """`median x (quartiles low-high)`."""
    middle, low, high = ratio
    return f"{middle:{spec}}x (quartiles {low:{spec}}-{high:{spec}})"


def _nodes(node: dict[str, Any]) -> Any:
    yield node
    for child in node.get("children", []):
        yield from _nodes(child)


if __name__ == "__main__":
    raise SystemExit(main())
