"""The mirrored device screen: frames at their own aspect ratio (a rotation turns the picture), an
fps/latency overlay, the screencap-fallback notice, and mouse clicks/drags sent back as taps/swipes
in device pixels of the orientation the frame shows; the phone's Back (right-click or Esc) and Home
(middle-click), as scrcpy binds them (doc/shortcuts.md)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QKeyEvent, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.concurrency import TaskOwner
from studio.device.decoder import Frame
from studio.device.gestures import KEYCODE_BACK, KEYCODE_HOME, DeviceInput, Viewport, fit, oriented
from studio.device.mirror import MirrorState, MirrorStatus

TAP_SLOP_PX = 8.0  # a press that moves less than this is a tap, not a swipe


def frame_to_qimage(frame: Frame) -> QImage:
    """Wrap the frame's BGRA pixels as RGB32, Qt's fastest format to draw (no copy: the caller
    keeps `frame`, which keeps PyAV's buffer, alive while the image is in use)."""
    return QImage(frame.data, frame.width, frame.height, frame.stride, QImage.Format.Format_RGB32)


class FrameBridge(QObject):
    """Hands frames from the decode thread to the GUI thread, newest wins (never a backlog)."""

    frame_ready = Signal()
    status_changed = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._lock = threading.Lock()
        self._latest: Frame | None = None
        self._pending = False
        self.dropped = 0

    def push_frame(self, frame: Frame) -> None:
        """Thread-safe: keep the newest frame; signal only if the GUI has taken the last one."""
        with self._lock:
            if self._latest is not None and self._pending:
                self.dropped += 1
            self._latest = frame
            notify = not self._pending
            self._pending = True
        if notify:
            with contextlib.suppress(RuntimeError):  # the view was deleted while decoding
                self.frame_ready.emit()

    def push_status(self, status: MirrorStatus) -> None:
        with contextlib.suppress(RuntimeError):  # the view was deleted while decoding
            self.status_changed.emit(status)

    def take(self) -> Frame | None:
        with self._lock:
            frame, self._pending = self._latest, False
            return frame


class MirrorView(QWidget):
    """Shows mirrored frames; emits `tapped(x, y)` and `swiped(x1, y1, x2, y2, ms)` in device pixels."""

    tapped = Signal(int, int)
    swiped = Signal(int, int, int, int, int)
    #: An Android key for the phone: Back on a right-click or Esc, Home on a middle-click (the
    #: bindings of scrcpy, doc/shortcuts.md: "Click on BACK ... Right-click", "Click on HOME ...
    #: Middle-click"; Esc as a hardware keyboard's Escape falls back to Back on Android).
    key_pressed = Signal(int)
    frame_shown = Signal(float)  # ms from packet received to QImage built
    input_failed = Signal(str)  # a tap or swipe could not be sent (one line)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(120, 200)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Esc is the phone's Back
        self.setToolTip(
            "The phone's screen: click to tap, drag to swipe; right-click or Esc is Back,"
            " middle-click Home"
        )
        self.bridge = FrameBridge(self)
        self.bridge.frame_ready.connect(self._take_frame)
        self.bridge.status_changed.connect(self.set_status)
        self._frame: Frame | None = None
        self._qimage: QImage | None = None
        self._status = MirrorStatus(MirrorState.IDLE)
        self._device_size: tuple[int, int] | None = None
        self._press: tuple[QPointF, float] | None = None
        self._input = TaskOwner("mirror input", report=self._input_failed)
        self.display_latency_ms = 0.0

    # ---- feeding ---------------------------------------------------------------------------
    def frame_sink(self, frame: Frame) -> None:
        """For `Mirror(on_frame=...)`: callable from any thread."""
        self.bridge.push_frame(frame)

    def status_sink(self, status: MirrorStatus) -> None:
        """For `Mirror(on_status=...)`: callable from any thread."""
        self.bridge.push_status(status)

    def set_device_size(self, width: int, height: int) -> None:
        """The phone's real pixel size as `wm size` reports it (the video may be scaled); taps are
        mapped to it, turned to the orientation the frame shows."""
        self._device_size = (width, height)

    def _take_frame(self) -> None:
        frame = self.bridge.take()
        if frame is None:
            return
        self._frame = frame
        self._qimage = frame_to_qimage(frame)
        self.display_latency_ms = (time.perf_counter() - frame.received_at) * 1000.0
        self.frame_shown.emit(self.display_latency_ms)
        self.update()

    def set_status(self, status: MirrorStatus) -> None:
        self._status = status
        self.update()

    # ---- what is drawn ---------------------------------------------------------------------
    @property
    def status(self) -> MirrorStatus:
        return self._status

    @property
    def frame(self) -> Frame | None:
        return self._frame

    def image_rect(self) -> QRectF:
        if self._frame is None:
            return QRectF()
        return QRectF(*fit(self.width(), self.height(), self._frame.width, self._frame.height))

    def overlay_text(self) -> str:
        s = self._status
        if s.state is MirrorState.STREAMING:
            return f"{s.fps:.1f} fps · {s.latency_ms:.1f} ms decode"
        return ""

    def notice_text(self) -> str:
        s = self._status
        if s.fallback:
            why = f" ({s.message})" if s.message else ""
            return f"screencap fallback: H.264 mirroring is unavailable{why}; the picture updates slowly"
        if s.state is MirrorState.FAILED:
            return f"Mirroring failed: {s.message}"
        if self._frame is None and s.state is MirrorState.STARTING:
            return "Waiting for the device screen…"
        return ""

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(16, 16, 16))
        if self._qimage is not None:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            painter.drawImage(self.image_rect(), self._qimage)
        font = QFont(painter.font())
        font.setPointSizeF(9)
        painter.setFont(font)
        overlay = self.overlay_text()
        if overlay:
            box = QRectF(6, 6, painter.fontMetrics().horizontalAdvance(overlay) + 12, 20)
            painter.fillRect(box, QColor(0, 0, 0, 160))
            painter.setPen(QColor(255, 255, 255))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, overlay)
        notice = self.notice_text()
        if notice:
            box = QRectF(6, self.height() - 52, self.width() - 12, 46)
            painter.fillRect(box, QColor(120, 60, 0, 210))
            painter.setPen(QColor(255, 255, 255))
            painter.drawText(
                box.adjusted(6, 2, -6, -2),
                Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignVCenter,
                notice,
            )
        painter.end()

    # ---- input ------------------------------------------------------------------------------
    def viewport(self) -> Viewport | None:
        if self._frame is None:
            return None
        r = self.image_rect()
        frame_size = (self._frame.width, self._frame.height)
        dw, dh = oriented(self._device_size, frame_size) if self._device_size else frame_size
        return Viewport(r.x(), r.y(), r.width(), r.height(), dw, dh)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = (event.position(), time.monotonic())
        elif self._frame is not None and event.button() == Qt.MouseButton.RightButton:
            self.key_pressed.emit(KEYCODE_BACK)
        elif self._frame is not None and event.button() == Qt.MouseButton.MiddleButton:
            self.key_pressed.emit(KEYCODE_HOME)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if (
            event.key() == Qt.Key.Key_Escape
            and not event.isAutoRepeat()
            and self._frame is not None
        ):
            self.key_pressed.emit(KEYCODE_BACK)
            return
        super().keyPressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            return
        (start, t0), self._press = self._press, None
        vp = self.viewport()
        if vp is None:
            return
        end = event.position()
        a = vp.to_device(start.x(), start.y())
        if a is None:
            return
        if (end - start).manhattanLength() < TAP_SLOP_PX:
            self.tapped.emit(*a)
            return
        b = vp.to_device(
            min(max(end.x(), vp.x), vp.x + vp.width), min(max(end.y(), vp.y), vp.y + vp.height)
        )
        if b is not None:
            self.swiped.emit(a[0], a[1], b[0], b[1], max(50, int((time.monotonic() - t0) * 1000)))

    def attach_input(self, device_input: DeviceInput) -> None:
        """Send taps and swipes to the device (as tasks on the running qasync loop)."""
        self.tapped.connect(lambda x, y: self._spawn(device_input.tap(x, y)))
        self.swiped.connect(
            lambda x1, y1, x2, y2, ms: self._spawn(device_input.swipe(x1, y1, x2, y2, ms))
        )
        self.key_pressed.connect(lambda code: self._spawn(device_input.key(code)))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        if self._input.closed:
            coro.close()
            return
        self._input.spawn(coro, label="device input")

    def _input_failed(self, _label: str, exc: BaseException) -> None:
        with contextlib.suppress(RuntimeError):  # the view was deleted meanwhile
            self.input_failed.emit(f"{type(exc).__name__}: {exc}")

    @property
    def pending_input(self) -> int:
        return len([t for t in self._input.tasks if not t.done()])

    async def drain_input(self) -> None:
        """Wait until every tap and swipe sent so far has reached the device (or failed)."""
        await self._input.idle()

    async def aclose(self) -> None:
        """Cancel taps still in flight and wait for them (the session's close)."""
        await self._input.aclose()

    def closeEvent(self, event: Any) -> None:
        self._input.cancel_all()
        super().closeEvent(event)
