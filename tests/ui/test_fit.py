"""The studio fits a laptop: at 1280x720 every panel gets the room its own size hints ask for,
a deeply nested selection widens nothing, and no dialog is wider than the screen even with the
longest texts the app shows (the walkthrough's 1528 px window and 2,396 px settings dialog)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import keyring
import keyring.backend
import keyring.errors
import pytest
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QWidget

from studio.agent.config import AgentConfig
from studio.agent.keys import KeyStore
from studio.ui.agent_settings import AgentSettingsDialog
from studio.ui.fit import FIRST_SIZE, SCREEN_MARGIN, DockBody
from studio.ui.labels import ZWSP, ElidedLabel, WrapLabel, breakable
from studio.ui.main_window import AGENT_SHEET_MINIMUM, MainWindow
from studio.ui.settings import UiSettings
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.waiting import run_until

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

LAPTOP = QSize(1280, 720)
DEPTH = 14


def deep_spec() -> dict[str, Any]:
    """A prototype whose deepest node is DEPTH columns down, with a long text."""
    node: dict[str, Any] = {"type": "text", "text": "Deep " * 30}
    for _ in range(DEPTH):
        node = {"type": "column", "children": [node]}
    return {"id": "deep", "window": {"placement": {"type": "fullscreen"}}, "root": node}


def deepest_address() -> str:
    return "root" + ".children[0]" * DEPTH


def docks(window: Any) -> list[QDockWidget]:
    return [d for d in window.findChildren(QDockWidget) if d.isVisible()]


def fit_window(studio: Any, size: QSize) -> None:
    window = studio.window
    window.showNormal()
    window.resize(size)
    run_until(studio.loop, lambda: window.size() == size)
    layout = window.layout()
    assert layout is not None
    layout.activate()


def test_the_window_fits_1280_by_720_with_every_panel_usable(
    make_studio: Any, tmp_path: Path
) -> None:
    spec = tmp_path / "deep.json"
    spec.write_text(json.dumps(deep_spec()), encoding="utf-8")
    studio = make_studio(spec)
    window = studio.window
    assert studio.sheet is not None and studio.controller.document is not None
    minimum = window.minimumSizeHint()
    assert minimum.width() <= LAPTOP.width() and minimum.height() <= LAPTOP.height(), minimum

    fit_window(studio, LAPTOP)
    shown = docks(window)
    names = {d.objectName() for d in shown}
    assert {"libraryDock", "specTreeDock", "agentDock", "inspectorDock"} <= names
    for dock in shown:
        if dock.visibleRegion().isEmpty():
            continue  # a tab behind another (Revisions behind the Inspector)
        body = dock.widget()
        assert isinstance(body, DockBody)
        panel = body.panel()
        need = panel.minimumSizeHint()
        # Usable: each panel gets at least the size its own hints ask for: nothing is cut off
        # or squeezed, and the agent sheet, library and tree need no scrolling at all.
        assert panel.width() >= need.width() and panel.height() >= need.height()
        assert body.horizontalScrollBar().maximum() == 0, dock.objectName()
        if dock.objectName() != "inspectorDock":
            assert not body.scrolls(), (dock.objectName(), need, body.viewport().size())
        else:  # a form may scroll up and down, but here it fits too
            assert body.viewport().height() >= need.height()
    preview = window.preview_pane
    assert preview.width() >= 360 and preview.centre.height() >= 300  # room for a phone
    for panel in (window.library_panel.list, window.spec_tree, preview.toolbar):
        assert panel.isVisible() and panel.width() > 0 and panel.height() > 0


def test_a_deeply_nested_selection_widens_no_dock(make_studio: Any, tmp_path: Path) -> None:
    spec = tmp_path / "deep.json"
    spec.write_text(json.dumps(deep_spec()), encoding="utf-8")
    studio = make_studio(spec)
    window = studio.window
    fit_window(studio, LAPTOP)
    before = {d.objectName(): d.width() for d in docks(window)}
    minimum = window.minimumSizeHint()

    studio.controller.select(deepest_address())
    studio.settle()
    assert studio.sheet.selected == deepest_address()
    assert deepest_address() in studio.sheet.selection_label.text()
    window.layout().activate()
    assert {d.objectName(): d.width() for d in docks(window)} == before
    assert window.minimumSizeHint().width() <= minimum.width()
    assert window.size() == LAPTOP
    # The address is shown whole, wrapped inside the agent dock rather than cut or widening it.
    label = studio.sheet.selection_label
    assert label.sizeHint().width() <= window.agent_dock.width()


class _LongFailureKeyring(keyring.backend.KeyringBackend):
    """A keychain whose errors are a D-Bus reply with no spaces (the walkthrough's)."""

    priority = 1  # type: ignore[assignment]  # keyring declares it a classproperty
    detail = "org.freedesktop.DBus.Error.ServiceUnknown:" + "NoSuchNameOnTheBus" * 30

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringError(self.detail)

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringError(self.detail)

    def delete_password(self, service: str, username: str) -> None:
        raise keyring.errors.KeyringError(self.detail)


@pytest.fixture
def http(qloop: Any) -> Iterator[httpx.AsyncClient]:
    client = httpx.AsyncClient()
    yield client
    qloop.run_until_complete(client.aclose())


def test_the_agent_settings_dialog_stays_laptop_wide_with_the_longest_texts(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient, qapp: Any
) -> None:
    keyring.set_keyring(_LongFailureKeyring())
    long_url = "http://127.0.0.1:9/" + "v1/" + "really-long-path-segment" * 12
    long_model = "org/model-" + "x" * 200
    dialog = AgentSettingsDialog(
        AgentConfig(profile="generic", base_url=long_url, model=long_model),
        http=http,
        keys=KeyStore(),
        probe=False,
    )
    qtbot.addWidget(dialog)
    run_until(qloop, lambda: dialog.key_stored is not None)
    assert dialog.key_status.text().startswith("No usable OS keychain (KeyringError: ")
    dialog.test_button.click()  # a closed port: the error names the long URL
    run_until(qloop, lambda: dialog.test_result.text().startswith("✗ "))
    assert dialog.test_button.isEnabled()
    dialog.show()
    for hint in (dialog.sizeHint(), dialog.minimumSizeHint()):
        assert hint.width() <= LAPTOP.width() and hint.height() <= LAPTOP.height(), hint
    assert dialog.width() <= LAPTOP.width()
    save = dialog.save_button
    assert save.isVisible() and dialog.rect().contains(save.geometry().translated(0, 0))


def test_long_words_break_and_one_line_labels_elide(qtbot: Any) -> None:
    path = "root.children[1].child.children[13].children[2]"
    assert breakable(path).replace(ZWSP, "") == path
    assert breakable("a" * 60).count(ZWSP) == 2  # runs without separators break too
    holder = QWidget()
    qtbot.addWidget(holder)
    wrapped = WrapLabel(path * 6, holder)
    assert wrapped.text() == path * 6  # the text as set; breaks are display only
    assert wrapped.minimumSizeHint().width() < 300
    elided = ElidedLabel(path * 6, holder)
    elided.resize(120, 20)
    assert elided.shown_text().endswith(path[-3:]) and "…" in elided.shown_text()
    assert elided.toolTip() == path * 6 and elided.minimumSizeHint().width() < 120


def available_area() -> QRect:
    screen = QGuiApplication.primaryScreen()
    assert screen is not None
    return screen.availableGeometry()


def shown_window(qtbot: Any, settings: UiSettings) -> MainWindow:
    """A window built and shown as the studio first shows it (`app.run_studio`)."""
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show_on_screen()
    qtbot.waitExposed(window)
    return window


def test_the_first_run_opens_at_a_size_that_fits_the_screen_centred(
    qtbot: Any, tmp_path: Path
) -> None:
    available = available_area()
    # The offscreen screen is smaller than 1440x900, as a laptop's is: the clamp shows.
    assert available.width() < FIRST_SIZE.width() or available.height() < FIRST_SIZE.height()
    window = shown_window(qtbot, UiSettings(tmp_path / "ui.ini"))
    assert available.contains(window.frameGeometry()), (window.frameGeometry(), available)
    expected = FIRST_SIZE.boundedTo(available.size() - QSize(2, 2) * SCREEN_MARGIN)
    assert window.size() == expected
    centre = window.geometry().center() - available.center()
    assert abs(centre.x()) <= 4 and abs(centre.y()) <= 4  # the frame's few pixels aside


@pytest.mark.parametrize(
    "where",
    ["on a larger monitor to the right, now unplugged", "half off the bottom right corner"],
)
def test_a_remembered_geometry_that_no_longer_fits_is_brought_onto_the_screen(
    qtbot: Any, tmp_path: Path, where: str
) -> None:
    available = available_area()
    if where.startswith("on a larger"):
        saved = QRect(available.right() + 400, 100, 1600, 1000)
    else:
        saved = QRect(available.center(), QSize(770, 740))  # fits, moved
    settings = UiSettings(tmp_path / "ui.ini")
    before = MainWindow(settings)
    qtbot.addWidget(before)
    before.setGeometry(saved)
    before.save_layout()
    assert not available.contains(saved)

    window = shown_window(qtbot, settings)
    assert available.contains(window.frameGeometry()), (window.frameGeometry(), available)
    assert window.width() <= saved.width() and window.height() <= saved.height()
    if not where.startswith("on a larger"):
        assert window.size() == saved.size()  # it fitted: moved, not shrunk


def test_a_remembered_geometry_that_fits_is_kept(qtbot: Any, tmp_path: Path) -> None:
    available = available_area()
    saved = QRect(available.topLeft() + QPoint(10, 40), QSize(770, 740))
    settings = UiSettings(tmp_path / "ui.ini")
    before = MainWindow(settings)
    qtbot.addWidget(before)
    before.setGeometry(saved)
    before.save_layout()
    window = shown_window(qtbot, settings)
    assert window.size() == saved.size()
    assert (window.geometry().topLeft() - saved.topLeft()).manhattanLength() <= 8  # the frame


def layout_of(window: MainWindow) -> dict[str, tuple[int, int, int, int]]:
    """Where the docks, the preview and its first tool bar controls are."""
    pane = window.preview_pane
    places = {d.objectName(): d.geometry().getRect() for d in docks(window)}
    places["preview"] = pane.centre.geometry().getRect()
    places["deviceSize"] = pane.device_combo.geometry().getRect()
    return places


@pytest.mark.parametrize("size", [LAPTOP, QSize(1440, 900)])
def test_nothing_moves_when_the_agent_sheet_and_the_phone_picker_arrive(
    make_studio: Any, size: QSize
) -> None:
    """The window paints first and the agent sheet and device mode come after the first frame
    (`app.run_studio`): until then the agent dock says it is loading, in a space the size of the
    sheet, and the tool bar keeps the phone picker's place (the walkthrough's layout jumps)."""
    studio = make_studio(extras=False)
    window = studio.window
    fit_window(studio, size)
    placeholder = window.agent_placeholder
    assert placeholder.isVisible() and placeholder.text() == "Loading the agent…"
    slot = window.preview_pane.toolbar.findChild(QWidget, "deviceTargetSlot")
    assert slot is not None and slot.isVisible() and not slot.isEnabled()
    before, slot_place = layout_of(window), slot.geometry()

    studio.loop.run_until_complete(studio.studio.attach_extras())
    studio.settle()
    window.layout().activate()
    assert window.panel_of(window.agent_dock) is studio.sheet
    assert studio.sheet.minimumSizeHint() == AGENT_SHEET_MINIMUM  # what the placeholder keeps
    assert layout_of(window) == before
    picker = studio.devices.picker
    assert picker.isVisible() and picker.geometry() == slot_place
    assert window.preview_pane.toolbar.findChild(QWidget, "deviceTargetSlot") is None


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS, r"This plugin does not support raise\(\)")
def test_the_other_dialogs_stay_laptop_sized(make_studio: Any, qtbot: Any, qloop: Any) -> None:
    """New from description, Platform permissions (a grant of a prototype with a long name) and
    About (every bundled licence) fit 1280x720 by their own size hints."""
    from studio.platform.consent import ConsentBroker, GrantStore
    from tests.ui.test_about import open_about

    studio = make_studio()
    window = studio.window
    store = GrantStore(studio.library.folder / "grants.json")
    entry = studio.controller.document
    assert entry is not None and entry.entry_id is not None
    studio.controller.rename(entry.entry_id, "A prototype with a very long name " * 8)
    studio.settle()
    qloop.run_until_complete(store.grant(entry.entry_id, "clipboard.copy"))
    window.set_permissions_source(lambda: ConsentBroker(store))
    permissions = window.open_permissions()
    assert permissions is not None
    with qtbot.waitSignal(permissions.loaded):
        qloop.run_until_complete(permissions.idle())
    describe = window.ask_description()
    about = open_about(studio, qtbot)
    for dialog in (describe, permissions, about):
        assert dialog.isVisible()
        for hint in (dialog.sizeHint(), dialog.minimumSizeHint()):
            assert hint.width() <= LAPTOP.width(), (dialog.objectName(), hint)
            assert hint.height() <= LAPTOP.height(), (dialog.objectName(), hint)
        assert dialog.width() <= LAPTOP.width()
    describe.close()


