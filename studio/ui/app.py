"""`proto-studio [FILE]`: the composition root of the studio window (QApplication + qasync loop).

Clients (library, settings, platform registry, consent broker) are built here and passed in.
`--smoke-test` opens FILE or a template, waits for the first painted frame, runs the checks of
`studio.ui.smoke`, prints "smoke ok" and exits 0 (the packaging scripts run it on the builds);
`--screenshot PNG` saves a grab of the window after the first painted frame and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.concurrency import off_loop

if TYPE_CHECKING:
    from studio.ui.identity import FileOpens
    from studio.ui.main_window import MainWindow
    from studio.ui.settings import UiSettings

#: How long `--smoke-test`/`--screenshot` wait for the first frame before failing.
FIRST_FRAME_TIMEOUT = 60.0
#: How long start-up waits for the window's first paint before loading the rest anyway.
FIRST_PAINT_WAIT = 2.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="proto-studio", description="Open Proto Studio.")
    parser.add_argument("file", nargs="?", help="a spec JSON or .protobundle to open")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open FILE or a template, check the preview, icon font, mirror decoding and "
        "licences, print 'smoke ok', exit",
    )
    parser.add_argument(
        "--screenshot", type=Path, help="save the window as PNG after first paint, exit"
    )
    return parser


def run_studio(argv: Sequence[str]) -> int:
    try:
        args = _parser().parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.file and not Path(args.file).is_file():
        print(f"proto-studio: {args.file}: no such file", file=sys.stderr)
        return 2

    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from studio.ui.identity import identify
    from studio.ui.main_window import MainWindow
    from studio.ui.settings import UiSettings
    from studio.ui.theme import follow_system

    QApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "proto-studio"])
    assert isinstance(app, QApplication)
    app.setApplicationName("Proto Studio")
    app.setOrganizationName("proto-studio")
    app.setQuitOnLastWindowClosed(False)
    from studio.ui.single_instance import Launch

    launch = Launch(args.file, one_shot=bool(args.smoke_test or args.screenshot))
    if launch.exit_code is not None:  # FILE went to the studio already open on this library
        return launch.exit_code
    file_opens = identify(app)  # icon, version, desktop entry; files the OS asks us to open
    follow_system(app)
    from studio.ui.gc import GuiThreadCollector

    collector = GuiThreadCollector(app)  # cyclic garbage is collected on the GUI thread only
    collector.start()

    # Paint the window first (panels, menus, remembered layout), then load what is slow: the
    # asyncio loop, the library and the preview's Qt Quick scene (see benchmarks/bench_startup.py).
    settings = UiSettings()
    window = MainWindow(None, settings)
    first_paint = _first_paint_filter()(window)
    window.installEventFilter(first_paint)
    window.show()
    waiter = QEventLoop()
    first_paint.painted.connect(waiter.quit)
    QTimer.singleShot(int(FIRST_PAINT_WAIT * 1000), waiter.quit)
    if not first_paint.seen:
        waiter.exec()
    if args.smoke_test and first_paint.seen:
        print("window painted", flush=True)

    from studio.ui.event_loop import StudioEventLoop

    loop = StudioEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        return int(loop.run_until_complete(_main(args, window, settings, launch, file_opens)))
    finally:
        launch.close()
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
        asyncio.set_event_loop(None)


async def _main(
    args: argparse.Namespace,
    window: MainWindow,
    settings: UiSettings,
    launch: Any,
    file_opens: FileOpens,
) -> int:
    from studio.library.store import Library
    from studio.ui.controller import StudioController

    # The composition root: every client is built once, here, and passed in.
    library = await off_loop(Library)
    platform = PlatformServices(window)
    controller = StudioController(library, settings, host_factory=platform.host_for)
    # Phones over adb (adbutils loads off the GUI thread); not for one-shot smoke/screenshot runs,
    # which must not leave an adb server behind.
    one_shot = args.smoke_test or args.screenshot
    adb = None if one_shot else await off_loop(_adb_client)
    window.attach(controller, adb=adb, extras=False)
    window.set_permissions_source(platform.broker)
    closed = asyncio.Event()
    window.closing.connect(closed.set)
    first_frame = _first_frame(window, controller)
    controller.start(args.file)
    file_opens.deliver(controller.import_files)
    # The agent sheet and device mode come right after the first preview frame (their imports
    # would otherwise delay it by ~0.3 s), or after a few seconds when nothing opens.
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(first_frame), FIRST_PAINT_WAIT * 2)
    window.attach_extras(adb)
    launch.serve(window, controller.import_files)  # what later launches hand over
    # The validator's generated checks are compiled off the GUI thread, before the first edit.
    from studio.spec.validator import warm_up

    warm_up_task = asyncio.ensure_future(off_loop(warm_up))
    rc = 0
    try:
        if args.smoke_test or args.screenshot:
            rc = await _until_first_frame(first_frame, window, controller, args)
            window.close()
        else:
            await closed.wait()
    finally:
        await warm_up_task
        await window.agent_sheet.aclose()
        await window.devices.aclose()
        await controller.aclose()
        platform.close()
        window.deleteLater()  # before the QApplication goes: QML must not outlive its context
        await asyncio.sleep(0)
    return rc


def _adb_client() -> Any:
    from studio.device.adb import Adb

    return Adb()


class PlatformServices:
    """The platform registry, consent broker and Qt consent UI, built at the root on the first
    platform call (most prototypes make none, and building them costs start-up time). Consent
    questions and the share picker are modal to `window`; the preview is paused meanwhile."""

    def __init__(
        self, window: MainWindow | None = None, place_dialog: Callable[[Any], None] | None = None
    ) -> None:
        self._built: tuple[Any, Any, Any] | None = None
        self._window = window
        #: Positions each consent dialog (the window keeps it outside the preview).
        self._place_dialog = place_dialog or (window.keep_outside_preview if window else None)

    def _build(self) -> tuple[Any, Any, Any]:
        if self._built is None:
            from studio.platform.consent import ConsentBroker
            from studio.platform.modules.share import FileShareTarget
            from studio.platform.registry import default_registry
            from studio.ui.consent import QtClipboard, QtConsentUI, QtSharePicker

            window = self._window
            self._share_picker = QtSharePicker(window)
            registry = default_registry(
                clipboard_backend=QtClipboard(),
                share_target=FileShareTarget(self._share_picker.pick),
            )
            broker = ConsentBroker()

            def pause(paused: bool) -> None:  # no tap reaches the prototype meanwhile
                if window is not None:
                    window.preview_pane.setEnabled(not paused)

            consent_ui = QtConsentUI(window=window, pause=pause)
            if self._place_dialog is not None:
                consent_ui.dialog_opened.connect(self._place_dialog)
            consent_ui.attach(broker)
            self._built = (registry, broker, consent_ui)
        return self._built

    def host_for(self, prototype_id: str) -> Any:
        from studio.platform.host import PlatformHost

        registry, broker, _ = self._build()
        return PlatformHost(registry, broker, prototype_id=prototype_id)

    def broker(self) -> Any:
        """The consent broker (Settings > Platform permissions lists and revokes its grants)."""
        return self._build()[1]

    def close(self) -> None:
        if self._built is not None:
            self._built[2].close()


def _first_paint_filter() -> Any:
    from PySide6.QtCore import QEvent, QObject, Signal

    class FirstPaint(QObject):
        """Emits `painted` on the watched window's first paint event, then removes itself."""

        painted = Signal()

        def __init__(self, parent: QObject) -> None:
            super().__init__(parent)
            self.seen = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not self.seen:
                self.seen = True
                watched.removeEventFilter(self)
                self.painted.emit()
            return False

    return FirstPaint


