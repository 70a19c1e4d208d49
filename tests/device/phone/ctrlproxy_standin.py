# ruff: noqa: ASYNC230, ASYNC240  (a tiny device-side test double; blocking file reads are fine)
"""Device-side stand-in for AutoMobile's CtrlProxy (a test double of the phone's app, not of adb).

Runs on the "device" (through adbd's shell) and serves the prototype protocol on the device
loopback: `connected` with supportedCommands, show/put asset/inspect/dismiss -> prototype_result,
and `prototype_event` frames when the screen is tapped (`input tap` appends to the taps file).
"""

import argparse
import asyncio
import json
import os
import time

from websockets.asyncio.server import serve

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, default=8765)
ap.add_argument("--supported", default="")
ap.add_argument("--taps", default="")
ap.add_argument("--log", default="")
ap.add_argument("--pidfile", default="")
args = ap.parse_args()

SUPPORTED = [c for c in args.supported.split(",") if c]
clients = set()
assets = {}
shown = {}  # id -> {"spec", "state", "pages", "sequence"}


def log(entry):
    if args.log:
        with open(args.log, "a") as f:
            f.write(json.dumps(entry) + "\n")


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


def event(pid, kind, name, payload):
    p = shown[pid]
    p["sequence"] += 1
    return {
        "type": "prototype_event",
        "timestamp": int(time.time() * 1000),
        "id": pid,
        "sequence": p["sequence"],
        "kind": kind,
        "name": name,
        "payload": payload,
        "state": dict(p["state"]),
        "pages": dict(p["pages"]),
    }


async def broadcast(frame):
    p = shown.get(frame["id"])
    if p is not None:
        p["last_event"] = frame
    for ws in list(clients):
        try:
            await ws.send(json.dumps(frame))
        except Exception:
            pass


def handle(req):
    t = req.get("type")
    rid = req.get("requestId")
    res = {
        "type": "prototype_result",
        "requestId": rid,
        "success": True,
        "error": None,
        "totalTimeMs": 3,
    }
    if t == "put_prototype_asset":
        assets[req["id"]] = req["dataBase64"]
        log({"asset": req["id"], "mimeType": req.get("mimeType"), "dataBase64": req["dataBase64"]})
    elif t == "show_prototype":
        spec = req.get("spec") or {}
        missing = [k for k in ("id", "window", "root") if k not in spec]
        if missing:
            res.update(success=False, error=f"Invalid prototype at spec.{missing[0]}: Required")
            return res, None
        pid = spec["id"]
        old = shown.get(pid)
        keep = (
            old is not None and not req.get("reset") and "prototype_show_in_place_v1" in SUPPORTED
        )
        for other in [k for k in shown if k != pid]:  # one active prototype per device
            del shown[other]
        shown[pid] = {
            "spec": spec,
            "state": dict(spec.get("state") or {}),
            "pages": dict(old["pages"]) if keep else {},
            "sequence": old["sequence"] if old else 0,
            "last_event": None,
        }
        res["missingAssets"] = sorted({a for a in asset_refs(spec.get("root")) if a not in assets})
        log({"shown": spec, "reset": bool(req.get("reset")), "appearance": req.get("appearance")})
    elif t == "inspect_prototypes":
        res["prototypes"] = [
            {
                "id": k,
                "persistent": False,
                "state": v["state"],
                "pages": v["pages"],
                "lastSequence": v["sequence"],
            }
            for k, v in shown.items()
        ]
        res["droppedEvents"] = 0
    elif t == "dismiss_prototype":
        pid = req.get("id")
        if pid in shown:
            ev = event(pid, "dismissed", None, {"reason": "agent"})
            del shown[pid]
            log({"dismissed": pid})
            return res, ev
    else:
        res.update(success=False, error=f"Unknown command {t}")
    return res, None


async def on_client(ws):
    clients.add(ws)
    await ws.send(
        json.dumps({"type": "connected", "id": len(clients), "supportedCommands": SUPPORTED})
    )
    try:
        async for raw in ws:
            req = json.loads(raw)
            res, ev = handle(req)
            await ws.send(json.dumps(res))
            if ev is not None:
                await broadcast(ev)
            if (
                req.get("type") == "inspect_prototypes"
            ):  # replay what was pushed (hosts de-duplicate)
                for p in shown.values():
                    if p.get("last_event"):
                        await ws.send(json.dumps(p["last_event"]))
    except Exception:
        pass
    finally:
        clients.discard(ws)
        if not clients:
            for pid in list(shown):
                log({"dismissed": pid, "reason": "disconnect"})
                del shown[pid]


async def watch_taps():
    pos = 0
    while True:
        await asyncio.sleep(0.02)
        if not args.taps or not os.path.exists(args.taps):
            continue
        with open(args.taps) as f:
            f.seek(pos)
            lines = f.readlines()
            pos = f.tell()
        for line in lines:
            if not line.startswith("tap ") or not shown:
                continue
            pid = next(iter(shown))
            state = shown[pid]["state"]
            key = next((k for k, v in state.items() if isinstance(v, bool)), None)
            if key is not None:
                state[key] = not state[key]
            else:
                key = next((k for k, v in state.items() if isinstance(v, (int, float))), None)
                if key is None:
                    continue
                state[key] += 1
            await broadcast(event(pid, "emit", "change", {"key": key, "value": state[key]}))


async def main():
    if args.pidfile:
        with open(args.pidfile, "w") as f:
            f.write(str(os.getpid()))
    async with serve(on_client, "127.0.0.1", args.port, max_size=64 * 1024 * 1024):
        print("ctrlproxy stand-in listening", flush=True)
        await watch_taps()


asyncio.run(main())
