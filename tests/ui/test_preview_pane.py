"""The preview pane: device size and theme pickers, edit/interact, reset, the event log strip."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from studio.ui.preview_pane import DEVICE_SIZES, PreviewPane

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SPEC: dict[str, Any] = {
    "id": "p",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"count": 0},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "count", "text": "Count {count}"},
            {
                "type": "button",
                "id": "add",
                "label": "Add",
                "onTap": [{"type": "increment", "key": "count"}],
            },
        ],
    },
}


@pytest.fixture
def pane(qtbot: Any) -> PreviewPane:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.resize(700, 1000)
    pane.show()
    pane.set_spec(copy.deepcopy(SPEC))
    return pane


def tap(pane: PreviewPane, qtbot: Any, address: str) -> None:
    preview = pane.preview
    qtbot.waitUntil(lambda: any(n["address"] == address for n in preview.visible_summary()))
    node = next(n for n in preview.visible_summary() if n["address"] == address)
    b = node["bounds"]
    scene = preview.screen_item().mapToScene(
        QPointF(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    )
    QTest.mouseClick(
        preview.quick_widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
        QPoint(round(scene.x()), round(scene.y())),
    )  # fmt: skip


def test_device_size_picker_resizes_the_device(pane: PreviewPane) -> None:
    controller = pane.preview.controller
    assert (
        controller.property("deviceWidth"),
        controller.property("deviceHeight"),
    ) == DEVICE_SIZES[0][1:]
    pane.device_combo.setCurrentIndex(3)
    assert (
        controller.property("deviceWidth"),
        controller.property("deviceHeight"),
    ) == DEVICE_SIZES[3][1:]


def test_theme_picker_switches_the_device_appearance(pane: PreviewPane) -> None:
    controller = pane.preview.controller
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("dark"))
    assert controller.property("dark")
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("light"))
    assert not controller.property("dark")


def test_right_to_left_mirrors_the_preview_and_a_tap_lands_on_the_mirrored_node(
    pane: PreviewPane, qtbot: Any
) -> None:
    preview = pane.preview
    width = preview.controller.property("deviceWidth")

    def add_bounds() -> dict[str, float]:
        return next(n for n in preview.visible_summary() if n["address"] == "add")["bounds"]

    left = add_bounds()
    assert left["x"] == 0  # the button at the column's start: the left
    pane.rtl_action.trigger()
    assert preview.controller.property("rtl")
    qtbot.waitUntil(lambda: add_bounds()["x"] == width - left["width"])  # now the right
    tap(pane, qtbot, "add")  # at the place it is drawn
    runtime = preview.runtime
    assert runtime is not None
    qtbot.waitUntil(lambda: runtime.value("count") == 1)
    pane.edit_button.click()
    with qtbot.waitSignal(pane.nodeClicked) as blocker:  # edit mode picks it there too
        tap(pane, qtbot, "add")
    assert blocker.args == ["add"]


def test_the_animator_scale_picker_sets_the_device_s_scale_live_Settings_ANIMATOR_DURATION_SCALE(  # noqa: N802, E501
    pane: PreviewPane, qtbot: Any
) -> None:
    """Developer options' "Animator duration scale" (off, .5x .. 10x; 1x by default), which
    AutoMobile observes live (PrototypeMotion.kt `rememberAnimatorDurationScale`): off is
    motion off (`prototypeMotionEnabled`), and the prototype keeps running."""
    menu = pane.animator_menu  # Device > Animator duration scale, one choice at a time
    assert menu in [a.menu() for a in pane.device_menu.actions() if a.menu() is not None]
    choices = [a for a in menu.actions() if a.isCheckable()]
    assert [a.data() for a in choices] == [0, 0.5, 1, 1.5, 2, 5, 10]
    assert [a.text() for a in choices][:3] == [
        "Animation off",
        "Animation scale .5x",
        "Animation scale 1x",
    ]
    controller = pane.preview.controller
    assert pane.animator_scale() == 1 and controller.property("animatorScale") == 1
    assert controller.property("motion") == 1
    tap(pane, qtbot, "add")
    choices[0].trigger()
    assert controller.property("animatorScale") == 0 and controller.property("motion") == 0
    choices[4].trigger()
    assert [a.isChecked() for a in choices] == [False, False, False, False, True, False, False]
    assert controller.property("animatorScale") == 2 and controller.property("motion") == 1
    runtime = pane.preview.runtime
    assert runtime is not None
    qtbot.waitUntil(lambda: runtime.value("count") == 1)  # the same prototype, still running
    tap(pane, qtbot, "add")
    qtbot.waitUntil(lambda: runtime.value("count") == 2)


def test_interact_mode_runs_taps_and_logs_events(pane: PreviewPane, qtbot: Any) -> None:
    tap(pane, qtbot, "add")
    runtime = pane.preview.runtime
    assert runtime is not None
    qtbot.waitUntil(lambda: runtime.value("count") == 1)
    qtbot.waitUntil(lambda: len(pane.log_lines()) > 0)
    assert any(line.startswith("#") for line in pane.log_lines())
    pane.reset_button.click()
    assert runtime.value("count") == 0
    assert pane.log_lines() == []


def test_esc_is_the_phones_back_keyboard_then_dismiss_HO_prototypeBackDecision(  # noqa: N802
    pane: PreviewPane, qtbot: Any
) -> None:
    spec = copy.deepcopy(SPEC)
    spec["state"]["q"] = ""
    spec["root"]["children"].append({"type": "textField", "id": "field", "stateKey": "q"})
    pane.set_spec(spec)
    assert "Back" in [a.text() for a in pane.device_menu.actions()]
    tap(pane, qtbot, "field")
    controller = pane.preview.controller
    qtbot.waitUntil(lambda: bool(controller.property("keyboard")))
    QTest.keyClick(pane.preview.quick_widget, Qt.Key.Key_Escape)
    assert not controller.property("keyboard")
    assert pane.log_lines()[-1].endswith("Back: the keyboard hid (the text field keeps the focus)")
    QTest.keyClick(pane.preview.quick_widget, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: pane.log_lines()[-1].endswith('dismissed {"reason": "user"}'))
    assert not pane.preview.runtime.active  # type: ignore[union-attr]


def test_esc_without_a_text_field_says_back_went_to_the_app_behind(
    pane: PreviewPane, qtbot: Any
) -> None:
    # The pane's own spec: a text and a button, no text field.
    pane.back_action.trigger()
    assert pane.log_lines()[-1].startswith("Back: went to the app behind")
    assert pane.preview.runtime.active  # type: ignore[union-attr]


def test_a_show_with_missing_assets_says_so_as_the_phones_reply_does(
    pane: PreviewPane, qtbot: Any
) -> None:
    spec = copy.deepcopy(SPEC)
    spec["root"]["children"].append({"type": "image", "asset": "hero"})
    pane.set_spec(spec)
    # Once the show's first frame is drawn (its check walks the whole tree).
    qtbot.waitUntil(
        lambda: (
            pane.log_lines()
            == [
                "missingAssets: hero (not in the prototype's assets: drawn as the placeholder, as"
                " on the phone)"
            ]
        )
    )
    pane.set_spec(copy.deepcopy(SPEC))
    assert pane.preview.missing_assets == [] and pane.log_lines() == []


def test_the_studio_preview_draws_the_open_prototypes_own_assets(
    make_studio: Any, tmp_path: Path
) -> None:
    """A library entry's images come from its assets folder, as the phone gets them uploaded;
    an id the entry lacks is listed as the phone's show reply lists it."""
    from PySide6.QtGui import QColor, QImage

    from studio.library.store import Library

    red = QImage(8, 8, QImage.Format.Format_ARGB32)
    red.fill(QColor("#FF0000"))
    red.save(str(tmp_path / "red.png"))
    spec = copy.deepcopy(SPEC)
    image = {"type": "image", "id": "pic", "asset": "red", "contentScale": "fill",
             "style": {"width": {"dp": 120}, "height": {"dp": 120}}}  # fmt: skip
    spec["root"]["children"].append(image)
    missing = copy.deepcopy(spec)
    missing["id"] = "q"
    missing["root"]["children"][-1]["asset"] = "hero"
    library = Library(tmp_path / "home")
    with_asset = library.create("Pic", spec, "file", {"red": (tmp_path / "red.png").read_bytes()})
    without = library.create("Hero", missing, "file")
    studio = make_studio(home=tmp_path / "home")
    pane = studio.window.preview_pane
    studio.controller.open_entry(with_asset.id)
    studio.wait_for(lambda: studio.workspace.document.entry_id == with_asset.id)
    assert pane.preview.missing_assets == []
    b = next(e for e in pane.preview.visible_summary() if e["address"] == "pic")["bounds"]
    shot = pane.preview.grab_image()
    scale = shot.width() / pane.preview.controller.property("deviceWidth")
    pixel = shot.pixelColor(round((b["x"] + 60) * scale), round((b["y"] + 60) * scale))
    assert (pixel.red(), pixel.green(), pixel.blue()) == (255, 0, 0)
    studio.controller.open_entry(without.id)
    studio.wait_for(lambda: pane.preview.missing_assets == ["hero"])
    assert any(line.startswith("missingAssets: hero") for line in pane.log_lines())


