"""Writers of AutoMobile's two framed H.264 layouts, for tests: the device-side video-server jar's
and the daemon relay's. Each rule follows the AutoMobile source (kaeawc/auto-mobile) named next to
it; the H.264 itself is real (libx264 from tests/device/media.py)."""

from __future__ import annotations

import struct

H264 = 0x68323634  # VideoStreamProtocol.kt `CODEC_ID_H264`


def nal_units(data: bytes) -> list[bytes]:
    """The NAL units of an Annex-B byte stream, each with its start code."""
    starts = []
    i = data.find(b"\x00\x00\x01")
    while i != -1:
        starts.append(i - 1 if i > 0 and data[i - 1] == 0 else i)
        i = data.find(b"\x00\x00\x01", i + 3)
    return [data[a:b] for a, b in zip(starts, [*starts[1:], len(data)], strict=True)]


def nal_type(nal: bytes) -> int:
    at = nal.find(b"\x00\x00\x01")
    return nal[at + 3] & 0x1F


def split_config(access_unit: bytes) -> tuple[bytes, bytes]:
    """(SPS + PPS, the rest): MediaCodec emits the parameter sets as their own buffer flagged
    BUFFER_FLAG_CODEC_CONFIG, which the jar marks as a config packet (VideoStreamWriter.kt
    `writePacket`)."""
    config = b"".join(n for n in nal_units(access_unit) if nal_type(n) in (7, 8))
    rest = b"".join(n for n in nal_units(access_unit) if nal_type(n) not in (7, 8))
    return config, rest


# ---- the jar: VideoStreamProtocol.kt --------------------------------------------------------------

JAR_CONFIG, JAR_KEY, JAR_REPLAYED = 1 << 63, 1 << 62, 1 << 61  # `PACKET_FLAG_*`
JAR_PTS_MASK = (1 << 61) - 1  # `PTS_MASK`


def jar_header(width: int, height: int) -> bytes:
    return struct.pack(">III", H264, width, height)  # `legacyHeader`


def jar_packet(
    data: bytes, pts_us: int, *, config: bool = False, key: bool = False, replayed: bool = False
) -> bytes:
    """`ptsAndFlags` (+ `replayed`), then `packetHeader` without audio: u64, u32 size, payload."""
    flags = pts_us & JAR_PTS_MASK
    flags |= (JAR_CONFIG if config else 0) | (JAR_KEY if key else 0)
    flags |= JAR_REPLAYED if replayed else 0
    return struct.pack(">QI", flags, len(data)) + data


def jar_stream(access_units: list[bytes], width: int, height: int) -> bytes:
    """What a client reads: the header, the first unit's parameter sets as a config packet, then
    one packet per encoder buffer (a whole access unit), key-flagged when it holds an IDR."""
    out = jar_header(width, height)
    for i, unit in enumerate(access_units):
        config, rest = split_config(unit)
        if config:
            out += jar_packet(config, 0, config=True)
        key = any(nal_type(n) == 5 for n in nal_units(rest))
        out += jar_packet(rest, i * 33_333, key=key)
    return out


# ---- the relay: src/daemon/videoStreamFraming.ts ---------------------------------------------------

RELAY_CONFIG, RELAY_KEY = 1 << 63, 1 << 62  # `PACKET_FLAG_CONFIG`, `PACKET_FLAG_KEY_FRAME`
RELAY_ROTATION_PRESENT = 1 << 61  # `PACKET_FLAG_ROTATION_PRESENT`
RELAY_HEARTBEAT = 1 << 60  # `PACKET_FLAG_HEARTBEAT`
RELAY_DROPPED = 1 << 59  # `PACKET_FLAG_DROPPED_FRAMES`
RELAY_PTS_MASK = (1 << 59) - 1  # `PTS_MASK`, bits 0-58


def relay_pts_and_flags(
    pts_us: int, *, config: bool = False, key: bool = False, rotation: int | None = None
) -> int:
    """`encodePtsAndFlags`: rotation is attested only on a config packet."""
    flags = pts_us & RELAY_PTS_MASK
    if config:
        flags |= RELAY_CONFIG
        if rotation is not None:
            flags |= RELAY_ROTATION_PRESENT | ((rotation & 0b11) << 59)
    if key:
        flags |= RELAY_KEY
    return flags


def relay_packet(flags: int, payload: bytes) -> bytes:
    return struct.pack(">QI", flags, len(payload)) + payload  # `encodePacket`


def relay_heartbeat() -> bytes:
    return relay_packet(RELAY_HEARTBEAT, b"")  # `encodeHeartbeat`


def relay_dropped(count: int) -> bytes:
    return relay_packet(RELAY_DROPPED | (count & RELAY_PTS_MASK), b"")  # `encodeDroppedFrames`


def relay_stream(
    access_units: list[bytes],
    *,
    width: int = 0,
    height: int = 0,
    rotation: int | None = None,
    heartbeat_every: int = 0,
    dropped_after: dict[int, int] | None = None,
) -> list[bytes]:
    """The relay's writes: the 12-byte header (`encodeStreamHeader`; width and height may be 0),
    then one packet per NAL unit (videoStreamSocketServer.ts `broadcastNal`), flagged config for
    SPS/PPS and key for IDR (`isParameterSetChunk`, `isKeyFrameChunk`), with heartbeats every
    `heartbeat_every` units and dropped-frame counts where `dropped_after` says."""
    writes = [struct.pack(">III", H264, width, height)]
    for i, unit in enumerate(access_units):
        for nal in nal_units(unit):
            kind = nal_type(nal)
            flags = relay_pts_and_flags(
                i * 33_333, config=kind in (7, 8), key=kind == 5, rotation=rotation
            )
            writes.append(relay_packet(flags, nal))
        if heartbeat_every and i % heartbeat_every == 0:
            writes.append(relay_heartbeat())
        if dropped_after and i in dropped_after:
            writes.append(relay_dropped(dropped_after[i]))
    return writes
