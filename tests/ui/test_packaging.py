"""The installer build: packaging/build.sh builds dist/proto-studio and smoke-tests it.

Slow (build and smoke test take ~50 s here), so it runs only when PROTO_STUDIO_PACKAGING=1."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("PROTO_STUDIO_PACKAGING") != "1",
    reason="PROTO_STUDIO_PACKAGING is not 1 (scripts/test sets it; ~50 s build)",
)
def test_build_script_builds_and_smoke_tests_the_app() -> None:
    result = subprocess.run(
        ["bash", str(REPO / "packaging" / "build.sh")],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert result.stdout.strip().splitlines()[-1] == "build: smoke ok"
    exe = REPO / "dist" / "proto-studio" / "proto-studio"
    assert exe.is_file() and os.access(exe, os.X_OK)
    # The shipped resources are inside the bundle (templates for the first launch).
    internal = REPO / "dist" / "proto-studio" / "_internal"
    assert (internal / "resources" / "templates" / "index.json").is_file()
    fonts = {p.name for p in (internal / "tkinter_icons_gmi" / "fonts").iterdir()}
    assert {"MaterialIcons-Regular.ttf", "MaterialIconsOutlined-Regular.otf"} <= fonts
