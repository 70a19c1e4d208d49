"""`proto-studio render FILE --out PNG`: a headless render of a spec's first screen.

The default backend is OpenGL (platform xcb): on the current display, or on a private Xvfb
started for the render when none exists, in a child process. `--backend software` renders in
this process on the offscreen platform (Qt Quick's software scene graph).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: The environment of an OpenGL render child (xcb). The basic render loop draws on the GUI
#: thread. xcb's default, the threaded loop, draws on a render thread, and a Python callback
#: from it (a Qt message reaching `render.captured_messages`'s handler, the `rounded` image
#: provider) waits for the interpreter lock, which the GUI thread holds while it waits in
#: `grabWindow` for that render thread: an intermittent deadlock that hung the corpus pass until
#: its 9-minute bound. The pixels are the same OpenGL ones.
OPENGL_CHILD_ENV = {"QT_QPA_PLATFORM": "xcb", "QSG_RENDER_LOOP": "basic"}


def configure_render(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the spec (JSON)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    parser.add_argument("--width", type=int, default=412, help="device width in dp")
    parser.add_argument("--height", type=int, default=915, help="device height in dp")
    parser.add_argument(
        "--backend",
        choices=("auto", "opengl", "software"),
        default="auto",
        help="auto: OpenGL when a display or Xvfb exists, else software",
    )
    parser.add_argument("--assets", type=Path, default=None, help="folder of image/font assets")
    parser.add_argument(
        "--no-chrome",
        action="store_true",
        help="without the phone's status and navigation bars and AutoMobile's dismiss bar",
    )
    parser.add_argument(
        "--rtl",
        action="store_true",
        help="lay the prototype out right to left, as a phone in an Arabic or Hebrew locale",
    )


def load_render_spec(path: Path) -> dict[str, Any]:
    """The spec, validated and with components expanded; ValueError with a one-line message
    (FileNotFoundError when it cannot be read), also for a valid spec that AutoMobile's host
    refuses to show (`studio.spec.anchors`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FileNotFoundError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: $: Invalid JSON ({exc.msg} at line {exc.lineno})") from exc
    except RecursionError:
        raise ValueError(f"{path}: $: Invalid JSON (nested too deeply)") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise ValueError(f"{path}: $: Invalid JSON ({' '.join(str(exc).split())})") from None
    from studio.spec import SpecError, expand, validate

    try:
        result = validate(text)
    except RecursionError:
        raise ValueError(f"{path}: $: nested too deeply") from None
    if not result.ok:
        raise ValueError(f"{path}: {result.path}: {result.message}")
    try:
        expanded = expand(spec)
    except SpecError as exc:
        raise ValueError(f"{path}: {exc}") from exc
    if not isinstance(expanded, dict):
        raise ValueError(f"{path}: $: Expected a spec object")
    from studio.spec.anchors import anchor_placement_error

    refusal = anchor_placement_error(expanded)  # valid, but the phone would show nothing
    if refusal is not None:
        raise ValueError(f"{path}: {refusal}")
    return expanded


def run_render(args: argparse.Namespace) -> int:
    if args.width < 1 or args.height < 1 or args.width > 8192 or args.height > 8192:
        print("render: --width/--height must be between 1 and 8192", file=sys.stderr)
        return 2
    try:
        spec = load_render_spec(args.file)
    except FileNotFoundError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 1
    from studio.preview.files import OutputRefused, check_output

    try:  # refused before the render, checked again when the file is replaced
        check_output(args.out, [args.file])
    except OutputRefused as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    assets = args.assets if args.assets is not None else args.file.parent / "assets"
    from studio.preview.xvfb import xvfb_available

    backend = args.backend
    if backend == "auto":
        backend = "opengl" if os.environ.get("DISPLAY") or xvfb_available() else "software"
    if backend == "software":
        return _render_here(spec, args, assets)
    return _render_child(spec, args, assets)


def _child_args(spec_file: Path, args: argparse.Namespace, assets: Path) -> list[str]:
    out = [sys.executable, "-m", "studio.preview.render", str(spec_file), str(args.out)]
    out += ["--input", str(args.file)]  # never written over, even if the path changes meanwhile
    out += ["--theme", args.theme, "--width", str(args.width), "--height", str(args.height)]
    if assets.is_dir():
        out += ["--assets", str(assets)]
    if args.no_chrome:
        out.append("--no-chrome")
    if args.rtl:
        out.append("--rtl")
    return out


def _render_here(spec: dict[str, Any], args: argparse.Namespace, assets: Path) -> int:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from studio.preview.pyside import skip_source_scan

    skip_source_scan()
    from PySide6.QtGui import QGuiApplication

    from studio.preview.render import SceneError, missing_assets_line, render_spec
    from studio.preview.scene import prepare_quick

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    prepare_quick(software=True)
    try:
        missing = render_spec(
            spec,
            args.out,
            appearance=args.theme,
            width=args.width,
            height=args.height,
            asset_dir=assets if assets.is_dir() else None,
            chrome=not args.no_chrome,
            inputs=[args.file],
            rtl=args.rtl,
        )
    except (SceneError, OSError, ValueError) as exc:
        print(f"render: {args.file}: {exc}", file=sys.stderr)
        return 1
    del app
    if missing:
        print(missing_assets_line(missing), file=sys.stderr)
    return 0


def _render_child(spec: dict[str, Any], args: argparse.Namespace, assets: Path) -> int:
    from studio.preview.xvfb import VirtualDisplay, XvfbError

    with tempfile.TemporaryDirectory(prefix="proto-render-") as tmp:
        spec_file = Path(tmp) / "spec.json"
        spec_file.write_text(json.dumps(spec), encoding="utf-8")
        env = dict(os.environ, **OPENGL_CHILD_ENV)
        command = _child_args(spec_file, args, assets)
        try:
            if os.environ.get("DISPLAY"):
                done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
            else:
                with VirtualDisplay() as display:
                    env["DISPLAY"] = display.display
                    done = subprocess.run(
                        command, env=env, capture_output=True, text=True, timeout=120
                    )
        except XvfbError as exc:
            print(f"render: {exc}; use --backend software", file=sys.stderr)
            return 2
        except subprocess.TimeoutExpired:
            print(f"render: {args.file}: the renderer did not finish in 120 s", file=sys.stderr)
            return 1
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        print(
            lines[-1] if lines else f"render: renderer exited with {done.returncode}",
            file=sys.stderr,
        )
        return 1
    for line in done.stderr.splitlines():  # the renderer's own warnings (missing assets)
        if line.startswith("render: warning: "):
            print(line, file=sys.stderr)
    return 0


def start_opengl_batch(
    jobs_file: Path, out_dir: Path, display: str | None = None
) -> subprocess.Popen[str]:
    """Start `python -m studio.preview.render --batch JOBS OUTDIR` on xcb (OpenGL) on `display`
    (default: $DISPLAY); the caller waits for it (and owns any Xvfb it started for `display`).
    Its stdout/stderr are pipes; OUTDIR/report.json has each job's Qt messages."""
    env = dict(os.environ, **OPENGL_CHILD_ENV)
    if display:
        env["DISPLAY"] = display
    if not env.get("DISPLAY"):
        raise RuntimeError("no X display: start a VirtualDisplay (Xvfb) first")
    command = [sys.executable, "-m", "studio.preview.render", "--batch", str(jobs_file)]
    return subprocess.Popen(
        [*command, str(out_dir)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
