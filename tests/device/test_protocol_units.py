"""Capability gates, state merging, AutoMobile's video framing over TCP, view-to-device mapping,
and CtrlProxy request timeouts against a real local WebSocket server."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from websockets.asyncio.server import ServerConnection, serve

from studio.device import capabilities as caps
from studio.device.ctrlproxy import CtrlProxyClient, CtrlProxyError, merge_device_state
from studio.device.mirror import (
    FLAG_CONFIG,
    FLAG_KEY,
    H264_CODEC_ID,
    Frame,
    FramedStreamSource,
    Mirror,
    MirrorState,
    Viewport,
    fit,
    handshake,
    parse_packet_header,
    tcp_connector,
)
from tests.device import media

BASE: dict[str, Any] = {
    "id": "p",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {"type": "text", "text": "x"},
}


def test_plain_spec_needs_only_show() -> None:
    assert caps.refusals(BASE, {"show_prototype"}) == []
    assert caps.refusals(BASE, set()) == [
        "this device's CtrlProxy has no prototype support (no show_prototype); update the AutoMobile CtrlProxy APK"
    ]


@pytest.mark.parametrize(
    ("extra", "options", "capability", "where"),
    [
        ({"theme": {"mode": "dark"}}, {}, caps.THEME_MODES, "theme.mode"),
        (
            {"theme": {"colors": {"dark": {"primary": "#FF0000"}}}},
            {},
            caps.THEME_MODES,
            "theme.colors.dark",
        ),
        (
            {
                "root": {
                    "type": "text",
                    "text": "x",
                    "style": {"color": {"light": "#000000", "dark": "#FFFFFF"}},
                }
            },
            {},
            caps.THEME_MODES,
            "root.style.color",
        ),
        (
            {"window": {"placement": {"type": "fullscreen"}, "layer": "app"}},
            {},
            caps.WINDOW_OPTIONS,
            'window.layer "app"',
        ),
        (
            {"window": {"placement": {"type": "fullscreen"}, "persistence": "device"}},
            {},
            caps.WINDOW_OPTIONS,
            "persistence",
        ),
        ({}, {"appearance": "dark"}, caps.APPEARANCE, "appearance dark"),
        ({}, {"assets": True}, caps.PUT_ASSET, "uploading assets"),
        (
            {"requires": {"platform": ["units"]}},
            {},
            "prototype_platform_units_v1",
            "requires.platform[0]",
        ),
        (
            {
                "root": {
                    "type": "button",
                    "label": "go",
                    "onTap": [{"type": "platform", "call": "clipboard.copy"}],
                }
            },
            {},
            "prototype_platform_clipboard_v1",
            "root.onTap[0]",
        ),
    ],
)
def test_each_gate_names_the_place_and_the_capability(
    extra: dict[str, Any], options: dict[str, Any], capability: str, where: str
) -> None:
    spec = {**BASE, **extra}
    reasons = caps.refusals(spec, {"show_prototype"}, **options)
    assert len(reasons) == 1 and capability in reasons[0] and where in reasons[0]
    assert caps.refusals(spec, {"show_prototype", capability}, **options) == []


def test_data_extension_needs_a_platform_capable_device() -> None:
    spec = {**BASE, "data": {"items": []}}
    assert "data" in caps.refusals(spec, {"show_prototype"})[0]
    assert caps.refusals(spec, {"show_prototype", "prototype_platform_units_v1"}) == []


def test_merge_keeps_device_values_for_declared_keys_of_the_same_type() -> None:
    spec = {**BASE, "state": {"liked": False, "name": "", "count": 1, "mode": "a"}}
    device = {"liked": True, "name": "Ann", "count": 7.5, "mode": 3, "gone": "x"}
    merged = merge_device_state(spec, device)
    assert merged["state"] == {"liked": True, "name": "Ann", "count": 7.5, "mode": "a"}
    assert spec["state"]["liked"] is False  # the editor's spec is not touched


# ---- AutoMobile video framing over a real TCP socket --------------------------------------------


def _framed_stream(packets: list[bytes], width: int, height: int) -> bytes:
    out = struct.pack(">III", H264_CODEC_ID, width, height)
    for i, pkt in enumerate(packets):
        flags = FLAG_KEY if i == 0 else 0
        sps_end = pkt.find(b"\x00\x00\x00\x01", 4)
        if i == 0 and sps_end > 0:  # send SPS/PPS as a config packet, as MediaCodec does
            cfg_end = (
                pkt.find(b"\x00\x00\x00\x01\x65") if b"\x00\x00\x00\x01\x65" in pkt else len(pkt)
            )
            out += struct.pack(">QI", FLAG_CONFIG, cfg_end) + pkt[:cfg_end]
            pkt = pkt[cfg_end:]
        out += struct.pack(">QI", flags | (i * 33333), len(pkt)) + pkt
    return out


@pytest.fixture
def video_server() -> Iterator[tuple[int, list[bytes]]]:
    """A TCP server playing AutoMobile's video server: checks the hello, sends the stream in 777-byte
    chunks, then stays open (adb streams have no half-close)."""
    colors = [media.RED, media.GREEN, media.BLUE]
    packets = media.encode_h264([media.solid(320, 240, c) for c in colors for _ in range(4)])
    stream = _framed_stream(packets, 320, 240)
    hellos: list[bytes] = []
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    done = threading.Event()

    def serve_once() -> None:
        conn, _ = srv.accept()
        hellos.append(conn.recv(64))
        for i in range(0, len(stream), 777):
            conn.sendall(stream[i : i + 777])
        done.wait(10)
        conn.close()

    t = threading.Thread(target=serve_once, daemon=True)
    t.start()
    yield srv.getsockname()[1], hellos
    done.set()
    t.join(5)
    srv.close()


def test_framed_stream_decodes_every_frame(video_server: tuple[int, list[bytes]]) -> None:
    port, hellos = video_server
    source = FramedStreamSource(tcp_connector("127.0.0.1", port, handshake("token-12345")))
    frames: list[Frame] = []
    got = threading.Event()

    def on_frame(f: Frame) -> None:
        frames.append(f)
        if len(frames) == 12:
            got.set()

    mirror = Mirror([source], on_frame)
    mirror.start()
    try:
        assert got.wait(10), f"{len(frames)} frames, {mirror.status}"
        assert mirror.status.state is MirrorState.STREAMING
    finally:
        mirror.stop()
    assert hellos == [b"AVMH\x01\x0btoken-12345"]
    assert source.header is not None and (source.header.width, source.header.height) == (320, 240)
    means = [f.image.reshape(-1, 3).mean(axis=0) for f in frames]
    for i, color in enumerate([media.RED] * 4 + [media.GREEN] * 4 + [media.BLUE] * 4):
        assert np.abs(means[i] - color).max() < 12, (i, means[i])
    assert [f.pts for f in frames[:2]] == [0, 33333]


def test_packet_header_flags() -> None:
    head = parse_packet_header(struct.pack(">QI", FLAG_CONFIG | FLAG_KEY | 1234, 99))
    assert (head.config, head.key, head.replayed, head.pts, head.size) == (
        True,
        True,
        False,
        1234,
        99,
    )
    with pytest.raises(ValueError, match="8..80"):
        handshake("short")


# ---- input mapping --------------------------------------------------------------------------------


def test_view_points_map_to_device_pixels_inside_the_letterboxed_frame() -> None:
    x, y, w, h = fit(800, 800, 1080, 2400)  # a tall phone in a square view: bars left and right
    assert (round(x), y, round(w), h) == (220, 0, 360, 800)
    vp = Viewport(x, y, w, h, 1080, 2400)
    assert vp.to_device(x + w / 2, h / 2) == (540, 1200)
    assert vp.to_device(x, 0) == (0, 0)
    assert vp.to_device(x + w, h) == (1079, 2399)
    assert vp.to_device(10, 400) is None  # on the bar, not the phone


# ---- CtrlProxy client against a real local WebSocket server ---------------------------------------


def test_request_timeout_and_connection_loss_are_one_line_errors() -> None:
    async def scenario() -> list[str]:
        async def handler(ws: ServerConnection) -> None:
            await ws.send(
                json.dumps({"type": "connected", "id": 1, "supportedCommands": ["show_prototype"]})
            )
            async for raw in ws:
                if json.loads(raw)["type"] == "dismiss_prototype":
                    await ws.close()

        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            client = CtrlProxyClient(f"ws://127.0.0.1:{port}/ws")
            await client.connect()
            errors = []
            try:
                await client.request({"type": "show_prototype", "spec": BASE}, limit_s=0.2)
            except CtrlProxyError as exc:
                errors.append(str(exc))
            try:
                await client.dismiss("p")
            except CtrlProxyError as exc:
                errors.append(str(exc))
            await client.close()
            return errors

    errors = asyncio.run(asyncio.wait_for(scenario(), 10))
    assert errors[0] == "show_prototype: no reply from CtrlProxy within 0.2 s"
    assert errors[1].startswith("CtrlProxy")
    assert all("\n" not in e for e in errors)
