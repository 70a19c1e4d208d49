"""`PreviewWidget`: the live preview (a phone frame around the QML screen) for the studio window,
fitted to its pane or at a fixed zoom that scrolls."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QImage, QWheelEvent
from PySide6.QtQuick import QQuickItem
from PySide6.QtQuickWidgets import QQuickWidget
from PySide6.QtWidgets import QApplication, QFrame, QScrollArea, QVBoxLayout, QWidget

from studio.preview.controller import AssetResolver, PreviewController
from studio.preview.inspect import visible_nodes
from studio.preview.scene import configure_engine, prepare_quick, qml_url
from studio.runtime import Runtime

#: Device presets (dp).
DEVICE_SIZES = {"compact": (360, 800), "medium": (412, 915)}
#: Room around the device at a fixed zoom (logical px): the bezel (12 a side, Preview.qml's
#: `bezel`) and the 24 px margin its fit leaves on each side.
FRAME_ROOM = 12 * 2 + 24 * 2


class PreviewWidget(QWidget):
    """Shows a spec, runs it (taps, controls, pagers, overlays) or selects nodes in edit mode."""

    nodeClicked = Signal(str)
    platformRequested = Signal(object)
    runtimeEvent = Signal(object)
    runtimeRefused = Signal(object)
    #: The phone would show nothing of this spec (one line naming the place), or "" again.
    showRefusalChanged = Signal(str)
    #: The asset ids the shown spec references and the asset folder lacks (the phone's
    #: `missingAssets`): on every fresh show, and when an edit changes them.
    missingAssetsChanged = Signal(list)
    #: Ctrl+wheel over the preview: +1 zoom in, -1 zoom out (the pane owns the zoom levels).
    zoomStepRequested = Signal(int)
    #: The scale the device is drawn at changed (at Fit: the pane or the device was resized).
    shownZoomChanged = Signal(float)

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        asset_resolver: AssetResolver | None = None,
        show_frame: bool = True,
    ) -> None:
        super().__init__(parent)
        prepare_quick()
        self._controller = PreviewController(asset_resolver)
        self._controller.nodeClicked.connect(self.nodeClicked)
        self._controller.platformRequested.connect(self.platformRequested)
        self._controller.runtimeEvent.connect(self.runtimeEvent)
        self._controller.runtimeRefused.connect(self.runtimeRefused)
        self._controller.showRefusalChanged.connect(self.showRefusalChanged)
        self._controller.missingAssetsChanged.connect(self.missingAssetsChanged)
        self._quick = QQuickWidget(self)
        self._grabs: list[Any] = []  # QQuickItemGrabResults until they are ready
        # A child of the QQuickWidget: deleted after the scene that reads it, never before.
        self._controller.setParent(self._quick)
        self._quick.setResizeMode(QQuickWidget.ResizeMode.SizeRootObjectToView)
        configure_engine(self._quick.engine())
        self._controller.attach_engine(self._quick.engine())
        self._quick.rootContext().setContextProperty("preview", self._controller)
        self._quick.setInitialProperties({"showFrame": show_frame})
        self._quick.setSource(qml_url())
        errors = self._quick.errors()
        if errors:
            raise RuntimeError(f"preview QML failed to load: {errors[0].toString()}")
        # The scene sits in a scroll area: at Fit it is the viewport's size (no scroll bars); at a
        # fixed zoom it is at least the zoomed device's size and scrolls. The whole device is
        # always rendered, so grabs (thumbnails) and hit-testing see it whatever is scrolled.
        self._scroll = QScrollArea(self)
        self._scroll.setObjectName("previewScroll")
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setWidgetResizable(True)
        self._scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the scene
        self._scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._scroll.setWidget(self._quick)
        self._zoom: float | None = None
        self._device = DEVICE_SIZES["medium"]
        self._anchor: list[float] | None = None
        root = self._quick.rootObject()
        root.unusedWheel.connect(self._scroll_by)  # type: ignore[attr-defined]  # Preview.qml's
        root.fitChanged.connect(  # type: ignore[attr-defined]  # Preview.qml's `fit`
            lambda: self.shownZoomChanged.emit(self.shown_zoom())
        )
        self._quick.installEventFilter(self)  # Ctrl+wheel zooms
        for bar in (self._scroll.horizontalScrollBar(), self._scroll.verticalScrollBar()):
            bar.setSingleStep(20)
            bar.rangeChanged.connect(lambda _lo, _hi: self._keep_anchor())
            bar.actionTriggered.connect(self._drop_anchor)  # the designer scrolls: theirs
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._scroll)
        self.set_device_size(*DEVICE_SIZES["medium"])

    # -- the API the studio window uses ---------------------------------------------------
    @property
    def controller(self) -> PreviewController:
        return self._controller

    @property
    def runtime(self) -> Runtime | None:
        return self._controller.runtime

    @property
    def quick_widget(self) -> QQuickWidget:
        return self._quick

    @property
    def scroll_area(self) -> QScrollArea:
        """What shows the scene: scrolls when a fixed zoom makes the device larger than it."""
        return self._scroll

    def set_spec(self, spec: dict[str, Any]) -> None:
        """Show a valid, component-expanded spec from its initial state (or, as the phone, no
        window at all when its host would refuse it: `show_refusal` says why)."""
        self._controller.set_spec(spec)

    @property
    def show_refusal(self) -> str:
        """Why the phone would show nothing of the spec shown (one line), else ""."""
        return self._controller.show_refusal

    def set_asset_resolver(self, resolver: AssetResolver | None) -> None:
        """Where image and font asset ids are looked up, from the next shown spec on."""
        self._controller.set_asset_resolver(resolver)

    @property
    def missing_assets(self) -> list[str]:
        """The asset ids the shown spec references that the asset folder lacks, as the phone's
        show reply lists them (`missingAssets`); their images draw as the placeholder."""
        return self._controller.missing_assets

    def apply_change(self, spec: dict[str, Any], changed_addresses: Iterable[str]) -> None:
        """Show an edited spec in place (pager pages kept, the new spec's state wins); only the
        delegates of the nodes at `changed_addresses` (and their subtrees) rebuild."""
        self._controller.apply_change(spec, changed_addresses)

    def set_edit_mode(self, on: bool) -> None:
        self._controller.set_edit_mode(on)

    def set_selected(self, address: str | None) -> None:
        self._controller.set_selected(address)

    def set_highlighted(self, addresses: Iterable[str]) -> None:
        self._controller.set_highlighted(addresses)

    def set_device_size(self, width: float, height: float) -> None:
        self._controller.set_device_size(width, height)
        self._device = (int(width), int(height))
        self.setMinimumSize(200, 300)
        self._size_scene()

    def set_zoom(self, zoom: float | None) -> None:
        """Draw the device at `zoom` (1.0: one dp per logical pixel; the view scrolls when the
        device is larger), or fitted to the view (None, never above 100%). Only the drawing
        scales: the layout in dp, hit-testing and grabs are the same at every zoom."""
        if zoom is not None and not zoom > 0:
            raise ValueError(f"zoom must be above 0 or None (fit), not {zoom!r}")
        self._zoom = zoom
        root = self._quick.rootObject()
        if root is not None:
            root.setProperty("zoom", zoom or 0)
        self._size_scene()

    def zoom(self) -> float | None:
        """The zoom chosen (None: fit)."""
        return self._zoom

    def shown_zoom(self) -> float:
        """The scale the device is drawn at now (at Fit: what fits the view)."""
        root = self._quick.rootObject()
        value = root.property("fit") if root is not None else None
        return float(value) if isinstance(value, int | float) else 1.0

    def _size_scene(self) -> None:
        """At a fixed zoom the scene is at least the zoomed device and its frame (it scrolls);
        at Fit it takes the view as it is."""
        bars = (self._scroll.horizontalScrollBar(), self._scroll.verticalScrollBar())
        view = self._scroll.viewport().size()
        # The device point at the centre of the view stays there (a design tool's zoom).
        self._anchor = [
            (bar.value() + side / 2) / max(1, whole)
            for bar, side, whole in zip(
                bars,
                (view.width(), view.height()),
                (self._quick.width(), self._quick.height()),
                strict=True,
            )
        ]
        if self._zoom is None:
            self._quick.setMinimumSize(0, 0)
        else:
            width, height = self._device
            self._quick.setMinimumSize(
                math.ceil(width * self._zoom) + FRAME_ROOM,
                math.ceil(height * self._zoom) + FRAME_ROOM,
            )
        # Now, not at the scroll area's next layout: the scale shown is read right after.
        self._quick.resize(self._quick.minimumSize().expandedTo(self._scroll.maximumViewportSize()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Ctrl+wheel over the scene asks to zoom in or out (`zoomStepRequested`), as in a
        design tool; the prototype never sees it."""
        if (
            watched is self._quick
            and isinstance(event, QWheelEvent)
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            step = event.angleDelta().y()
            if step:
                self.zoomStepRequested.emit(1 if step > 0 else -1)
            event.accept()
            return True
        return super().eventFilter(watched, event)

    def _scroll_by(self, dx: float, dy: float) -> None:
        """Scroll the view by a wheel turn (120 per notch, `wheelScrollLines` steps a notch)."""
        lines = QApplication.wheelScrollLines()
        for bar, delta in (
            (self._scroll.horizontalScrollBar(), dx),
            (self._scroll.verticalScrollBar(), dy),
        ):
            if delta:
                self._anchor = None
                bar.setValue(bar.value() - round(delta / 120 * lines * bar.singleStep()))

    def _drop_anchor(self, _action: int = 0) -> None:
        self._anchor = None

    def _keep_anchor(self) -> None:
        """After a zoom the scroll bars' ranges change: put the anchored point back in the centre."""
        if self._anchor is None:
            return
        view = self._scroll.viewport().size()
        bars = (self._scroll.horizontalScrollBar(), self._scroll.verticalScrollBar())
        for bar, fraction, side, whole in zip(
            bars,
            self._anchor,
            (view.width(), view.height()),
            (self._quick.width(), self._quick.height()),
            strict=True,
        ):
            bar.setValue(round(fraction * whole - side / 2))

    def set_device_chrome(self, on: bool) -> None:
        """Show or hide the phone's chrome: status and navigation bars, the keyboard and
        AutoMobile's dismiss bar (hidden for clean screenshots; the window then starts at the
        top of the screen)."""
        self._controller.set_device_chrome(on)

    def back(self) -> str:
        """The phone's Back, as it reaches the prototype's window: hides the keyboard, or
        dismisses the prototype while a text field is on screen, or goes to the app behind
        (`PreviewController.back`, which says which: "keyboard", "dismissed", "passed")."""
        return self._controller.back()

    def set_clock24(self, on: bool) -> None:
        """The device's 24-hour clock setting, which time pickers without `is24Hour` follow."""
        self._controller.set_clock24(on)

    def set_today(self, day: date | None) -> None:
        """The device's date, which date pickers mark as today (None: the host's local date)."""
        self._controller.set_today(day)

    def set_rtl(self, on: bool) -> None:
        """The device's layout direction: right to left, as under an Arabic or Hebrew locale."""
        self._controller.set_rtl(on)

    def set_animator_scale(self, scale: float) -> None:
        """The device's animator duration scale (Developer options; 1 by default): 0 switches
        the prototype's motion off, another scale stretches its animations' time by it."""
        self._controller.set_animator_scale(scale)

    def set_theme(self, theme: str) -> None:
        """Device appearance: "light", "dark" or "system" (a spec's own theme.mode wins)."""
        if theme not in ("light", "dark", "system"):
            raise ValueError(f"theme must be light, dark or system, not {theme!r}")
        self._controller.set_appearance(theme)

    def reset_state(self) -> None:
        self._controller.reset_state()

    def screen_item(self) -> QQuickItem:
        root = self._quick.rootObject()
        screen = root.findChild(QQuickItem, "screen") if root is not None else None
        if not isinstance(screen, QQuickItem):
            raise RuntimeError("preview scene has no screen item")
        return screen

    def grab_screen(self, scale: int, done: Callable[[QImage], None]) -> None:
        """Render the device screen at its own size times `scale` (device pixels at 1x, 2x or
        3x, whatever size it is drawn at on screen) and call `done(image)` when it is ready
        (Qt Quick renders it on its next frame)."""
        screen = self.screen_item()
        size = QSize(round(screen.width() * scale), round(screen.height() * scale))
        result = screen.grabToImage(size)
        if result is None:
            done(QImage())
            return
        self._grabs.append(result)

        def ready() -> None:
            self._grabs.remove(result)
            done(result.image())

        result.ready.connect(ready)

    def grab_image(self) -> QImage:
        """The device screen as shown (without the frame)."""
        self._settle()
        frame = self._quick.grabFramebuffer()
        screen = self.screen_item()
        rect = screen.mapRectToScene(QRectF(0, 0, screen.width(), screen.height()))
        ratio = frame.devicePixelRatio() or 1.0
        return frame.copy(
            round(rect.x() * ratio),
            round(rect.y() * ratio),
            round(rect.width() * ratio),
            round(rect.height() * ratio),
        )

    def visible_summary(self) -> list[dict[str, Any]]:
        """[{address, type, text, bounds: {x, y, width, height}}] of the nodes on screen (dp), from
        a freshly rendered frame (controls place their parts when the frame is polished)."""
        self._settle()
        return visible_nodes(self.screen_item(), self._controller.icon_families())

    def _settle(self) -> None:
        """Render a frame (controls place their parts when polished), then let the layout
        containers that re-measure after it run, until none is queued (bounded)."""
        from PySide6.QtCore import QCoreApplication, QEventLoop

        self._quick.grabFramebuffer()
        for _ in range(50):
            if self._controller.layouts_queued == 0:
                break
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
            self._quick.grabFramebuffer()
