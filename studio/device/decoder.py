"""Decoded mirror frames: H.264 (whole access units or framed packets) and PNG to BGRA pixels with
PyAV, without NumPy (the pixels stay in PyAV's own buffer until Qt wraps them)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import av

log = logging.getLogger(__name__)

#: swscale's output format: B, G, R, 0xFF per pixel, which is Qt's `QImage.Format_RGB32` on a
#: little-endian machine and its fastest format to draw. Measured against rgb24 (benchmarks/
#: bench_mirror.py and docs/devices.md): the conversion is cheaper and no repack is needed.
PIXEL_FORMAT = "bgra"


@dataclass(frozen=True)
class Frame:
    """One decoded frame: BGRA pixels (rows `stride` bytes apart, PyAV pads some widths), when its
    packet's last byte arrived and when the pixels were ready."""

    data: memoryview  # the converted frame's plane; keeps PyAV's buffer alive
    width: int
    height: int
    stride: int
    received_at: float  # time.perf_counter() when the packet's last bytes arrived
    ready_at: float  # time.perf_counter() after the pixel conversion
    pts: int | None = None

    @property
    def latency_ms(self) -> float:
        return (self.ready_at - self.received_at) * 1000.0

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        """(r, g, b) at one pixel (tests, probes; not for bulk access)."""
        i = y * self.stride + 4 * x
        b, g, r = self.data[i], self.data[i + 1], self.data[i + 2]
        return (r, g, b)


def to_frame(vf: av.VideoFrame, received_at: float, pts: int | None = None) -> Frame:
    """A decoded PyAV frame converted to BGRA (one swscale pass, no copy afterwards)."""
    bgra = vf.reformat(format=PIXEL_FORMAT)
    plane = bgra.planes[0]
    return Frame(
        memoryview(plane),
        bgra.width,
        bgra.height,
        plane.line_size,
        received_at,
        time.perf_counter(),
        pts,
    )


class H264Decoder:
    """PyAV's h264 decoder fed whole packets: an access unit (from `framing.AccessUnitSplitter`)
    or a framed packet (AutoMobile, scrcpy), config packets (SPS/PPS) prepended to the next one."""

    def __init__(self) -> None:
        self._cc = av.CodecContext.create("h264", "r")
        self._pending_config = b""

    def feed_packet(
        self, data: bytes, received_at: float, *, pts: int | None = None, config: bool = False
    ) -> list[Frame]:
        if config:
            self._pending_config += data
            return []
        if not data:  # PyAV treats an empty packet as the end of the stream: never send one
            return []  # (a config packet waiting stays for the next real one)
        payload, self._pending_config = self._pending_config + data, b""
        packet = av.Packet(payload)
        if pts is not None:
            packet.pts = pts
        return self._decode(packet, received_at)

    def flush(self, received_at: float) -> list[Frame]:
        """The frames the decoder still holds (end of a stream only: it decodes nothing after)."""
        return self._decode(None, received_at)

    def _decode(
        self,
        packet: av.Packet | None,  # type: ignore[type-arg]  # PyAV's stubs make Packet generic
        received_at: float,
    ) -> list[Frame]:
        try:
            decoded = self._cc.decode(packet)
        except av.error.FFmpegError as exc:  # a damaged packet: skip it, keep the stream
            log.debug("h264 decode error: %s", exc)
            return []
        return [to_frame(vf, received_at, vf.pts) for vf in decoded]


def decode_png(data: bytes, received_at: float) -> Frame:
    """A PNG (screencap -p) to a frame, with PyAV's png decoder."""
    cc = av.CodecContext.create("png", "r")
    frames = cc.decode(av.Packet(data))
    if not frames:
        raise ValueError("screencap returned no image")
    return to_frame(frames[0], received_at)
