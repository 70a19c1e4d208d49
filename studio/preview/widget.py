"""`PreviewWidget`: the live preview (a phone frame around the QML screen) for the studio window."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QRectF, QSize, Signal
from PySide6.QtGui import QImage
from PySide6.QtQuick import QQuickItem
from PySide6.QtQuickWidgets import QQuickWidget
from PySide6.QtWidgets import QVBoxLayout, QWidget

from studio.preview.controller import AssetResolver, PreviewController
from studio.preview.inspect import visible_nodes
from studio.preview.scene import configure_engine, prepare_quick, qml_url
from studio.runtime import Runtime

#: Device presets (dp).
DEVICE_SIZES = {"compact": (360, 800), "medium": (412, 915)}


class PreviewWidget(QWidget):
    """Shows a spec, runs it (taps, controls, pagers, overlays) or selects nodes in edit mode."""

    nodeClicked = Signal(str)
    platformRequested = Signal(object)
    runtimeEvent = Signal(object)
    runtimeRefused = Signal(object)

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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._quick)
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

    def set_spec(self, spec: dict[str, Any]) -> None:
        """Show a valid, component-expanded spec from its initial state."""
        self._controller.set_spec(spec)

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
        self.setMinimumSize(200, 300)

    def set_device_chrome(self, on: bool) -> None:
        """Show or hide the phone's chrome: status and navigation bars, the keyboard and
        AutoMobile's dismiss bar (hidden for clean screenshots; the window then starts at the
        top of the screen)."""
        self._controller.set_device_chrome(on)

    def set_clock24(self, on: bool) -> None:
        """The device's 24-hour clock setting, which time pickers without `is24Hour` follow."""
        self._controller.set_clock24(on)

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