def test_edit_mode_selects_instead_of_running(pane: PreviewPane, qtbot: Any) -> None:
    pane.edit_button.click()
    assert pane.preview.controller.property("editMode")
    with qtbot.waitSignal(pane.nodeClicked) as blocker:
        tap(pane, qtbot, "add")
    assert blocker.args == ["add"]
    assert pane.preview.runtime.value("count") == 0  # type: ignore[union-attr]


def test_event_log_strip_folds_to_its_header(pane: PreviewPane) -> None:
    log = pane.event_log
    assert log.view.isVisible() and log.filter.isVisible()
    pane.log_toggle.click()  # the strip's "Events" header
    assert log.folded and log.title.isVisible()
    assert not log.view.isVisible() and not log.filter.isVisible()
    assert not log.clear_button.isVisible()
    pane.log_toggle.click()
    assert not log.folded and log.view.isVisible() and log.filter.isVisible()


def test_the_everyday_controls_fit_the_tool_bar_of_a_laptop_window(make_studio: Any) -> None:
    """With the panels docked, the tool bar shows every control at 1440 x 900, and at 1280 x 720
    still the device, edit mode, theme and Reset; only then do zoom (which has its keys) and the
    Device menu go behind the » menu. The rarer device settings are in that menu."""
    from PySide6.QtCore import QSize

    from tests.ui.test_fit import fit_window

    studio = make_studio()
    pane = studio.window.preview_pane
    bar = pane.toolbar

    def in_sight() -> list[QWidget]:
        return [
            c for c in pane._preview_controls
            if c.isVisible() and c.mapTo(bar, c.rect().topRight()).x() <= bar.width()
        ]  # fmt: skip

    fit_window(studio, QSize(1440, 900))
    assert in_sight() == [
        c for c in pane._preview_controls if c not in (pane.custom_width, pane.custom_height)
    ]
    fit_window(studio, QSize(1280, 720))
    assert {pane.device_combo, pane.edit_button, pane.theme_combo, pane.reset_button} <= set(
        in_sight()
    )
    texts = [a.text() for a in pane.device_menu.actions()]
    assert texts[:3] == ["Landscape", "Right-to-left", "Device chrome"]
    assert "Animator duration scale" in texts


