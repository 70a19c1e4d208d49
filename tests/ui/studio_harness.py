"""Builds a real studio window for tests (real Library, settings, preview) and drives its loop."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.library.store import Library
from studio.ui.controller import StudioController
from studio.ui.main_window import MainWindow
from studio.ui.settings import UiSettings

# The offscreen platform cannot size top-level windows and says so; nothing else is ignored.
OFFSCREEN_SIZE_HINTS = r"This plugin does not support propagateSizeHints\(\)"


@dataclass
class Studio:
    window: MainWindow
    controller: StudioController
    library: Library
    settings: UiSettings
    loop: asyncio.AbstractEventLoop
    closed: bool = False

    def settle(self) -> None:
        """Run the loop until every command the controller started has finished."""
        self.loop.run_until_complete(self.controller.idle())

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
        async def poll() -> None:
            while not predicate():  # noqa: ASYNC110 (a UI state, no event to await)
                await asyncio.sleep(0.02)

        self.loop.run_until_complete(asyncio.wait_for(poll(), timeout))
        self.settle()

    @property
    def status(self) -> str:
        return self.window.statusBar().currentMessage()

    def close(self) -> None:
        """Close as the app does (sheet, then controller). Runs once: as qtbot's before-close
        hook (pytest-qt closes and deleteLater()s its widgets before fixtures tear down, and the
        next event-loop pass would delete the window under us) or from the fixture."""
        if self.closed:
            return
        self.closed = True
        self.window.close()
        self.loop.run_until_complete(self.window.agent_sheet.aclose())
        self.loop.run_until_complete(self.controller.aclose())
        # Collect cyclic garbage on the GUI thread, never later in the library worker thread
        # (a QObject destroyed there makes Qt warn or crash).
        gc.collect()


def build_studio(
    loop: asyncio.AbstractEventLoop, qtbot: Any, home: Path, *, file: str | None = None,
    host_factory: Any = None, thumbnails: bool = False,
) -> Studio:  # fmt: skip
    """`thumbnails`: draw the library's missing thumbnails in the background, as the app does
    (off by default: only tests/ui/test_thumbnails.py is about it, and a headless scene building
    while a test tears its window down only adds noise)."""
    library = Library(home)
    settings = UiSettings(home / "config" / "ui.ini")
    controller = StudioController(library, settings, host_factory=host_factory)
    controller.thumbnail_delay = 0.05
    controller.backfill_thumbnails = thumbnails
    window = MainWindow(controller, settings)
    studio = Studio(window, controller, library, settings, loop)
    qtbot.addWidget(window, before_close_func=lambda _window: studio.close())
    window.show()
    controller.start(file)
    studio.settle()
    return studio
