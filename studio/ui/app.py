"""`proto-studio [FILE]`: the composition root of the studio window (QApplication + qasync loop).

Every client is built here, once, and passed in: the library, the UI settings, the workspace,
the platform registry and consent broker, and (right after the first preview frame) the
keychain store, the one HTTP client, the model source, the agent settings (read off the GUI
thread) and the device manager. `compose` and `Studio.attach_extras` are also what the tests'
studio fixture builds through. `--smoke-test` opens FILE or a template, waits for the first
painted frame, runs the checks of `studio.ui.smoke`, prints "smoke ok" and exits 0 (the packaging
scripts run it on the builds); `--screenshot PNG` saves a grab of the window after the first
painted frame and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.concurrency import off_loop

if TYPE_CHECKING:
    import httpx

    from studio.agent.keys import KeyStore
    from studio.agent.mcp_host import McpHost
    from studio.agent.providers import ModelSource
    from studio.agent.registry import Tool
    from studio.device.adb import Adb
    from studio.library.store import Library
    from studio.ui.agent_sheet import AgentSheet
    from studio.ui.controller import StudioController
    from studio.ui.devices import DeviceManager
    from studio.ui.identity import FileOpens
    from studio.ui.main_window import MainWindow
    from studio.ui.settings import UiSettings
    from studio.workspace import Workspace

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

    from studio.preview.pyside import skip_source_scan

    skip_source_scan()  # before the studio's own imports
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
    file_opens = identify(app)  # icon, desktop entry; files the OS asks us to open
    follow_system(app)
    from studio.ui.gc import GuiThreadCollector

    collector = GuiThreadCollector(app)  # cyclic garbage is collected on the GUI thread only
    collector.start()

    # Paint the window first (panels, menus, remembered layout), then load what is slow: the
    # asyncio loop, the library and the preview's Qt Quick scene (see benchmarks/bench_startup.py).
    settings = UiSettings()
    window = MainWindow(settings)
    first_paint = _first_paint_filter()(window)
    window.installEventFilter(first_paint)
    window.show_on_screen()
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
    one_shot = args.smoke_test or args.screenshot
    studio = await compose(window, settings)
    closed = asyncio.Event()
    window.closing.connect(closed.set)
    # benchmarks/bench_startup.py times the first preview frame by this line, printed as it is
    # drawn (a done callback would wait for the event loop's next pass).
    announce = (lambda: print("preview frame", flush=True)) if args.smoke_test else None
    first_frame = _first_frame(window, studio.controller, announce)
    studio.controller.start(args.file)
    file_opens.deliver(studio.controller.import_files)
    # The agent sheet and device mode come right after the first preview frame (their imports
    # would otherwise delay it by ~0.3 s), or after a few seconds when nothing opens.
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(first_frame), FIRST_PAINT_WAIT * 2)
    from PySide6.QtWidgets import QApplication

    from studio.ui.identity import identify_version

    app = QApplication.instance()
    if isinstance(app, QApplication):
        identify_version(app)
    # Phones over adb, for device mode: adbutils (~0.3 s to import) loads off the GUI thread and
    # after the first preview frame, which it would otherwise delay; not for one-shot
    # smoke/screenshot runs, which must not leave an adb server behind.
    if not one_shot:
        studio.adb = await off_loop(_adb_client)
    await studio.attach_extras()
    launch.serve(window, studio.controller.import_files)  # what later launches hand over
    # The validator's generated checks are compiled off the GUI thread, before the first edit.
    from studio.spec.validator import warm_up

    warm_up_task = asyncio.ensure_future(off_loop(warm_up))
    rc = 0
    try:
        if args.smoke_test or args.screenshot:
            rc = await _until_first_frame(first_frame, window, studio.controller, args)
            window.close()
        else:
            await closed.wait()
    finally:
        await warm_up_task
        await studio.aclose()
        window.deleteLater()  # before the QApplication goes: QML must not outlive its context
        await asyncio.sleep(0)
    return rc


@dataclass
class Studio:
    """The studio's object graph as the composition root builds it (the app and the tests)."""

    window: MainWindow
    settings: UiSettings
    library: Library
    workspace: Workspace
    controller: StudioController
    platform: PlatformServices
    adb: Adb | None = None
    keys: KeyStore | None = None
    http: httpx.AsyncClient | None = None
    models: ModelSource | None = None
    devices: DeviceManager | None = None
    #: The MCP servers declared in mcp.json, hosted for the agent (None: none declared).
    mcp: McpHost | None = None
    closed: bool = False

    @property
    def sheet(self) -> AgentSheet:
        if self.window.agent_sheet is None:
            raise RuntimeError("the agent sheet is attached after the first frame")
        return self.window.agent_sheet

    async def attach_extras(
        self,
        *,
        keys: KeyStore | None = None,
        models: ModelSource | None = None,
        save_snapshots: bool = True,
    ) -> None:
        """Device mode and the agent sheet: the keychain store, the one HTTP client, the model
        source (default: the configured provider) and the agent settings (read off the GUI
        thread), and the device manager on the window's preview pane."""
        from studio.agent.clients import default_http_client
        from studio.agent.config import load_config
        from studio.agent.keys import KeyStore
        from studio.agent.providers import ProviderModels
        from studio.ui.agent_sheet import AgentServices
        from studio.ui.devices import DeviceManager

        self.keys = keys or KeyStore()
        # Built in a worker thread: the client's transport imports httpcore (~0.1 s).
        self.http = await off_loop(default_http_client)
        self.models = models or ProviderModels(self.keys, self.http)
        config, warning = await off_loop(load_config)
        workspace = self.workspace

        def entry_id() -> str | None:
            document = workspace.document
            return document.entry_id if document is not None else None

        self.devices = DeviceManager(
            self.window.preview_pane, self.adb, self.window, library=self.library, entry_id=entry_id
        )
        services = AgentServices(
            self.models,
            self.keys,
            self.http,
            config,
            warning,
            save_snapshots=save_snapshots,
            tools=self.mcp_tools,
        )
        self.window.attach_extras(self.devices, services)
        self.sheet.mcpServersSaved.connect(self.restart_mcp)
        self.restart_mcp()

    def restart_mcp(self) -> None:
        """(Re)start the servers mcp.json declares, in the background: a run started meanwhile
        gets the tools of those already running; one that fails is a line in the status bar."""
        self.controller.spawn(self._restart_mcp(), label="MCP servers")

    async def _restart_mcp(self) -> None:
        from studio.agent.mcp_host import McpHost, load_mcp_config

        old, self.mcp = self.mcp, None
        if old is not None:
            await old.aclose()
        servers, problems = await off_loop(load_mcp_config)
        if self.closed:
            return
        host = McpHost(servers) if any(s.enabled for s in servers) else None
        self.mcp = host
        if host is not None:
            problems += await host.start()
        if problems:
            self.window.statusBar().showMessage("; ".join(problems), 20000)

    def mcp_tools(self) -> Sequence[Tool]:
        from studio.agent.mcp_host import broker_consent

        host, workspace = self.mcp, self.workspace
        if host is None:
            return ()

        def prototype_id() -> str:
            document = workspace.document
            return (document.entry_id or "") if document is not None else ""

        # Tools that are not read-only ask in the window's consent dialog, as platform calls do.
        return host.agent_tools(broker_consent(self.platform.broker(), prototype_id))

    async def aclose(self) -> None:
        """Close in the app's order: the agent sheet, device mode, the controller (its tasks and
        platform calls), the HTTP client, the platform services. Once."""
        if self.closed:
            return
        self.closed = True
        if self.window.agent_sheet is not None:
            await self.window.agent_sheet.aclose()
        if self.devices is not None:
            await self.devices.aclose()
        await self.controller.aclose()
        if self.mcp is not None:
            await self.mcp.aclose()
            self.mcp = None
        if self.http is not None:
            await self.http.aclose()
        self.platform.close()
        self.settings.flush()


