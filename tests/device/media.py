"""Known test media made on the host with PyAV: H.264 (libx264, zerolatency) of solid colours, PNGs."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import av
import numpy as np

RED, GREEN, BLUE = (220, 30, 30), (30, 200, 40), (40, 50, 210)


def solid(width: int, height: int, rgb: Sequence[int]) -> np.ndarray:
    img = np.empty((height, width, 3), np.uint8)
    img[:] = rgb
    return img


def encode_h264(frames: Sequence[np.ndarray], fps: int = 30) -> list[bytes]:
    """Annex-B packets, one per frame, SPS/PPS repeated before every keyframe."""
    height, width = frames[0].shape[:2]
    cc = av.CodecContext.create("libx264", "w")
    cc.width, cc.height, cc.pix_fmt = width, height, "yuv420p"
    cc.framerate = fps
    cc.time_base = Fraction(1, fps)
    cc.options = {
        "preset": "ultrafast",
        "tune": "zerolatency",
        "threads": "1",
        "x264-params": "repeat-headers=1:keyint=15",
    }
    packets: list[bytes] = []
    for i, img in enumerate(frames):
        frame = av.VideoFrame.from_ndarray(img, format="rgb24").reformat(format="yuv420p")
        frame.pts = i
        packets += [bytes(p) for p in cc.encode(frame)]
    packets += [bytes(p) for p in cc.encode(None)]
    return packets


def color_clip(
    width: int = 360, height: int = 800, per_color: int = 10
) -> tuple[bytes, list[tuple[int, int, int]]]:
    """An H.264 stream: `per_color` frames each of red, green and blue."""
    colors = [RED, GREEN, BLUE]
    frames = [solid(width, height, c) for c in colors for _ in range(per_color)]
    return b"".join(encode_h264(frames)), colors


def png(img: np.ndarray) -> bytes:
    cc = av.CodecContext.create("png", "w")
    cc.width, cc.height, cc.pix_fmt = img.shape[1], img.shape[0], "rgb24"
    cc.time_base = Fraction(1, 1)
    frame = av.VideoFrame.from_ndarray(img, format="rgb24")
    return b"".join(bytes(p) for p in cc.encode(frame))
