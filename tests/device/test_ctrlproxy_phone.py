"""CtrlProxy's protocol as AutoMobile's source defines it, checked on the stand-in phone over the
real adb path (adb server, adbd, `adb forward`) with a raw WebSocket client and the studio's
own client. Each test names the rule it checks; the stand-in cites the source
(tests/device/phone/ctrlproxy_standin.py)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from studio.device.ctrlproxy import CtrlProxyClient, DeviceRejected, DeviceShow
from studio.device.gestures import DeviceInput
from tests.device import media
from tests.device.conftest import Phone, StandIn
from tests.device.test_real_adb import ON_BUTTON, ON_TITLE, PAGER, SPEC

PROTOTYPE_REQUESTS = {
    "show_prototype",
    "dismiss_prototype",
    "inspect_prototypes",
    "put_prototype_asset",
    "remove_prototype_asset",
}


@contextlib.asynccontextmanager
async def raw(phone: Phone) -> AsyncIterator[tuple[ClientConnection, dict[str, Any]]]:
    """A raw WebSocket to the phone's CtrlProxy through `adb forward`; yields it and its
    `connected` frame."""
    port = await phone.adb.forward_free_port(phone.serial, "tcp:8765")
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 5))
            yield ws, hello
    finally:
        await phone.adb.forward_remove(phone.serial, port)


class Wire:
    """Request/response on a raw socket, keeping every frame that arrived in between."""

    def __init__(self, ws: ClientConnection):
        self.ws, self.frames, self._n = ws, [], 0

    async def call(self, frame: dict[str, Any]) -> dict[str, Any]:
        self._n += 1
        rid = f"t-{self._n}"
        await self.ws.send(json.dumps({**frame, "requestId": rid}))
        return await self.until(lambda f: f.get("requestId") == rid)

    async def until(
        self, want: Callable[[dict[str, Any]], bool], limit_s: float = 5
    ) -> dict[str, Any]:
        async def read() -> dict[str, Any]:
            while True:
                frame = json.loads(await self.ws.recv())
                self.frames.append(frame)
                if want(frame):
                    return frame

        return await asyncio.wait_for(read(), limit_s)

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            f
            for f in self.frames
            if f.get("type") == "prototype_event" and (kind is None or f["kind"] == kind)
        ]


def show_frame(spec: dict[str, Any] = SPEC, **extra: Any) -> dict[str, Any]:
    return {"type": "show_prototype", "spec": spec, **extra}


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_connected_frame_counts_connections_and_lists_every_request_and_flag(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """WSS `tryStart`: `ConnectedResponse{id, supportedCommands, timestamp}`, id a connection
    counter; `supportedCommands()` every registered request type plus the flags."""
    start_ctrlproxy()

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with raw(fresh_phone) as (_, first), raw(fresh_phone) as (_, second):
            return first, second

    first, second = run(scenario())
    assert set(first) == {"type", "id", "supportedCommands", "timestamp"}
    assert first["type"] == "connected" and second["id"] == first["id"] + 1
    assert isinstance(first["timestamp"], int) and first["timestamp"] > 1_600_000_000_000
    names = set(first["supportedCommands"])
    assert names >= PROTOTYPE_REQUESTS
    assert {
        "prototype_persistence_replay_v1",
        "prototype_window_metadata_v1",
        "screenshot_hide_prototype_v1",
        "request_tap_coordinates",
    } <= names


def test_result_fields_missing_assets_only_when_missing_and_the_appearance(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """RESP `PrototypeResult`: no totalTimeMs; `missingAssets` omitted when empty; `appearance`
    `{mode, source, deviceDark}` on a successful show."""
    start_ctrlproxy()
    image = {**SPEC, "root": {"type": "image", "asset": "hero"}}

    async def scenario() -> list[dict[str, Any]]:
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            plain = await wire.call(show_frame(appearance="dark"))
            missing = await wire.call(show_frame(image))
            return [plain, missing]

    plain, missing = run(scenario())
    assert set(plain) == {"type", "timestamp", "requestId", "success", "error", "appearance"}
    assert plain["success"] is True and plain["error"] is None
    assert plain["appearance"] == {"mode": "dark", "source": "override", "deviceDark": False}
    assert missing["missingAssets"] == ["hero"]


def test_malformed_and_unknown_requests_are_answered_not_dropped(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """WSS `handleClientMessage`/`describeDecodeFailure`: an unregistered type gets
    `{"type": "error"}` "Unknown command type"; a prototype request that does not decode a failed
    `prototype_result` "Malformed request"; a frame that is not JSON an error frame too."""
    start_ctrlproxy()

    async def scenario() -> list[dict[str, Any]]:
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            unknown = await wire.call({"type": "update_prototype"})
            malformed = await wire.call({"type": "show_prototype", "spec": "not an object"})
            await ws.send("{not json")
            garbage = await wire.until(
                lambda f: f.get("type") == "error" and f["requestId"] is None
            )
            return [unknown, malformed, garbage]

    unknown, malformed, garbage = run(scenario())
    assert unknown["type"] == "error" and unknown["success"] is False
    assert unknown["error"] == "Unknown command type: update_prototype"
    assert malformed["type"] == "prototype_result" and malformed["success"] is False
    assert malformed["error"].startswith("Malformed request:")
    assert garbage["error"].startswith("Malformed request:")


def test_the_device_validates_and_keeps_the_previous_prototype(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PC `validate` + `execute`: a spec its validator refuses fails with `<path>: <message>` and
    nothing is replaced; the studio reports the device's own words (DeviceRejected)."""
    start_ctrlproxy()
    bad = {**SPEC, "root": {"type": "slider", "key": "count", "min": 5, "max": 1}}

    async def scenario() -> tuple[str, list[dict[str, Any]]]:
        show = DeviceShow(fresh_phone.adb, fresh_phone.serial)
        try:
            await show.show(SPEC)
            with pytest.raises(DeviceRejected) as err:
                await show.show(bad)
            assert show.client is not None
            return str(err.value), await show.client.inspect()
        finally:
            await show.close()

    message, inspected = run(scenario())
    assert message.startswith("show_prototype: root") and "did not answer" not in message
    assert [p["id"] for p in inspected] == ["likes"]
    assert inspected[0]["state"] == SPEC["state"]  # the previous one, untouched


