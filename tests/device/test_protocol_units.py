"""Capability gates, state merging, view-to-device mapping, and CtrlProxy request timeouts against
a real local WebSocket server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from studio.device import capabilities as caps
from studio.device.ctrlproxy import CtrlProxyClient, CtrlProxyError, merge_device_state
from studio.device.gestures import Viewport, fit, oriented

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


def test_an_anchor_below_a_floating_root_is_refused_whatever_the_device_assertAnchorsShowable(  # noqa: N802
) -> None:
    # AutoMobile's host refuses it before sending (prototypeTools.ts `assertAnchorsShowable`,
    # prototypeAnchors.ts `prototypeAnchorPlacementError`), even to a device that takes anchors.
    anchor = {"type": "bounds", "bounds": {"x": 0, "y": 0, "width": 1, "height": 1}}
    floating = {"placement": {"type": "floating", "gravity": "center", "offset": {"x": 0, "y": 0}}}
    nested = {"type": "column", "children": [{"type": "box", "children": [], "anchor": anchor}]}
    full = {"show_prototype", "prototype_anchor_v1"}
    reasons = caps.refusals({**BASE, "window": floating, "root": nested}, full)
    assert reasons == [
        "root.children[0].anchor: a floating window can anchor only its root (the window moves "
        "onto it), so the phone shows nothing; anchor the root, or use a fullscreen or sheet "
        "placement"
    ]
    root = {"type": "box", "children": [], "anchor": anchor}
    assert caps.refusals({**BASE, "window": floating, "root": root}, full) == []
    assert caps.refusals({**BASE, "root": nested}, full) == []


def _gradient(color: object) -> dict[str, Any]:
    stops = [{"color": "#000000"}, {"color": color}]
    return {"root": {"type": "box", "style": {"gradient": {"type": "linear", "stops": stops}}}}


@pytest.mark.parametrize(
    ("extra", "where"),
    [  # prototypeThemeModes.ts `prototypeThemeModeFields`, field by field
        (_gradient("primary"), "root.style.gradient.stops[1].color"),
        (_gradient({"light": "#000000", "dark": "#FFFFFF"}), "root.style.gradient.stops[1].color"),
        (
            {
                "root": {
                    "type": "bottomSheet",
                    "scrim": "scrim",
                    "child": {"type": "text", "text": "x"},
                }
            },
            "root.scrim",
        ),
        (
            {
                "window": {
                    "placement": {
                        "type": "fullscreen",
                        "scrim": {"light": "#000000", "dark": "#111111"},
                    }
                }
            },
            "window.placement.scrim",
        ),
        ({"root": {"type": "image", "asset": {"light": "a", "dark": "b"}}}, "root.asset"),
        (
            {
                "root": {
                    "type": "column",
                    "children": [
                        {
                            "type": "text",
                            "text": "x",
                            "styleWhen": [
                                {"style": {"background": {"light": "#000000", "dark": "#FFFFFF"}}}
                            ],
                        }
                    ],
                }
            },
            "root.children[0].styleWhen[0].style.background",
        ),
    ],
)
def test_theme_mode_forms_are_gated_where_automobile_gates_them(
    extra: dict[str, Any], where: str
) -> None:
    reasons = caps.refusals({**BASE, **extra}, {"show_prototype"})
    assert reasons == [f"{where}: needs {caps.THEME_MODES}, which this device's CtrlProxy lacks"]


def test_no_theme_mode_gate_for_theme_mode_alone_or_hex_stops() -> None:
    for extra in ({"theme": {"mode": "dark"}}, _gradient("#FF0000")):
        assert caps.refusals({**BASE, **extra}, {"show_prototype"}) == []


def test_inspect_is_gated_on_persistence_replay() -> None:
    assert not caps.can_inspect({"inspect_prototypes"})
    assert caps.can_inspect({"inspect_prototypes", "prototype_persistence_replay_v1"})


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


def test_the_device_size_follows_the_frames_orientation() -> None:
    assert oriented((1080, 2400), (360, 800)) == (1080, 2400)  # portrait frame: as is
    assert oriented((1080, 2400), (800, 360)) == (2400, 1080)  # landscape: turned
    assert oriented((2560, 1600), (1280, 800)) == (2560, 1600)  # a landscape tablet, unturned
    assert oriented((1080, 2400), (500, 500)) == (1080, 2400)  # square: cannot tell, as is
