"""Preview render speed: first render of a 2,000-node spec, re-render after a one-node patch
(target: under 16.7 ms and at most a tenth of the full render), and memory with the spec open.

Run: `.venv/bin/python benchmarks/bench_render.py` (offscreen, software scene graph).
"""

from __future__ import annotations

import copy
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROWS = 333  # root scroll + column + 333 rows x (row + 5 children) = 2,000 nodes


def big_spec() -> dict[str, Any]:
    rows = []
    for i in range(ROWS):
        rows.append(
            {
                "type": "row",
                "style": {"spacing": 8, "padding": {"start": 16, "end": 16}},
                "children": [
                    {"type": "icon", "name": "star"},
                    {"type": "text", "text": f"Item {i}", "style": {"weight": 1}},
                    {"type": "text", "text": "{count}"},
                    {"type": "button", "label": "Go", "variant": "tonal",
                     "onTap": [{"type": "increment", "key": "count"}]},
                    {"type": "switch", "stateKey": f"on{i % 8}"},
                ],
            }
        )  # fmt: skip
    return {
        "id": "bench",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"count": 0, **{f"on{i}": False for i in range(8)}},
        "root": {
            "type": "scroll",
            "child": {"type": "column", "style": {"width": "fill"}, "children": rows},
        },
    }


def count_nodes(node: dict[str, Any]) -> int:
    kids = node.get("children") or ([node["child"]] if "child" in node else [])
    return 1 + sum(count_nodes(k) for k in kids)


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


ADDRESS = "root.child.children[{}].children[1]"


def shared_edit(spec: dict[str, Any], i: int) -> tuple[dict[str, Any], list[str]]:
    """Row (i*37 % ROWS)'s label replaced through `apply_patch` (unchanged subtrees shared)."""
    from studio.spec.patch import apply_patch

    node = {"type": "text", "text": f"Edited {i}", "style": {"weight": 1}}
    op = {"op": "replaceNode", "address": ADDRESS.format((i * 37) % ROWS), "node": node}
    result = apply_patch(spec, [op])
    return result.spec, list(result.changed)


def copied_edit(spec: dict[str, Any], i: int) -> tuple[dict[str, Any], list[str]]:
    """The same edit on a deep copy (no subtree shared with the previous spec)."""
    row = (i * 37) % ROWS
    edited = copy.deepcopy(spec)
    edited["root"]["child"]["children"][row]["children"][1]["text"] = f"Edited {i}"
    return edited, [ADDRESS.format(row)]


def measure_patches(
    scene: Any, spec: dict[str, Any], edit: Callable[[dict[str, Any], int], Any]
) -> dict[str, list[float]]:
    """30 one-node patches on a scene showing `spec`: apply, frame and total times (ms) and
    the delegates each rebuilt. The edits are made before the clock starts."""
    from studio.preview.render import settle

    scene.show(spec)
    scene.grab()
    out: dict[str, list[float]] = {"patch": [], "apply": [], "frame": [], "created": []}
    current = spec
    for i in range(30):
        edited, changed = edit(current, i)
        made = scene.controller.delegates_created
        t0 = time.perf_counter()
        scene.controller.apply_change(edited, changed)
        t1 = time.perf_counter()
        settle(1)
        scene.view.grabWindow()
        t2 = time.perf_counter()
        out["apply"].append((t1 - t0) * 1000)
        out["frame"].append((t2 - t1) * 1000)
        out["patch"].append((t2 - t0) * 1000)
        out["created"].append(scene.controller.delegates_created - made)
        current = edited
    return out


def main() -> None:
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])
    from studio.preview.render import HeadlessScene, settle
    from studio.preview.scene import prepare_quick

    prepare_quick()
    spec = big_spec()
    nodes = count_nodes(spec["root"])
    rss_before = rss_mib()

    # Warm-up (QML compilation of every node type, fonts), then the measured first render.
    warm = HeadlessScene()
    warm.show(copy.deepcopy(spec))
    warm.grab()
    warm.close()

    scene = HeadlessScene()
    start = time.perf_counter()
    scene.show(copy.deepcopy(spec))
    scene.grab()
    full_ms = (time.perf_counter() - start) * 1000
    rss_open = rss_mib()

    # One-node patches: replace one row's label text, apply + settle + frame. The edited spec
    # comes from `apply_patch` (what the app shows: a new spec sharing every unchanged subtree
    # with the previous one); a deep-copied edit (no sharing) is measured too, for comparison.
    shared = measure_patches(scene, spec, shared_edit)
    copied = measure_patches(scene, spec, copied_edit)

    # Baseline for the frame cost alone: a grab with nothing changed.
    idle_ms = []
    for _ in range(10):
        t0 = time.perf_counter()
        settle(1)
        scene.view.grabWindow()
        idle_ms.append((time.perf_counter() - t0) * 1000)

    # The share of Runtime.replace (the Qt-free re-show the patch must go through).
    from studio.runtime import Runtime

    replace_ms = {}
    for name, edit in (("shared", shared_edit), ("copied", copied_edit)):
        runtime = Runtime(spec)
        current, times = spec, []
        for i in range(20):
            edited, _ = edit(current, i)
            t0 = time.perf_counter()
            runtime.replace(edited)
            times.append((time.perf_counter() - t0) * 1000)
            current = edited
        replace_ms[name] = times

    med = statistics.median
    print(f"nodes: {nodes}")
    print(f"first render (show + first frame): {full_ms:8.1f} ms")
    for label, result, rep in (
        ("apply_patch edit (shared subtrees)", shared, replace_ms["shared"]),
        ("deep-copied edit (nothing shared)", copied, replace_ms["copied"]),
    ):
        patch_ms = result["patch"]
        print(f"one-node patch, {label}:")
        print(
            f"  apply_change + frame: median {med(patch_ms):6.2f} ms, "
            f"p90 {sorted(patch_ms)[int(len(patch_ms) * 0.9)]:6.2f} ms "
            f"(apply {med(result['apply']):.2f} ms, frame {med(result['frame']):.2f} ms; "
            f"idle frame {med(idle_ms):.2f} ms)"
        )
        print(
            f"  of which Runtime.replace: {med(rep):.2f} ms; preview's own share: "
            f"{med(patch_ms) - med(rep):.2f} ms; delegates rebuilt per patch: "
            f"{sorted(set(result['created']))}"
        )
        print(
            f"  ratio patch / full render: {med(patch_ms) / full_ms:.4f} (target <= 0.1); "
            f"target 16.7 ms: {'met' if med(patch_ms) < 16.7 else 'NOT met'}"
        )
    print(
        f"ratio shared / deep-copied edit: {med(shared['patch']) / med(copied['patch']):.2f} "
        f"(Runtime.replace alone: {med(replace_ms['shared']) / med(replace_ms['copied']):.2f})"
    )
    print(f"RSS: {rss_before:.0f} MiB before, {rss_open:.0f} MiB with the spec open "
          f"(+{rss_open - rss_before:.0f} MiB incl. Qt Quick start-up)")  # fmt: skip
    scene.close()
    del app


if __name__ == "__main__":
    main()