def test_sequences_never_rewind_and_dismissing_an_unknown_id_fails(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PC `sequences` (a controller-lifetime ledger) and PC `dismiss` ("Unknown prototype id")."""
    start_ctrlproxy()

    async def scenario() -> tuple[Wire, dict[str, Any]]:
        taps = DeviceInput(fresh_phone.adb, fresh_phone.serial)
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            await wire.call(show_frame())
            await taps.tap(*ON_BUTTON)
            await wire.until(lambda f: f.get("kind") == "emit")
            await wire.call({"type": "dismiss_prototype", "id": "likes"})
            unknown = await wire.call({"type": "dismiss_prototype", "id": "likes"})
            await wire.call(show_frame())
            await taps.tap(*ON_BUTTON)
            await wire.until(lambda f: f.get("kind") == "emit" and f["sequence"] > 2)
            return wire, unknown

    wire, unknown = run(scenario())
    assert [(e["sequence"], e["kind"]) for e in wire.events()] == [
        (1, "emit"),
        (2, "dismissed"),
        (3, "emit"),  # the same id shown again continues at 3
    ]
    assert wire.events("dismissed")[0]["payload"] == {"reason": "agent"}
    assert unknown["success"] is False and unknown["error"] == "Unknown prototype id: likes"


def test_dismissal_drops_the_assets_and_a_dismissed_event_comes_before_the_result(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PC `removeActive` → `releaseAssets`; the `dismissed` event is emitted inside `execute`,
    before its `prototype_result`."""
    start_ctrlproxy()
    image = {**SPEC, "root": {"type": "image", "asset": "hero"}}
    png = base64.b64encode(media.png(media.solid(2, 2, media.RED))).decode()

    async def scenario() -> tuple[Wire, dict[str, Any], dict[str, Any]]:
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            put = {"type": "put_prototype_asset", "id": "hero", "mimeType": "image/png"}
            await wire.call({**put, "dataBase64": png})
            first = await wire.call(show_frame(image))
            await wire.call({"type": "dismiss_prototype", "id": "likes"})
            again = await wire.call(show_frame(image))
            return wire, first, again

    wire, first, again = run(scenario())
    assert "missingAssets" not in first
    assert again["missingAssets"] == ["hero"]
    kinds = [f.get("kind") or f["type"] for f in wire.frames]
    # put, show, then the dismiss: its `dismissed` event first, then its result
    assert kinds == ["prototype_result", "prototype_result", "dismissed", "prototype_result"] + [
        "prototype_result"
    ]


def test_an_idle_prototype_is_dismissed_after_its_ttl(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PLC `DEFAULT_PROTOTYPE_IDLE_TTL_MILLIS` (here 0.4 s), PC `armIdle`: `dismissed{ttl}`."""
    start_ctrlproxy(ttl_ms=400)

    async def scenario() -> Wire:
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            await wire.call(show_frame())
            await wire.until(lambda f: f.get("kind") == "dismissed", limit_s=5)
            return wire

    wire = run(scenario())
    assert wire.events("dismissed")[0]["payload"] == {"reason": "ttl"}


def test_the_last_disconnect_dismisses_a_session_prototype(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PC `onClientCountChanged`: no client left, the session prototype goes (`disconnect`)."""
    start_ctrlproxy()

    async def scenario() -> dict[str, Any]:
        async with raw(fresh_phone) as (ws, _):
            await Wire(ws).call(show_frame())
        async with raw(fresh_phone) as (ws, _):
            return await Wire(ws).call({"type": "inspect_prototypes"})

    inspected = run(scenario())
    assert inspected["prototypes"] == [] and inspected["droppedEvents"] == 0
    assert {"dismissed": "likes", "reason": "disconnect"} in fresh_phone.log("ctrlproxy.log")


def test_a_device_persistent_prototype_replays_what_happened_while_no_host_was_there(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PC `offlineAwareSink`/`onClientConnected`: events held while alone go out first to the
    next client; inspect then reports `lastSequence` past them (PC `inspect` order)."""
    start_ctrlproxy()
    spec = {**SPEC, "window": {**SPEC["window"], "persistence": "device"}}

    async def scenario() -> tuple[Wire, dict[str, Any]]:
        async with raw(fresh_phone) as (ws, _):
            await Wire(ws).call(show_frame(spec))
        await DeviceInput(fresh_phone.adb, fresh_phone.serial).tap(*ON_BUTTON)
        for _ in range(100):  # the stand-in has seen the tap (it polls the taps log)
            if any("event" in e for e in fresh_phone.log("ctrlproxy.log")):
                break
            await asyncio.sleep(0.05)
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            inspected = await wire.call({"type": "inspect_prototypes"})
            return wire, inspected

    wire, inspected = run(scenario())
    assert [e["sequence"] for e in wire.events()] == [1]
    assert wire.frames.index(wire.events()[0]) < wire.frames.index(inspected)
    (entry,) = inspected["prototypes"]
    assert entry["persistent"] is True and entry["lastSequence"] == 1
    assert entry["state"] == {"liked": True, "count": 3}


def test_locked_and_backgrounded_prototypes_are_hidden_not_dismissed(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PC `display` (`isBlocked`: hidden, the show still succeeds) and `foreground` (suspended,
    state kept, no `dismissed`, taps reach nothing)."""
    start_ctrlproxy()

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], Wire]:
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            fresh_phone.set_prop("locked", "yes")
            locked = await wire.call(show_frame())
            fresh_phone.set_prop("locked", None)
            fresh_phone.set_prop("foreground", "com.android.chrome")
            await DeviceInput(fresh_phone.adb, fresh_phone.serial).tap(*ON_BUTTON)
            await asyncio.sleep(0.3)  # noqa: ASYNC110 (the tap must reach nothing: no event to await)
            away = await wire.call({"type": "inspect_prototypes"})
            return locked, away, wire

    locked, away, wire = run(scenario())
    assert locked["success"] is True
    log = fresh_phone.log("ctrlproxy.log")
    assert next(e for e in log if "shown" in e)["hidden"] is True
    assert {"restored": "likes", "reason": "lock"} in log
    (entry,) = away["prototypes"]
    assert entry["suspended"] is True and entry["state"] == SPEC["state"]
    assert wire.events() == []


def test_taps_pager_swipes_back_and_night_mode_make_their_events(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """PR `tap` (only a node with actions; one `change` after the list), `setPage`
    (`page_changed`), `appearanceChanged` (`appearance_changed {mode, source}`), `HostDismiss`
    (Back: `dismissed{user}`)."""
    start_ctrlproxy()

    async def scenario() -> Wire:
        taps = DeviceInput(fresh_phone.adb, fresh_phone.serial)
        async with raw(fresh_phone) as (ws, _):
            wire = Wire(ws)
            await wire.call(show_frame())
            await taps.tap(*ON_TITLE)  # text: nothing
            await taps.tap(*ON_BUTTON)
            await wire.until(lambda f: f.get("kind") == "emit")
            fresh_phone.sh("cmd uimode night yes")
            await wire.until(lambda f: f.get("kind") == "appearance_changed")
            await wire.call(show_frame(PAGER))
            await taps.swipe(300, 400, 40, 400, 200)
            await wire.until(lambda f: f.get("kind") == "page_changed")
            await fresh_phone.adb.shell(fresh_phone.serial, "input keyevent KEYCODE_BACK")
            await wire.until(lambda f: f.get("kind") == "dismissed")
            return wire

    wire = run(scenario())
    kinds = [(e["id"], e["kind"], e["name"], e["payload"]) for e in wire.events()]
    assert kinds == [
        ("likes", "emit", "change", {"key": "liked", "value": True}),
        ("likes", "appearance_changed", None, {"mode": "dark", "source": "system"}),
        ("pages", "page_changed", None, None),
        ("pages", "dismissed", None, {"reason": "user"}),
    ]
    assert wire.events("page_changed")[0]["pages"] == {"p": 1}


def test_an_unbound_service_serves_nothing(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    """The server lives inside the bound accessibility service: not enabled, no connection."""
    start_ctrlproxy()
    fresh_phone.sh("settings put secure enabled_accessibility_services null")

    async def scenario() -> None:
        async with raw(fresh_phone):
            pass

    with pytest.raises(InvalidStatus):
        run(scenario())


def test_hierarchy_pushes_are_skipped_unparsed_and_events_still_arrive(
    fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy(hierarchy_ms=30)
    events: list[dict[str, Any]] = []

    async def scenario() -> CtrlProxyClient:
        show = DeviceShow(fresh_phone.adb, fresh_phone.serial, events.append)
        try:
            await show.show(SPEC)
            await DeviceInput(fresh_phone.adb, fresh_phone.serial).tap(*ON_BUTTON)
            for _ in range(100):
                if events:
                    break
                await asyncio.sleep(0.05)
            assert show.client is not None
            return show.client
        finally:
            await show.close()

    client = run(scenario())
    assert client.skipped_frames > 0
    assert [e["kind"] for e in events][:1] == ["emit"]
