"""Headless rendering of a spec's first screen to an image (in this process, current platform).

Also the entry point of the child process `render` starts under Xvfb:
`python -m studio.preview.render SPEC.json OUT.png --theme T --width W --height H [--assets DIR]`,
and its batch form, many renders in one process (one Qt start-up instead of one per spec):
`python -m studio.preview.render --batch JOBS.jsonl OUTDIR`. Each line of JOBS.jsonl is
`{"name", "spec" (an already validated, expanded spec file), "theme"?, "width"?, "height"?,
"assets"?, "chrome"?, "rtl"?}`; each render goes to OUTDIR/<name>.png and OUTDIR/report.json lists, per job, the
Qt messages (warnings included) logged while it rendered, its error if any, and the graphics
API the scene graph used.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QEventLoop,
    QMessageLogContext,
    QSize,
    QTimer,
    QtMsgType,
    QUrl,
    qInstallMessageHandler,
)
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtQuick import QQuickItem, QQuickView, QSGRendererInterface

from studio.preview.assets import directory_resolver
from studio.preview.controller import AssetResolver, PreviewController
from studio.preview.inspect import visible_nodes
from studio.preview.scene import configure_engine, prepare_quick, qml_url


class SceneError(RuntimeError):
    """The QML scene failed to load (its first error)."""


_STILL_ROUNDS = 25  # grabs while animations run (Material's longest is ~300 ms)
_FRAME_MS = 40  # a little over two 60 Hz frames


class HeadlessScene:
    """A preview scene in a top-level QQuickView without the phone frame (for renders/tests)."""

    def __init__(
        self,
        width: int = 412,
        height: int = 915,
        appearance: str = "light",
        asset_resolver: AssetResolver | None = None,
        *,
        chrome: bool = True,
        rtl: bool = False,
    ) -> None:
        self.controller = PreviewController(asset_resolver)
        self.controller.set_device_size(width, height)
        self.controller.set_device_chrome(chrome)
        self.controller.set_rtl(rtl)
        self.controller.set_appearance(appearance)
        self.view = QQuickView()
        configure_engine(self.view.engine())
        self.controller.attach_engine(self.view.engine())
        self.view.rootContext().setContextProperty("preview", self.controller)
        self.view.setInitialProperties({"showFrame": False})
        self.view.setResizeMode(QQuickView.ResizeMode.SizeRootObjectToView)
        self.view.resize(QSize(width, height))
        self._size = QSize(width, height)
        self._loaded = False

    def show(self, spec: dict[str, Any], appearance: str | None = None) -> None:
        self.load(spec, appearance)
        settle(controller=self.controller)

    def load(
        self, spec: dict[str, Any], appearance: str | None = None, *, visible: bool = True
    ) -> None:
        """`show` without settling: the caller lets the event loop run (e.g. awaits) before
        `grab_now`, so a scene can be built in small steps on a busy GUI thread. With
        `visible=False` the view is not shown (Qt Quick grabs a hidden window by rendering it
        offscreen where the backend supports it; `grab_now` is then null where it does not)."""
        self.controller.set_spec(spec, appearance)
        if not self._loaded:
            self.view.setSource(qml_url())
            errors = self.view.errors()
            if errors:
                raise SceneError(errors[0].toString())
            self._loaded = True
            self.view.resize(self._size)
            if visible:
                self.view.show()

    def grab(self) -> QImage:
        """The scene once it is still: settled, then grabbed again for as long as Qt keeps
        drawing new frames (a switch's thumb or a checkbox's check still animating), at most `_STILL_ROUNDS` times (a looping animation, e.g. an
        indeterminate progress bar, never stops)."""
        settle(controller=self.controller)
        for _ in range(_STILL_ROUNDS):
            if not self._drew_frame_within(_FRAME_MS):
                break
            settle(controller=self.controller)
        return self.grab_now()

    def _drew_frame_within(self, ms: int) -> bool:
        """Whether the window draws a new frame within `ms` (a still scene requests none).
        `afterAnimating` is emitted on the GUI thread for each frame (`frameSwapped` comes from
        the render thread on xcb, and a Python slot there deadlocks against `grabWindow`)."""
        swapped = False
        loop = QEventLoop()

        def on_swap() -> None:
            nonlocal swapped
            swapped = True
            loop.quit()

        self.view.afterAnimating.connect(on_swap)
        QTimer.singleShot(ms, loop.quit)
        try:
            loop.exec()
        finally:
            self.view.afterAnimating.disconnect(on_swap)
        return swapped

    def grab_now(self) -> QImage:
        """The scene as it is now (no event-loop passes first)."""
        return self.view.grabWindow()

    def screen_item(self) -> QQuickItem:
        root = self.view.rootObject()
        screen = root.findChild(QQuickItem, "screen") if root is not None else None
        if not isinstance(screen, QQuickItem):
            raise RuntimeError("preview scene has no screen item")
        return screen

    def visible_summary(self, *, on_screen_only: bool = True) -> list[dict[str, Any]]:
        """What the scene shows: [{address, type, text, bounds}] (see `inspect.visible_nodes`)."""
        return visible_nodes(
            self.screen_item(), self.controller.icon_families(), on_screen_only=on_screen_only
        )

    def close(self) -> None:
        """Tear down the view before the controller it reads."""
        self.controller.close()
        self.view.close()
        self.view.setSource(QUrl())
        # Delete just these two now (flushing every posted event would also run other objects'
        # pending deletes, e.g. a window a caller is still tearing down).
        self.view.deleteLater()
        QCoreApplication.sendPostedEvents(self.view, QEvent.Type.DeferredDelete)
        self.controller.deleteLater()
        QCoreApplication.sendPostedEvents(self.controller, QEvent.Type.DeferredDelete)


def settle(rounds: int = 3, controller: PreviewController | None = None) -> None:
    """Let bindings, layouts and image loads finish (a few event-loop passes); with a
    `controller`, also until no layout container is waiting to re-measure (bounded)."""
    for _ in range(rounds):
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
    for _ in range(200):
        loop = QEventLoop()
        QTimer.singleShot(0, loop.quit)
        loop.exec()
        if controller is None or controller.layouts_queued == 0:
            break


def missing_assets_line(missing: Sequence[str]) -> str:
    """The warning `render` prints when the spec names assets it does not have (the phone's
    show reply lists them as `missingAssets`; the PNG draws them as the placeholder)."""
    return (
        f"render: warning: missingAssets: {', '.join(missing)} (drawn as the placeholder,"
        " as on the phone)"
    )


def render_spec(
    spec: dict[str, Any],
    out: Path,
    *,
    appearance: str = "light",
    width: int = 412,
    height: int = 915,
    asset_dir: Path | None = None,
    chrome: bool = True,
    inputs: Sequence[Path] = (),
    rtl: bool = False,
) -> list[str]:
    """Render the spec's first screen (valid, components expanded) and save it as PNG (never
    over one of `inputs`, nor over anything but a regular file: `files.OutputRefused`); with
    `chrome`, inside the phone's status, navigation and dismiss bars; with `rtl`, laid out right
    to left (a phone in an Arabic or Hebrew locale)."""
    resolver = directory_resolver(asset_dir) if asset_dir is not None else None
    scene = HeadlessScene(width, height, appearance, resolver, chrome=chrome, rtl=rtl)
    # The first screen only: what a scroll holds below it is never measured (it cannot move
    # anything on the first screen; tests/preview/test_lazy_scroll.py).
    scene.controller.tree.complete_in_idle = False
    scene.controller.tree.look_ahead = False  # nor are rows made ahead of a scroll it never moves
    try:
        scene.show(spec)
        if scene.controller.show_refusal:  # the phone shows nothing: no image pretends otherwise
            raise SceneError(scene.controller.show_refusal)
        image = scene.grab()
        if image.isNull():
            raise SceneError("the scene produced no image")
        from studio.preview.files import save_image_atomic

        save_image_atomic(image, out, inputs=inputs)
        return scene.controller.missing_assets
    finally:
        scene.close()


_MESSAGE_KINDS = {
    QtMsgType.QtDebugMsg: "debug",
    QtMsgType.QtInfoMsg: "info",
    QtMsgType.QtWarningMsg: "warning",
    QtMsgType.QtCriticalMsg: "critical",
    QtMsgType.QtFatalMsg: "fatal",
}


@contextmanager
def captured_messages() -> Iterator[list[dict[str, str]]]:
    """Collects Qt's messages (QML warnings included) as `{kind, text}` while the block runs;
    each is also written to stderr as Qt would have."""
    messages: list[dict[str, str]] = []

    def handler(kind: QtMsgType, _context: QMessageLogContext, text: str) -> None:
        messages.append({"kind": _MESSAGE_KINDS.get(kind, "warning"), "text": text})
        print(text, file=sys.stderr)

    previous = qInstallMessageHandler(handler)
    try:
        yield messages
    finally:
        qInstallMessageHandler(previous)


def graphics_api(scene: HeadlessScene) -> str:
    """The scene graph's graphics API ("OpenGL", "Software", ...)."""
    interface = scene.view.rendererInterface()
    if interface is None:
        return ""
    api = interface.graphicsApi()
    return str(QSGRendererInterface.GraphicsApi(api).name)