def test_the_inspector_needs_no_sideways_scroll_at_1280_by_720(
    make_studio: Any, tmp_path: Path
) -> None:
    """Issue 14: every panel usable at 1280x720. The inspector's form (colours, corner shapes,
    borders, safe-area check boxes ...) fits the dock's width, for controls as for layout nodes."""
    from PySide6.QtWidgets import QScrollArea

    spec = {"id": "kinds", "window": {"placement": {"type": "fullscreen"}},
            "state": {"level": 1, "pick": "a", "on": False},
            "root": {"type": "column", "id": "page", "children": [
                {"type": "text", "id": "title", "text": "Hello"},
                {"type": "button", "id": "go", "label": "Go"},
                {"type": "slider", "id": "volume", "stateKey": "level", "min": 0, "max": 10},
                {"type": "radioGroup", "id": "choice", "stateKey": "pick",
                 "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]},
                {"type": "image", "id": "photo", "asset": "photo.png"},
                {"type": "switch", "id": "sw", "stateKey": "on", "label": "Wi-Fi"}]}}  # fmt: skip
    from studio.spec.validator import validate

    assert validate(spec).ok
    path = tmp_path / "kinds.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    studio = make_studio(path)
    window = studio.window
    fit_window(studio, LAPTOP)
    window.inspector_dock.raise_()
    scroll = window.inspector.findChild(QScrollArea)
    assert scroll is not None
    for node_id in ("page", "title", "go", "volume", "choice", "photo", "sw"):
        studio.controller.select(node_id)
        studio.settle()
        assert window.inspector.title.text().endswith(node_id)
        need = window.inspector.form_page.minimumSizeHint().width()
        assert need <= scroll.viewport().width(), (node_id, need, scroll.viewport().width())


def test_tabbed_docks_show_whole_titles_at_1280_by_720(make_studio: Any, tmp_path: Path) -> None:
    """Six panels share the Inspector's place: their tabs read "Inspector", "Revisions" ...
    (scrolling when they do not all fit), not "I…", "R…"; also tabs made later, when the designer
    drops one dock onto another."""
    from PySide6.QtWidgets import QTabBar

    studio = make_studio()
    window = studio.window
    fit_window(studio, LAPTOP)

    def tab_bars() -> list[QTabBar]:
        return [b for b in window.findChildren(QTabBar) if b.isVisible() and b.count() > 1]

    def assert_whole(bar: QTabBar) -> None:
        metrics = bar.fontMetrics()
        for i in range(bar.count()):
            text = bar.tabText(i)
            assert bar.tabRect(i).width() >= metrics.horizontalAdvance(text), (text, bar.tabRect(i))

    titles = {bar.tabText(i) for bar in tab_bars() for i in range(bar.count())}
    assert {"Inspector", "Revisions", "State", "Data", "Theme and window"} <= titles
    for bar in tab_bars():
        assert_whole(bar)
    before = set(tab_bars())
    window.tabifyDockWidget(window.tree_dock, window.library_dock)
    run_until(studio.loop, lambda: set(tab_bars()) - before, what="the new tab bar")
    for bar in set(tab_bars()) - before:
        assert_whole(bar)