def test_deferred_preview_keeps_choices_made_before_it_exists(qtbot: Any) -> None:
    pane = PreviewPane(deferred=True)
    qtbot.addWidget(pane)
    assert pane.preview is None and pane.placeholder.text() == "Loading the preview…"
    pane.device_combo.setCurrentIndex(2)
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("dark"))
    pane.edit_button.setChecked(True)
    preview = pane.build_preview()
    assert pane.build_preview() is preview  # built once
    controller = preview.controller
    assert (
        controller.property("deviceWidth"),
        controller.property("deviceHeight"),
    ) == DEVICE_SIZES[2][1:]
    assert controller.property("dark") and controller.property("editMode")
    assert pane.placeholder.isHidden()


def test_device_chrome_toggle_hides_the_bars_and_moves_the_window_up(
    pane: PreviewPane, qtbot: Any
) -> None:
    from PySide6.QtQuick import QQuickItem

    preview = pane.preview
    screen = preview.screen_item()
    bars = [screen.findChild(QQuickItem, name) for name in ("statusBar", "dismissBar")]
    assert all(bar is not None and bar.isVisible() for bar in bars)
    top = next(n for n in preview.visible_summary() if n["address"] == "count")["bounds"]["y"]
    assert top == pytest.approx(24 + 32)  # below the status bar and AutoMobile's dismiss bar
    pane.chrome_action.trigger()
    assert not any(bar.isVisible() for bar in bars)
    moved = next(n for n in preview.visible_summary() if n["address"] == "count")["bounds"]["y"]
    assert moved == pytest.approx(0)
    pane.chrome_action.trigger()
    assert all(bar.isVisible() for bar in bars)


