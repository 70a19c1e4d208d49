"""Golden images of every shipped template, software and OpenGL, and how they are compared.

Regenerate them deliberately after a change that is meant to alter the look:
`.venv/bin/python -m tests.preview.goldens` (software in this process on the offscreen platform,
OpenGL in a child process on a private Xvfb). Review the new PNGs before committing them.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
GOLDEN_DIR = REPO / "tests" / "preview" / "golden"
TEMPLATES = REPO / "resources" / "templates"
SIZE = (360, 800)
THEMES = ("light", "dark")
BACKENDS = ("software", "opengl")
#: Allowed difference from a golden: the mean absolute difference per channel (0-255) and the
#: share of pixels off by more than 64 in any channel. Renders of one build on one machine
#: kind are identical; the slack covers font rasterizer and driver updates. A shifted text line
#: or a missing control is well beyond both (a 12 dp shift of one text measured 0.9 / 1.1 %).
MAX_MEAN_DIFF = 0.6
MAX_OFF_SHARE = 0.004


def template_names() -> list[str]:
    index = json.loads((TEMPLATES / "index.json").read_text(encoding="utf-8"))
    return [str(entry["id"]) for entry in index["templates"]]


def golden_path(name: str, theme: str, backend: str) -> Path:
    return GOLDEN_DIR / f"{name}-{theme}-{backend}.png"


def load_template(name: str) -> dict[str, Any]:
    from studio.spec import expand

    spec = expand(json.loads((TEMPLATES / f"{name}.json").read_text(encoding="utf-8")))
    assert isinstance(spec, dict)
    return spec


def jobs(spec_dir: Path) -> list[dict[str, Any]]:
    """One render job per template and theme (the batch format of `studio.preview.render`)."""
    out = []
    for name in template_names():
        spec_file = spec_dir / f"{name}.json"
        spec_file.write_text(json.dumps(load_template(name)), encoding="utf-8")
        for theme in THEMES:
            out.append({"name": f"{name}-{theme}", "spec": str(spec_file), "theme": theme,
                        "width": SIZE[0], "height": SIZE[1]})  # fmt: skip
    return out


def render_software(job: dict[str, Any], out: Path) -> None:
    from studio.preview.render import HeadlessScene

    scene = HeadlessScene(job["width"], job["height"], appearance=job["theme"])
    try:
        scene.show(json.loads(Path(job["spec"]).read_text(encoding="utf-8")))
        image = scene.grab()
        if not image.save(str(out)):
            raise OSError(f"{out}: cannot write")
    finally:
        scene.close()


def render_opengl(job_list: list[dict[str, Any]], out_dir: Path) -> list[dict[str, Any]]:
    """Render the jobs through OpenGL (xcb on a private Xvfb, one child process); returns the
    batch report (per job: ok, api, Qt messages)."""
    from studio.preview.cli import start_opengl_batch
    from studio.preview.xvfb import VirtualDisplay

    jobs_file = out_dir / "jobs.jsonl"
    jobs_file.write_text("".join(json.dumps(j) + "\n" for j in job_list), encoding="utf-8")
    with VirtualDisplay() as display:
        child = start_opengl_batch(jobs_file, out_dir, display.display)
        try:
            _, stderr = child.communicate(timeout=600)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    report: list[dict[str, Any]] = json.loads((out_dir / "report.json").read_text("utf-8"))
    if len(report) != len(job_list):
        raise RuntimeError(f"OpenGL batch stopped early: {stderr[-500:]}")
    return report


def difference(a_path: Path, b_path: Path) -> tuple[float, float]:
    """(mean absolute difference per channel, share of pixels off by more than 64)."""
    import numpy as np
    from PySide6.QtGui import QImage

    from tests.preview.helpers import pixels

    a, b = QImage(str(a_path)), QImage(str(b_path))
    if (a.width(), a.height()) != (b.width(), b.height()):
        return 255.0, 1.0
    pa = pixels(a)[:, :, :3].astype(np.int16)
    pb = pixels(b)[:, :, :3].astype(np.int16)
    delta = np.abs(pa - pb)
    return float(delta.mean()), float((delta.max(axis=2) > 64).mean())


def main() -> int:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from studio.preview.scene import prepare_quick

    prepare_quick(True)
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="goldens-") as tmp:
        job_list = jobs(Path(tmp))
        for job in job_list:
            name, theme = job["name"].rsplit("-", 1)
            render_software(job, golden_path(name, theme, "software"))
        report = render_opengl(job_list, Path(tmp))
        for job, entry in zip(job_list, report, strict=True):
            warnings = [m["text"] for m in entry["messages"] if m["kind"] != "debug"]
            if not entry["ok"] or entry.get("api") != "OpenGL" or warnings:
                print(f"{job['name']}: {entry.get('error') or warnings}", file=sys.stderr)
                return 1
            name, theme = job["name"].rsplit("-", 1)
            golden_path(name, theme, "opengl").write_bytes(
                (Path(tmp) / f"{job['name']}.png").read_bytes()
            )
    print(f"wrote {len(job_list) * 2} goldens to {GOLDEN_DIR}", file=sys.stderr)
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
