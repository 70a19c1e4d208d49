"""The studio fixture builds what the app builds (the composition root), with background jobs
off, and the leak check names a top-level widget that outlives its test."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLabel

from studio.agent.providers import ProviderModels
from tests.helpers.leaks import leaked_widgets, top_level_widgets
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)


def test_the_fixture_builds_the_apps_object_graph(make_studio: Any) -> None:
    studio = make_studio()
    parts = studio.studio
    # One workspace, one HTTP client and one key store, shared as the composition root shares them.
    assert studio.controller.workspace is studio.workspace is studio.sheet.workspace
    assert isinstance(parts.models, ProviderModels)  # the app's default model source
    assert parts.models.http is parts.http and parts.models.keys is parts.keys
    assert studio.devices is studio.window.devices and studio.devices.library is studio.library
    assert studio.workspace.document is not None  # the most recent prototype opened
    assert studio.devices._entry_id() == studio.workspace.document.entry_id
    # Background jobs are off unless a test asks for them.
    assert studio.controller.backfill_task is None and studio.devices.watcher is None


def test_a_top_level_widget_left_open_is_named(qtbot: Any) -> None:
    before = top_level_widgets()
    stray = QLabel("left open")
    stray.setObjectName("strayLabel")
    stray.show()
    assert leaked_widgets(before) == ["QLabel strayLabel"]
    stray.close()
    stray.deleteLater()
    assert leaked_widgets(before) == []
