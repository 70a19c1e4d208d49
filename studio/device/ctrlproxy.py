"""Show prototypes natively through AutoMobile's CtrlProxy WebSocket protocol (asyncio, `websockets`).

Protocol (kaeawc/auto-mobile `android/control-proxy/.../WebSocketServer.kt`, `android/protocol/.../
WebSocketRequest.kt` and `WebSocketResponse.kt`): `adb forward tcp:P tcp:8765`, WebSocket `/ws`; the
first frame is `connected` with `supportedCommands`; requests carry a `requestId` and get a
`prototype_result` (or, for a request the device cannot decode, a `{"type": "error"}` frame);
`prototype_event` frames are pushed, `hierarchy_update` frames too (skipped unparsed). The socket
stays open while showing, because the device dismisses a session prototype when its last client
disconnects (`PrototypeController.kt` `onClientCountChanged`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import itertools
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from studio.concurrency import off_loop
from studio.device import capabilities as caps
from studio.device.adb import CTRLPROXY_DEVICE_PORT, Adb

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 5.0
ASSET_TIMEOUT = 15.0
CONNECT_TIMEOUT = 5.0
MAX_FRAME = 64 * 1024 * 1024

EventCallback = Callable[[dict[str, Any]], None]
Scalar = str | int | float | bool


#: `hierarchy_update` is the largest and most frequent frame; the device's serializer writes `type`
#: first (WebSocketServer.kt `outgoingFrame`), so it is recognised without parsing it.
_HIERARCHY_PREFIX = '{"type":"hierarchy_update"'


class CtrlProxyError(RuntimeError):
    """CtrlProxy could not be reached or did not answer (one line that says what to do)."""


class DeviceRejected(CtrlProxyError):
    """The device answered and refused the request; `str()` is the device's own error text."""


class ShowRefused(CtrlProxyError):
    """The device cannot show this spec (missing capabilities); `.reasons` has one line each."""

    def __init__(self, reasons: list[str]):
        super().__init__("device refused the spec: " + "; ".join(reasons))
        self.reasons = reasons


@dataclass
class PrototypeSnapshot:
    """The device's latest known state and pages of one prototype."""

    state: dict[str, Scalar] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)
    last_sequence: int = -1
    suspended: bool = False  # hidden while another app is in front (inspect's `suspended`)
    appearance: dict[str, Any] | None = None  # {mode, source, deviceDark} where advertised
    dismissed: str | None = None  # the reason of a `dismissed` event, until it is shown again


def merge_device_state(spec: Mapping[str, Any], device_state: Mapping[str, Any]) -> dict[str, Any]:
    """The spec to re-show: the device's values for keys the new spec still declares, same type.

    AutoMobile's in-place show lets the spec's `state` win, so what the user tapped or typed on
    the phone survives an edit only if it is merged in here. Keys the edit removed stay removed;
    a key whose type changed keeps the spec's new default.
    """
    merged = copy.deepcopy(dict(spec))
    state = merged.get("state")
    if not isinstance(state, dict):
        return merged
    for key, value in device_state.items():
        if key in state and _same_kind(state[key], value):
            state[key] = value
    return merged


