# ruff: noqa: ASYNC230, ASYNC240  (a device-side test double; blocking reads of tiny files are fine)
"""Device-side stand-in for AutoMobile's CtrlProxy (a test double of the phone's app, not of adb).

Runs on the "phone" through adbd's shell and serves CtrlProxy's WebSocket protocol on the phone's
loopback. Each rule follows AutoMobile's source (kaeawc/auto-mobile), cited by file and symbol:

WSS  android/control-proxy/src/main/kotlin/dev/jasonpearson/automobile/ctrlproxy/WebSocketServer.kt
REQ  android/protocol/src/main/kotlin/dev/jasonpearson/automobile/protocol/WebSocketRequest.kt
RESP android/protocol/src/main/kotlin/dev/jasonpearson/automobile/protocol/WebSocketResponse.kt
PC   .../ctrlproxy/prototype/PrototypeController.kt
PR   .../ctrlproxy/prototype/PrototypeRuntime.kt
PLC  .../ctrlproxy/prototype/PrototypeLifecycle.kt

The phone's other programs reach it through files under the phone root, as the real ones reach the
service through Android: `input` appends to taps.log (taps, swipes, key events), `settings` keeps
the secure table, `pm` the installed packages, `cmd uimode night` the night mode, and the props
folder holds `locked` (the keyguard is up) and `foreground` (another app's package is in front).

Where AutoMobile's rendering decides (what a tap hits), the stand-in lays the tree out simply: a
column splits its height evenly among its children, a row its width, anything else gives its child
the whole area; the innermost node with actions under the point gets the tap.
"""

import argparse
import asyncio
import base64
import json
import os
import sys
import time

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, default=8765)
ap.add_argument("--root", required=True)  # the phone root
ap.add_argument("--supported", default="")  # comma list; empty: every name this APK has
ap.add_argument("--ttl-ms", type=int, default=300_000)  # PLC DEFAULT_PROTOTYPE_IDLE_TTL_MILLIS
ap.add_argument("--hierarchy-ms", type=int, default=0)  # hierarchy_update pushes, 0: none
ap.add_argument("--screen", default="360x800")
ap.add_argument("--pidfile", default="")
args = ap.parse_args()

PACKAGE = "dev.jasonpearson.automobile.ctrlproxy"
ROOT = args.root
LOG = os.path.join(ROOT, "ctrlproxy.log")
SCREEN_W, SCREEN_H = (int(v) for v in args.screen.split("x"))

