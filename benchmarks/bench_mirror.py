"""Benchmark: the mirror's decode and display cost for 720p30 and 1080p30 H.264 (portrait phone sizes).

Run on demand: `.venv/bin/python benchmarks/bench_mirror.py [--seconds 3]`. Encodes a few seconds of
moving synthetic content with libx264 (zerolatency) first, then measures, per size:

- throughput: frames/s the studio's decoder path (PyAV decode + BGRA conversion, no NumPy)
  sustains, and the ratio of its cost to a bare PyAV decode run in the same process (the baseline);
- real time at 30 fps through `Mirror` on its worker thread: CPU share (process CPU time / wall),
  latency from packet received to frame ready, and to the QImage built;
- the same for the raw Annex-B byte stream (what screenrecord sends), cut into access units by
  `AccessUnitSplitter`, the last one flushed after the sources' quiet gap as the real source does.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import av  # noqa: E402
import numpy as np  # noqa: E402

from studio.device.decoder import Frame, H264Decoder  # noqa: E402
from studio.device.framing import AccessUnitSplitter  # noqa: E402
from studio.device.mirror import Mirror  # noqa: E402
from studio.device.sources import QUIET_GAP_S, FrameSink  # noqa: E402

SIZES = {"720p30": (720, 1280), "1080p30": (1080, 1920)}
FPS = 30


def synthetic_frames(width: int, height: int, count: int) -> list[np.ndarray]:
    """A moving gradient, a sliding card and scrolling text-like stripes (not flat: real work)."""
    yy, xx = np.mgrid[0:height, 0:width]
    rng = np.random.default_rng(7)
    texture = rng.integers(0, 40, (height, width), dtype=np.uint8)
    frames = []
    for i in range(count):
        img = np.empty((height, width, 3), np.uint8)
        img[..., 0] = (xx * 255 // width + i * 3) % 256
        img[..., 1] = (yy * 255 // height + i * 2) % 256
        img[..., 2] = texture
        stripes = ((yy + i * 12) // 24) % 2 == 0
        img[stripes & (xx < width // 3)] = (230, 230, 230)
        x0 = (i * 17) % (width - width // 3)
        img[height // 3 : height // 3 + height // 5, x0 : x0 + width // 3] = (30, 90, 200)
        frames.append(img)
    return frames


def encode(frames: list[np.ndarray]) -> list[bytes]:
    height, width = frames[0].shape[:2]
    cc = av.CodecContext.create("libx264", "w")
    cc.width, cc.height, cc.pix_fmt = width, height, "yuv420p"
    cc.framerate, cc.time_base = FPS, Fraction(1, FPS)
    cc.bit_rate = 8_000_000 if width >= 1080 else 4_000_000  # AutoMobile's high / medium presets
    cc.options = {
        "preset": "veryfast",
        "tune": "zerolatency",
        "x264-params": "repeat-headers=1:keyint=60",
    }
    out: list[bytes] = []
    for i, img in enumerate(frames):
        vf = av.VideoFrame.from_ndarray(img, format="rgb24").reformat(format="yuv420p")
        vf.pts = i
        out += [bytes(p) for p in cc.encode(vf)]
    out += [bytes(p) for p in cc.encode(None)]
    return out


def bare_decode(packets: list[bytes]) -> tuple[float, float]:
    """Baseline: PyAV decode only (no conversion): (cpu s, wall s) for all packets."""
    cc = av.CodecContext.create("h264", "r")
    c0, w0 = time.process_time(), time.perf_counter()
    for p in packets:
        cc.decode(av.Packet(p))
    cc.decode(None)
    return time.process_time() - c0, time.perf_counter() - w0


def studio_decode(packets: list[bytes]) -> tuple[float, float, int]:
    """The studio's path as fast as it goes: (cpu s, wall s, frames)."""
    dec = H264Decoder()
    n = 0
    c0, w0 = time.process_time(), time.perf_counter()
    for p in packets:
        n += len(dec.feed_packet(p, time.perf_counter()))
    n += len(dec.flush(time.perf_counter()))
    return time.process_time() - c0, time.perf_counter() - w0, n


