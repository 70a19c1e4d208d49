"""`proto-studio [FILE]` as a user starts it: smoke test, opening a file, a screenshot under Xvfb."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.library.store import Library

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "build" / "screenshots"
SPEC = {
    "id": "from-cli",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {
        "type": "column",
        "children": [{"type": "text", "text": "Opened from the command line"}],
    },
}


def studio(
    *args: str, platform: str = "offscreen", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "QT_QPA_PLATFORM": platform, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "studio.cli", *args],
        capture_output=True, text=True, timeout=120, env=full_env, cwd=REPO,
    )  # fmt: skip


def test_smoke_test_opens_a_template_and_paints(_isolated_home: Path) -> None:
    result = studio("--smoke-test")
    assert result.returncode == 0, result.stderr
    # The window paints before the slow parts load; then the preview draws the prototype and
    # each check of studio.ui.smoke reports one line.
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "window painted"
    assert lines.pop(1) == "preview frame"  # the first preview frame (bench_startup times it)
    assert lines[1].startswith("smoke opened: ")
    assert [line.split(":")[0] for line in lines[2:]] == [
        "smoke preview", "smoke font", "smoke icu", "smoke mirror", "smoke about", "smoke ok",
    ]  # fmt: skip
    assert "Material Icons" in lines[3] and "Roboto (12 faces)" in lines[3]
    assert lines[5].startswith("smoke mirror: H.264 64x96, 6 frames")
    # First launch seeded the five templates into the library under PROTO_STUDIO_HOME.
    assert sorted(e.source for e in Library(_isolated_home).list_entries()) == ["template"] * 5


def test_file_argument_is_imported_and_opened(_isolated_home: Path, tmp_path: Path) -> None:
    spec_file = tmp_path / "from-cli.json"
    spec_file.write_text(json.dumps(SPEC))
    shot = tmp_path / "shot.png"
    result = studio(str(spec_file), "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    assert shot.read_bytes().startswith(b"\x89PNG")
    entries = [e for e in Library(_isolated_home).list_entries() if e.source == "file"]
    assert [e.name for e in entries] == ["from-cli"]


def test_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    result = studio(str(tmp_path / "nope.json"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"proto-studio: {tmp_path / 'nope.json'}: no such file"


@pytest.mark.xvfb
def test_window_screenshot_under_xvfb(tmp_path: Path) -> None:
    """The whole window on OpenGL (xcb under Xvfb), written to build/screenshots/window.png."""
    from studio.preview.xvfb import VirtualDisplay, xvfb_available

    if not xvfb_available():
        pytest.skip("Xvfb is not installed (scripts/system-deps installs it)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    out = SCREENSHOTS / "window.png"
    out.unlink(missing_ok=True)
    with VirtualDisplay("1600x1000x24") as display:
        result = studio("--screenshot", str(out), platform="xcb", env={"DISPLAY": display.display})
    assert result.returncode == 0, result.stderr
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700
    # Not blank: the window has many distinct colours (panels, preview, text).
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 23) for y in range(0, image.height(), 23)
    }
    assert len(colours) > 20
