"""Clicks and drags on the mirrored screen as taps and swipes on the phone: view points mapped to
device pixels in the frame's current orientation, sent with `input` over adb, in order; and the
phone's Back and Home keys."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from studio.device.adb import Adb

#: Android's key codes (AOSP KeyEvent.java `KEYCODE_HOME`, `KEYCODE_BACK`).
KEYCODE_HOME = 3
KEYCODE_BACK = 4


@dataclass(frozen=True)
class Viewport:
    """Where the frame is drawn in the view (view pixels) and the device's size in pixels, in the
    orientation the frame shows."""

    x: float
    y: float
    width: float
    height: float
    device_width: int
    device_height: int

    def to_device(self, vx: float, vy: float) -> tuple[int, int] | None:
        """A view point to device pixels; None outside the drawn frame."""
        if self.width <= 0 or self.height <= 0:
            return None
        u, v = (vx - self.x) / self.width, (vy - self.y) / self.height
        if not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
            return None
        return (
            min(int(u * self.device_width), self.device_width - 1),
            min(int(v * self.device_height), self.device_height - 1),
        )


def fit(
    view_w: float, view_h: float, frame_w: int, frame_h: int
) -> tuple[float, float, float, float]:
    """The largest rect of the frame's aspect ratio centred in the view: (x, y, w, h)."""
    if frame_w <= 0 or frame_h <= 0 or view_w <= 0 or view_h <= 0:
        return (0.0, 0.0, 0.0, 0.0)
    scale = min(view_w / frame_w, view_h / frame_h)
    w, h = frame_w * scale, frame_h * scale
    return ((view_w - w) / 2, (view_h - h) / 2, w, h)


def oriented(device: tuple[int, int], frame: tuple[int, int]) -> tuple[int, int]:
    """The device's pixel size in the frame's orientation.

    `wm size` reports the natural (portrait) size whatever the rotation, while `input tap` takes
    coordinates of the display as it is now; a landscape frame of a portrait device means the
    display is rotated, so width and height swap."""
    dw, dh = device
    fw, fh = frame
    if fw != fh and dw != dh and (fw > fh) != (dw > dh):
        return (dh, dw)
    return (dw, dh)


class DeviceInput:
    """Taps and swipes sent with `input` over adb, in device pixels, one at a time in order."""

    def __init__(self, adb: Adb, serial: str):
        self.adb, self.serial = adb, serial
        self._lock: asyncio.Lock | None = None  # created on the loop that uses it

    def _serial_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def tap(self, x: int, y: int) -> None:
        async with self._serial_lock():
            await self.adb.tap(self.serial, x, y)

    async def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        async with self._serial_lock():
            await self.adb.swipe(self.serial, x1, y1, x2, y2, max(1, duration_ms))

    async def key(self, keycode: int) -> None:
        """One key press on the phone (Back, Home), in order with the taps and swipes."""
        async with self._serial_lock():
            await self.adb.key(self.serial, keycode)