# REQ: every @SerialName of the sealed WebSocketRequest hierarchy; WSS `supportedCommands()` adds
# them all (`registeredRequestTypes`), then its flags.
REQUEST_TYPES = [
    "request_hierarchy",
    "request_hierarchy_if_stale",
    "set_hierarchy_interval",
    "request_screenshot",
    "request_tap_coordinates",
    "request_swipe",
    "request_two_finger_swipe",
    "request_drag",
    "request_pinch",
    "request_gesture_start",
    "request_gesture_move",
    "request_gesture_end",
    "request_set_text",
    "request_insert_text_state",
    "request_insert_text",
    "request_commit_text",
    "request_cancel_ime_commit",
    "request_set_keyboard_profile",
    "request_list_keyboard_profiles",
    "request_ime_action",
    "request_select_all",
    "request_click_focused_input",
    "request_action",
    "request_activate_accessibility_link",
    "request_hit_test",
    "request_clipboard",
    "request_settings_get",
    "request_settings_put",
    "request_settings_list",
    "install_ca_cert",
    "install_ca_cert_from_path",
    "remove_ca_cert",
    "get_device_owner_status",
    "get_permission",
    "get_current_focus",
    "get_traversal_order",
    "add_highlight",
    "show_prototype",
    "dismiss_prototype",
    "inspect_prototypes",
    "put_prototype_asset",
    "remove_prototype_asset",
    "list_preference_files",
    "get_preferences",
    "discover_keystore",
    "get_sdk_capabilities",
    "list_data_stores",
    "get_data_store",
    "subscribe_storage",
    "unsubscribe_storage",
    "get_preference",
    "set_preference",
    "remove_preference",
    "clear_preferences",
    "request_global_action",
    "validate_frame_context",
    "request_device_info",
    "set_recomposition_tracking",
    "set_accessibility_flags",
    "set_network_mock_rules",
    "set_network_error_simulation",
    "request_installed_packages",
    "request_package_info",
    "request_launch_intent",
    "start_recording",
    "stop_recording",
]
# WSS `supportedCommands()` flags (prototype_display_id_v1 only where SDK >= the display API; the
# theme and appearance flags arrive with the later APKs the research note compares).
FLAGS = [
    "node_selector_actions",
    "ime_key_events_v1",
    "ime_clear_field_v1",
    "ime_password_commit_v1",
    "tap_double_v1",
    "network_mock_rules_report_v1",
    "sdk_capabilities_user_id_v1",
    "gesture_display_id_v1",
    "prototype_display_id_v1",
    "prototype_window_options_v1",
    "prototype_persistence_replay_v1",
    "prototype_show_in_place_v1",
    "prototype_anchor_v1",
    "prototype_window_metadata_v1",
    "screenshot_hide_prototype_v1",
    "prototype_theme_modes_v1",
    "prototype_appearance_v1",
    "full_command_set_v1",
    "request_id_echo_v1",
]
SUPPORTED = [c for c in args.supported.split(",") if c] or REQUEST_TYPES + FLAGS
PROTOTYPE_REQUESTS = {  # WSS `prototypeRequestTypes`: malformed ones get a prototype_result
    "show_prototype",
    "dismiss_prototype",
    "inspect_prototypes",
    "put_prototype_asset",
    "remove_prototype_asset",
}
ASSET_MIME = {"image/png", "image/jpeg", "image/webp", "font/ttf", "font/otf"}

clients = set()
connection_count = 0  # WSS `connectionCount`: the `connected` id counts every connection
assets = {}  # id -> bytes (PrototypeAssetStore)
sequences = {}  # PC `sequences`: the controller's ledger, never rewound
offline_events = []  # PC `offlineEvents`: a device-persistent prototype's events while alone
active = None  # the one prototype (PC `activeRuntime`)
hidden = False  # the window is down (locked) while the runtime lives
idle_task = None
main_loop = None


def now_ms():
    return int(time.time() * 1000)


def wire(frame):
    """Compact JSON, `type` first, as kotlinx writes it (WSS `responseJson`: prettyPrint false,
    classDiscriminator "type")."""
    return json.dumps(frame, separators=(",", ":"))


def log(entry):
    with open(LOG, "a") as f:
        f.write(json.dumps(entry) + "\n")


def prop(name):
    path = os.path.join(ROOT, "props", name)
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        return f.read().strip()


def bound():
    """The server runs inside the bound accessibility service (WSS is started by the service):
    installed, and named in `enabled_accessibility_services` (either component form)."""
    if not os.path.exists(os.path.join(ROOT, "installed", PACKAGE)):
        return False
    path = os.path.join(ROOT, "settings", "enabled_accessibility_services")
    if not os.path.exists(path):
        return False
    with open(path) as f:
        entries = f.read().strip().split(":")
    return any(e.split("/", 1)[0] == PACKAGE for e in entries)


def result(request_id, success=True, error=None, **extra):
    """RESP `PrototypeResult`: `error` always encoded (encodeDefaults), the optional lists only
    when present (`@EncodeDefault(NEVER)`); no `totalTimeMs`."""
    frame = {
        "type": "prototype_result",
        "timestamp": now_ms(),
        "requestId": request_id,
        "success": success,
        "error": error,
    }
    frame.update({k: v for k, v in extra.items() if v is not None})
    return frame


