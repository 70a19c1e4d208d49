"""Known test media made on the host with PyAV: H.264 (libx264, zerolatency) of solid colours, PNGs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

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


def rgb(frame: Any) -> np.ndarray:
    """A decoded mirror frame (`studio.device.decoder.Frame`, BGRA rows `stride` bytes apart) as
    a (height, width, 3) RGB array."""
    rows = np.frombuffer(frame.data, np.uint8).reshape(frame.height, frame.stride)
    bgra = rows[:, : 4 * frame.width].reshape(frame.height, frame.width, 4)
    return bgra[:, :, 2::-1]


def mean_color(frame: Any) -> np.ndarray:
    """The mean RGB of a decoded mirror frame."""
    return rgb(frame).reshape(-1, 3).mean(axis=0)


def near(color: np.ndarray, expected: Sequence[int]) -> bool:
    """True when a mean colour matches a known one (H.264 shifts solid colours a little)."""
    return bool(np.abs(color - np.array(expected)).max() < 12)


def collect_frames(
    sources: list[Any], want: Callable[[list[Any]], bool]
) -> tuple[list[Any], list[Any]]:
    """Run a `Mirror` over `sources` until `want(frames)` holds or it fails (15 s at most);
    returns the frames and statuses it produced."""
    import threading

    from studio.device.mirror import Mirror, MirrorState

    frames: list[Any] = []
    statuses: list[Any] = []
    done = threading.Event()

    def on_frame(frame: Any) -> None:
        frames.append(frame)
        if want(frames):
            done.set()

    def on_status(status: Any) -> None:
        statuses.append(status)
        if status.state is MirrorState.FAILED:
            done.set()

    mirror = Mirror(sources, on_frame, on_status)
    mirror.start()
    try:
        assert done.wait(15), f"mirror produced {len(frames)} frames; status {mirror.status}"
    finally:
        mirror.stop()
    return frames, statuses
