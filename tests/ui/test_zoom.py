"""The preview's zoom (issue 14, "Library and preview habits"): Fit by default, 100% draws one dp
per logical pixel and 200% twice that, scrolling where the device is larger than the pane; the
keys a design tool has (Ctrl+=, Ctrl+-, Ctrl+0, Ctrl+1, Ctrl+wheel). Zoom changes only the
drawing: the layout in dp, taps, selection, drops and the exported PNG are the same at every
zoom."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QImage, QKeySequence, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from studio.preview.widget import PreviewWidget
from studio.ui.preview_pane import ZOOM_LEVELS, PreviewPane
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio
from tests.ui.test_node_editing import FORM, drag, gesture, ids, open_spec
from tests.ui.test_preview_pane import SPEC

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

DEVICE = (360, 800)  # the pane's first preset, Compact phone


@pytest.fixture
def pane(qtbot: Any) -> PreviewPane:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.resize(700, 700)  # smaller than the device: Fit draws it below 100%
    pane.show()
    pane.set_spec(copy.deepcopy(SPEC))
    qtbot.waitUntil(lambda: bool(pane.preview.visible_summary()))
    return pane


def drawn(preview: PreviewWidget) -> tuple[float, float]:
    """The device screen's size as drawn in the preview (logical pixels)."""
    screen = preview.screen_item()
    rect = screen.mapRectToScene(screen.boundingRect())
    return round(rect.width(), 1), round(rect.height(), 1)


def layout(preview: PreviewWidget) -> list[tuple[str, dict[str, float]]]:
    return [(n["address"], n["bounds"]) for n in preview.visible_summary()]


