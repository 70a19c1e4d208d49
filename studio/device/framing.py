"""Byte layouts of the H.264 mirror streams: AutoMobile's video-server framing, the AutoMobile
daemon relay's framing (its own flag bits), the video server's client handshake, and splitting a
raw Annex-B byte stream (screenrecord) into whole access units.

Sources (AutoMobile, kaeawc/auto-mobile): `android/video-server/.../VideoStreamProtocol.kt`
(`legacyHeader`, `packetHeader`, `PACKET_FLAG_*`, `PTS_MASK`, `COMMAND_REQUEST_KEY_FRAME`),
`.../VideoHandshake.kt` (`VideoHandshake.read`), `.../VideoSessionLease.kt`
(`VideoSessionArguments.SAFE_TOKEN`), `src/daemon/videoStreamFraming.ts` (the relay's bits). The
access-unit rule is H.264's (ITU-T H.264 7.4.1.2.3, "Order of NAL units and coded pictures").
"""

from __future__ import annotations

import collections
import re
import struct
from dataclasses import dataclass

H264_CODEC_ID = 0x68323634  # "h264"

# The device-side jar's packet flags (VideoStreamProtocol.kt `PACKET_FLAG_*`, `PTS_MASK`).
FLAG_CONFIG = 1 << 63
FLAG_KEY = 1 << 62
FLAG_REPLAYED = 1 << 61
PTS_MASK = (1 << 61) - 1
#: Host -> device: ask the encoder for an IDR (VideoStreamProtocol.kt `COMMAND_REQUEST_KEY_FRAME`).
COMMAND_REQUEST_KEY_FRAME = b"\x01"

# The daemon relay's flags (videoStreamFraming.ts): bit 61 is ROTATION_PRESENT there (rotation in
# bits 60-59 of a config packet), bit 60 on an empty non-config packet a heartbeat, bit 59 on an
# empty packet a dropped-frame count (low 59 bits); the PTS is bits 0-58.
RELAY_FLAG_ROTATION_PRESENT = 1 << 61
RELAY_FLAG_HEARTBEAT = 1 << 60
RELAY_FLAG_DROPPED_FRAMES = 1 << 59
RELAY_ROTATION_SHIFT = 59
RELAY_PTS_MASK = (1 << 59) - 1

#: The session token's characters (VideoSessionLease.kt `VideoSessionArguments.SAFE_TOKEN`).
SAFE_TOKEN = re.compile(r"[A-Za-z0-9-]{8,80}")
HANDSHAKE_MAGIC = b"AVMH"  # VideoHandshake.kt `MAGIC`
HANDSHAKE_VERSION = 1  # VideoHandshake.kt `PROTOCOL_VERSION`


@dataclass(frozen=True)
class StreamHeader:
    codec_id: int
    width: int
    height: int


def parse_stream_header(data: bytes) -> StreamHeader:
    """The 12-byte stream header: codec id, width, height (big-endian u32; `legacyHeader`). The
    relay may send width and height 0 (the true size is in the SPS)."""
    codec_id, width, height = struct.unpack(">III", data)
    if codec_id != H264_CODEC_ID:
        raise ValueError(f"video stream codec 0x{codec_id:08x} is not h264")
    return StreamHeader(codec_id, width, height)


@dataclass(frozen=True)
class PacketHeader:
    """One packet's header, read in the jar's or the relay's layout."""

    pts: int
    config: bool
    key: bool
    size: int
    replayed: bool = False  # jar: a cached packet replayed to a new client
    heartbeat: bool = False  # relay: an empty keep-alive packet
    dropped_frames: int | None = None  # relay: the source encoder's cumulative drops
    rotation: int | None = None  # relay: the display rotation (0..3) a config packet attests

    @property
    def media(self) -> bool:
        """False for the relay's telemetry packets, which never reach the decoder."""
        return self.size > 0


def parse_packet_header(data: bytes) -> PacketHeader:
    """The jar's 12-byte header: u64 pts_and_flags (63 config, 62 key, 61 replayed, PTS 0-60)
    and u32 size (VideoStreamProtocol.kt `packetHeader`, `ptsAndFlags`)."""
    flags, size = struct.unpack(">QI", data)
    return PacketHeader(
        flags & PTS_MASK,
        bool(flags & FLAG_CONFIG),
        bool(flags & FLAG_KEY),
        size,
        replayed=bool(flags & FLAG_REPLAYED),
    )