def _adb_client() -> Any:
    from studio.device.adb import Adb

    return Adb()


async def compose(
    window: MainWindow,
    settings: UiSettings,
    *,
    library: Library | None = None,
    adb: Adb | None = None,
    host_factory: Callable[[str], Any] | None = None,
) -> Studio:
    """Build the studio's core graph (library, workspace, platform services, controller) and
    attach the window to it. `library` default: the user's, opened off the GUI thread;
    `host_factory` default: the platform services' hosts."""
    from studio.library.store import Library
    from studio.ui.controller import StudioController
    from studio.workspace import Workspace

    if library is None:
        library = await off_loop(Library)
    workspace = Workspace()
    platform = PlatformServices(window)
    controller = StudioController(
        library, settings, workspace, host_factory=host_factory or platform.host_for
    )
    window.attach(controller)
    window.set_permissions_source(platform.broker)
    return Studio(window, settings, library, workspace, controller, platform, adb)


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

    def consent_ui(self) -> Any:
        """The Qt consent dialogs' owner (its `dialog_opened` signal names each new dialog)."""
        return self._build()[2]

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


def _first_frame(
    window: MainWindow, controller: Any, announce: Callable[[], None] | None = None
) -> asyncio.Future[None]:
    """Resolves after the preview has drawn the first opened prototype (`announce` is called
    as that frame is drawn)."""
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    quick = window.preview_pane.preview.quick_widget.quickWindow()
    opened: list[bool] = []

    def on_open(_document: object) -> None:
        opened.append(True)

    def on_frame() -> None:
        if opened and not future.done():
            future.set_result(None)
            if announce is not None:
                announce()

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