def error_frame(request_id, message):
    """RESP `ErrorResponse` (WSS `CorrelatedErrorReporter.frame`)."""
    return {
        "type": "error",
        "timestamp": now_ms(),
        "requestId": request_id,
        "success": False,
        "error": message,
    }


# ---- the prototype runtime (PR) ------------------------------------------------------------------


def children(node):
    """PR `prototypeDescendants`."""
    kind = node.get("type")
    if kind in ("box", "row", "column", "pager", "card"):
        return [c for c in node.get("children") or [] if isinstance(c, dict)]
    if kind in ("scroll", "bottomSheet", "dialog"):
        child = node.get("child")
        return [child] if isinstance(child, dict) else []
    return []


def pager_counts(node, out=None):
    """PR `pagerCounts`."""
    out = {} if out is None else out
    if node.get("type") == "pager" and node.get("id"):
        out[node["id"]] = len(children(node))
    for child in children(node):
        pager_counts(child, out)
    return out


def is_persistent(spec):
    return (spec.get("window") or {}).get("persistence") == "device"


class Runtime:
    def __init__(self, spec, pages):
        self.spec = spec
        self.state = dict(spec.get("state") or {})
        counts = pager_counts(spec["root"])
        self.pages = {pid: min(max(pages.get(pid, 0), 0), n - 1) for pid, n in counts.items()}
        self.active = True

    @property
    def id(self):
        return self.spec["id"]


def next_sequence(pid):
    sequences[pid] = sequences.get(pid, 0) + 1
    return sequences[pid]


async def emit(runtime, kind, name=None, payload=None):
    """PR `emit`: the sequence is allocated before delivery; PC `offlineAwareSink` holds a
    device-persistent prototype's events while no host is connected."""
    event = {
        "type": "prototype_event",
        "timestamp": now_ms(),
        "id": runtime.id,
        "sequence": next_sequence(runtime.id),
        "kind": kind,
        "name": name,
        "payload": payload,
        "state": dict(runtime.state),
        "pages": dict(runtime.pages),
    }
    log({"event": {k: event[k] for k in ("id", "sequence", "kind", "name", "payload")}})
    if is_persistent(runtime.spec) and not clients:
        offline_events.append(event)
        return
    await broadcast(event)


async def broadcast(frame):
    """Uncorrelated frames go to every client (WSS `broadcastToClients`)."""
    text = wire(frame)
    for ws in list(clients):
        try:
            await ws.send(text)
        except Exception:
            pass


async def dismiss_runtime(runtime, reason):
    """PR `dismiss`/`finishDismissal` inside PC `removeActive`: window down, runtime closed, the
    assets dropped (PC `releaseAssets`), then the final `dismissed` event."""
    global active, hidden
    if not runtime.active:
        return
    runtime.active = False
    if active is runtime:
        active, hidden = None, False
        cancel_idle()
    assets.clear()
    log({"dismissed": runtime.id, "reason": reason})
    await emit(runtime, "dismissed", None, {"reason": reason})


def arm_idle(runtime):
    """PC `armIdle`: only interactions and accepted updates count; a device-persistent prototype
    never idles out."""
    global idle_task
    cancel_idle()
    if is_persistent(runtime.spec):
        return

    async def expire():
        await asyncio.sleep(args.ttl_ms / 1000)
        if active is runtime:
            await dismiss_runtime(runtime, "ttl")

    idle_task = asyncio.get_running_loop().create_task(expire())


def cancel_idle():
    global idle_task
    if idle_task is not None:
        idle_task.cancel()
        idle_task = None


