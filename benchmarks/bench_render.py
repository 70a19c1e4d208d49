"""Preview render speed against a baseline measured in the same run (issue 12, Speed).

Prints, with met / NOT met for each target:
- the first frame of a 2,000-node spec against the first frame of a one-node spec (at most 1.3x),
  in this process and for `proto-studio render` as a whole process (CPU time: the machine is
  shared, wall times are printed too);
- a one-node edit on that spec (under one 60 Hz frame and at most a tenth of its full render);
- memory with that spec open over an empty preview (at most 60 MiB).

Run: `.venv/bin/python benchmarks/bench_render.py [--runs N]` (offscreen, software scene graph).
"""

from __future__ import annotations

import copy
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PYCACHE = str(Path(tempfile.gettempdir()) / "proto-studio-bench-pycache")
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


def settled(scene: Any) -> None:
    """Until the scene is idle: no layout queued, no lazily measured scroll still completing."""
    from studio.preview.render import settle

    tree = getattr(scene.controller, "tree", None)
    settle(controller=scene.controller)
    while tree is not None and tree.completing:
        settle(1)
    scene.grab()


def measure_scroll(scene: Any, spec: dict[str, Any]) -> dict[str, list[float]]:
    """Wall and CPU ms per scroll step down the big spec, a tenth of a screen per step (a fast
    flick's move in one frame: rows coming into view are instantiated, those leaving released),
    each through to its frame."""
    from PySide6.QtQuick import QQuickItem

    from studio.preview.render import settle

    scene.show(copy.deepcopy(spec))
    settled(scene)
    stack = [scene.screen_item()]
    flick: QQuickItem | None = None
    while stack and flick is None:
        item = stack.pop()
        if item.inherits("QQuickFlickable"):
            flick = item
        stack.extend(item.childItems())
    assert flick is not None, "the big spec's scroll has no Flickable"
    out: dict[str, list[float]] = {"wall": [], "cpu": []}
    for i in range(1, 91):
        t0, c0 = time.perf_counter(), cpu_ms()
        flick.setProperty("contentY", i * 91.5)
        settle(1)
        scene.view.grabWindow()
        out["wall"].append((time.perf_counter() - t0) * 1000)
        out["cpu"].append(cpu_ms() - c0)
    return out


def measure_retheme(scene: Any, spec: dict[str, Any], runs: int = 8) -> list[float]:
    """CPU ms of the device's light/dark switch on the big spec, through to its frame: every
    control on screen is made again for the new theme (Controls Material does not restyle a
    live one) and the screen laid out again."""
    scene.show(copy.deepcopy(spec))
    settled(scene)
    out: list[float] = []
    for i in range(runs):
        c0 = cpu_ms()
        scene.controller.set_appearance("dark" if i % 2 == 0 else "light")
        settled(scene)
        out.append(cpu_ms() - c0)
    scene.controller.set_appearance("light")
    return out


def measure_patches(
    scene: Any, spec: dict[str, Any], edit: Callable[[dict[str, Any], int], Any]
) -> dict[str, list[float]]:
    """30 one-node patches on a scene showing `spec`: apply, frame and total times (ms, wall;
    `cpu`: the total in CPU ms) and the delegates each rebuilt. The edits are made before the
    clock starts."""
    from studio.preview.render import settle

    scene.show(spec)
    settled(scene)
    out: dict[str, list[float]] = {"patch": [], "apply": [], "frame": [], "created": [], "cpu": []}
    current = spec
    for i in range(30):
        edited, changed = edit(current, i)
        made = scene.controller.delegates_created
        t0, c0 = time.perf_counter(), cpu_ms()
        scene.controller.apply_change(edited, changed)
        t1 = time.perf_counter()
        settle(1)
        scene.view.grabWindow()
        t2 = time.perf_counter()
        out["cpu"].append(cpu_ms() - c0)
        out["apply"].append((t1 - t0) * 1000)
        out["frame"].append((t2 - t1) * 1000)
        out["patch"].append((t2 - t0) * 1000)
        out["created"].append(scene.controller.delegates_created - made)
        current = edited
    return out


