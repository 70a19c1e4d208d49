"""AutoMobile's framed H.264 (the video-server jar's layout and the daemon relay's) and
screenrecord's raw byte stream, over real sockets with real libx264 frames: every frame decodes
to the expected colour, as soon as it is complete, and telemetry packets never reach the decoder.
The writers (tests/device/video_writers.py) follow AutoMobile's source rule by rule."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from fractions import Fraction

import av
import pytest

from studio.device.decoder import Frame, H264Decoder
from studio.device.framing import (
    AccessUnitSplitter,
    handshake,
    parse_packet_header,
    parse_relay_packet_header,
)
from studio.device.mirror import MirrorState
from studio.device.sources import FramedStreamSource, tcp_connector
from tests.device import media
from tests.device import video_writers as vw

COLORS = [media.RED] * 4 + [media.GREEN] * 4 + [media.BLUE] * 4


def _units(width: int = 320, height: int = 240) -> list[bytes]:
    return media.encode_h264([media.solid(width, height, c) for c in COLORS])


class StreamServer:
    """A TCP server that plays a list of writes to its first client (in 777-byte pieces where
    `chunked`), keeps the connection open until the test ends (adb streams have no half-close),
    and records what the client sent."""

    def __init__(self, writes: list[bytes], *, chunked: bool = True, pause_s: float = 0.0):
        self.writes, self.chunked, self.pause_s = writes, chunked, pause_s
        self.received = bytearray()
        self._srv = socket.socket()
        self._srv.bind(("127.0.0.1", 0))
        self._srv.listen(1)
        self.port = int(self._srv.getsockname()[1])
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        conn, _ = self._srv.accept()
        conn.settimeout(0.05)
        with conn:
            for data in self.writes:
                pieces = (
                    [data[i : i + 777] for i in range(0, len(data), 777)]
                    if self.chunked
                    else [data]
                )
                for piece in pieces:
                    conn.sendall(piece)
                if self.pause_s:
                    time.sleep(self.pause_s)
                self._drain(conn)
            while not self._done.is_set():
                self._drain(conn)

    def _drain(self, conn: socket.socket) -> None:
        try:
            data = conn.recv(4096)
        except (TimeoutError, OSError):
            return
        self.received += data

    def close(self) -> None:
        self._done.set()
        self._thread.join(5)
        self._srv.close()


@pytest.fixture
def serve() -> Iterator[Callable[..., StreamServer]]:
    servers: list[StreamServer] = []

    def start(writes: list[bytes], **kw: object) -> StreamServer:
        server = StreamServer(writes, **kw)  # type: ignore[arg-type]
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def _collect(source: FramedStreamSource, count: int) -> list[Frame]:
    return media.collect_frames([source], lambda fs: len(fs) >= count)[0]


def _assert_colours(frames: list[Frame], expected: list[tuple[int, int, int]]) -> None:
    assert len(frames) >= len(expected)
    for i, colour in enumerate(expected):
        assert media.near(media.mean_color(frames[i]), colour), (i, media.mean_color(frames[i]))


# ---- the jar -------------------------------------------------------------------------------------


def test_the_jars_stream_decodes_every_frame_after_the_hello_and_a_key_frame_request(
    serve: Callable[..., StreamServer],
) -> None:
    server = serve([vw.jar_stream(_units(), 320, 240)])
    hello = handshake("token-12345")
    source = FramedStreamSource(
        tcp_connector("127.0.0.1", server.port, hello), request_key_frame=True
    )
    frames = _collect(source, 12)
    _assert_colours(frames, COLORS)
    assert source.header is not None and (source.header.width, source.header.height) == (320, 240)
    assert [f.pts for f in frames[:2]] == [0, 33_333]
    # VideoHandshake.kt wire frame, then PEH's key-frame request after the header
    assert bytes(server.received) == b"AVMH\x01\x0btoken-12345" + b"\x01"


def test_the_jars_header_flags_and_token_rules() -> None:
    head = parse_packet_header(
        vw.jar_packet(b"x" * 99, 1234, config=True, key=True, replayed=True)[:12]
    )
    assert (head.config, head.key, head.replayed, head.pts, head.size) == (
        True,
        True,
        True,
        1234,
        99,
    )
    # bit 60 is PTS in the jar's layout (PTS_MASK is bits 0-60)
    assert parse_packet_header(struct.pack(">QI", 1 << 60, 0)).pts == 1 << 60
    with pytest.raises(ValueError, match="SAFE_TOKEN"):
        handshake("short")
    with pytest.raises(ValueError, match="SAFE_TOKEN"):
        handshake("bad token with spaces")  # VideoSessionLease.kt `SAFE_TOKEN`: [A-Za-z0-9-]{8,80}


# ---- the relay -----------------------------------------------------------------------------------


def test_relay_heartbeats_and_dropped_frame_counts_never_reach_the_decoder(
    serve: Callable[..., StreamServer],
) -> None:
    """An empty packet would end PyAV's decoding for good (docs/research/ctrlproxy-protocol.md
    3.2): every frame after the heartbeats must still decode."""
    writes = vw.relay_stream(_units(), heartbeat_every=1, dropped_after={5: 3}, rotation=1)
    server = serve(writes)
    source = FramedStreamSource(tcp_connector("127.0.0.1", server.port), relay=True)
    frames = _collect(source, 12)
    _assert_colours(frames, COLORS)
    assert source.heartbeats >= 11 and source.dropped_frames == 3
    assert source.rotation == 1


def test_relay_flags_are_read_in_the_relays_own_layout() -> None:
    config = parse_relay_packet_header(
        vw.relay_packet(vw.relay_pts_and_flags(99, config=True, rotation=3), b"x")[:12]
    )
    assert (config.config, config.rotation, config.pts, config.media) == (True, 3, 99, True)
    beat = parse_relay_packet_header(vw.relay_heartbeat())
    assert beat.heartbeat and not beat.media and beat.dropped_frames is None
    dropped = parse_relay_packet_header(vw.relay_dropped(41))
    assert dropped.dropped_frames == 41 and not dropped.heartbeat and not dropped.media
    # bit 59 is not PTS in the relay's layout (PTS_MASK is bits 0-58)
    media_packet = parse_relay_packet_header(struct.pack(">QI", (1 << 59) | 7, 5))
    assert media_packet.pts == 7 and media_packet.media


def test_a_still_screen_delivers_its_last_frame_without_waiting_for_another(
    serve: Callable[..., StreamServer],
) -> None:
    """Three frames, then silence (a still screen): all three are shown, the last after a short
    quiet gap instead of never."""
    units = media.encode_h264(
        [media.solid(64, 64, c) for c in (media.RED, media.GREEN, media.BLUE)]
    )
    server = serve(vw.relay_stream(units))
    source = FramedStreamSource(tcp_connector("127.0.0.1", server.port), relay=True)
    frames = _collect(source, 3)
    _assert_colours(frames, [media.RED, media.GREEN, media.BLUE])


# ---- raw Annex-B (screenrecord) -------------------------------------------------------------


@pytest.mark.parametrize("chunk", [1, 7, 13, 777, 1 << 20])
def test_the_splitter_cuts_whole_access_units_however_the_bytes_arrive(chunk: int) -> None:
    units = _units(64, 64)
    data = b"".join(units)
    splitter = AccessUnitSplitter()
    cut: list[bytes] = []
    for i in range(0, len(data), chunk):
        cut += [u for u, _ in splitter.feed(data[i : i + chunk], time.perf_counter())]
    # every unit but the last is known complete when the next one starts; the last on the flush
    assert cut == units[:-1]
    last = splitter.flush()
    assert last is not None and last[0] == units[-1]
    decoder = H264Decoder()
    frames = [f for u in [*cut, last[0]] for f in decoder.feed_packet(u, 0.0)]
    _assert_colours(frames, COLORS)


def test_multi_slice_frames_decode_as_whole_frames() -> None:
    """A phone encoder may cut a frame into several slices; a unit holds them all."""
    cc = av.CodecContext.create("libx264", "w")
    cc.width, cc.height, cc.pix_fmt = 128, 128, "yuv420p"
    cc.time_base = Fraction(1, 30)
    cc.options = {"preset": "ultrafast", "tune": "zerolatency", "x264-params": "slices=4"}
    encoded = []  # one access unit per frame, as the encoder cut them
    for i, colour in enumerate(COLORS):
        vf = av.VideoFrame.from_ndarray(media.solid(128, 128, colour), format="rgb24")
        vf = vf.reformat(format="yuv420p")
        vf.pts = i
        encoded.append(b"".join(bytes(p) for p in cc.encode(vf)))
    splitter = AccessUnitSplitter()
    units = [u for u, _ in splitter.feed(b"".join(encoded), 0.0)]
    flushed = splitter.flush()
    assert flushed is not None
    units.append(flushed[0])
    assert units == encoded
    assert min(sum(vw.nal_type(n) in (1, 5) for n in vw.nal_units(u)) for u in units) > 1
    decoder = H264Decoder()
    frames = [f for u in units for f in decoder.feed_packet(u, 0.0)]
    assert len(frames) == 12
    _assert_colours(frames, COLORS)


def test_each_unit_is_timed_by_its_last_byte() -> None:
    units = _units(64, 64)[:3]
    splitter = AccessUnitSplitter()
    splitter.feed(units[0][:10], 1.0)
    splitter.feed(units[0][10:], 2.0)
    (cut,) = splitter.feed(units[1], 3.0)
    assert cut == (units[0], 2.0)  # arrived with the second piece, not when the next unit did
    flushed = splitter.flush()
    assert flushed == (units[1], 3.0)


def test_a_stalled_stream_gives_way_to_the_next_source(serve: Callable[..., StreamServer]) -> None:
    """Nothing at all for the stall timeout (the jar and the relay both send something every
    second): the mirror says so and moves on instead of showing a frozen picture as live."""
    units = media.encode_h264([media.solid(64, 64, media.RED)] * 2)
    server = serve([vw.jar_stream(units, 64, 64)])
    source = FramedStreamSource(tcp_connector("127.0.0.1", server.port), stall_timeout=0.5)
    frames, statuses = media.collect_frames([source], lambda fs: False)  # until it fails
    assert len(frames) == 2
    (failed,) = [s for s in statuses if s.state is MirrorState.FAILED]
    assert "the stream ended: nothing arrived for 0.5 s" in failed.message
