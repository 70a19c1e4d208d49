"""`proto-studio render`: a PNG of the first screen, or a one-line error and exit 1/2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

from studio.cli import main
from tests.preview.helpers import pixels

SPEC = {
    "id": "r",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {"type": "column", "children": [{"type": "button", "label": "Go"}]},
}


def _write(tmp_path: Path, spec: Any, name: str = "spec.json") -> Path:
    path = tmp_path / name
    path.write_text(spec if isinstance(spec, str) else json.dumps(spec), encoding="utf-8")
    return path


def test_software_render_writes_the_png(quick: Any, tmp_path: Path) -> None:
    spec = _write(tmp_path, SPEC)
    out = tmp_path / "deep" / "shot.png"
    code = main(["render", str(spec), "--out", str(out), "--backend", "software",
                 "--width", "360", "--height", "800"])  # fmt: skip
    assert code == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (360, 800)
    dark_out = tmp_path / "dark.png"
    assert main(["render", str(spec), "--out", str(dark_out), "--backend", "software",
                 "--theme", "dark"]) == 0  # fmt: skip
    light_px = pixels(image)[700, 10].astype(int).sum()
    dark_px = pixels(QImage(str(dark_out)))[700, 10].astype(int).sum()
    assert dark_px < light_px - 300  # dark background


def test_components_are_expanded_before_rendering(
    quick: Any, tmp_path: Path, conformance_dir: Path
) -> None:
    gallery = conformance_dir / "fixtures" / "prototype-spec" / "components" / "gallery.json"
    if not gallery.is_file():
        gallery = conformance_dir / "fixtures" / "overlay-spec" / "valid" / "component-gallery.json"
    out = tmp_path / "g.png"
    assert main(["render", str(gallery), "--out", str(out), "--backend", "software"]) == 0
    assert QImage(str(out)).width() == 412


def test_invalid_spec_is_one_line_error_exit_1(
    quick: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = dict(SPEC, root={"type": "button"})
    spec = _write(tmp_path, bad)
    out = tmp_path / "x.png"
    assert main(["render", str(spec), "--out", str(out), "--backend", "software"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "root.label" in err and str(spec) in err
    assert not out.exists()


def test_bad_json_exit_1_and_missing_file_exit_2(
    quick: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.png"
    assert main(["render", str(_write(tmp_path, "{nope")), "--out", str(out)]) == 1
    assert "Invalid JSON" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.json"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "missing.json" in err
    assert main(["render", str(_write(tmp_path, SPEC)), "--out", str(out), "--width", "0"]) == 2


def test_batch_renders_each_job_and_reports_errors_and_qt_messages(
    quick: Any, tmp_path: Path
) -> None:
    from PySide6.QtCore import qWarning

    from studio.preview.render import captured_messages, render_batch

    with captured_messages() as messages:
        qWarning("a warning from Qt")
    assert messages == [{"kind": "warning", "text": "a warning from Qt"}]

    spec = _write(tmp_path, SPEC)
    jobs = [
        {"name": "ok-dark", "spec": str(spec), "theme": "dark", "width": 360, "height": 800},
        {"name": "missing", "spec": str(tmp_path / "nope.json")},
    ]
    jobs_file = _write(tmp_path, "\n".join(json.dumps(j) for j in jobs) + "\n", "jobs.jsonl")
    out_dir = tmp_path / "out"
    report = render_batch(jobs_file, out_dir)
    assert [(e["name"], e["ok"]) for e in report] == [("ok-dark", True), ("missing", False)]
    assert "nope.json" in report[1]["error"]
    assert report[0]["messages"] == [] and report[0]["api"] == "Software"
    image = QImage(str(out_dir / "ok-dark.png"))
    assert (image.width(), image.height()) == (360, 800)
    assert pixels(image)[700, 10].astype(int).sum() < 3 * 128 + 255  # dark background
    assert json.loads((out_dir / "report.json").read_text(encoding="utf-8")) == report
    assert not (out_dir / "missing.png").exists()


def test_no_chrome_renders_the_window_from_the_top_edge(quick: Any, tmp_path: Path) -> None:
    root = {"type": "box", "style": {"width": {"dp": 40}, "height": {"dp": 40}, "background": "#FF0000"},
            "children": []}  # fmt: skip
    spec = _write(tmp_path, {**SPEC, "root": root})
    with_chrome, without = tmp_path / "with.png", tmp_path / "without.png"
    assert main(["render", str(spec), "--out", str(with_chrome), "--backend", "software"]) == 0
    assert main(["render", str(spec), "--out", str(without), "--backend", "software",
                 "--no-chrome"]) == 0  # fmt: skip
    red = [255, 0, 0]
    b, g, r = pixels(QImage(str(without)))[10, 10][:3]
    assert [r, g, b] == red  # the window starts at the top
    b, g, r = pixels(QImage(str(with_chrome)))[10, 10][:3]
    assert [r, g, b] != red  # the status bar and the dismiss bar come first
    b, g, r = pixels(QImage(str(with_chrome)))[24 + 32 + 10, 10][:3]
    assert [r, g, b] == red


def test_a_missing_asset_is_a_warning_and_the_png_is_written(
    quick: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The phone shows the spec and lists the ids it lacks (`missingAssets`); so does render,
    on stderr, with exit 0."""
    spec = json.loads(json.dumps(SPEC))
    spec["root"]["children"].append({"type": "image", "asset": "hero"})
    out = tmp_path / "m.png"
    assert main(["render", str(_write(tmp_path, spec)), "--out", str(out),
                 "--backend", "software"]) == 0  # fmt: skip
    assert out.is_file()
    assert capsys.readouterr().err.splitlines() == [
        "render: warning: missingAssets: hero (drawn as the placeholder, as on the phone)"
    ]
    (tmp_path / "assets").mkdir()
    from PySide6.QtGui import QColor

    red = QImage(4, 4, QImage.Format.Format_ARGB32)
    red.fill(QColor("#FF0000"))
    assert red.save(str(tmp_path / "assets" / "hero.png"))
    assert main(["render", str(_write(tmp_path, spec)), "--out", str(out),
                 "--backend", "software"]) == 0  # fmt: skip
    assert capsys.readouterr().err == ""