def on_screen_point(preview: PreviewWidget, address: str) -> QPoint:
    """The centre of a node as drawn, scrolled into view as a designer would scroll to it; in
    the scene's (the QQuickWidget's) coordinates."""
    node = next(n for n in preview.visible_summary() if n["address"] == address)
    b = node["bounds"]
    scene = preview.screen_item().mapToScene(
        QPointF(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    )
    point = QPoint(round(scene.x()), round(scene.y()))
    preview.scroll_area.ensureVisible(point.x(), point.y(), 40, 40)
    viewport = preview.scroll_area.viewport()
    assert viewport.rect().contains(preview.quick_widget.mapTo(viewport, point))
    return point


def click(preview: PreviewWidget, point: QPoint) -> None:
    QTest.mouseClick(
        preview.quick_widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point
    )


def centre_shown(preview: PreviewWidget) -> QPointF:
    """The device point (dp) at the centre of what the pane shows."""
    viewport = preview.scroll_area.viewport()
    centre = preview.quick_widget.mapFrom(viewport, viewport.rect().center())
    return preview.screen_item().mapFromScene(QPointF(centre))


def scrolls(preview: PreviewWidget) -> bool:
    bars = (preview.scroll_area.horizontalScrollBar(), preview.scroll_area.verticalScrollBar())
    return any(bar.maximum() > 0 for bar in bars)


def test_fit_is_the_default_and_fixed_zooms_draw_dp_at_their_scale(
    pane: PreviewPane, qtbot: Any
) -> None:
    preview = pane.preview
    assert pane.zoom() is None and pane.zoom_combo.currentText().startswith("Fit (")
    fitted = preview.shown_zoom()
    assert 0.5 < fitted < 1
    assert pane.zoom_combo.currentText() == f"Fit ({fitted:.0%})"  # says the scale it draws at
    assert drawn(preview) == pytest.approx((DEVICE[0] * fitted, DEVICE[1] * fitted), abs=0.2)
    assert not scrolls(preview)  # the whole device in the pane
    at_fit = layout(preview)
    for zoom in (1.0, 2.0):
        pane.zoom_combo.setCurrentIndex(pane.zoom_combo.findText(f"{zoom:.0%}"))
        assert pane.zoom() == zoom
        qtbot.waitUntil(lambda z=zoom: drawn(preview) == (DEVICE[0] * z, DEVICE[1] * z))
        qtbot.waitUntil(lambda: scrolls(preview))  # larger than the pane: it scrolls
        assert layout(preview) == at_fit  # the same geometry in dp
    # Zoomed from Fit, the middle of the device is in the middle of the pane (a design tool's).
    qtbot.waitUntil(lambda: abs(centre_shown(preview).x() - DEVICE[0] / 2) < 20)
    assert abs(centre_shown(preview).y() - DEVICE[1] / 2) < 20
    pane.zoom_fit()
    qtbot.waitUntil(lambda: not scrolls(preview))
    assert drawn(preview) == pytest.approx((DEVICE[0] * fitted, DEVICE[1] * fitted), abs=0.2)


def test_a_tap_at_200_percent_runs_the_node_under_the_pointer(
    pane: PreviewPane, qtbot: Any
) -> None:
    pane.set_zoom(2.0)
    preview = pane.preview
    qtbot.waitUntil(lambda: scrolls(preview))
    click(preview, on_screen_point(preview, "add"))
    runtime = preview.runtime
    assert runtime is not None
    qtbot.waitUntil(lambda: runtime.value("count") == 1)
    assert any(n["text"] == "Count 1" for n in preview.visible_summary())


def test_a_click_in_edit_mode_at_200_percent_selects_the_node_under_the_pointer(
    pane: PreviewPane, qtbot: Any
) -> None:
    pane.edit_button.click()
    pane.set_zoom(2.0)
    preview = pane.preview
    qtbot.waitUntil(lambda: scrolls(preview))
    for address in ("count", "add"):
        point = on_screen_point(preview, address)
        with qtbot.waitSignal(pane.nodeClicked) as blocker:
            click(preview, point)
        assert blocker.args == [address]
    assert preview.runtime.value("count") == 0  # type: ignore[union-attr]  # selected, not run


def test_the_wheel_scrolls_a_zoomed_preview_and_ctrl_wheel_zooms(
    pane: PreviewPane, qtbot: Any
) -> None:
    preview = pane.preview
    bar = preview.scroll_area.verticalScrollBar()

    def wheel(dy: int, modifiers: Qt.KeyboardModifier) -> None:
        at = QPointF(20, 200)  # the margin beside the device: nothing there scrolls
        event = QWheelEvent(
            at, preview.quick_widget.mapToGlobal(at), QPoint(0, 0), QPoint(0, dy),
            Qt.MouseButton.NoButton, modifiers, Qt.ScrollPhase.NoScrollPhase, False,
        )  # fmt: skip
        QApplication.sendEvent(preview.quick_widget, event)

    fitted = preview.shown_zoom()
    wheel(120, Qt.KeyboardModifier.ControlModifier)  # from Fit to the next level up
    assert pane.zoom() == min(z for z in ZOOM_LEVELS if z > fitted)
    pane.zoom_actual()
    wheel(120, Qt.KeyboardModifier.ControlModifier)
    assert pane.zoom() == 1.5
    wheel(-120, Qt.KeyboardModifier.ControlModifier)
    assert pane.zoom() == 1.0
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(0)
    wheel(-120, Qt.KeyboardModifier.NoModifier)  # a notch down
    assert bar.value() > 0
    assert pane.zoom() == 1.0


def test_zoom_keys_and_png_export_and_drops_at_200_percent(
    make_studio: Any, tmp_path: Path
) -> None:
    studio: Studio = make_studio()
    open_spec(studio, tmp_path, FORM)
    window, pane = studio.window, studio.window.preview_pane
    preview = pane.preview
    for name, keys in (
        ("zoom_in", "Ctrl+="),
        ("zoom_out", "Ctrl+-"),
        ("zoom_fit", "Ctrl+0"),
        ("zoom_actual", "Ctrl+1"),
    ):
        action = window.findChild(QAction, f"action_{name}")
        assert QKeySequence(keys) in action.shortcuts()
        assert action in window.menuBar().actions()[2].menu().actions()  # the View menu
    window.activateWindow()
    studio.wait_for(lambda: QApplication.activeWindow() is window)
    window.library_panel.list.setFocus()

    def key(key: Qt.Key) -> None:
        gesture(studio, lambda: QTest.keyClick(window, key, Qt.KeyboardModifier.ControlModifier))

    key(Qt.Key.Key_1)
    assert pane.zoom() == 1.0
    key(Qt.Key.Key_Equal)
    key(Qt.Key.Key_Equal)
    assert pane.zoom() == 2.0
    key(Qt.Key.Key_Minus)
    assert pane.zoom() == 1.5
    key(Qt.Key.Key_0)
    assert pane.zoom() is None
    pane.set_zoom(2.0)
    width, height = pane.device_size()
    studio.wait_for(lambda: drawn(preview) == (width * 2, height * 2))

    # Export PNG writes device pixels at the chosen scale, not the zoomed size.
    out = tmp_path / "zoomed.png"
    studio.controller.export_png(out, 2)
    studio.wait_for(out.is_file)
    image = QImage(str(out))
    assert (image.width(), image.height()) == (width * 2, height * 2)

    # A palette drop at 200% lands after the node under the pointer.
    pane.edit_button.setChecked(True)
    palette = window.node_palette
    chip = palette.list.mimeData([palette.list.itemFromIndex(palette.index_of("chip"))])
    node = next(n for n in preview.visible_summary() if n["address"] == "title")
    b = node["bounds"]
    scene = preview.screen_item().mapToScene(
        QPointF(b["x"] + b["width"] / 2, b["y"] + b["height"] - 1)
    )
    assert drag(studio, preview.quick_widget, QPoint(round(scene.x()), round(scene.y())), chip)
    assert ids(studio) == ["title", "chip1", "email", "actions", "go"]