def _first_frame(window: MainWindow, controller: Any) -> asyncio.Future[None]:
    """Resolves after the preview has drawn the first opened prototype."""
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    quick = window.preview_pane.preview.quick_widget.quickWindow()
    opened: list[bool] = []

    def on_open(_document: object) -> None:
        opened.append(True)

    def on_frame() -> None:
        if opened and not future.done():
            future.set_result(None)

    controller.documentOpened.connect(on_open)
    quick.afterRendering.connect(on_frame)
    return future


async def _until_first_frame(
    first_frame: asyncio.Future[None], window: MainWindow, controller: Any, args: argparse.Namespace
) -> int:
    try:
        await asyncio.wait_for(first_frame, FIRST_FRAME_TIMEOUT)
    except TimeoutError:
        print(f"proto-studio: no frame painted within {FIRST_FRAME_TIMEOUT:g} s", file=sys.stderr)
        return 1
    if args.smoke_test:  # what a packaged build must carry (studio.ui.smoke lists the checks)
        from studio.ui.smoke import run_checks

        return await run_checks(window, controller)
    if args.screenshot:
        await asyncio.sleep(0.5)  # let the rest of the window settle (docks, thumbnails)
        image = window.grab()
        args.screenshot.parent.mkdir(parents=True, exist_ok=True)
        if image.isNull() or not image.save(str(args.screenshot), "PNG"):
            print(f"proto-studio: cannot write {args.screenshot}", file=sys.stderr)
            return 1
        print(f"screenshot {args.screenshot}")
    return 0