class PacedSource:
    """Plays packets at 30 fps on the mirror's worker thread, framed or as a raw byte stream."""

    def __init__(self, packets: list[bytes], raw: bool):
        self.packets, self.raw = packets, raw
        self.mode = "bench"

    def run(self, sink: FrameSink, stop: threading.Event) -> None:
        dec = H264Decoder()
        splitter = AccessUnitSplitter()
        start = time.perf_counter()
        for i, p in enumerate(self.packets):
            if stop.is_set():
                return
            delay = start + i / FPS - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            now = time.perf_counter()
            if not self.raw:
                for f in dec.feed_packet(p, now):
                    sink(f)
                continue
            for unit, arrived in splitter.feed(p, now):
                for f in dec.feed_packet(unit, arrived):
                    sink(f)
            # the source's recv times out after the quiet gap (the next unit is 33 ms away)
            time.sleep(QUIET_GAP_S)
            pending = splitter.flush()
            if pending is not None:
                for f in dec.feed_packet(*pending):
                    sink(f)
        for f in dec.flush(time.perf_counter()):
            sink(f)

    def interrupt(self) -> None:
        pass


def paced(packets: list[bytes], raw: bool) -> dict[str, float]:
    from PySide6.QtGui import QImage

    from studio.ui.mirror import frame_to_qimage

    latencies: list[float] = []
    to_qimage: list[float] = []
    done = threading.Event()
    total = len(packets)

    def on_frame(f: Frame) -> None:
        latencies.append(f.latency_ms)
        img: QImage = frame_to_qimage(f)
        assert not img.isNull()
        to_qimage.append((time.perf_counter() - f.received_at) * 1000)
        if len(latencies) >= total:
            done.set()

    mirror = Mirror([PacedSource(packets, raw)], on_frame)
    c0, w0 = time.process_time(), time.perf_counter()
    mirror.start()
    done.wait(total / FPS + 10)
    wall = time.perf_counter() - w0
    cpu = time.process_time() - c0
    mirror.stop()
    return {
        "frames": len(latencies),
        "fps": len(latencies) / wall,
        "cpu_share": cpu / wall,
        "lat_mean": statistics.fmean(latencies),
        "lat_p95": sorted(latencies)[int(0.95 * (len(latencies) - 1))],
        "qimg_mean": statistics.fmean(to_qimage),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    count = int(args.seconds * FPS)
    print(
        f"mirror benchmark: {count} frames per size, {os.cpu_count()} CPUs, PyAV {av.__version__}"
    )
    for name, (w, h) in SIZES.items():
        packets = encode(synthetic_frames(w, h, count))
        kbps = sum(map(len, packets)) * 8 / args.seconds / 1000
        base_cpu, base_wall = min((bare_decode(packets) for _ in range(2)), key=lambda r: r[0])
        cpu, wall, n = min((studio_decode(packets) for _ in range(2)), key=lambda r: r[0])
        print(f"\n{name} ({w}x{h}, {kbps:.0f} kbit/s, {n} frames decoded)")
        print(
            f"  throughput: studio path {n / wall:7.1f} fps ({cpu / n * 1000:.2f} ms CPU/frame); bare PyAV decode {n / base_wall:7.1f} fps ({base_cpu / n * 1000:.2f} ms CPU/frame)"
        )
        print(
            f"  ratio studio/baseline CPU per frame: {cpu / base_cpu:.2f}x (the rest is the BGRA conversion)"
        )
        for label, raw in (
            ("framed (AutoMobile)", False),
            ("raw byte stream (screenrecord)", True),
        ):
            r = paced(packets, raw)
            print(
                f"  30 fps real time, {label}: {r['fps']:.1f} fps shown, CPU {r['cpu_share'] * 100:.0f}% of one core, "
                f"latency packet->frame {r['lat_mean']:.1f} ms (p95 {r['lat_p95']:.1f}), ->QImage {r['qimg_mean']:.1f} ms"
            )


if __name__ == "__main__":
    main()