def numeric(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


async def run_actions(runtime, actions):
    """PR `tap`: actions in order; `emit` fires with the state of that moment; one `change`
    event with the final state follows when state changed (#10622); a no-op list emits nothing."""
    baseline = dict(runtime.state)
    touched = []
    for action in actions:
        if not runtime.active or not isinstance(action, dict):
            break
        kind = action.get("type")
        key = action.get("key")
        if kind == "emit":
            await emit(runtime, "emit", action.get("name"), action.get("payload"))
        elif kind == "setState" and key in runtime.state:
            runtime.state[key] = action.get("value")
            touched.append(key)
        elif kind == "toggle" and isinstance(runtime.state.get(key), bool):
            runtime.state[key] = not runtime.state[key]
            touched.append(key)
        elif kind in ("increment", "decrement") and numeric(runtime.state.get(key)):
            step = action.get("by", 1)
            runtime.state[key] += step if kind == "increment" else -step
            touched.append(key)
        elif kind == "setPage":
            pager = action.get("pager")
            page = runtime.pages.get(pager)
            if page is None:
                continue
            target = action.get("page")
            target = page + 1 if target == "next" else page - 1 if target == "prev" else target
            await set_page(runtime, pager, target)
        elif kind == "dismiss":
            await dismiss_runtime(runtime, "user")
    changed = [k for k in dict.fromkeys(touched) if baseline.get(k) != runtime.state.get(k)]
    if runtime.active and changed:
        if len(changed) == 1:
            payload = {"key": changed[0], "value": runtime.state[changed[0]]}
        else:
            payload = {"keys": changed, "values": {k: runtime.state[k] for k in changed}}
        await emit(runtime, "emit", "change", payload)


async def set_page(runtime, pager, requested):
    """PR `setPage`: clamped; `page_changed` only when it moved."""
    count = pager_counts(runtime.spec["root"]).get(pager)
    if count is None:
        return
    page = min(max(int(requested), 0), count - 1)
    if runtime.pages.get(pager) == page:
        return
    runtime.pages[pager] = page
    await emit(runtime, "page_changed")


def hit(node, rect, x, y, runtime, path):
    """The nodes under (x, y), outermost first, in the stand-in's simple layout."""
    left, top, width, height = rect
    if not (left <= x < left + width and top <= y < top + height):
        return
    path.append(node)
    kids = children(node)
    if node.get("type") == "pager":
        page = runtime.pages.get(node.get("id"), 0)
        kids = kids[page : page + 1]
    if not kids:
        return
    if node.get("type") == "column":
        step = height / len(kids)
        for i, kid in enumerate(kids):
            hit(kid, (left, top + i * step, width, step), x, y, runtime, path)
    elif node.get("type") == "row":
        step = width / len(kids)
        for i, kid in enumerate(kids):
            hit(kid, (left + i * step, top, step, height), x, y, runtime, path)
    else:
        hit(kids[-1], rect, x, y, runtime, path)


def visible():
    return active is not None and not hidden and not suspended()


def suspended():
    """PC `isSuspendedByForeground`: another app in front hides a session prototype."""
    if active is None or is_persistent(active.spec):
        return False
    front = prop("foreground")
    return bool(front) and front != PACKAGE


async def on_tap(x, y):
    runtime = active
    if runtime is None or not visible():
        return
    arm_idle(runtime)  # an interaction counts as activity (PC `interact`)
    path = []
    hit(runtime.spec["root"], (0, 0, SCREEN_W, SCREEN_H), x, y, runtime, path)
    for node in reversed(path):  # the innermost node with actions takes the tap
        kind = node.get("type")
        if kind in ("switch", "checkbox") and isinstance(runtime.state.get(node.get("key")), bool):
            key = node["key"]  # PR `Toggle`: flip the bound boolean, then the node's actions
            runtime.state[key] = not runtime.state[key]
            await emit(runtime, "emit", "change", {"key": key, "value": runtime.state[key]})
            await run_actions(runtime, node.get("onTap") or [])
            return
        if isinstance(node.get("onTap"), list) and node["onTap"]:
            await run_actions(runtime, node["onTap"])
            return


async def on_swipe(x1, y1, x2, y2):
    """A horizontal swipe over a pager moves it one page (PR `SettledPage`)."""
    runtime = active
    if runtime is None or not visible() or abs(x2 - x1) < abs(y2 - y1):
        return
    arm_idle(runtime)
    path = []
    hit(runtime.spec["root"], (0, 0, SCREEN_W, SCREEN_H), x1, y1, runtime, path)
    for node in reversed(path):
        if node.get("type") == "pager" and node.get("id") in runtime.pages:
            step = 1 if x2 < x1 else -1
            await set_page(runtime, node["id"], runtime.pages[node["id"]] + step)
            return


# ---- appearance (PrototypeAppearance: RESP `PrototypeAppearance`) -------------------------------


def device_dark():
    return prop("night") == "yes"


def appearance_of(spec, override):
    """RESP `PrototypeAppearanceSource`: explicit theme.mode, else the show's override, else the
    device's setting."""
    mode = (spec.get("theme") or {}).get("mode")
    if mode in ("light", "dark"):
        return {"mode": mode, "source": "explicit", "deviceDark": device_dark()}
    if override in ("light", "dark"):
        return {"mode": override, "source": "override", "deviceDark": device_dark()}
    return {
        "mode": "dark" if device_dark() else "light",
        "source": "system",
        "deviceDark": device_dark(),
    }


# ---- requests ------------------------------------------------------------------------------------


class Malformed(Exception):
    pass


def need(request, key, kinds, required=True):
    """kotlinx strict decoding of one field (REQ data classes): a wrong type fails."""
    if key not in request or request[key] is None:
        if required:
            raise Malformed(
                f"Field '{key}' is required for type with serial name "
                f"'{request.get('type')}', but it was missing"
            )
        return None
    value = request[key]
    if not isinstance(value, kinds) or (kinds is int and isinstance(value, bool)):
        raise Malformed(f"Unexpected JSON token at path: $.{key}")
    return value


def validate_spec(spec):
    """PC `validate`: the device's own validator (here the studio's port of it) and its error
    text, `<path>: <message>`."""
    from studio.spec import validate

    checked = validate(spec)
    if not checked.ok:
        raise ValueError(f"{checked.path}: {checked.message}")


def asset_refs(value):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "asset" and isinstance(v, str):
                yield v
            elif k == "asset" and isinstance(v, dict):
                yield from (x for x in v.values() if isinstance(x, str))
            else:
                yield from asset_refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from asset_refs(v)


async def show(request):
    """PC `show`: validated before anything is replaced; same id and no reset replaces in place
    (pages kept, the new spec's state wins); a locked screen takes it hidden (PC `display`:
    `isBlocked`) and the show still succeeds."""
    global active, hidden
    spec = need(request, "spec", dict)
    need(request, "displayId", int, required=False)
    reset = need(request, "reset", bool, required=False) or False
    override = need(request, "appearance", str, required=False)
    if override is not None and override not in ("device", "light", "dark"):
        raise Malformed(f"{override} is not a valid enum value for PrototypeAppearanceOverride")
    validate_spec(spec)
    layer = (spec.get("window") or {}).get("layer")
    if (
        layer == "app" and prop("appops.SYSTEM_ALERT_WINDOW") != "allow"
    ):  # PC `requireLayerPermitted`
        raise ValueError(
            f"window.layer: app needs Android 8.0+ and SYSTEM_ALERT_WINDOW for {PACKAGE}, which is "
            f"not granted. Grant it with `adb shell appops set {PACKAGE} SYSTEM_ALERT_WINDOW "
            "allow`, or omit window.layer to use the system layer."
        )
    previous = active
    in_place = not reset and previous is not None and previous.id == spec["id"]
    if previous is not None and not in_place:
        previous.active = False  # replaced: no `dismissed` for a replacement (PC `display`)
    runtime = Runtime(spec, previous.pages if in_place else {})
    active = runtime
    hidden = prop("locked") == "yes"
    arm_idle(runtime)
    log({"shown": spec, "reset": reset, "appearance": override, "hidden": hidden})
    missing = sorted({a for a in asset_refs(spec.get("root")) if a not in assets})
    appearance = None
    if "prototype_appearance_v1" in SUPPORTED:
        appearance = appearance_of(spec, override)
        runtime.appearance_override = override
    return missing, appearance


async def handle(request, request_id):
    """One decoded request (WSS `handleClientMessage`), answered by the controller."""
    kind = request.get("type")
    if kind == "put_prototype_asset":
        asset_id = need(request, "id", str)
        mime = need(request, "mimeType", str)
        data = need(request, "dataBase64", str)
        if mime not in ASSET_MIME:
            return result(request_id, False, f"Unsupported asset mimeType: {mime}")
        assets[asset_id] = base64.b64decode(data)
        log({"asset": asset_id, "mimeType": mime, "dataBase64": data})
        return result(request_id)
    if kind == "remove_prototype_asset":  # REQ `RemovePrototypeAsset`: idempotent
        assets.pop(need(request, "id", str), None)
        return result(request_id)
    if kind == "show_prototype":
        try:
            missing, appearance = await show(request)
        except ValueError as exc:  # PC `execute`: the failure's message, previous one kept
            return result(request_id, False, str(exc))
        return result(request_id, missingAssets=missing or None, appearance=appearance)
    if kind == "dismiss_prototype":
        pid = need(request, "id", str, required=False)
        everything = need(request, "all", bool, required=False)
        if not (
            everything is True or (pid is not None and active is not None and active.id == pid)
        ):
            return result(request_id, False, f"Unknown prototype id: {pid}")  # PC `dismiss`
        if active is not None:
            await dismiss_runtime(active, "agent")  # emitted inside execute, before the result
        else:
            assets.clear()
        return result(request_id)
    if kind == "inspect_prototypes":
        # PC `inspect`: buffered events first, then the single result
        while offline_events:
            await broadcast(offline_events.pop(0))
        entries = []
        if active is not None and active.active:
            entry = {
                "id": active.id,
                "persistent": is_persistent(active.spec),
                "state": dict(active.state),
                "pages": dict(active.pages),
                "lastSequence": sequences.get(active.id, 0),
            }
            if suspended():
                entry["suspended"] = True  # omitted when false (@EncodeDefault NEVER)
            if "prototype_appearance_v1" in SUPPORTED:
                entry["appearance"] = appearance_of(
                    active.spec, getattr(active, "appearance_override", None)
                )
            entries.append(entry)
        return result(request_id, prototypes=entries, droppedEvents=0)
    return None  # another registered request: not a prototype one, answered elsewhere


async def on_client(ws):
    global connection_count
    connection_count += 1
    cid = connection_count
    # WSS `tryStart`: the greeting goes out before the client is registered for broadcasts
    greeting = {
        "type": "connected",
        "id": cid,
        "supportedCommands": SUPPORTED,
        "timestamp": now_ms(),
    }
    await ws.send(wire(greeting))
    clients.add(ws)
    while offline_events and clients:  # PC `onClientConnected`: replay what was held
        await broadcast(offline_events.pop(0))
    try:
        async for raw in ws:
            await on_message(ws, raw)
    except Exception:
        pass
    finally:
        clients.discard(ws)
        if not clients:  # PC `onClientCountChanged`: the last client left
            if active is not None and not is_persistent(active.spec):
                await dismiss_runtime(active, "disconnect")
            if active is None or not is_persistent(active.spec):
                assets.clear()


async def on_message(ws, raw):
    """WSS `handleClientMessage`: a frame that does not decode is answered, correlated by its
    best-effort requestId: prototype requests with a failed `prototype_result`, anything else
    with `{"type": "error"}`; an unregistered type is "Unknown command type"
    (WSS `describeDecodeFailure`)."""
    try:
        request = json.loads(raw)
        if not isinstance(request, dict):
            raise Malformed("Expected JsonObject")
    except (ValueError, Malformed) as exc:
        await ws.send(wire(error_frame(None, f"Malformed request: {exc}")))
        return
    request_id = request.get("requestId") if isinstance(request.get("requestId"), str) else None
    kind = request.get("type")
    log({"request": kind, "requestId": request_id})
    if not isinstance(kind, str) or kind not in REQUEST_TYPES or kind not in SUPPORTED:
        await ws.send(wire(error_frame(request_id, f"Unknown command type: {kind}")))
        return
    try:
        reply = await handle(request, request_id)
    except Malformed as exc:
        frame = (
            result(request_id, False, f"Malformed request: {exc}")
            if kind in PROTOTYPE_REQUESTS
            else error_frame(request_id, f"Malformed request: {exc}")
        )
        await ws.send(wire(frame))
        return
    if reply is None:
        reply = error_frame(request_id, f"Handler error: {kind} is not served by the stand-in")
    await ws.send(wire(reply))  # correlated: to its requester only (WSS `routeCorrelatedResponse`)


# ---- the phone's other programs, through files -----------------------------------------------


async def watch_phone():
    """taps.log (`input`), the keyguard and the foreground app, night mode."""
    global hidden
    pos = 0
    taps = os.path.join(ROOT, "taps.log")
    night = device_dark()
    while True:
        await asyncio.sleep(0.02)
        if active is not None:
            locked = prop("locked") == "yes"
            if locked != hidden:  # PC `onConfigurationChanged`: HIDE while blocked, then back
                hidden = locked
                log({"hidden" if locked else "restored": active.id, "reason": "lock"})
        dark = device_dark()
        if dark != night:
            night = dark
            runtime = active
            if runtime is not None and "prototype_appearance_v1" in SUPPORTED:
                look = appearance_of(runtime.spec, getattr(runtime, "appearance_override", None))
                if look["source"] == "system":  # PR `appearanceChanged`
                    await emit(
                        runtime,
                        "appearance_changed",
                        None,
                        {"mode": look["mode"], "source": look["source"]},
                    )
        if not os.path.exists(taps):
            continue
        with open(taps) as f:
            f.seek(pos)
            lines = f.readlines()
            pos = f.tell()
        for line in lines:
            words = line.split()
            if words[:1] == ["tap"] and len(words) >= 3:
                await on_tap(float(words[1]), float(words[2]))
            elif words[:1] == ["swipe"] and len(words) >= 5:
                await on_swipe(*(float(w) for w in words[1:5]))
            elif words[:2] in (["keyevent", "KEYCODE_BACK"], ["keyevent", "4"]) and visible():
                await dismiss_runtime(active, "user")  # PR `HostDismiss`


async def push_hierarchy():
    """WSS broadcasts `hierarchy_update` to every client (the largest, most frequent frame)."""
    nodes = [{"text": f"row {i}", "bounds": [0, i * 40, 360, i * 40 + 40]} for i in range(400)]
    data = json.dumps({"packageName": "com.example", "nodes": nodes})
    while True:
        await asyncio.sleep(args.hierarchy_ms / 1000)
        await broadcast({"type": "hierarchy_update", "timestamp": now_ms(), "data": data})


def refuse_unbound(connection, request):
    """No service bound, no server: the host's connection fails."""
    if bound():
        return None
    return Response(503, "Service Unavailable", Headers(), b"CtrlProxy is not bound\n")


async def main():
    if args.pidfile:
        with open(args.pidfile, "w") as f:
            f.write(str(os.getpid()))
    async with serve(
        on_client, "127.0.0.1", args.port, max_size=64 * 1024 * 1024, process_request=refuse_unbound
    ):
        print("ctrlproxy stand-in listening", flush=True)
        tasks = [asyncio.get_running_loop().create_task(watch_phone())]
        if args.hierarchy_ms:
            tasks.append(asyncio.get_running_loop().create_task(push_hierarchy()))
        await asyncio.gather(*tasks)


sys.exit(asyncio.run(main()))