def one_node_spec() -> dict[str, Any]:
    """The smallest spec: one text on the same full-screen window."""
    return {
        "id": "one",
        "window": {"placement": {"type": "fullscreen"}},
        "root": {"type": "text", "text": "Item 0"},
    }


def cpu_ms() -> float:
    """CPU time of this process (every thread), in ms: steadier than wall time on a busy box."""
    return time.process_time() * 1000


def first_frame(spec: dict[str, Any]) -> tuple[float, float, bool]:
    """(wall ms, CPU ms, complete) of a new scene's first frame of `spec`: load, then the first
    grab with no event-loop pass between. `complete`: that frame is pixel for pixel the one the
    scene shows once settled (nothing on it was still missing)."""
    from studio.preview.render import HeadlessScene, settle

    scene = HeadlessScene()
    given = copy.deepcopy(spec)
    w0, c0 = time.perf_counter(), cpu_ms()
    scene.load(given)
    image = scene.grab_now()
    out = (time.perf_counter() - w0) * 1000, cpu_ms() - c0
    settle(controller=scene.controller)
    complete = image == scene.grab()
    scene.close()
    return out[0], out[1], complete


def screen_spec() -> dict[str, Any]:
    """The big spec cut to the rows its first screen shows (20 of them)."""
    spec = big_spec()
    spec["root"]["child"]["children"] = spec["root"]["child"]["children"][:20]
    return spec


def render_process(spec_file: Path, out: Path) -> tuple[float, float]:
    """(wall ms, CPU ms of the child) of `proto-studio render FILE --out PNG --backend software`."""
    import resource
    import subprocess

    cmd = [sys.executable, "-m", "studio.cli", "render", str(spec_file), "--out", str(out),
           "--backend", "software"]  # fmt: skip
    # Compiled bytecode, as an installed studio has it, cached outside the repo (see bench_startup).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        {"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO), "PYTHONPYCACHEPREFIX": PYCACHE}
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, cwd=REPO, stdout=subprocess.DEVNULL)
    wall = (time.perf_counter() - t0) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return wall, cpu