def parse_relay_packet_header(data: bytes) -> PacketHeader:
    """The relay's 12-byte header (videoStreamFraming.ts `encodePtsAndFlags`, `encodeHeartbeat`,
    `encodeDroppedFrames`): the same fields, other meanings for bits 61-59."""
    flags, size = struct.unpack(">QI", data)
    config = bool(flags & FLAG_CONFIG)
    rotation = None
    if config and flags & RELAY_FLAG_ROTATION_PRESENT:
        rotation = (flags >> RELAY_ROTATION_SHIFT) & 0b11
    heartbeat = size == 0 and not config and bool(flags & RELAY_FLAG_HEARTBEAT)
    dropped = None
    if size == 0 and not config and not heartbeat and flags & RELAY_FLAG_DROPPED_FRAMES:
        dropped = flags & RELAY_PTS_MASK
    return PacketHeader(
        flags & RELAY_PTS_MASK,
        config,
        bool(flags & FLAG_KEY),
        size,
        heartbeat=heartbeat,
        dropped_frames=dropped,
        rotation=rotation,
    )


def handshake(token: str) -> bytes:
    """The client hello of AutoMobile's video server (VideoHandshake.kt wire frame): "AVMH",
    version 1, the token's length, the token, whose characters must match `SAFE_TOKEN`."""
    if not SAFE_TOKEN.fullmatch(token):
        raise ValueError(
            "video session token must be 8..80 characters of A-Z, a-z, 0-9 and '-' "
            "(AutoMobile's SAFE_TOKEN)"
        )
    raw = token.encode("ascii")
    return HANDSHAKE_MAGIC + bytes([HANDSHAKE_VERSION, len(raw)]) + raw


# ---- Annex-B access units (screenrecord) --------------------------------------------------------

_START = b"\x00\x00\x01"
_VCL = frozenset({1, 5})  # coded slices (non-IDR, IDR)
_OPENS_AU = frozenset({6, 7, 8, 9, 14, 15, 16, 17, 18})  # SEI, SPS, PPS, AUD, prefix/reserved


class AccessUnitSplitter:
    """Cuts a raw H.264 byte stream into whole access units, as soon as each one can be known
    complete: when the next one starts (H.264 7.4.1.2.3: an SEI, SPS, PPS or AUD, or a slice whose
    first_mb_in_slice is 0, after a slice), or on `flush()` when the stream has gone quiet.

    Real screenrecord writes each encoder buffer (one frame) with one write and then nothing while
    the screen is still, so waiting for the next unit would hold a still screen's last frame back
    for good; the source flushes after a short quiet gap instead. Each unit is timed by when its
    last byte arrived."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._scan = 0  # where the next start-code search resumes
        self._nal = -1  # offset of the newest NAL's start code in _buf, -1 before the first
        self._has_vcl = False  # the pending unit has a slice
        self._consumed = 0  # stream offset of _buf[0]
        # (stream offset a chunk ends at, when it arrived): times units by their last byte
        self._chunks: collections.deque[tuple[int, float]] = collections.deque()

    @property
    def pending(self) -> int:
        return len(self._buf)

    def feed(self, data: bytes, received_at: float) -> list[tuple[bytes, float]]:
        """Append bytes; return the access units completed by them, with their arrival times."""
        if not data:
            return []
        self._buf += data
        self._chunks.append((self._consumed + len(self._buf), received_at))
        units: list[tuple[bytes, float]] = []
        buf = self._buf
        while True:
            at = buf.find(_START, self._scan)
            if at < 0 or at + 4 > len(buf):  # no start code, or no NAL header byte yet
                self._scan = max(self._scan, len(buf) - 3)
                break
            header = buf[at + 3]
            nal_type = header & 0x1F
            if nal_type in _VCL and at + 5 > len(buf):
                self._scan = at  # wait for the slice header's first byte
                break
            start = at - 1 if at > 0 and buf[at - 1] == 0 else at  # 4-byte start code
            opens = nal_type in _OPENS_AU or (nal_type in _VCL and buf[at + 4] & 0x80)
            if opens and self._has_vcl and self._nal >= 0:
                units.append(self._cut(start))
                buf = self._buf
                at -= start
                start = 0
            if nal_type in _VCL:
                self._has_vcl = True
            self._nal = start
            self._scan = at + 3
        return units

    def flush(self) -> tuple[bytes, float] | None:
        """Everything pending as one unit, when it holds a slice (the stream went quiet)."""
        if not self._has_vcl or not self._buf:
            return None
        return self._cut(len(self._buf))

    def _cut(self, end: int) -> tuple[bytes, float]:
        unit = bytes(self._buf[:end])
        last_byte = self._consumed + end
        while len(self._chunks) > 1 and self._chunks[0][0] < last_byte:
            self._chunks.popleft()
        arrived = self._chunks[0][1]
        del self._buf[:end]
        self._consumed += end
        self._scan = 0
        self._nal = -1
        self._has_vcl = False
        return unit, arrived