def _same_kind(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return True
    return isinstance(a, str) and isinstance(b, str)


class CtrlProxyClient:
    """One WebSocket connection to CtrlProxy: requests by `requestId`, events to a callback."""

    def __init__(self, url: str, on_event: EventCallback | None = None):
        self.url = url
        self.on_event = on_event
        self.supported: frozenset[str] = frozenset()
        self.snapshots: dict[str, PrototypeSnapshot] = {}
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._seen: set[tuple[str, int]] = set()
        self._ids = itertools.count(1)
        self._closed_reason: str | None = None
        self.skipped_frames = 0  # hierarchy_update frames left unparsed

    async def connect(self) -> None:
        try:
            self._ws = await asyncio.wait_for(
                connect(
                    self.url,
                    max_size=MAX_FRAME,
                    ping_interval=15,
                    ping_timeout=60,
                    open_timeout=CONNECT_TIMEOUT,
                ),
                CONNECT_TIMEOUT,
            )
            first = json.loads(await asyncio.wait_for(self._ws.recv(), CONNECT_TIMEOUT))
        except (OSError, TimeoutError, WebSocketException, ValueError) as exc:
            await self.close()
            raise CtrlProxyError(
                f"CtrlProxy at {self.url} did not answer ({type(exc).__name__}: {exc}); is it "
                "installed and enabled, and is the phone unlocked?"
            ) from exc
        if not isinstance(first, dict) or first.get("type") != "connected":
            await self.close()
            raise CtrlProxyError(f"CtrlProxy at {self.url} sent no `connected` frame first")
        self.supported = frozenset(str(c) for c in first.get("supportedCommands") or [])
        self._reader = asyncio.create_task(self._read(), name="ctrlproxy-reader")

    def supports(self, command: str) -> bool:
        return command in self.supported

    @property
    def connected(self) -> bool:
        return self._ws is not None and self._closed_reason is None

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for raw in self._ws:
                if isinstance(raw, str) and raw.startswith(_HIERARCHY_PREFIX):
                    self.skipped_frames += 1
                    continue
                try:  # frames are parsed off the loop (the GUI thread under qasync), in order
                    frame = await off_loop(json.loads, raw)
                except ValueError:
                    log.warning("CtrlProxy sent a frame that is not JSON")
                    continue
                if isinstance(frame, dict):
                    self._dispatch(frame)
            self._closed_reason = "CtrlProxy closed the connection"
        except WebSocketException as exc:
            self._closed_reason = f"CtrlProxy connection lost: {exc}"
        finally:
            reason = self._closed_reason or "CtrlProxy connection closed"
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(CtrlProxyError(reason))
            self._pending.clear()

    def _dispatch(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        request_id = frame.get("requestId")
        if isinstance(request_id, str) and request_id in self._pending:
            fut = self._pending.pop(request_id)
            if not fut.done():
                fut.set_result(frame)
            return
        if kind == "prototype_event":
            self._on_prototype_event(frame)
        elif kind == "error":  # uncorrelated: its request is unknown (WSS `sendErrorResponse`)
            log.info("CtrlProxy reported an error: %s", frame.get("error"))

    def _on_prototype_event(self, frame: dict[str, Any]) -> None:
        pid, seq = frame.get("id"), frame.get("sequence")
        if not isinstance(pid, str) or not isinstance(seq, int):
            return
        if (pid, seq) in self._seen:  # replays after inspect / reconnect
            return
        self._seen.add((pid, seq))
        snap = self.snapshots.setdefault(pid, PrototypeSnapshot())
        if seq >= snap.last_sequence:
            if isinstance(frame.get("state"), dict):
                snap.state = dict(frame["state"])
            if isinstance(frame.get("pages"), dict):
                snap.pages = dict(frame["pages"])
            snap.last_sequence = seq
            raw_payload = frame.get("payload")
            payload: dict[str, Any] = raw_payload if isinstance(raw_payload, dict) else {}
            if frame.get("kind") == "dismissed":
                snap.dismissed = str(payload.get("reason") or "unknown")
            elif frame.get("kind") == "appearance_changed" and payload:
                snap.appearance = {**(snap.appearance or {}), **payload}
        if self.on_event is not None:
            try:
                self.on_event(frame)
            except Exception:  # a faulty UI callback must not kill the reader
                log.exception("prototype event callback failed")

    async def request(
        self, frame: dict[str, Any], limit_s: float = REQUEST_TIMEOUT
    ) -> dict[str, Any]:
        """Send one request and wait for the reply with the same `requestId`."""
        if self._ws is None or self._closed_reason is not None:
            raise CtrlProxyError(self._closed_reason or "not connected to CtrlProxy")
        request_id = f"prototype-{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = fut
        try:
            await self._ws.send(json.dumps({**frame, "requestId": request_id}))
            return await asyncio.wait_for(fut, limit_s)
        except TimeoutError as exc:
            raise CtrlProxyError(
                f"{frame.get('type')}: no reply from CtrlProxy within {limit_s:g} s"
            ) from exc
        except WebSocketException as exc:
            raise CtrlProxyError(f"{frame.get('type')}: {exc}") from exc
        finally:
            self._pending.pop(request_id, None)

    async def put_asset(self, asset_id: str, mime_type: str, data: bytes) -> dict[str, Any]:
        reply = await self.request(
            {
                "type": "put_prototype_asset",
                "id": asset_id,
                "mimeType": mime_type,
                "dataBase64": base64.b64encode(data).decode("ascii"),
            },
            limit_s=ASSET_TIMEOUT,
        )
        _check(reply, f"asset {asset_id!r}")
        return reply

    async def show(
        self,
        spec: Mapping[str, Any],
        *,
        reset: bool = False,
        appearance: str | None = None,
        display_id: int | None = None,
    ) -> dict[str, Any]:
        frame: dict[str, Any] = {"type": "show_prototype", "spec": spec}
        if reset:
            frame["reset"] = True
        if appearance in {"light", "dark", "device"}:  # "device" only to prototype_appearance_v1
            frame["appearance"] = appearance
        if display_id is not None:
            frame["displayId"] = display_id
        return await self.request(frame)

    async def inspect(self) -> list[dict[str, Any]]:
        """The prototypes the device shows; updates the snapshots (state, pages)."""
        reply = await self.request({"type": "inspect_prototypes"})
        _check(reply, "inspect_prototypes")
        entries = [p for p in reply.get("prototypes") or [] if isinstance(p, dict)]
        for entry in entries:
            pid = entry.get("id")
            if isinstance(pid, str):
                snap = self.snapshots.setdefault(pid, PrototypeSnapshot())
                if isinstance(entry.get("state"), dict):
                    snap.state = dict(entry["state"])
                if isinstance(entry.get("pages"), dict):
                    snap.pages = dict(entry["pages"])
                if isinstance(entry.get("lastSequence"), int):
                    snap.last_sequence = max(snap.last_sequence, entry["lastSequence"])
                snap.suspended = entry.get("suspended") is True  # omitted when false
                if isinstance(entry.get("appearance"), dict):
                    snap.appearance = dict(entry["appearance"])
        return entries

    async def dismiss(self, prototype_id: str) -> None:
        _check(await self.request({"type": "dismiss_prototype", "id": prototype_id}), "dismiss")

    async def close(self) -> None:
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None


def _check(reply: Mapping[str, Any], what: str) -> None:
    """A failed `prototype_result` or an `error` frame: the device's own words."""
    if reply.get("success") is False or reply.get("type") == "error":
        raise DeviceRejected(f"{what}: {reply.get('error') or 'CtrlProxy reported a failure'}")


def expand_for_device(spec: Mapping[str, Any]) -> dict[str, Any]:
    """Host-only transform: devices never see `components`/`use`."""
    from studio.spec import SpecError, expand

    try:
        expanded = expand(dict(spec))
    except SpecError as exc:
        raise CtrlProxyError(f"spec {exc}") from exc
    if not isinstance(expanded, dict):
        raise CtrlProxyError("spec: not an object")
    return expanded


@dataclass(frozen=True)
class Asset:
    """One asset as CtrlProxy receives it (`put_prototype_asset`)."""

    mime_type: str
    data: bytes


class _Keep:
    """`apply_edit`'s default: keep the assets / appearance of the last show."""


KEEP = _Keep()


class DeviceShow:
    """A prototype shown on one device: forward, connect, show, re-show on edits, dismiss on close."""

    def __init__(
        self,
        adb: Adb,
        serial: str,
        on_event: EventCallback | None = None,
        *,
        device_port: int = CTRLPROXY_DEVICE_PORT,
    ):
        self.adb = adb
        self.serial = serial
        self.on_event = on_event
        self.device_port = device_port
        self.host_port: int | None = None
        self.client: CtrlProxyClient | None = None
        self.prototype_id: str | None = None
        self.warnings: list[str] = []
        self._assets: dict[str, Asset] = {}
        self._appearance: str | None = None
        self._uploaded: dict[str, Asset] = {}  # what this connection's CtrlProxy already has
        self.uploads = 0  # put_prototype_asset requests sent (tests, status)

    async def open(self) -> CtrlProxyClient:
        await self.adb.start()
        self.host_port = await self.adb.forward_free_port(self.serial, f"tcp:{self.device_port}")
        self.client = CtrlProxyClient(f"ws://127.0.0.1:{self.host_port}/ws", self._on_event)
        self._uploaded = {}
        try:
            await self.client.connect()
        except CtrlProxyError:
            await self.close()
            raise
        return self.client

    @property
    def supported(self) -> frozenset[str]:
        return self.client.supported if self.client else frozenset()

    def _on_event(self, frame: dict[str, Any]) -> None:
        """A `dismissed` of the shown prototype ends it on the device, and the device dropped
        every asset with it (PrototypeController.kt `removeActive`, `releaseAssets`)."""
        if frame.get("kind") == "dismissed" and frame.get("id") == self.prototype_id:
            self.prototype_id = None
            self.forget_assets()
        if self.on_event is not None:
            self.on_event(frame)

    async def show(
        self,
        spec: Mapping[str, Any],
        *,
        assets: Mapping[str, Asset] | None = None,
        appearance: str | None = None,
        reset: bool = False,
    ) -> dict[str, Any]:
        """Upload the assets this connection has not received yet (or that changed), then show the
        spec (full spec; same id replaces in place)."""
        spec = expand_for_device(spec)
        client = self.client or await self.open()
        self._assets = dict(assets or {})
        self._appearance = appearance
        reasons = caps.refusals(
            spec, client.supported, appearance=appearance, assets=bool(self._assets)
        )
        if reasons:
            raise ShowRefused(reasons)
        for asset_id, asset in self._assets.items():
            if self._uploaded.get(asset_id) != asset:
                await self._put(client, asset_id, asset)
        reply = await client.show(spec, reset=reset, appearance=appearance)
        _check(reply, "show_prototype")
        missing = [m for m in reply.get("missingAssets") or [] if m in self._assets]
        if missing:  # the device dropped them (a dismissal clears them all): upload, show again
            for asset_id in missing:
                await self._put(client, asset_id, self._assets[asset_id])
            reply = await client.show(spec, reset=reset, appearance=appearance)
            _check(reply, "show_prototype")
        still_missing = [str(m) for m in reply.get("missingAssets") or []]
        if still_missing:
            self.warnings.append(
                f"the device has no asset {', '.join(still_missing)}; those images stay blank"
            )
        self.prototype_id = str(spec.get("id"))
        snap = client.snapshots.setdefault(self.prototype_id, PrototypeSnapshot())
        snap.dismissed = None
        if isinstance(reply.get("appearance"), dict):
            snap.appearance = dict(reply["appearance"])
        return reply

    def forget_assets(self) -> None:
        """The device dropped every asset (a dismissal: PrototypeController.kt `releaseAssets`):
        the next show uploads them again."""
        self._uploaded = {}

    async def _put(self, client: CtrlProxyClient, asset_id: str, asset: Asset) -> None:
        self._uploaded.pop(asset_id, None)
        await client.put_asset(asset_id, asset.mime_type, asset.data)
        self._uploaded[asset_id] = asset
        self.uploads += 1

    async def latest_state(self) -> PrototypeSnapshot:
        """The device's latest state of the shown prototype (inspect when supported, else events)."""
        assert self.client is not None and self.prototype_id is not None
        if caps.can_inspect(self.client.supported):
            await self.client.inspect()
        return self.client.snapshots.get(self.prototype_id, PrototypeSnapshot())

    async def apply_edit(
        self,
        spec: Mapping[str, Any],
        *,
        assets: Mapping[str, Asset] | _Keep = KEEP,
        appearance: str | None | _Keep = KEEP,
    ) -> dict[str, Any]:
        """Re-show an edited spec in place, keeping what the user changed on the device.

        `assets`/`appearance` replace the last show's (default: keep them); only assets that
        changed are uploaded again."""
        if not isinstance(assets, _Keep):
            self._assets = dict(assets)
        if not isinstance(appearance, _Keep):
            self._appearance = appearance
        if self.client is None:
            return await self.show(spec, assets=self._assets, appearance=self._appearance)
        if self.prototype_id is None:  # dismissed on the phone: back with what was tapped there
            last = self.client.snapshots.get(str(spec.get("id")))
            if last is not None and last.dismissed is not None:
                spec = merge_device_state(spec, last.state)
            return await self.show(spec, assets=self._assets, appearance=self._appearance)
        if str(spec.get("id")) != self.prototype_id:  # a new prototype: start fresh
            await self.dismiss()
            return await self.show(spec, assets=self._assets, appearance=self._appearance)
        snapshot = await self.latest_state()
        merged = merge_device_state(spec, snapshot.state)
        if not self.client.supports(caps.SHOW_IN_PLACE):
            self.warnings.append("this CtrlProxy re-shows fresh: pager pages restarted")
        return await self.show(merged, assets=self._assets, appearance=self._appearance)

    async def dismiss(self) -> None:
        if self.client is not None and self.prototype_id is not None and self.client.connected:
            with contextlib.suppress(CtrlProxyError):
                await self.client.dismiss(self.prototype_id)
        self.prototype_id = None

    async def close(self) -> None:
        """Dismiss, close the socket and remove the forward."""
        await self.dismiss()
        if self.client is not None:
            await self.client.close()
            self.client = None
        if self.host_port is not None:
            await self.adb.forward_remove(self.serial, self.host_port)
            self.host_port = None