def p90(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.9)]


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="repeats of each first frame")
    args = parser.parse_args()

    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])
    from studio.preview.render import HeadlessScene
    from studio.preview.scene import prepare_quick

    prepare_quick()
    spec = big_spec()
    one = one_node_spec()
    nodes = count_nodes(spec["root"])
    size = len(json.dumps(spec).encode())
    med = statistics.median

    # Memory: an empty preview (the one-node spec shown), then the big spec in the same scene.
    scene = HeadlessScene()
    scene.show(copy.deepcopy(one))
    scene.grab()
    rss_empty = rss_mib()
    scene.show(copy.deepcopy(spec))
    scene.grab()
    rss_open = rss_mib()

    # First frames, alternated so that load on the machine hits both alike (after a warm-up
    # that compiles every node type's QML and loads the fonts).
    first = screen_spec()
    for warm in (one, first, spec):
        first_frame(warm)
    small: list[tuple[float, float, bool]] = []
    screen: list[tuple[float, float, bool]] = []
    large: list[tuple[float, float, bool]] = []
    for _ in range(args.runs):
        small.append(first_frame(one))
        screen.append(first_frame(first))
        large.append(first_frame(spec))
    small_wall, small_cpu = med(s[0] for s in small), med(s[1] for s in small)
    screen_wall, screen_cpu = med(s[0] for s in screen), med(s[1] for s in screen)
    large_wall, large_cpu = med(s[0] for s in large), med(s[1] for s in large)
    complete = all(s[2] for s in small + screen + large)

    # One-node patches: replace one row's label text, apply + settle + frame. The edited spec
    # comes from `apply_patch` (what the app shows: a new spec sharing every unchanged subtree
    # with the previous one); a deep-copied edit (no sharing) is measured too, for comparison.
    scrolled = measure_scroll(scene, spec)
    shared = measure_patches(scene, spec, shared_edit)
    copied = measure_patches(scene, spec, copied_edit)
    retheme = measure_retheme(scene, spec)
    scene.close()

    # `proto-studio render` as a whole process, one-node spec against the big one.
    with tempfile.TemporaryDirectory() as tmp:
        big_file, one_file = Path(tmp, "big.json"), Path(tmp, "one.json")
        big_file.write_text(json.dumps(spec))
        one_file.write_text(json.dumps(one))
        render_process(one_file, Path(tmp, "warm.png"))
        proc_small: list[tuple[float, float]] = []
        proc_large: list[tuple[float, float]] = []
        for _ in range(max(3, args.runs)):
            proc_small.append(render_process(one_file, Path(tmp, "one.png")))
            proc_large.append(render_process(big_file, Path(tmp, "big.png")))
    ps_wall, ps_cpu = med(s[0] for s in proc_small), med(s[1] for s in proc_small)
    pl_wall, pl_cpu = med(s[0] for s in proc_large), med(s[1] for s in proc_large)

    print(f"spec: {nodes} nodes, {size / 1024:.0f} KiB; {args.runs} runs each, medians")
    print(f"{'':44}{'wall ms':>10}{'CPU ms':>10}")
    print(f"{'first frame, one-node spec':44}{small_wall:10.1f}{small_cpu:10.1f}")
    print(
        f"{'first frame, its first screen only (20 rows)':44}{screen_wall:10.1f}{screen_cpu:10.1f}"
    )
    print(f"{'first frame, big spec':44}{large_wall:10.1f}{large_cpu:10.1f}")
    print(
        "first frames complete (equal to the settled frame): "
        + ("yes" if complete else "NO: something drew after the first frame")
    )
    print(f"{'proto-studio render, one-node spec':44}{ps_wall:10.0f}{ps_cpu:10.0f}")
    print(f"{'proto-studio render, big spec':44}{pl_wall:10.0f}{pl_cpu:10.0f}")
    targets: list[tuple[str, float, float, bool]] = []
    ratio = large_cpu / small_cpu
    targets.append(("first frame big / one-node (CPU)", ratio, 1.3, ratio <= 1.3))
    ratio = large_cpu / screen_cpu
    targets.append(("  (info) big / its first screen only (CPU)", ratio, 1.3, ratio <= 1.3))
    ratio = pl_cpu / ps_cpu
    targets.append(("render process big / one-node (CPU)", ratio, 1.3, ratio <= 1.3))
    for label, result in (("shared", shared), ("deep-copied", copied)):
        patch = med(result["patch"])
        print(
            f"one-node patch ({label} subtrees): median {patch:.2f} ms wall, "
            f"{med(result['cpu']):.2f} ms CPU, p90 {p90(result['patch']):.2f} ms wall "
            f"(apply {med(result['apply']):.2f}, frame {med(result['frame']):.2f}); "
            f"delegates rebuilt per patch: {sorted(set(result['created']))}"
        )
    step = med(scrolled["cpu"])
    print(
        f"scroll step (a tenth of a screen): median {med(scrolled['wall']):.2f} ms wall, "
        f"{step:.2f} ms CPU, p90 {p90(scrolled['cpu']):.2f} ms CPU"
    )
    targets.append(("  (info) scroll step, CPU ms (60 Hz frame)", step, 16.7, step < 16.7))
    switch = med(retheme)
    print(f"light/dark switch on the big spec: median {switch:.1f} ms CPU, p90 {p90(retheme):.1f}")
    ratio = switch / large_cpu
    targets.append(("  (info) light/dark switch / first frame big", ratio, 1.0, ratio <= 1.0))
    patch = med(shared["cpu"])
    targets.append(("one-node edit, CPU ms (60 Hz frame)", patch, 16.7, patch < 16.7))
    ratio = patch / large_cpu
    targets.append(("one-node edit / full render (CPU)", ratio, 0.1, ratio <= 0.1))
    grown = rss_open - rss_empty
    print(f"RSS: {rss_empty:.0f} MiB with an empty preview, {rss_open:.0f} MiB with the spec open")
    targets.append(("memory over an empty preview, MiB", grown, 60, grown <= 60))
    print(f"{'target':44}{'value':>10}{'limit':>8}")
    for label, value, limit, ok in targets:
        print(f"{label:44}{value:10.2f}{limit:8.1f}  {verdict(ok)}")
    del app


if __name__ == "__main__":
    main()
