"""The centre of the window: preview toolbar (device size or a custom one, zoom, theme, edit/interact,
the Device menu (landscape, right-to-left, device chrome, Back, animator duration scale), reset),
the preview itself and the runtime's event log in a strip whose header folds it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMenu,
    QSpinBox,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.preview.device import ANIMATOR_SCALES
from studio.ui.event_log import EventLog
from studio.ui.texts import BUILTIN_LABEL

if TYPE_CHECKING:
    from studio.preview.widget import PreviewWidget
    from studio.workspace import Selection, Shown

DEVICE_SIZES: list[tuple[str, int, int]] = [
    ("Compact phone · 360×800", 360, 800),
    ("Large phone · 412×915", 412, 915),
    ("Small phone · 320×640", 320, 640),
    ("Foldable · 673×841", 673, 841),
]
MIN_SIDE, MAX_SIDE = 200, 2000  # dp: a custom size's bounds
THEMES = [("Light", "light"), ("Dark", "dark"), ("System", "system")]
#: The zoom levels (1.0: one dp per logical pixel); Ctrl+= and Ctrl+- step through them.
ZOOM_LEVELS = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
FIT_LABEL = "Fit"


class PreviewPane(QWidget):
    """Wraps `studio.preview.widget.PreviewWidget` with its controls. Re-emits its signals.

    With `deferred=True` the preview (Qt Quick and its QML, the costly part of start-up) is
    built by `build_preview()`, so the window can paint first; until then a placeholder shows."""

    nodeClicked = Signal(str)
    platformRequested = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, deferred: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("previewPane")
        self.preview: PreviewWidget = None  # type: ignore[assignment]  # set by build_preview
        self._shown: dict[str, Any] | None = None  # the authored spec last presented
        self._assets: Path | None = None  # the open prototype's assets folder
        self.device_combo = QComboBox(self)
        for label, width, height in DEVICE_SIZES:
            self.device_combo.addItem(label, (width, height))
        self.device_combo.addItem("Custom size…", None)
        # A custom size (dp), shown while "Custom size…" is chosen; Landscape swaps the sides.
        self.custom_width = QSpinBox(self)
        self.custom_height = QSpinBox(self)
        for box, value, name in (
            (self.custom_width, 600, "customWidth"),
            (self.custom_height, 960, "customHeight"),
        ):
            box.setObjectName(name)
            box.setRange(MIN_SIDE, MAX_SIDE)
            box.setValue(value)
            box.setSuffix(" dp")
            box.setKeyboardTracking(False)  # applied when typing ends, not at every digit
        self.custom_width.setToolTip("Custom device width")
        self.custom_height.setToolTip("Custom device height")
        self.zoom_combo = QComboBox(self)
        self.zoom_combo.setObjectName("zoom")
        self.zoom_combo.addItem(f"{FIT_LABEL} (100%)", None)  # the widest text it shows
        for level in ZOOM_LEVELS:
            self.zoom_combo.addItem(f"{level:.0%}", level)
        self.zoom_combo.setToolTip(
            "Zoom: Fit shows the whole device (Ctrl+0); 100% is one dp per pixel (Ctrl+1);"
            " Ctrl+= and Ctrl+- zoom in and out"
        )
        self.theme_combo = QComboBox(self)
        for label, value in THEMES:
            self.theme_combo.addItem(label, value)
        self.edit_button = QToolButton(self)
        self.edit_button.setText("Edit mode")
        self.edit_button.setCheckable(True)
        self.edit_button.setToolTip("Click selects a node instead of running its action")
        self.reset_button = QToolButton(self)
        self.reset_button.setText("Reset")
        self.reset_button.setToolTip("Start the prototype again from its initial state")
        # The phone's own settings, changed now and then: one menu, so that the tool bar keeps
        # the everyday controls (device, zoom, theme, edit mode, reset) in sight on a laptop.
        self.device_menu = QMenu("Device settings", self)
        self.landscape_action = self._toggle(
            "Landscape", "landscape", "Turn the device to landscape (width and height swapped)"
        )
        self.rtl_action = self._toggle(
            "Right-to-left",
            "rightToLeft",
            "Lay the prototype out as a phone set to an Arabic or Hebrew locale does:"
            " start and end swap sides",
        )
        self.chrome_action = self._toggle(
            "Device chrome",
            "deviceChrome",
            "The phone's status and navigation bars, keyboard and AutoMobile's dismiss bar;"
            " hide them for clean screenshots",
        )
        self.chrome_action.setChecked(True)
        self.device_menu.addSeparator()
        # The phone's Back: Esc anywhere in the preview, as a hardware keyboard's Escape falls
        # back to Back on Android (Generic.kcm `key ESCAPE { base: fallback BACK }`).
        self.back_action = self.device_menu.addAction("Back")
        self.back_action.setObjectName("deviceBack")
        self.back_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.back_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.back_action.setToolTip(
            "The phone's Back: hides the keyboard, then dismisses the prototype while a text"
            " field is on screen; otherwise it goes to the app behind, as on the phone"
        )
        self.back_action.setEnabled(False)  # until the preview exists
        self.addAction(self.back_action)  # so that Esc works with the menu closed
        self.device_menu.addSeparator()
        # The phone's Developer options "Animator duration scale" (off, .5x .. 10x; 1x default):
        # AutoMobile's motion is off at 0, and Compose stretches its animations by the scale.
        self.animator_menu = self.device_menu.addMenu("Animator duration scale")
        self.animator_menu.setToolTipsVisible(True)
        self.animator_group = QActionGroup(self)
        self.animator_group.setExclusive(True)
        self.animator_actions: dict[float, QAction] = {}
        for label, scale in ANIMATOR_SCALES:
            action = self.animator_menu.addAction(label)
            action.setCheckable(True)
            action.setData(scale)
            action.setChecked(scale == 1.0)
            action.setToolTip(
                "The phone's animator duration scale (Developer options): off stops the"
                " prototype's motion as automation does; 2x and up slow every animation down"
            )
            self.animator_group.addAction(action)
            self.animator_actions[scale] = action
        self.device_button = QToolButton(self)
        self.device_button.setObjectName("deviceSettings")
        self.device_button.setText("Device")
        self.device_button.setToolTip(
            "The device's settings: landscape, right-to-left, its bars, Back (Esc), the"
            " animator scale"
        )
        self.device_button.setMenu(self.device_menu)
        self.device_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.event_log = EventLog(self)
        # The strip's own "Events" header folds its lines away.
        self.log_toggle = self.event_log.title
        self.status = QLabel("", self)
        # Why the built-in preview shows no window: the phone would refuse the spec (one line).
        self.refusal = QLabel("", self)
        self.refusal.setObjectName("previewRefusal")
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet("color: #b3261e; padding: 4px 8px;")
        self.refusal.hide()
        self.placeholder = QLabel("Loading the preview…", self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # The centre: the built-in preview, or a phone's page in device mode (`show_device`).
        self.centre = QStackedWidget(self)
        self.centre.setObjectName("previewCentre")
        self.centre.addWidget(self.placeholder)

        # A tool bar: what does not fit a narrow window goes behind its » menu, so the preview's
        # controls never set the window's minimum width.
        bar = self.toolbar = QToolBar("Preview", self)
        bar.setObjectName("previewToolbar")
        bar.setMovable(False)
        bar.setFloatable(False)
        # The device picker's place, kept from the start so the controls do not jump right when
        # it arrives (`add_leading`, with device mode, after the first frame).
        self._leading_slot = QComboBox(self)
        self._leading_slot.setObjectName("deviceTargetSlot")
        self._leading_slot.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self._leading_slot.addItem(BUILTIN_LABEL)
        self._leading_slot.setEnabled(False)
        self._leading_slot.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._leading_action: QAction | None = bar.addWidget(self._leading_slot)
        self._custom_actions: list[QAction] = []
        #: The built-in preview's own controls (disabled while a phone's screen is shown).
        self._preview_controls: tuple[QWidget, ...] = (
            self.device_combo,
            self.custom_width,
            self.custom_height,
            # by how often a designer reaches for them: a narrow window puts the last ones
            # behind the » menu first (zoom has its keys, Ctrl+0, Ctrl+= and Ctrl+-)
            self.edit_button,
            self.theme_combo,
            self.reset_button,
            self.zoom_combo,
            self.device_button,
        )
        for control in self._preview_controls:
            action = bar.addWidget(control)
            if control in (self.custom_width, self.custom_height):
                self._custom_actions.append(action)
        self._show_custom()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(bar)
        self._layout.addWidget(self.refusal)
        self._layout.addWidget(self.centre, 1)
        self._layout.addWidget(self.event_log)
        if not deferred:
            self.build_preview()

    def build_preview(self) -> PreviewWidget:
        """Create the preview (once) in place of the placeholder and connect its controls."""
        if self.preview is not None:
            return self.preview
        from studio.preview.widget import PreviewWidget

        self.preview = PreviewWidget(self)
        self.set_asset_folder(self._assets)
        self.centre.addWidget(self.preview)
        self.centre.setCurrentWidget(self.preview)
        self.centre.removeWidget(self.placeholder)
        self.placeholder.hide()
        self.device_combo.currentIndexChanged.connect(self._on_device)
        self.landscape_action.toggled.connect(lambda _on: self._apply_size())
        self.custom_width.valueChanged.connect(lambda _v: self._apply_size())
        self.custom_height.valueChanged.connect(lambda _v: self._apply_size())
        self.zoom_combo.currentIndexChanged.connect(lambda _i: self._apply_zoom())
        self.theme_combo.currentIndexChanged.connect(self._on_theme)
        self.rtl_action.toggled.connect(self.preview.set_rtl)
        self.animator_group.triggered.connect(lambda _a: self._on_animator_scale())
        self.edit_button.toggled.connect(self.preview.set_edit_mode)
        self.chrome_action.toggled.connect(self.preview.set_device_chrome)
        self.reset_button.clicked.connect(self._on_reset)
        self.back_action.triggered.connect(lambda _checked=False: self.press_back())
        self.back_action.setEnabled(True)
        self.preview.nodeClicked.connect(self.nodeClicked)
        self.preview.platformRequested.connect(self.platformRequested)
        self.preview.runtimeEvent.connect(self.log_event)
        self.preview.runtimeRefused.connect(self.log_refusal)
        self.preview.showRefusalChanged.connect(lambda _line: self._show_refusal())
        self.preview.missingAssetsChanged.connect(self.log_missing_assets)
        self.preview.shownZoomChanged.connect(self._show_fit)
        self.preview.zoomStepRequested.connect(
            lambda step: self.zoom_in() if step > 0 else self.zoom_out()
        )
        # Choices made (or restored) before the preview existed apply now.
        self._on_device(self.device_combo.currentIndex())
        self._on_theme(self.theme_combo.currentIndex())
        self.preview.set_rtl(self.rtl_action.isChecked())
        self._on_animator_scale()
        self._apply_zoom()
        self.preview.set_edit_mode(self.edit_button.isChecked())
        self.preview.set_device_chrome(self.chrome_action.isChecked())
        return self.preview

    def add_banner(self, widget: QWidget) -> None:
        """Show `widget` under the tool bar, above the preview (the first-run hint)."""
        self._layout.insertWidget(1, widget)

    def add_leading(self, widget: QWidget) -> None:
        """Put `widget` first in the preview's tool bar (device mode's phone picker), in the
        place kept for it."""
        actions = self.toolbar.actions()
        if actions:
            self.toolbar.insertWidget(actions[0], widget)
        else:
            self.toolbar.addWidget(widget)
        if self._leading_action is not None:
            self.toolbar.removeAction(self._leading_action)
            self._leading_slot.deleteLater()
            self._leading_action = None

    def set_asset_folder(self, folder: Path | None) -> None:
        """Where the open prototype's assets are (None: it has none), for the shows after this
        one: its images and fonts come from there, and what the spec names that is not there is
        listed as missing, as the phone's show reply lists it."""
        self._assets = folder
        if self.preview is not None:
            from studio.preview.assets import directory_resolver

            self.preview.set_asset_resolver(directory_resolver(folder) if folder else None)

    def present(self, shown: Shown) -> None:
        """Show what the workspace shows: a prototype just opened from its initial state, an
        edit or the draft in place (only the changed nodes rebuild), its highlights marked."""
        if self.preview is None or shown.source == "none":
            return
        if shown.fresh:
            self.set_spec(shown.expanded)
        elif shown.spec is not self._shown:
            self.apply_change(shown.expanded, shown.changed)
        self._shown = shown.spec
        self.preview.set_highlighted(list(shown.highlight))

    def select_nodes(self, selection: Selection) -> None:
        if self.preview is not None:
            self.preview.set_selected(selection.primary)

    def set_spec(self, spec: dict[str, Any]) -> None:
        self.event_log.clear()  # first: the show's own lines (missing assets) stay
        self.preview.set_spec(spec)

    def apply_change(self, spec: dict[str, Any], changed: Iterable[str]) -> None:
        self.preview.apply_change(spec, list(changed))

    def device_size(self) -> tuple[int, int]:
        """The device size chosen in the toolbar (dp): a preset or the custom size, turned to
        landscape when Landscape is on."""
        data = self.device_combo.currentData()
        if data is None:
            width, height = self.custom_width.value(), self.custom_height.value()
        else:
            width, height = data
        if self.landscape_action.isChecked():
            width, height = height, width
        return int(width), int(height)

    def zoom(self) -> float | None:
        """The zoom chosen in the toolbar (None: fit the device in the pane)."""
        value = self.zoom_combo.currentData()
        return float(value) if isinstance(value, int | float) else None

    def set_zoom(self, zoom: float | None) -> None:
        """Choose a zoom level (one of ZOOM_LEVELS) or None for Fit."""
        index = self.zoom_combo.findData(zoom) if zoom is not None else 0
        if index < 0:
            raise ValueError(f"zoom must be one of {ZOOM_LEVELS} or None (fit), not {zoom!r}")
        self.zoom_combo.setCurrentIndex(index)

    def zoom_in(self) -> None:
        """The next level above the scale shown now (from Fit: above what fits)."""
        shown = self._shown_zoom()
        self.set_zoom(next((z for z in ZOOM_LEVELS if z > shown + 1e-6), ZOOM_LEVELS[-1]))

    def zoom_out(self) -> None:
        """The next level below the scale shown now (the smallest at most)."""
        shown = self._shown_zoom()
        below = [z for z in ZOOM_LEVELS if z < shown - 1e-6]
        self.set_zoom(below[-1] if below else ZOOM_LEVELS[0])

    def zoom_fit(self) -> None:
        self.set_zoom(None)

    def zoom_actual(self) -> None:
        """100%: one dp per logical pixel."""
        self.set_zoom(1.0)

    def _shown_zoom(self) -> float:
        chosen = self.zoom()
        if chosen is not None or self.preview is None:
            return chosen or 1.0
        return self.preview.shown_zoom()

    def _show_fit(self, shown: float) -> None:
        """Fit says the scale it draws at ("Fit (81%)")."""
        self.zoom_combo.setItemText(0, f"{FIT_LABEL} ({shown:.0%})")

    def _apply_zoom(self) -> None:
        if self.preview is not None:
            self.preview.set_zoom(self.zoom())

    def theme(self) -> str:
        """The theme chosen in the toolbar: "light", "dark" or "system"."""
        value = self.theme_combo.currentData()
        return value if isinstance(value, str) else "system"

    def set_edit_mode(self, on: bool) -> None:
        self.edit_button.setChecked(on)

    def show_device(self, page: QWidget | None) -> None:
        """Device mode: `page` (a phone's mirror) replaces the built-in preview in the centre and
        the built-in preview's own controls are disabled; None goes back to the built-in preview."""
        if page is not None and self.centre.indexOf(page) < 0:
            self.centre.addWidget(page)
        target = page if page is not None else (self.preview or self.placeholder)
        self.centre.setCurrentWidget(target)
        for control in self._preview_controls:
            control.setEnabled(page is None)
        self.back_action.setEnabled(page is None and self.preview is not None)
        self._show_refusal()

    def refusal_text(self) -> str:
        """The built-in preview's refusal line as shown over it ("" when it shows the spec)."""
        return self.refusal.text() if self.refusal.isVisibleTo(self) else ""

    def _show_refusal(self) -> None:
        """The preview shows no window where the phone would show nothing: say why above it,
        in the words the device path uses (not in device mode: the phone's page says so)."""
        line = self.preview.show_refusal if self.preview is not None else ""
        self.refusal.setText(f"Not shown: {line}" if line else "")
        self.refusal.setToolTip(line)
        self.refusal.setVisible(bool(line) and self.centre.currentWidget() is self.preview)

    def log_event(self, event: Any, origin: str = "") -> None:
        data = event.to_json() if hasattr(event, "to_json") else dict(event)
        payload = json.dumps(data.get("payload"), ensure_ascii=False)
        if len(payload) > 80:
            payload = payload[:77] + "..."
        prefix = f"{origin}: " if origin else ""
        # The phone's page_changed, dismissed and appearance_changed carry no name (RT `emit`).
        name = f" {data['name']}" if data.get("name") is not None else ""
        shown = f" {payload}" if data.get("payload") is not None else ""
        self._add_line(f"{prefix}#{data.get('sequence')} {data.get('kind')}{name}{shown}")

    def log_missing_assets(self, missing: list[str]) -> None:
        """The show's missing assets, as the phone's show reply lists them: a studio line."""
        if missing:
            self._add_line(
                f"missingAssets: {', '.join(missing)} (not in the prototype's assets: drawn as"
                " the placeholder, as on the phone)"
            )

    def log_refusal(self, refusal: Any) -> None:
        """A write the runtime refused: a studio-only line (the phone sends no event for it)."""
        self._add_line(f"refused: {refusal.message}")

    def _add_line(self, line: str) -> None:
        self.event_log.add_line(line)

    def log_lines(self) -> list[str]:
        return self.event_log.lines()

    def _on_device(self, index: int) -> None:
        self._show_custom()
        self._apply_size()

    def _show_custom(self) -> None:
        custom = self.device_combo.currentData() is None
        for action in self._custom_actions:
            action.setVisible(custom)

    def _apply_size(self) -> None:
        if self.preview is not None:
            self.preview.set_device_size(*self.device_size())

    def animator_scale(self) -> float:
        """The animator duration scale chosen in the Device menu."""
        action = self.animator_group.checkedAction()
        return float(action.data()) if action is not None else 1.0

    def set_animator_scale(self, scale: float) -> None:
        """Choose one of the menu's scales (as a click on it does); others are ignored."""
        action = self.animator_actions.get(float(scale))
        if action is not None and not action.isChecked():
            action.trigger()

    def _on_animator_scale(self) -> None:
        if self.preview is not None:
            self.preview.set_animator_scale(self.animator_scale())

    def _toggle(self, text: str, name: str, tip: str) -> QAction:
        """A checkable entry of the Device menu."""
        action = self.device_menu.addAction(text)
        action.setObjectName(name)
        action.setCheckable(True)
        action.setToolTip(tip)
        return action

    def _on_theme(self, index: int) -> None:
        self.preview.set_theme(self.theme_combo.itemData(index))

    def press_back(self) -> str:
        """The phone's Back on the built-in preview (Device > Back, or Esc). What reaches the
        prototype shows in the event strip as the phone reports it (a `dismissed` event); what
        the phone would not tell the host gets a studio line saying where Back went."""
        if self.preview is None or self.centre.currentWidget() is not self.preview:
            return ""
        outcome = self.preview.back()
        if outcome == "keyboard":
            self._add_line("Back: the keyboard hid (the text field keeps the focus)")
        elif outcome == "passed":
            self._add_line(
                "Back: went to the app behind (the prototype takes Back only while a text field"
                " is on screen)"
            )
        return outcome

    def _on_reset(self) -> None:
        self.preview.reset_state()
        self.event_log.clear()
