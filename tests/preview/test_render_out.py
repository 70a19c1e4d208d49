"""`render --out` (failures.md F12): never overwrites its input, never replaces anything but a
regular file (FIFO, device, folder, a symlink to one), writes atomically; a 100,000-deep JSON
input is a one-line error, not a traceback."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

from studio.cli import main

REPO = Path(__file__).resolve().parents[2]
SPEC = {
    "id": "r",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {"type": "column", "children": [{"type": "button", "label": "Go"}]},
}


def _spec(tmp_path: Path, name: str = "spec.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    return path


def _render(spec: Path, out: Path | str) -> int:
    return main(["render", str(spec), "--out", str(out), "--backend", "software"])


def _one_line_error(capsys: pytest.CaptureFixture[str], *parts: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("render: "), err
    assert "Traceback" not in err
    for part in parts:
        assert part in err, err
    return err


def test_refuses_to_overwrite_its_input(tmp_path: Path, capsys: Any) -> None:
    spec = _spec(tmp_path)
    before = spec.read_bytes()
    assert _render(spec, spec) == 2
    _one_line_error(capsys, "spec.json", "input")
    assert spec.read_bytes() == before
    # the same file by another name: a relative path, a hard link, a symlink
    os.link(spec, tmp_path / "hard.json")
    (tmp_path / "soft.json").symlink_to(spec)
    for other in (tmp_path / "." / "spec.json", tmp_path / "hard.json", tmp_path / "soft.json"):
        assert _render(spec, other) == 2
        _one_line_error(capsys, "input")
    assert spec.read_bytes() == before


def test_refuses_a_fifo_a_folder_and_symlinks_to_them(tmp_path: Path, capsys: Any) -> None:
    spec = _spec(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "to-fifo").symlink_to(fifo)
    (tmp_path / "to-folder").symlink_to(folder, target_is_directory=True)
    for target, kind in (
        (fifo, "FIFO"),
        (folder, "folder"),
        (tmp_path / "to-fifo", "FIFO"),
        (tmp_path / "to-folder", "folder"),
    ):
        assert _render(spec, target) == 2
        _one_line_error(capsys, target.name, "not a regular file", kind)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert (tmp_path / "to-fifo").is_symlink() and list(folder.iterdir()) == []


def _device(tmp_path: Path) -> Path:
    """A character device to aim at. As root, a node made here (a copy of /dev/null's): a
    failing test must never replace the real /dev/null. Otherwise /dev/null itself, whose
    folder an ordinary user cannot write (so nothing can replace it)."""
    if os.geteuid() == 0:
        node = tmp_path / "null-device"
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return node
    return Path("/dev/null")


def test_refuses_a_device(tmp_path: Path, capsys: Any) -> None:
    spec = _spec(tmp_path)
    device = _device(tmp_path)
    before = device.stat()
    assert _render(spec, device) == 2
    _one_line_error(capsys, "not a regular file", "device")
    after = device.stat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_writes_a_new_file_atomically_with_normal_permissions(quick: Any, tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    out = tmp_path / "out" / "shot.png"
    out.parent.mkdir()
    out.write_bytes(b"the previous render")
    link = tmp_path / "latest.png"
    link.symlink_to(out)
    assert _render(spec, link) == 0  # a symlink to a regular file: written through
    assert link.is_symlink() and QImage(str(out)).width() == 412
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0600
    assert [p.name for p in out.parent.iterdir()] == ["shot.png"]  # no temp file left


def test_a_100000_deep_json_is_a_one_line_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    huge = tmp_path / "huge.json"
    huge.write_text('{"id": ' + "1" * 5000 + "}")
    for path in (deep, huge):
        # a real process: a RecursionError traceback would be printed by the interpreter
        done = subprocess.run(
            [sys.executable, "-m", "studio.cli", "render", str(path), "--out",
             str(tmp_path / "x.png"), "--backend", "software"],
            capture_output=True, text=True, timeout=120,
            env={**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen"},
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith(f"render: {path}: $:"), done.stderr
        assert not (tmp_path / "x.png").exists()
