"""Library thumbnails: every entry gets one in the background after start-up, without stalling."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

# Five templates take ~8 s on an idle core; the bound is generous so a loaded machine waits
# longer instead of failing (the wait ends as soon as every thumbnail is there).
THUMBNAILS_TIMEOUT = 120


@pytest.fixture
def studio(make_studio: Any) -> Studio:
    return make_studio(thumbnails=True, extras=False)  # type: ignore[no-any-return]


def test_first_launch_gives_every_template_a_thumbnail(studio: Studio) -> None:
    panel = studio.window.library_panel
    ids = panel.entry_ids()
    assert len(ids) == 5  # the seeded templates
    studio.wait_for(lambda: all(panel.has_thumbnail(i) for i in ids), timeout=THUMBNAILS_TIMEOUT)
    for entry_id in ids:  # stored too: the next launch shows them without drawing again
        path = studio.library.thumbnail_path(entry_id)
        assert path is not None and path.read_bytes().startswith(b"\x89PNG")
    task = studio.controller.backfill_task
    studio.wait_for(lambda: task is not None and task.done())


def test_gui_thread_never_stalls_long_while_thumbnails_render(studio: Studio) -> None:
    # A 5 ms ticker on the GUI thread: the most GUI-thread time spent between two ticks is the
    # longest stall. It is measured in the thread's CPU time (time.thread_time), which a busy
    # shared machine does not stretch; the wall-clock gap is printed next to it.
    cpu_gaps: list[float] = []
    wall_gaps: list[float] = []

    async def ticker() -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now_cpu, now_wall = time.thread_time(), time.perf_counter()
            cpu_gaps.append(now_cpu - cpu)
            wall_gaps.append(now_wall - wall)
            cpu, wall = now_cpu, now_wall

    ticking = studio.loop.create_task(ticker())
    panel = studio.window.library_panel
    ids = panel.entry_ids()
    try:
        studio.wait_for(
            lambda: all(panel.has_thumbnail(i) for i in ids), timeout=THUMBNAILS_TIMEOUT
        )
    finally:
        ticking.cancel()
        studio.loop.run_until_complete(asyncio.gather(ticking, return_exceptions=True))
    longest = max(cpu_gaps)
    print(
        f"longest GUI-thread stall while thumbnails rendered: {longest * 1000:.0f} ms of CPU "
        f"({max(wall_gaps) * 1000:.0f} ms wall clock)"
    )
    assert longest < 0.25


def test_closing_cancels_the_background_renders(studio: Studio) -> None:
    task = studio.controller.backfill_task
    assert task is not None and not task.done()  # still waiting to start (after the first frame)
    studio.loop.run_until_complete(studio.controller.aclose())
    assert task.cancelled()
    document = studio.controller.document
    others = [
        i
        for i in studio.window.library_panel.entry_ids()
        if document is None or i != document.entry_id
    ]
    assert not any(studio.window.library_panel.has_thumbnail(i) for i in others)


def test_imported_entries_get_thumbnails_too(studio: Studio, tmp_path: Path) -> None:
    panel = studio.window.library_panel
    templates = panel.entry_ids()
    studio.wait_for(
        lambda: all(panel.has_thumbnail(i) for i in templates), timeout=THUMBNAILS_TIMEOUT
    )
    paths = []
    for name, text in (("first", "One"), ("second", "Two")):
        spec = {
            "id": name,
            "window": {"placement": {"type": "fullscreen"}},
            "root": {"type": "text", "id": "t", "text": text},
        }
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(spec), encoding="utf-8")
        paths.append(path)
    studio.controller.import_files(paths)  # opens each in turn: only the last stays open
    studio.wait_for(lambda: len(panel.entry_ids()) == 7)
    studio.wait_for(
        lambda: all(panel.has_thumbnail(i) for i in panel.entry_ids()), timeout=THUMBNAILS_TIMEOUT
    )