def render_batch(jobs_file: Path, out_dir: Path) -> list[dict[str, Any]]:
    """Render every job of a JSON-lines file (see the module docstring) in this process, each
    in a fresh scene (as a single render); returns (and writes to OUTDIR/report.json) the
    report."""
    from studio.preview.files import save_image_atomic

    jobs = [json.loads(line) for line in jobs_file.read_text(encoding="utf-8").splitlines() if line]
    report: list[dict[str, Any]] = []
    for job in jobs:
        entry: dict[str, Any] = {"name": str(job["name"]), "ok": False}
        with captured_messages() as messages:
            scene: HeadlessScene | None = None
            try:
                assets = job.get("assets")
                scene = HeadlessScene(
                    int(job.get("width", 412)),
                    int(job.get("height", 915)),
                    str(job.get("theme", "light")),
                    directory_resolver(Path(assets)) if assets else None,
                    chrome=bool(job.get("chrome", True)),
                    rtl=bool(job.get("rtl", False)),
                )
                scene.show(json.loads(Path(job["spec"]).read_text(encoding="utf-8")))
                image = scene.grab()
                if image.isNull():
                    raise SceneError("the scene produced no image")
                save_image_atomic(image, out_dir / f"{entry['name']}.png")
                entry["ok"] = True
                entry["api"] = graphics_api(scene)
            except (SceneError, OSError, ValueError, KeyError) as exc:
                entry["error"] = f"{job.get('spec')}: {exc}"
            finally:
                if scene is not None:
                    scene.close()
        entry["messages"] = messages
        report.append(entry)
    _write_json_atomic(out_dir / "report.json", report)
    return report


