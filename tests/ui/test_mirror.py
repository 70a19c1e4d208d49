"""MirrorView: frames from a fake video source on a worker thread, aspect ratio, overlay, fallback
notice, and clicks/drags turned into taps/swipes that reach a (fake) adb server."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, Qt

from studio.device.adb import Adb, AdbServer
from studio.device.decoder import Frame
from studio.device.gestures import DeviceInput
from studio.device.mirror import Mirror, MirrorState, MirrorStatus
from studio.device.sources import FrameSink
from studio.ui.mirror import MirrorView
from tests.device.fake_adb_server import FakeAdbServer, FakeDevice

RED = (220, 30, 30)


class FakeSource:
    """A video path that produces solid frames on the mirror's worker thread."""

    mode = "h264 (fake)"

    def __init__(self, width: int, height: int, color: tuple[int, int, int]):
        r, g, b = color
        self.width, self.height = width, height
        self.pixels = bytes([b, g, r, 255]) * (width * height)  # BGRA, as the decoder gives

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        while not stop.is_set():
            received = time.perf_counter()
            data = memoryview(self.pixels)
            sink(
                Frame(data, self.width, self.height, 4 * self.width, received, time.perf_counter())
            )
            stop.wait(0.01)

    def interrupt(self) -> None:
        pass


@pytest.fixture
def view(qtbot) -> MirrorView:  # type: ignore[no-untyped-def]
    v = MirrorView()
    qtbot.addWidget(v)
    v.resize(400, 400)
    v.show()
    return v


@pytest.fixture
def mirror(view: MirrorView) -> Iterator[Mirror]:
    m = Mirror([FakeSource(360, 800, RED)], view.frame_sink, view.status_sink)
    m.start()
    yield m
    m.stop()


@pytest.fixture
def phone_shell(view: MirrorView) -> Iterator[list[str]]:
    """A fake adb server with one 1080x2400 phone behind the view's input: the shell commands
    it receives, in order."""
    commands: list[str] = []
    server = FakeAdbServer()
    server.set_devices([FakeDevice("phone1", shell=lambda cmd: commands.append(cmd) or "")])
    view.set_device_size(1080, 2400)
    view.attach_input(DeviceInput(Adb(AdbServer(host="127.0.0.1", port=server.port)), "phone1"))
    yield commands
    server.close()


def test_frames_are_shown_at_the_device_aspect_ratio_with_fps_and_latency(
    qtbot, view: MirrorView, mirror: Mirror
) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(
        lambda: view.frame is not None and view.status.state is MirrorState.STREAMING, timeout=5000
    )
    qtbot.waitUntil(lambda: view.status.fps > 0, timeout=5000)
    shot = view.grab().toImage()
    center = shot.pixelColor(200, 200)
    assert (center.red(), center.green(), center.blue()) == RED
    edge = shot.pixelColor(5, 200)  # 360x800 in 400x400: bars left and right
    assert edge.red() < 40 and edge.green() < 40
    rect = view.image_rect()
    assert abs(rect.width() / rect.height() - 360 / 800) < 0.01
    assert "fps" in view.overlay_text() and "ms" in view.overlay_text()
    assert view.notice_text() == ""
    assert view.display_latency_ms >= 0


def test_screencap_fallback_is_announced(qtbot, view: MirrorView) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(view.bridge.status_changed, timeout=2000):
        view.status_sink(
            MirrorStatus(
                MirrorState.STREAMING,
                "screencap fallback",
                fps=4.0,
                message="screenrecord: not found",
            )
        )
    assert (
        "screencap fallback" in view.notice_text()
        and "screenrecord: not found" in view.notice_text()
    )
    with qtbot.waitSignal(view.bridge.status_changed, timeout=2000):
        view.status_sink(MirrorStatus(MirrorState.FAILED, message="device gone"))
    assert view.notice_text() == "Mirroring failed: device gone"


def test_click_taps_and_drag_swipes_in_device_pixels(
    qtbot,
    view: MirrorView,
    mirror: Mirror,
    phone_shell: list[str],
    qloop: asyncio.AbstractEventLoop,
) -> None:  # type: ignore[no-untyped-def]
    commands = phone_shell
    qtbot.waitUntil(lambda: view.frame is not None, timeout=5000)
    # 360x800 frame in 400x400: drawn at x 110..290, y 0..400
    with qtbot.waitSignal(view.tapped, timeout=2000) as tap:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 200))
    assert tap.args == [540, 1200]
    with qtbot.waitSignal(view.swiped, timeout=2000) as swipe:
        qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 380))
        qtbot.mouseMove(view, QPoint(200, 100))
        qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 20))
    assert swipe.args[:4] == [540, 2280, 540, 120]
    qloop.run_until_complete(asyncio.wait_for(view.drain_input(), 5))
    assert view.pending_input == 0
    assert commands[0] == "input tap 540 1200"
    assert commands[1].startswith("input swipe 540 2280 540 120 ")
    with qtbot.assertNotEmitted(view.tapped):  # a click on the letterbox bar is not a tap
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(20, 200))


def test_in_landscape_taps_are_mapped_to_the_rotated_screen(
    qtbot, view: MirrorView, qloop: asyncio.AbstractEventLoop
) -> None:  # type: ignore[no-untyped-def]
    """A landscape frame of a portrait phone: `input tap` takes the rotated display's
    coordinates, so the phone's 1080x2400 becomes 2400x1080 for the mapping."""
    landscape = Mirror([FakeSource(800, 360, RED)], view.frame_sink, view.status_sink)
    landscape.start()
    try:
        view.resize(800, 400)
        view.set_device_size(1080, 2400)  # what `wm size` reports, whatever the rotation
        qtbot.waitUntil(lambda: view.frame is not None, timeout=5000)
        rect = view.image_rect()
        assert abs(rect.width() / rect.height() - 800 / 360) < 0.01  # the picture turned
        with qtbot.waitSignal(view.tapped, timeout=2000) as tap:
            qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(400, 200))
        assert tap.args == [1200, 540]  # the middle of the rotated 2400x1080 display
        x, y = rect.x() + rect.width() - 1, rect.y() + 1
        with qtbot.waitSignal(view.tapped, timeout=2000) as corner:
            qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(int(x), int(y)))
        assert corner.args[0] > 2390 and corner.args[1] < 10  # top right of the landscape screen
    finally:
        landscape.stop()


def test_right_click_and_esc_are_back_and_middle_click_is_home_as_scrcpy_binds_them(
    qtbot,
    view: MirrorView,
    mirror: Mirror,
    phone_shell: list[str],
    qloop: asyncio.AbstractEventLoop,
) -> None:  # type: ignore[no-untyped-def]
    """scrcpy doc/shortcuts.md: "Click on BACK ... Right-click", "Click on HOME ... Middle-click";
    sent as `input keyevent` (AOSP KeyEvent.java KEYCODE_BACK 4, KEYCODE_HOME 3), in order with
    the taps."""
    commands = phone_shell
    qtbot.waitUntil(lambda: view.frame is not None, timeout=5000)
    with qtbot.assertNotEmitted(view.tapped):
        qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=QPoint(200, 200))
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 200))
    qtbot.mouseClick(view, Qt.MouseButton.MiddleButton, pos=QPoint(200, 200))
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    qloop.run_until_complete(asyncio.wait_for(view.drain_input(), 5))
    assert commands == [
        "input keyevent 4", "input tap 540 1200", "input keyevent 3", "input keyevent 4"
    ]  # fmt: skip