def test_the_log_shows_the_phones_appearance_event_and_refusals_as_studio_lines(
    pane: PreviewPane, qtbot: Any
) -> None:
    """The device theme switch stands for the phone's night mode: flipping it sends
    `appearance_changed {mode, source}` (PrototypeController.kt `syncAppearance`) and the log
    shows it without a name, as the phone sends it. A refused write is no event on the phone
    (RT `plannedWrites`), so the log shows a studio-only "refused:" line instead."""
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("light"))
    pane.event_log.clear()
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("dark"))
    qtbot.waitUntil(lambda: len(pane.log_lines()) == 1)
    assert pane.log_lines()[0].endswith('appearance_changed {"mode": "dark", "source": "system"}')
    runtime = pane.preview.runtime
    assert runtime is not None
    runtime.run_actions([{"type": "setState", "key": "count", "value": "many"}])
    qtbot.waitUntil(lambda: len(pane.log_lines()) == 2)
    assert pane.log_lines()[1].startswith("refused: action 0 (setState)")
    assert [e.kind for e in runtime.events] == ["appearance_changed"]


def test_the_event_log_has_a_header_timestamps_a_filter_and_clear(
    pane: PreviewPane, qtbot: Any
) -> None:
    import re

    log = pane.event_log
    assert log.title.text() == "Events" and log.view.headerItem().text(0) == "Time"
    tap(pane, qtbot, "add")
    tap(pane, qtbot, "add")
    qtbot.waitUntil(lambda: len(log.lines()) >= 2)
    shown = log.shown()
    assert all(re.fullmatch(r"\d\d:\d\d:\d\d\.\d\d\d", when) for when, _ in shown)
    assert [when for when, _ in shown] == sorted(when for when, _ in shown)  # oldest first
    log.filter.setText("NO SUCH EVENT")
    assert log.shown() == [] and len(log.lines()) == len(shown)  # hidden, not dropped
    log.filter.setText(shown[0][1].split()[1].upper())  # a word of the first line, any case
    assert shown[0] in log.shown()
    log.clear_button.click()
    assert log.lines() == [] and pane.log_lines() == []


def test_landscape_and_a_custom_size(pane: PreviewPane, qtbot: Any) -> None:
    pane.resize(1200, 1000)  # the whole tool bar in view (a narrow one folds behind »)
    screen = pane.preview.screen_item()
    assert (screen.width(), screen.height()) == (360, 800)
    assert not pane.custom_width.isVisible()  # only with "Custom size…"
    pane.landscape_action.trigger()
    qtbot.waitUntil(lambda: (screen.width(), screen.height()) == (800, 360))
    assert pane.device_size() == (800, 360)
    pane.device_combo.setCurrentIndex(pane.device_combo.findText("Custom size…"))
    qtbot.waitUntil(lambda: pane.custom_width.isVisible() and pane.custom_height.isVisible())
    pane.custom_width.setValue(700)
    pane.custom_height.setValue(1000)
    qtbot.waitUntil(lambda: (screen.width(), screen.height()) == (1000, 700))  # still landscape
    pane.landscape_action.trigger()
    qtbot.waitUntil(lambda: (screen.width(), screen.height()) == (700, 1000))
    assert pane.custom_width.maximum() == 2000 and pane.custom_width.minimum() == 200
    pane.device_combo.setCurrentIndex(0)
    qtbot.waitUntil(lambda: not pane.custom_width.isVisible())
    qtbot.waitUntil(lambda: (screen.width(), screen.height()) == (360, 800))


def test_a_spec_the_phone_would_refuse_shows_no_window_and_says_why(
    pane: PreviewPane, qtbot: Any
) -> None:
    # AutoMobile's host shows nothing for an anchor below a floating root (prototypeAnchors.ts
    # `prototypeAnchorPlacementError`): nor does the preview, and the line above it says where.
    from PySide6.QtWidgets import QWidget

    anchor = {"type": "bounds", "bounds": {"x": 0, "y": 0, "width": 10, "height": 10}}
    refused = copy.deepcopy(SPEC)
    refused["window"] = {"placement": {"type": "floating", "gravity": "center",
                                       "offset": {"x": 0, "y": 0}}}  # fmt: skip
    refused["root"]["children"][0]["anchor"] = anchor
    pane.set_spec(refused)
    qtbot.waitUntil(lambda: pane.refusal_text() != "")
    assert pane.refusal_text().startswith("Not shown: root.children[0].anchor: a floating window")
    assert pane.preview.visible_summary() == []  # nothing to see or tap
    page = QWidget()
    pane.show_device(page)  # a phone's page says it itself
    assert pane.refusal_text() == ""
    pane.show_device(None)
    assert pane.refusal_text() != ""
    fixed = copy.deepcopy(refused)
    fixed["root"]["children"][0].pop("anchor")
    pane.apply_change(fixed, ["root.children[0]"])
    qtbot.waitUntil(lambda: pane.refusal_text() == "")
    qtbot.waitUntil(lambda: any(n["address"] == "add" for n in pane.preview.visible_summary()))