def _write_json_atomic(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(value, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    """The child-process entry: render an already validated and expanded spec file, or a batch."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--batch"]:
        return _main_batch(argv[1:])
    return _main_single(argv)


def _main_batch(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="studio.preview.render --batch")
    parser.add_argument("jobs", type=Path, help="JSON lines, one render job each")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--software", action="store_true")
    args = parser.parse_args(argv)
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    prepare_quick(True if args.software else None)
    try:
        report = render_batch(args.jobs, args.out_dir)
    except OSError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 1
    finally:
        del app
    return 0 if all(entry["ok"] for entry in report) else 1


def _main_single(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="studio.preview.render")
    parser.add_argument("spec", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--theme", default="light")
    parser.add_argument("--width", type=int, default=412)
    parser.add_argument("--height", type=int, default=915)
    parser.add_argument("--assets", type=Path, default=None)
    parser.add_argument("--software", action="store_true")
    parser.add_argument("--no-chrome", action="store_true")
    parser.add_argument("--rtl", action="store_true")
    parser.add_argument("--input", type=Path, action="append", default=[])
    args = parser.parse_args(argv)
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    prepare_quick(True if args.software else None)
    spec = json.loads(args.spec.read_text(encoding="utf-8"))
    try:
        missing = render_spec(
            spec,
            args.out,
            appearance=args.theme,
            width=args.width,
            height=args.height,
            asset_dir=args.assets,
            chrome=not args.no_chrome,
            inputs=args.input,
            rtl=args.rtl,
        )
    except (SceneError, OSError, ValueError) as exc:  # ValueError: files.OutputRefused
        print(f"render: {exc}", file=sys.stderr)
        return 1
    finally:
        del app
    if missing:
        print(missing_assets_line(missing), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
