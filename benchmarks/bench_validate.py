"""Benchmark: validating the largest spec the limits allow, against `json.loads` of its bytes.

Run on demand: `.venv/bin/python benchmarks/bench_validate.py`. Prints the median times and
the ratios (the requirement: a full validation costs at most 3x `json.loads` of the same bytes;
an incremental one-node replace is a small fraction of a full validation).
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


def median_time(fn: Callable[[], object], runs: int = 15) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def paired_ratio(
    fn: Callable[[], object], base: Callable[[], object], runs: int = 21
) -> tuple[float, float, float]:
    """(median time of fn, of base, median of per-pair ratios): each pair runs back to back, so
    load from other processes affects both sides of a ratio alike."""
    fn_times, base_times, ratios = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        base()
        middle = time.perf_counter()
        fn()
        end = time.perf_counter()
        base_times.append(middle - start)
        fn_times.append(end - middle)
        ratios.append((end - middle) / (middle - start))
    return statistics.median(fn_times), statistics.median(base_times), statistics.median(ratios)


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
    full_bytes, loads, ratio_bytes = paired_ratio(lambda: validate(text), lambda: json.loads(text))
    full_dict, _, ratio_dict = paired_ratio(lambda: validate(parsed), lambda: json.loads(text))
    print(f"json.loads(bytes)    {loads * 1e3:8.2f} ms")
    print(f"validate(bytes)      {full_bytes * 1e3:8.2f} ms   ratio {ratio_bytes:5.2f}x json.loads")
    print(f"validate(dict)       {full_dict * 1e3:8.2f} ms   ratio {ratio_dict:5.2f}x json.loads")

    cached = CachedValidation(parsed)
    assert cached.result.ok and cached.incremental
    address = "root.children[100].children[2]"
    new_node = {"type": "button", "label": "Replaced", "onTap": [{"type": "toggle", "key": "on"}]}
    assert cached.replace(address, new_node).ok
    incremental, full, ratio = paired_ratio(
        lambda: cached.replace(address, new_node), lambda: validate(parsed)
    )
    print(
        f"replace one node     {incremental * 1e3:8.3f} ms   ratio {ratio:6.4f}x a full validate(dict)"
    )
    return 0


def _nodes(node: dict[str, Any]) -> Any:
    yield node
    for child in node.get("children", []):
        yield from _nodes(child)


if __name__ == "__main__":
    raise SystemExit(main())
