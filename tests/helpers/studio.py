"""The one studio fixture for UI tests (napari's `make_napari_viewer` in spirit): `make_studio()`
builds the real studio through the composition root the app uses (`studio.ui.app.compose` and
`Studio.attach_extras`), with background jobs off unless asked for, closes it in the app's order
at the end of the test, and fails the test when a top-level widget outlives it."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QDockWidget

from studio.library.store import Library
from studio.ui.app import Studio, compose
from studio.ui.main_window import MainWindow
from studio.ui.settings import UiSettings
from tests.helpers.leaks import leaked_widgets, top_level_widgets
from tests.helpers.waiting import run_until

# The offscreen platform cannot size top-level windows and says so; nothing else is ignored.
OFFSCREEN_SIZE_HINTS = r"This plugin does not support propagateSizeHints\(\)"


class StudioHarness:
    """A running studio in a test: its parts, and the loop it runs on."""

    def __init__(self, studio: Studio, loop: asyncio.AbstractEventLoop) -> None:
        self.studio = studio
        self.loop = loop
        self.window = studio.window
        self.controller = studio.controller
        self.library = studio.library
        self.settings = studio.settings
        self.workspace = studio.workspace

    @property
    def sheet(self) -> Any:
        return self.studio.sheet

    @property
    def devices(self) -> Any:
        return self.studio.devices

    @property
    def status(self) -> str:
        return self.window.statusBar().currentMessage()

    def settle(self) -> None:
        """Run the loop until every command the controller started has finished."""
        self.loop.run_until_complete(self.controller.idle())

    def show_tab(self, dock: QDockWidget) -> None:
        """Bring a dock's tab to the front, as clicking the tab does: the document-level panels
        behind the inspector draw only while on screen (`studio.ui.on_screen`)."""
        dock.raise_()
        self.wait_for(lambda: not dock.visibleRegion().isEmpty())

    def wait_for(self, predicate: Callable[[], object], timeout: float = 10.0) -> None:
        run_until(self.loop, predicate, timeout)
        self.settle()

    def close(self) -> None:
        """Close as the app does: the window (which saves its layout and stops the agent), then
        the studio's parts in order; the window is deleted while the loop still exists."""
        if self.studio.closed:
            return
        self.window.close()
        self.loop.run_until_complete(self.studio.aclose())
        self.window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        self.loop.run_until_complete(asyncio.sleep(0))
        # Collect cyclic garbage on the GUI thread, never later in a worker thread (a QObject
        # destroyed there makes Qt warn or crash).
        gc.collect()


@pytest.fixture
def make_studio(
    qloop: asyncio.AbstractEventLoop, qapp: QApplication, _isolated_home: Path
) -> Iterator[Callable[..., StudioHarness]]:
    """`make_studio(file=None, *, home=None, adb=None, host_factory=None, models=None,
    keys=None, extras=True, thumbnails=False, save_snapshots=False, show=True)`.

    `home`: where the library lives (default: the test's user folder); `models`: the agent's
    model source (default: the configured provider, as in the app); `extras`: also build the
    agent sheet and device mode; `thumbnails`: draw missing library thumbnails in the
    background, as the app does after start-up; `save_snapshots`: save agent run snapshots."""
    before = top_level_widgets()
    made: list[StudioHarness] = []

    def make(
        file: str | Path | None = None,
        *,
        home: Path | None = None,
        adb: Any = None,
        host_factory: Any = None,
        models: Any = None,
        keys: Any = None,
        extras: bool = True,
        thumbnails: bool = False,
        save_snapshots: bool = False,
        show: bool = True,
    ) -> StudioHarness:
        root = Path(home) if home is not None else _isolated_home
        settings = UiSettings(root / "config" / "ui.ini")
        window = MainWindow(settings)
        studio = qloop.run_until_complete(
            compose(window, settings, library=Library(root), adb=adb, host_factory=host_factory)
        )
        harness = StudioHarness(studio, qloop)
        made.append(harness)
        studio.controller.thumbnail_delay = 0.05
        studio.controller.backfill_thumbnails = thumbnails
        if show:
            window.show()
        studio.controller.start(os.fspath(file) if file is not None else None)
        harness.settle()
        if extras:
            qloop.run_until_complete(
                studio.attach_extras(keys=keys, models=models, save_snapshots=save_snapshots)
            )
        return harness

    yield make
    for harness in reversed(made):
        harness.close()
    leaked = leaked_widgets(before)
    if leaked:
        pytest.fail(f"top-level widgets outlived the test: {', '.join(leaked)}", pytrace=False)
