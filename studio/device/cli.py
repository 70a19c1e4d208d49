"""`proto-studio device list` and `proto-studio device show FILE [--serial S]` (one-line errors)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from studio.device import capabilities as caps
from studio.device.adb import Adb, AdbUnavailable, DeviceInfo, DeviceState
from studio.device.ctrlproxy import Asset, CtrlProxyError, DeviceShow

MIME_BY_SUFFIX = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
}


def configure_device(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    ls = sub.add_parser("list", help="list adb devices and whether they can show prototypes")
    ls.add_argument("--json", action="store_true", help="one JSON object per device")
    show = sub.add_parser("show", help="show a spec on a device through CtrlProxy")
    show.add_argument("file", type=Path)
    show.add_argument("--serial", help="the device (default: the only ready one)")
    show.add_argument("--appearance", choices=["device", "light", "dark"], default="device")
    show.add_argument(
        "--asset", action="append", default=[], metavar="ID=PATH", help="upload an image or font"
    )
    show.add_argument(
        "--seconds", type=float, default=None, help="stop after this long (default: Ctrl-C)"
    )


def run_device(args: argparse.Namespace) -> int:
    try:
        if args.action == "list":
            return asyncio.run(_list(args))
        return asyncio.run(_show(args))
    except KeyboardInterrupt:
        return 130
    except AdbUnavailable as exc:
        return _fail(str(exc), 2)


def _fail(message: str, code: int) -> int:
    print(f"proto-studio device: {message}", file=sys.stderr)
    return code


async def _list(args: argparse.Namespace) -> int:
    infos = await Adb().list_devices()
    for info in infos:
        if args.json:
            print(json.dumps(_as_json(info)))
        else:
            print(info.summary())
            if info.state is not DeviceState.READY and info.detail:
                print(f"    {info.detail}")
    if not infos and not args.json:
        print("no devices (plug in a phone with USB debugging on, or `adb connect HOST:PORT`)")
    return 0


def _as_json(info: DeviceInfo) -> dict[str, Any]:
    return {
        "serial": info.serial,
        "state": info.state.value,
        "adbState": info.adb_state,
        "model": info.model,
        "androidVersion": info.android_version,
        "sdk": info.sdk,
        "screen": list(info.screen_size) if info.screen_size else None,
        "density": info.density,
        "detail": info.detail,
    }


def _read_spec(path: Path) -> dict[str, Any]:
    """Read, validate and expand a spec file; raises ValueError with a one-line message."""
    from studio.spec import expand, validate

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read ({exc.__class__.__name__}: {exc})") from exc
    try:
        spec = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from exc
    result = validate(spec)
    if not result.ok:
        raise ValueError(f"{path}: {result.path}: {result.message}")
    expanded = expand(spec)
    if not isinstance(expanded, dict):
        raise ValueError(f"{path}: the spec is not an object")
    return expanded


def _read_assets(pairs: list[str]) -> dict[str, Asset]:
    assets = {}
    for pair in pairs:
        asset_id, sep, file = pair.partition("=")
        if not sep or not asset_id:
            raise ValueError(f"--asset {pair!r}: expected ID=PATH")
        path = Path(file)
        mime = MIME_BY_SUFFIX.get(path.suffix.lower())
        if mime is None:
            raise ValueError(
                f"--asset {pair!r}: {path.suffix or 'no suffix'} is not png, jpeg, webp, ttf or otf"
            )
        try:
            assets[asset_id] = Asset(mime, path.read_bytes())
        except OSError as exc:
            raise ValueError(f"--asset {pair!r}: cannot read ({exc.strerror})") from exc
    return assets


async def _pick(adb: Adb, serial: str | None) -> DeviceInfo:
    infos = await adb.list_devices()
    if serial:
        match = [i for i in infos if i.serial == serial]
        if not match:
            raise LookupError(
                f"no device {serial!r} (adb lists: {', '.join(i.serial for i in infos) or 'none'})"
            )
        info = match[0]
    else:
        ready = [i for i in infos if i.state is DeviceState.READY]
        if len(ready) != 1:
            names = ", ".join(i.summary() for i in infos) or "none"
            raise LookupError(
                f"{len(ready)} ready devices; pick one with --serial (adb lists: {names})"
            )
        info = ready[0]
    if info.state is not DeviceState.READY:
        raise LookupError(f"{info.serial} is {info.state.value}: {info.detail}")
    return info


async def _show(args: argparse.Namespace) -> int:
    try:
        spec = _read_spec(args.file)
        assets = _read_assets(args.asset)
    except ValueError as exc:
        return _fail(str(exc), 1 if "cannot read" not in str(exc) else 2)
    adb = Adb()
    try:
        info = await _pick(adb, args.serial)
    except LookupError as exc:
        return _fail(str(exc), 2)

    def on_event(event: dict[str, Any]) -> None:
        print(
            json.dumps(
                {k: event.get(k) for k in ("id", "sequence", "kind", "name", "payload", "state")}
            ),
            flush=True,
        )

    show = DeviceShow(adb, info.serial, on_event)
    appearance = None if args.appearance == "device" else args.appearance
    try:
        await show.open()
        print(caps.summary(show.supported)[0], file=sys.stderr)
        await show.show(spec, assets=assets, appearance=appearance)
        print(
            f"showing {spec.get('id')!r} on {info.serial}; edits to {args.file} are re-shown",
            file=sys.stderr,
        )
        await _follow(args, show, spec)
    except CtrlProxyError as exc:
        return _fail(str(exc), 1)
    finally:
        with contextlib.suppress(Exception):
            await show.close()
    return 0


async def _follow(args: argparse.Namespace, show: DeviceShow, spec: dict[str, Any]) -> None:
    """Keep the socket open (the device dismisses otherwise); re-show when the file changes, and
    after the phone dismissed it for being idle (its TTL)."""
    loop = asyncio.get_running_loop()
    deadline = None if args.seconds is None else loop.time() + args.seconds
    mtime = args.file.stat().st_mtime_ns
    pid = str(spec.get("id"))
    while deadline is None or loop.time() < deadline:
        await asyncio.sleep(0.25)
        snap = show.client.snapshots.get(pid) if show.client is not None else None
        if show.prototype_id is None and snap is not None and snap.dismissed is not None:
            reason, snap.dismissed = snap.dismissed, None
            if reason == "ttl":
                await show.show(spec)
                print("dismissed on the phone after 5 idle minutes; shown again", file=sys.stderr)
            else:
                print(
                    f"dismissed on the phone ({reason}); an edit to the file shows it again",
                    file=sys.stderr,
                )
        try:
            now = args.file.stat().st_mtime_ns
        except OSError:
            continue
        if now != mtime:
            mtime = now
            try:
                spec = _read_spec(args.file)
                await show.apply_edit(spec)
                print(f"re-shown after an edit to {args.file}", file=sys.stderr)
            except ValueError as exc:  # keep showing the last good spec
                print(f"proto-studio device: {exc}", file=sys.stderr)
