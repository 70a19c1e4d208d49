"""Benchmark: cold start of the studio to its first painted frame, against a bare PySide6 window.

Run on demand: `.venv/bin/python benchmarks/bench_startup.py [--runs N]`. Each run is a fresh
process (offscreen platform) timed from spawn until it reports its first painted frame: the
studio with `proto-studio --smoke-test` which prints "window painted" on the window's first
paint and "preview frame" once the preview has drawn the opened prototype (then runs the
packaging checks and prints "smoke ok"); the baselines a QMainWindow
that prints on its first paint event and a bare QML ApplicationWindow that loads Controls
Material and prints on its first swapped frame; and, as information, the preview widget alone in a
main window drawing a template (the best a preview-first start-up could reach). Prints the medians
and the ratios (targets: the
window's first paint at most 2x the widget window's, the first preview frame at most 1.5x the
bare QML window's, issue 12); also the first launch, which seeds the templates.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

BARE = """
import sys
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication(sys.argv)
window = QMainWindow()
window.setCentralWidget(QLabel("bare"))
window.resize(1440, 900)
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            print("painted", flush=True)
            app.quit()
        return False
first = FirstPaint()
window.centralWidget().installEventFilter(first)
window.show()
app.exec()
"""


# The baseline: a bare Qt Quick window that loads Controls Material (what the preview is
# built on), timed until its first frame is on screen.
BARE_QML = """
import sys
from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlApplicationEngine
from PySide6.QtQuickControls2 import QQuickStyle
app = QGuiApplication(sys.argv)
QQuickStyle.setStyle("Material")
engine = QQmlApplicationEngine()
QML = (
    "import QtQuick\\n"
    "import QtQuick.Controls.Material\\n"
    "ApplicationWindow { width: 1440; height: 900; visible: true; Material.theme: Material.Light;"
    " Label { anchors.centerIn: parent; text: 'bare' } }"
)
engine.loadData(QML.encode(), QUrl("bare.qml"))
window = engine.rootObjects()[0]
def swapped():
    print("painted", flush=True)
    app.quit()
window.frameSwapped.connect(swapped)
app.exec()
"""


# Information, no target: the best a studio could reach by showing its preview before anything
# else (the preview widget alone in a main window, drawing the feed template; no panels, library,
# settings or event loop). It bounds what rebuilding the start-up around the preview could gain.
PREVIEW_FIRST = """
import json, sys
from studio.preview.pyside import skip_source_scan
skip_source_scan()
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
from studio.preview.widget import PreviewWidget
from studio.spec import expand
window = QMainWindow()
preview = PreviewWidget(window)
window.setCentralWidget(preview)
window.resize(1440, 900)
spec = expand(json.loads(open("resources/templates/feed.json", encoding="utf-8").read()))
shown = []
def frame():
    if shown:
        print("preview frame", flush=True)
        app.quit()
preview.quick_widget.quickWindow().afterRendering.connect(frame)
window.show()
preview.set_spec(spec)
shown.append(True)
app.exec()
"""


def time_until(cmd: list[str], markers: list[str], env: dict[str, str]) -> list[float]:
    """Seconds from spawning `cmd` until each marker line appears on its stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO
    )
    assert proc.stdout is not None
    seen: dict[str, float] = {}
    for line in proc.stdout:
        if line.strip() in markers and line.strip() not in seen:
            seen[line.strip()] = time.perf_counter() - start
    proc.wait(timeout=60)
    missing = [m for m in markers if m not in seen]
    if missing:
        raise RuntimeError(f"{cmd}: exited without printing {missing}")
    return [seen[m] for m in markers]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    # Compiled bytecode, as an installed studio has it (PYTHONDONTWRITEBYTECODE would make every
    # run compile ~400 modules, about 0.5 s the bare windows do not pay), cached outside the repo.
    cache = str(Path(tempfile.gettempdir()) / "proto-studio-bench-pycache")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update({"QT_QPA_PLATFORM": "offscreen", "PYTHONPYCACHEPREFIX": cache})
    studio = [sys.executable, "-m", "studio.cli", "--smoke-test"]
    marks = ["window painted", "preview frame", "smoke ok"]
    bare_cmd = [sys.executable, "-c", BARE]
    bare_qml_cmd = [sys.executable, "-c", BARE_QML]
    preview_first_cmd = [sys.executable, "-c", PREVIEW_FIRST]
    repo_env = {**env, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as scratch:
        studio_env = {**env, "PROTO_STUDIO_HOME": home}
        time_until(studio, marks, studio_env)  # seeds the library (and warms the OS cache)
        time_until(bare_cmd, ["painted"], env)
        time_until(bare_qml_cmd, ["painted"], env)
        time_until(preview_first_cmd, ["preview frame"], repo_env)
        bare: list[float] = []
        alone: list[float] = []
        bare_qml: list[float] = []
        window: list[float] = []
        frame: list[float] = []
        first: list[float] = []
        for run in range(args.runs):
            bare.extend(time_until(bare_cmd, ["painted"], env))
            bare_qml.extend(time_until(bare_qml_cmd, ["painted"], env))
            alone.extend(time_until(preview_first_cmd, ["preview frame"], repo_env))
            painted, drawn, _checked = time_until(studio, marks, studio_env)
            window.append(painted)
            frame.append(drawn)
            fresh = {**env, "PROTO_STUDIO_HOME": str(Path(scratch) / f"home{run}")}
            first.append(time_until(studio, marks, fresh)[1])
    b = statistics.median(bare)
    q = statistics.median(bare_qml)
    rows = [
        ("studio window, first paint", statistics.median(window)),
        ("studio prototype, first preview frame", statistics.median(frame)),
        ("  same, first launch (seeds templates)", statistics.median(first)),
        ("(info) the preview alone, first frame", statistics.median(alone)),
    ]
    print(f"{'bare PySide6 widget window, first paint':<42} median {b * 1000:6.0f} ms")
    print(f"{'bare QML window (Controls Material), frame':<42} median {q * 1000:6.0f} ms")
    print(f"{'':<56}{'/widget':>9}{'/QML':>8}")
    for label, value in rows:
        print(f"{label:<42} median {value * 1000:6.0f} ms {value / b:8.2f}x {value / q:6.2f}x")
    window_ratio = statistics.median(window) / b
    frame_ratio = statistics.median(frame) / q
    print(
        "target (window first paint): at most 2x the widget window -> "
        f"{'met' if window_ratio <= 2 else 'NOT met'} ({window_ratio:.2f}x)"
    )
    print(
        "target (first preview frame): at most 1.5x the bare QML window -> "
        f"{'met' if frame_ratio <= 1.5 else 'NOT met'} ({frame_ratio:.2f}x; {args.runs} runs each)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
