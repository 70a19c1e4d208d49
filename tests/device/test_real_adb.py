"""The device path over a real adb server and Debian's adbd (no phone): listing, CtrlProxy showing,
events and in-place re-show, and H.264 mirroring of known frames."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Callable
from typing import Any

import pytest

from studio.device.adb import CTRLPROXY_PACKAGE, CTRLPROXY_SERVICE, DeviceState
from studio.device.ctrlproxy import Asset, DeviceShow, ShowRefused
from studio.device.decoder import Frame
from studio.device.gestures import DeviceInput
from studio.device.mirror import MirrorState, default_sources
from studio.device.sources import ScreencapSource, ScreenrecordSource
from tests.device import media
from tests.device.conftest import Phone, StandIn

#: A title over a Like button: on the stand-in's 360x800 screen the column gives each half the
#: height, so a tap at (180, 600) lands on the button (the only node with actions).
SPEC: dict[str, Any] = {
    "id": "likes",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"liked": False, "count": 3},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {
                "type": "button",
                "id": "like",
                "label": "Like",
                "onTap": [{"type": "toggle", "key": "liked"}],
            },
        ],
    },
}
ON_BUTTON, ON_TITLE = (180, 600), (180, 200)
#: Two pages; a horizontal swipe across the screen moves the pager.
PAGER: dict[str, Any] = {
    "id": "pages",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {},
    "root": {
        "type": "pager",
        "id": "p",
        "children": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
    },
}


def _shown(phone: Phone) -> list[dict[str, Any]]:
    return phone.log("ctrlproxy.log")


def test_lists_the_phone_and_its_ctrlproxy_state(fresh_phone: Phone) -> None:
    async def states() -> list[Any]:
        adb = fresh_phone.adb
        ready = await adb.probe(fresh_phone.serial)
        fresh_phone.sh("settings put secure enabled_accessibility_services null")
        disabled = await adb.probe(fresh_phone.serial)
        enabled = await adb.enable_ctrlproxy(fresh_phone.serial)  # the guided fix, through adb
        fresh_phone.sh(f"rm {fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}")
        missing = await adb.probe(fresh_phone.serial)
        listed = await adb.list_devices()
        return [ready, disabled, enabled, missing, listed]

    ready, disabled, enabled, missing, listed = asyncio.run(states())
    assert ready.state is DeviceState.READY  # the long form Settings writes (point 1)
    assert not ready.emulator
    assert (ready.model, ready.android_version, ready.sdk) == ("Stand-in Pixel", "14", 34)
    assert ready.screen_size == (360, 800) and ready.density == 320
    assert disabled.state is DeviceState.CTRLPROXY_NOT_ENABLED
    assert "settings put secure accessibility_enabled 1" in disabled.detail
    assert enabled.state is DeviceState.READY
    assert missing.state is DeviceState.CTRLPROXY_MISSING
    # enabled through adb: the long form, once, whatever was there (CtrlProxyManager.ts)
    stored = fresh_phone.sh("settings get secure enabled_accessibility_services").strip()
    assert stored == CTRLPROXY_SERVICE
    assert [i.serial for i in listed] == [fresh_phone.serial]


def test_show_tap_event_edit_reshow_with_merged_state_and_dismiss(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy()
    events: list[dict[str, Any]] = []
    got_event = asyncio.Event()

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        def on_event(ev: dict[str, Any]) -> None:
            events.append(ev)
            got_event.set()

        show = DeviceShow(fresh_phone.adb, fresh_phone.serial, on_event)
        try:
            await show.open()
            assert "prototype_show_in_place_v1" in show.supported
            reply = await show.show(SPEC)
            assert reply["success"] is True
            taps = DeviceInput(fresh_phone.adb, fresh_phone.serial)
            await taps.tap(*ON_TITLE)  # a tap on text: no node with actions, no event
            await taps.tap(*ON_BUTTON)  # the user taps Like on the phone
            await asyncio.wait_for(got_event.wait(), 5)
            edited = json.loads(json.dumps(SPEC))
            edited["root"]["children"][0]["text"] = "Hello again"
            edited["state"]["count"] = 10
            await show.apply_edit(edited)
            inspected = await show.client.inspect() if show.client else []
            return reply, inspected
        finally:
            await show.close()

    _, inspected = asyncio.run(asyncio.wait_for(scenario(), 20))
    # one event, although the device replayed it on inspect (de-duplicated by (id, sequence))
    assert [(e["id"], e["name"], e["payload"]) for e in events] == [
        ("likes", "change", {"key": "liked", "value": True}),
        ("likes", None, {"reason": "agent"}),  # the dismiss on close, reported by the device
    ]
    log = _shown(fresh_phone)
    shown = [e["shown"] for e in log if "shown" in e]
    assert len(shown) == 2
    assert shown[1]["root"]["children"][0]["text"] == "Hello again"
    # what the user changed on the phone survived the edit; the edit's own change won elsewhere
    assert shown[1]["state"] == {"liked": True, "count": 3}
    assert inspected[0]["state"] == {"liked": True, "count": 3}
    assert {"dismissed": "likes", "reason": "agent"} in log  # dismissed on close


def test_extension_spec_is_refused_with_the_reason(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy(without=("prototype_theme_modes_v1",))
    spec = {
        **SPEC,
        "requires": {"platform": ["units"]},
        "theme": {"mode": "dark", "colors": {"dark": {"primary": "#FF0000"}}},
    }

    async def scenario() -> None:
        show = DeviceShow(fresh_phone.adb, fresh_phone.serial)
        try:
            await show.show(spec)
        finally:
            await show.close()

    with pytest.raises(ShowRefused) as err:
        asyncio.run(scenario())
    assert any("prototype_platform_units_v1" in r for r in err.value.reasons)
    assert any(
        r.startswith("theme.colors.dark:") and "prototype_theme_modes_v1" in r
        for r in err.value.reasons
    )
    assert not any("theme.mode" in r for r in err.value.reasons)  # no gate for the mode alone
    assert not any("shown" in e for e in _shown(fresh_phone))  # nothing reached the device


def test_mirror_decodes_the_known_frames_from_screenrecord(fresh_phone: Phone) -> None:
    want = [media.RED, media.GREEN, media.BLUE]

    def saw_all(frames: list[Frame]) -> bool:
        return media.near(media.mean_color(frames[-1]), media.BLUE)

    frames, statuses = media.collect_frames(
        default_sources(fresh_phone.adb, fresh_phone.serial), saw_all
    )
    means = [media.mean_color(f) for f in frames]
    for color in want:
        assert any(media.near(m, color) for m in means), f"no {color} frame among {len(frames)}"
    assert (frames[0].width, frames[0].height) == (360, 800) and frames[0].stride >= 4 * 360
    streaming = [s for s in statuses if s.state is MirrorState.STREAMING]
    assert streaming and streaming[-1].mode == "h264 (screenrecord)" and not streaming[-1].fallback
    assert all(f.latency_ms >= 0 for f in frames) and streaming[-1].latency_ms > 0
    assert "--output-format=h264" in fresh_phone.read("screenrecord.log")


def test_screenrecord_is_restarted_in_segments(fresh_phone: Phone) -> None:
    source = ScreenrecordSource(fresh_phone.adb, fresh_phone.serial, segment_s=0.5)
    frames, _ = media.collect_frames([source], lambda fs: source.segments >= 2 and len(fs) >= 20)
    assert source.segments >= 2
    assert len(fresh_phone.read("screenrecord.log").splitlines()) >= 2
    assert media.near(media.mean_color(frames[0]), media.RED)


def test_a_still_screen_shows_its_last_frame(fresh_phone: Phone) -> None:
    """screenrecord writes nothing while the screen is still: the clip's last frame (blue, the
    30th) is shown anyway, and the mirror keeps streaming instead of declaring the source dead."""
    source = ScreenrecordSource(fresh_phone.adb, fresh_phone.serial, first_frame_timeout=3.0)
    frames, statuses = media.collect_frames([source], lambda fs: len(fs) >= 30)
    assert len(frames) == 30 and media.near(media.mean_color(frames[-1]), media.BLUE)
    assert MirrorState.FAILED not in {s.state for s in statuses} and source.segments == 1


def test_screenrecord_is_started_again_when_it_exits_at_its_time_limit(fresh_phone: Phone) -> None:
    fresh_phone.set_prop("screenrecord.limit", "1.5")  # Android's 180 s, shortened
    source = ScreenrecordSource(fresh_phone.adb, fresh_phone.serial)

    def restarted(frames: list[Frame]) -> bool:
        return source.segments >= 2 and media.near(media.mean_color(frames[-1]), media.RED)

    frames, statuses = media.collect_frames([source], restarted)
    assert len(fresh_phone.read("screenrecord.log").splitlines()) >= 2
    assert len(frames) >= 31  # the first run's 30 frames, then the new run's first (red)
    assert all(s.state is not MirrorState.FAILED for s in statuses)


def test_mirror_falls_back_to_screencap_and_says_so(fresh_phone: Phone) -> None:
    fresh_phone.sh(f"touch {fresh_phone.root}/media/screenrecord.broken")
    sources = default_sources(fresh_phone.adb, fresh_phone.serial, screencap_interval_s=0.05)
    frames, statuses = media.collect_frames(sources, lambda fs: len(fs) >= 3)
    assert media.near(media.mean_color(frames[0]), media.GREEN)
    last = statuses[-1]
    assert last.mode == ScreencapSource.mode and last.fallback
    assert "unable to create video encoder" in [s for s in statuses if s.message][-1].message


def test_taps_and_swipes_reach_the_phone_in_device_pixels(fresh_phone: Phone) -> None:
    async def gestures() -> None:
        inp = DeviceInput(fresh_phone.adb, fresh_phone.serial)
        await inp.tap(180, 400)
        await inp.swipe(10, 700, 10, 100, 250)

    asyncio.run(gestures())
    assert fresh_phone.read("taps.log").splitlines() == ["tap 180 400", "swipe 10 700 10 100 250"]


def test_assets_are_uploaded_before_the_show(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy()
    spec = {**SPEC, "root": {"type": "image", "asset": "hero"}}
    hero = Asset("image/png", media.png(media.solid(4, 4, media.RED)))

    async def scenario() -> tuple[list[str], list[str]]:
        show = DeviceShow(fresh_phone.adb, fresh_phone.serial)
        try:
            await show.show(spec)  # no asset given: the device reports it missing
            without = list(show.warnings)
            show.warnings.clear()
            await show.show(spec, assets={"hero": hero})
            return without, list(show.warnings)
        finally:
            await show.close()

    without, with_asset = asyncio.run(asyncio.wait_for(scenario(), 15))
    assert without == ["the device has no asset hero; those images stay blank"]
    assert with_asset == []


def test_a_reshow_uploads_only_the_assets_that_changed(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy()
    spec = {**SPEC, "root": {"type": "image", "asset": "hero"}}
    red = Asset("image/png", media.png(media.solid(4, 4, media.RED)))
    blue = Asset("image/png", media.png(media.solid(4, 4, media.BLUE)))
    logo = Asset("image/png", media.png(media.solid(2, 2, media.GREEN)))

    async def scenario() -> None:
        show = DeviceShow(fresh_phone.adb, fresh_phone.serial)
        try:
            await show.show(spec, assets={"hero": red, "logo": logo})
            await show.apply_edit({**spec, "state": {"liked": True, "count": 3}})  # kept: none
            await show.apply_edit(spec, assets={"hero": blue, "logo": logo})  # hero changed
        finally:
            await show.close()

    asyncio.run(asyncio.wait_for(scenario(), 15))
    log = [e for e in _shown(fresh_phone) if "asset" in e or "shown" in e]
    order = [f"asset {e['asset']}" if "asset" in e else "show" for e in log]
    assert order == ["asset hero", "asset logo", "show", "show", "asset hero", "show"]
    uploads = [e for e in log if "asset" in e]
    assert [(e["mimeType"], base64.b64decode(e["dataBase64"])) for e in uploads] == [
        ("image/png", red.data),
        ("image/png", logo.data),
        ("image/png", blue.data),
    ]


def test_components_are_expanded_on_the_host(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy()
    spec = {
        **SPEC,
        "components": {"greeting": {"root": {"type": "text", "text": "Hi {props.name}"}}},
        "root": {"type": "use", "component": "greeting", "props": {"name": "Ann"}},
    }

    async def scenario() -> None:
        show = DeviceShow(fresh_phone.adb, fresh_phone.serial)
        try:
            await show.show(spec)
        finally:
            await show.close()

    asyncio.run(asyncio.wait_for(scenario(), 15))
    shown = [e["shown"] for e in _shown(fresh_phone) if "shown" in e]
    assert shown == [{**SPEC, "root": {"type": "text", "text": "Hi Ann"}}]
