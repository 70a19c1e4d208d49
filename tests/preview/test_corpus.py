"""Every valid corpus spec renders: no QML warning, a non-blank image, its visible text shown."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

from tests.conftest import _conformance_root
from tests.preview.conftest import REPO, SCREENSHOTS, load_spec
from tests.preview.helpers import distinct_colors

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


def test_corpus_is_present_and_covers_every_node_type(conformance_dir: Path) -> None:
    from studio.spec.address import iter_nodes

    types: set[str] = set()
    for path in VALID:
        types.update(str(n.get("type")) for _, n, _, _ in iter_nodes(load_spec(path)))
    assert len(VALID) >= 40
    assert len({t for t in types if t != "use"}) == 32


# One OpenGL render per spec costs ~2 s (a process, Xvfb and Qt start-up), so the OpenGL pass
# takes the smallest set of corpus specs that together use all 32 node types.
OPENGL_SET = [
    "overlay-spec/valid/fullscreen-all-nodes.json",
    "overlay-spec/valid/material-controls.json",
    "overlay-spec/valid/material-slider-chip-card.json",
    "overlay-spec/valid/material-app-bar-dialog-pickers.json",
    "overlay-spec/valid/component-gallery.json",
    "prototype-spec/valid/selection-controls.json",
    "prototype-spec/valid/doc-example-1.json",
]


def test_opengl_set_covers_every_node_type(conformance_dir: Path) -> None:
    from studio.spec.address import iter_nodes

    root = conformance_dir / "fixtures"
    types: set[str] = set()
    for rel in OPENGL_SET:
        types.update(str(n.get("type")) for _, n, _, _ in iter_nodes(load_spec(root / rel)))
    assert len(types) == 32, sorted(types)


@pytest.mark.xvfb
@pytest.mark.parametrize("rel", OPENGL_SET)
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_render_cli_under_xvfb_uses_opengl(
    conformance_dir: Path, tmp_path: Path, rel: str, theme: str
) -> None:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb; see scripts/system-deps)")
    path = conformance_dir / "fixtures" / rel
    out = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    env["QT_QPA_PLATFORM"] = "offscreen"  # the CLI must switch its child to xcb by itself
    done = subprocess.run(
        [sys.executable, "-m", "studio.cli", "render", str(path), "--out", str(out),
         "--backend", "opengl", "--theme", theme, "--width", "360", "--height", "800"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr  # no Qt/QML warning from the OpenGL render
    image = QImage(str(out))
    assert (image.width(), image.height()) == (360, 800)
    assert distinct_colors(image) > 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(out, SCREENSHOTS / f"{_name(path)}-{theme}-opengl.png")
