"""Every valid corpus spec renders: no QML warning, a non-blank image, its visible text shown."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtGui import QImage

from tests.conftest import _conformance_root
from tests.preview.conftest import REPO, SCREENSHOTS, load_spec
from tests.preview.helpers import distinct_colors, pixels

VALID = sorted(_conformance_root().glob("fixtures/*/valid/*.json"))
# Types whose runtime summary text is what the renderer writes on screen (pickers format their
# values, icons/images show glyphs, containers show nothing of their own).
TEXTUAL = {
    "text", "badge", "button", "chip", "switch", "checkbox", "slider", "textField", "radioGroup",
    "segmentedButton", "listItem", "tabBar", "bottomNav", "dialog", "snackbar",
}  # fmt: skip


def _name(path: Path) -> str:
    return f"{path.parent.parent.name}-{path.stem}"


def expected_texts(runtime: Any) -> list[str]:
    """The strings the runtime says are on screen, for node types that show them as text."""
    out: list[str] = []
    for entry in runtime.visible_summary():
        if entry["type"] == "topAppBar":
            out.extend(entry["text"].split(" | ")[:1])
        elif entry["type"] in TEXTUAL:
            out.extend(part for part in entry["text"].split(" | ") if part.strip())
    return out


@pytest.mark.parametrize("path", VALID, ids=[_name(p) for p in VALID])
def test_every_valid_spec_renders_with_its_text(scene: Any, path: Path) -> None:
    spec = load_spec(path)
    scene.show(spec)
    image = scene.grab()
    assert image.width() == 412 and image.height() == 915
    if scene.controller.runtime.visible_summary():  # something to show (not just spacers)
        assert distinct_colors(image) > 1, "blank render"
    shown = " ".join(e["text"] for e in scene.visible_summary(on_screen_only=False))
    missing = [t for t in expected_texts(scene.controller.runtime) if t not in shown]
    assert not missing, f"text not rendered: {missing[:5]}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert image.save(str(SCREENSHOTS / f"{_name(path)}-light.png"))
    scene.controller.set_appearance("dark")
    dark = scene.grab()
    assert dark.save(str(SCREENSHOTS / f"{_name(path)}-dark.png"))
    # Right to left too (the device's layout direction): no Qt warning, its text still shown.
    scene.controller.set_rtl(True)
    assert not scene.grab().isNull()
    shown = " ".join(e["text"] for e in scene.visible_summary(on_screen_only=False))
    missing = [t for t in expected_texts(scene.controller.runtime) if t not in shown]
    assert not missing, f"text not rendered right to left: {missing[:5]}"


def test_corpus_is_present_and_covers_every_node_type(conformance_dir: Path) -> None:
    from studio.spec.address import iter_nodes

    types: set[str] = set()
    for path in VALID:
        types.update(str(n.get("type")) for _, n, _, _ in iter_nodes(load_spec(path)))
    assert len(VALID) >= 40
    assert len({t for t in types if t != "use"}) == 32


# The CLI's own OpenGL path (a child process on a private Xvfb), once per theme; every valid
# spec goes through OpenGL in the batch test below.
CLI_OPENGL_SPEC = "overlay-spec/valid/fullscreen-all-nodes.json"


@pytest.mark.xvfb
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_render_cli_under_xvfb_uses_opengl(
    conformance_dir: Path, tmp_path: Path, theme: str
) -> None:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb; see scripts/system-deps)")
    path = conformance_dir / "fixtures" / CLI_OPENGL_SPEC
    out = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    env["QT_QPA_PLATFORM"] = "offscreen"  # the CLI must switch its child to xcb by itself
    done = subprocess.run(
        [sys.executable, "-m", "studio.cli", "render", str(path), "--out", str(out),
         "--backend", "opengl", "--theme", theme, "--width", "360", "--height", "800"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # No Qt/QML warning from the OpenGL render; the spec's image asset is not beside it, which
    # the renderer's own warning says (the phone's `missingAssets`), through the child process.
    assert done.stderr.splitlines() == [
        "render: warning: missingAssets: preview (drawn as the placeholder, as on the phone)"
    ], done.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (360, 800)
    assert distinct_colors(image) > 1


FIXTURES_VALID = sorted((REPO / "tests" / "fixtures" / "spec" / "valid").glob("*.json"))
# Mean absolute difference per channel (0-255, over the whole 360x800 screen) allowed between
# the OpenGL and the software render of one spec. Measured: median 0.02, worst 1.27 in Roboto
# (fixture-compose-components, a screen dense with text; 1.11 in DejaVu Sans: the software scene
# graph rasterizes glyphs with QPainter, OpenGL draws distance-field glyphs, and some labels land
# a pixel apart, so every text edge differs a little). A misplaced block or a missing control is
# more: a 12 dp layout shift of a box and two texts measured 2.3, a missing 100x40 dp button
# about 1.4.
# Compared without the device chrome (its status and dismiss bars add text to every screen; the
# template goldens cover the chrome on both backends).
MAX_MEAN_DIFF = 1.32
RENDER_SIZE = (360, 800)


@pytest.mark.xvfb
@pytest.mark.timeout(600)
def test_every_valid_spec_renders_alike_on_opengl_and_software(
    quick: Any, conformance_dir: Path, tmp_path: Path
) -> None:
    """Every valid corpus spec and every valid spec fixture, light and dark (right to left):
    rendered through
    OpenGL (xcb on Xvfb, one batch child process) without any Qt/QML warning, not blank, and
    close to the software render of the same spec."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb; see scripts/system-deps)")
    from studio.preview.cli import start_opengl_batch
    from studio.preview.render import HeadlessScene
    from studio.preview.xvfb import VirtualDisplay

    specs = {_name(p): p for p in VALID} | {f"fixture-{p.stem}": p for p in FIXTURES_VALID}
    assert len(specs) == len(VALID) + len(FIXTURES_VALID) >= 90
    jobs = []
    for name, path in specs.items():
        spec_file = tmp_path / "specs" / f"{name}.json"
        spec_file.parent.mkdir(exist_ok=True)
        spec_file.write_text(json.dumps(load_spec(path)), encoding="utf-8")
        for theme in ("light", "dark"):
            # The dark renders are laid out right to left: both directions on both backends,
            # at no extra render.
            jobs.append({"name": f"{name}-{theme}", "spec": str(spec_file), "theme": theme,
                         "width": RENDER_SIZE[0], "height": RENDER_SIZE[1], "chrome": False,
                         "rtl": theme == "dark"})  # fmt: skip
    jobs_file = tmp_path / "jobs.jsonl"
    jobs_file.write_text("".join(json.dumps(job) + "\n" for job in jobs), encoding="utf-8")
    opengl_dir, software_dir = tmp_path / "opengl", tmp_path / "software"
    shows_something: dict[str, bool] = {}
    with VirtualDisplay() as display:
        child = start_opengl_batch(jobs_file, opengl_dir, display.display)
        try:
            for job in jobs:  # the software renders, while the child renders through OpenGL
                scene = HeadlessScene(
                    *RENDER_SIZE, appearance=job["theme"], chrome=False, rtl=job["rtl"]
                )
                try:
                    scene.show(json.loads(Path(job["spec"]).read_text(encoding="utf-8")))
                    software_dir.mkdir(exist_ok=True)
                    assert scene.grab().save(str(software_dir / f"{job['name']}.png"))
                    shows_something[job["name"]] = bool(scene.controller.runtime.visible_summary())
                finally:
                    scene.close()
            # About 30 s on a quiet 2-core machine; bounded well above that for a loaded one.
            _, stderr = child.communicate(timeout=540)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    report = json.loads((opengl_dir / "report.json").read_text(encoding="utf-8"))
    assert [entry["name"] for entry in report] == [job["name"] for job in jobs]
    failures: list[str] = []
    diffs: list[tuple[float, str]] = []
    for entry in report:
        name = entry["name"]
        warnings = [m["text"] for m in entry["messages"] if m["kind"] != "debug"]
        if not entry["ok"]:
            failures.append(f"{name}: {entry.get('error')}")
            continue
        if entry["api"] != "OpenGL":
            failures.append(f"{name}: rendered with {entry['api']}, not OpenGL")
        if warnings:
            failures.append(f"{name}: Qt warning: {warnings[0]}")
        opengl = QImage(str(opengl_dir / f"{name}.png"))
        if shows_something[name] and distinct_colors(opengl) <= 1:
            failures.append(f"{name}: blank OpenGL render")
        software = QImage(str(software_dir / f"{name}.png"))
        diff = float(np.abs(_rgb(opengl) - _rgb(software)).mean())
        diffs.append((diff, name))
        if diff > MAX_MEAN_DIFF:
            failures.append(f"{name}: differs from the software render by {diff:.2f}")
        if theme_of(name) == "light":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(opengl_dir / f"{name}.png", SCREENSHOTS / f"{name}-opengl.png")
    worst = sorted(diffs, reverse=True)[:3]
    print("OpenGL vs software, worst mean abs differences:",
          ", ".join(f"{name} {diff:.2f}" for diff, name in worst))  # fmt: skip
    assert not failures, "\n".join(failures[:20]) + (f"\nchild stderr: {stderr[-2000:]}")
    assert len(diffs) == len(jobs)


def theme_of(name: str) -> str:
    return name.rsplit("-", 1)[-1]


def _rgb(image: QImage) -> np.ndarray:
    assert (image.width(), image.height()) == RENDER_SIZE
    return pixels(image)[:, :, :3].astype(np.int16)
