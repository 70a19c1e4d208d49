"""Android devices over adb (adbutils): the adb server, device listing, watching and probing."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import os
import re
import shlex
import socket
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import adbutils

from studio.concurrency import off_loop

CTRLPROXY_PACKAGE = "dev.jasonpearson.automobile.ctrlproxy"
#: The long component form, as Android's Settings app (SettingsLib `AccessibilityUtils`
#: `setAccessibilityServiceState`, `ComponentName.flattenToString`) and AutoMobile
#: (`src/utils/CtrlProxyManager.ts` `enableViaSettings`) write it.
CTRLPROXY_SERVICE = f"{CTRLPROXY_PACKAGE}/{CTRLPROXY_PACKAGE}.CtrlProxy"
#: The short form AccessibilityManagerService may write (`flattenToShortString`).
CTRLPROXY_SERVICE_SHORT = f"{CTRLPROXY_PACKAGE}/.CtrlProxy"
#: The package before the rename to CtrlProxy, removed on set-up (CtrlProxyManager.ts
#: `LEGACY_PACKAGE`, `uninstallLegacyPackageIfPresent`).
LEGACY_CTRLPROXY_PACKAGE = "dev.jasonpearson.automobile.accessibilityservice"
CTRLPROXY_DEVICE_PORT = 8765
#: The folder on an Android device where the shell user may write (scrcpy's server and
#: AutoMobile's video-server jar are pushed there).
DEVICE_TMP = "/data/local/tmp"


class AdbUnavailable(RuntimeError):
    """The adb server cannot be reached or started (one line, says what to do)."""


class AdbCommandFailed(RuntimeError):
    """A device command refused or failed (one line, with the device's own words)."""


class DeviceState(enum.Enum):
    """What the studio can do with a device, in the order a user fixes things."""

    UNAUTHORIZED = "unauthorized"
    OFFLINE = "offline"
    UNAVAILABLE = "unavailable"  # recovery, bootloader, "no permissions" ...
    CTRLPROXY_MISSING = "ctrlproxy missing"
    CTRLPROXY_NOT_ENABLED = "ctrlproxy not enabled"
    READY = "ready"


@dataclass(frozen=True)
class DeviceInfo:
    """One device as the studio shows it in its device list."""

    serial: str
    adb_state: str
    state: DeviceState
    model: str = ""
    android_version: str = ""
    sdk: int | None = None
    screen_size: tuple[int, int] | None = None  # pixels, portrait as the device reports it
    density: int | None = None  # dpi
    emulator: bool = False  # decides whether enabling through settings is offered
    detail: str = ""  # what the user should do next, one paragraph

    def summary(self) -> str:
        """One line for `proto-studio device list`."""
        parts = [self.serial, self.state.value]
        if self.model:
            parts.append(self.model)
        if self.android_version:
            parts.append(f"Android {self.android_version}")
        if self.screen_size:
            parts.append(f"{self.screen_size[0]}x{self.screen_size[1]}")
        if self.density:
            parts.append(f"{self.density}dpi")
        return "  ".join(parts)


@dataclass
class AdbServer:
    """Where the adb server listens (env ANDROID_ADB_SERVER_HOST/PORT, as adb itself reads)."""

    host: str = field(
        default_factory=lambda: os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1")
    )
    port: int = field(
        default_factory=lambda: int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))
    )
    adb_path: str | None = None  # None: adbutils' choice (ADBUTILS_ADB_PATH, $PATH, bundled)

    def client(self) -> adbutils.AdbClient:
        return adbutils.AdbClient(host=self.host, port=self.port)

    def executable(self) -> str:
        return self.adb_path or str(adbutils.adb_path())

    def describe(self) -> str:
        """Which adb is used and where its server listens (blocking: it may search PATH)."""
        try:
            exe = self.executable()
        except (adbutils.AdbError, OSError):
            exe = "not found"
        return f"{exe}, server {self.host}:{self.port}"

    def reachable(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=1.0):
                return True
        except OSError:
            return False

    async def ensure_started(self) -> None:
        """Start the adb server when nothing listens on its port (local servers only)."""
        if await off_loop(self.reachable):
            return
        if self.host not in {"127.0.0.1", "localhost", "::1"}:
            raise AdbUnavailable(f"adb server {self.host}:{self.port} is not reachable")
        try:
            exe = self.executable()
        except adbutils.AdbError as exc:
            raise AdbUnavailable(f"adb not found: {exc} (install Android platform-tools)") from exc
        proc = await asyncio.create_subprocess_exec(
            exe,
            "-P",
            str(self.port),
            "start-server",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await asyncio.wait_for(proc.communicate(), timeout=20)
        if proc.returncode != 0 or not await off_loop(self.reachable):
            text = out.decode(errors="replace").strip().splitlines()
            raise AdbUnavailable(
                f"adb start-server on port {self.port} failed: {text[-1] if text else proc.returncode}"
            )


_PROBE_KEYS = ("model", "release", "sdk", "qemu", "size", "density", "pm", "services")


def _probe_command() -> str:
    """One shell round trip for everything the device list shows."""
    cmds = {
        "model": "getprop ro.product.model",
        "release": "getprop ro.build.version.release",
        "sdk": "getprop ro.build.version.sdk",
        "qemu": "getprop ro.kernel.qemu",
        "size": "wm size",
        "density": "wm density",
        "pm": f"pm path {CTRLPROXY_PACKAGE}",
        "services": "settings get secure enabled_accessibility_services",
    }
    # each marker on a line of its own even after an output without a final newline
    return "; ".join(f"echo; echo @@{key}; {cmds[key]} 2>&1" for key in _PROBE_KEYS)


def _split_probe(output: str) -> dict[str, str]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.splitlines():
        if line.startswith("@@") and line[2:].strip() in _PROBE_KEYS:
            current = sections.setdefault(line[2:].strip(), [])
        elif current is not None:
            current.append(line.rstrip("\r"))
    return {k: "\n".join(v).strip() for k, v in sections.items()}


def _last_match(pattern: str, text: str) -> re.Match[str] | None:
    """`wm size` prints "Physical size" then maybe "Override size"; the override is what shows."""
    matches = list(re.finditer(pattern, text))
    return matches[-1] if matches else None


def _service_entries(services: str) -> list[str]:
    return [s.strip() for s in services.strip().split(":") if s.strip() and s.strip() != "null"]


def ctrlproxy_enabled(services: str) -> bool:
    """Whether `enabled_accessibility_services` names CtrlProxy, in either component form.

    Matched on the component's package, as AutoMobile does (CtrlProxyManager.ts `isEnabled` reads
    only this list, not `accessibility_enabled`)."""
    return any(e.split("/", 1)[0] == CTRLPROXY_PACKAGE for e in _service_entries(services))


def ctrlproxy_services_value(current_services: str) -> str:
    """The list with CtrlProxy enabled: the services already there kept, CtrlProxy's long form
    appended only when no entry names it yet (so enabling never adds a duplicate)."""
    kept = _service_entries(current_services)
    if ctrlproxy_enabled(current_services):
        return ":".join(kept)
    return ":".join([*kept, CTRLPROXY_SERVICE])


def ctrlproxy_enable_commands(serial: str, current_services: str = "") -> list[str]:
    """The adb commands that enable CtrlProxy's accessibility service, keeping the others
    (CtrlProxyManager.ts `enableViaSettings`: read, append, `accessibility_enabled 1`)."""
    base = f"adb -s {shlex.quote(serial)} shell"
    value = ctrlproxy_services_value(current_services)
    return [
        f"{base} settings get secure enabled_accessibility_services",
        f"{base} settings put secure enabled_accessibility_services {shlex.quote(value)}",
        f"{base} settings put secure accessibility_enabled 1",
    ]


def is_emulator(qemu: str, model: str) -> bool:
    """AutoMobile's rule (CtrlProxyManager.ts `isEmulator`): `ro.kernel.qemu` is 1, else the model
    names an emulator or an SDK image."""
    if qemu.strip() == "1":
        return True
    lowered = model.strip().lower()
    return "emulator" in lowered or "sdk" in lowered


def _guidance(state: DeviceState, serial: str, services: str) -> str:
    if state is DeviceState.UNAUTHORIZED:
        return (
            "Unlock the phone and accept the 'Allow USB debugging?' prompt for this computer "
            "(tick 'Always allow' so it is not asked again)."
        )
    if state is DeviceState.OFFLINE:
        return (
            "adb sees the device but cannot talk to it; reconnect the cable or run `adb reconnect`."
        )
    if state is DeviceState.CTRLPROXY_MISSING:
        return (
            f"AutoMobile's CtrlProxy ({CTRLPROXY_PACKAGE}) is not installed; install the AutoMobile "
            "CtrlProxy APK (AutoMobile installs it on first use), then enable it."
        )
    if state is DeviceState.CTRLPROXY_NOT_ENABLED:
        cmds = "; ".join(ctrlproxy_enable_commands(serial, services))
        return (
            "CtrlProxy is installed but its accessibility service is off. Enable it in Settings > "
            f"Accessibility, or run: {cmds}. Unlock the phone: a locked device does not bind the service."
        )
    if state is DeviceState.READY:
        return "Ready. If showing fails, unlock the phone: a locked device does not bind CtrlProxy."
    return ""


def device_info_from_probe(serial: str, adb_state: str, output: str | None) -> DeviceInfo:
    """Build a DeviceInfo from the adb state and, for online devices, the probe output."""
    if adb_state in {"unauthorized", "authorizing"}:  # authorizing: the prompt is showing
        state = DeviceState.UNAUTHORIZED
    elif adb_state in {"offline", "connecting"}:
        state = DeviceState.OFFLINE
    elif adb_state != "device" or output is None:
        return DeviceInfo(
            serial, adb_state, DeviceState.UNAVAILABLE, detail=f"adb state: {adb_state}"
        )
    else:
        state = DeviceState.READY
    if state is not DeviceState.READY:
        return DeviceInfo(serial, adb_state, state, detail=_guidance(state, serial, ""))
    p = _split_probe(output or "")
    size = _last_match(r"(\d+)x(\d+)", p.get("size", ""))
    density = _last_match(r"(\d+)", p.get("density", ""))
    sdk = p.get("sdk", "")
    services = p.get("services", "")
    if "package:" not in p.get("pm", ""):
        state = DeviceState.CTRLPROXY_MISSING
    elif not ctrlproxy_enabled(services):
        state = DeviceState.CTRLPROXY_NOT_ENABLED
    return DeviceInfo(
        serial=serial,
        adb_state=adb_state,
        state=state,
        model=p.get("model", ""),
        android_version=p.get("release", ""),
        sdk=int(sdk) if sdk.isdigit() else None,
        screen_size=(int(size.group(1)), int(size.group(2))) if size else None,
        density=int(density.group(1)) if density else None,
        emulator=is_emulator(p.get("qemu", ""), p.get("model", "")),
        detail=_guidance(state, serial, services),
    )


def parse_device_lines(block: str) -> list[tuple[str, str]]:
    """adb's `serial<TAB>state` lines (`host:devices`, `host:track-devices` blocks)."""
    pairs = []
    for line in block.splitlines():
        parts = line.strip().split("\t", 1)
        if len(parts) == 2:
            pairs.append((parts[0], parts[1].strip()))
    return pairs


def _check_settings_put(output: str) -> None:
    """`settings put` prints nothing on success; a refusal (a retail ROM) prints its reason."""
    text = output.strip()
    if text:
        raise AdbCommandFailed(f"settings put refused: {text.splitlines()[0][:200]}")


_WatchItem = list[tuple[str, str]] | DeviceInfo | BaseException
"""What a device watch waits for: adb's list, a `reprobe` result, or the tracker's failure."""


class Adb:
    """The studio's view of adb: async wrappers over adbutils' blocking calls (run in threads)."""

    def __init__(self, server: AdbServer | None = None, *, device_tmp: str = DEVICE_TMP):
        self.server = server or AdbServer()
        self.device_tmp = device_tmp  # the phone's shell-writable folder for pushed files
        self._client = self.server.client()
        # The running `watch_devices` generators (each on its own loop, maybe another thread):
        # `reprobe` hands them fresh infos, because adb's tracker only reports adb state changes.
        self._watchers: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[_WatchItem]]] = []
        self._watchers_lock = threading.Lock()

    @property
    def client(self) -> adbutils.AdbClient:
        return self._client

    def device(self, serial: str) -> adbutils.AdbDevice:
        return self._client.device(serial=serial)

    async def start(self) -> None:
        await self.server.ensure_started()

    def _list_sync(self) -> list[tuple[str, str]]:
        """`host:devices`, split by tab: a state such as "no permissions (user in plugdev group;
        are your udev rules wrong?)" has spaces (adbutils' own list splits on whitespace)."""
        conn = self._client.make_connection()
        try:
            conn.send_command("host:devices")
            conn.check_okay()
            return parse_device_lines(conn.read_string_block())
        finally:
            conn.close()

    def _probe_sync(self, serial: str, adb_state: str) -> DeviceInfo:
        output: str | None = None
        if adb_state == "device":
            try:
                output = str(self.device(serial).shell(_probe_command(), timeout=10))
            except (adbutils.AdbError, OSError) as exc:
                return DeviceInfo(
                    serial, adb_state, DeviceState.OFFLINE, detail=f"probe failed: {exc}"
                )
        return device_info_from_probe(serial, adb_state, output)

    async def list_devices(self) -> list[DeviceInfo]:
        """Every device adb knows, with its model, Android version, screen and state."""
        await self.start()
        try:
            pairs = await off_loop(self._list_sync)
        except (adbutils.AdbError, OSError) as exc:
            raise AdbUnavailable(
                f"adb server {self.server.host}:{self.server.port}: {exc}"
            ) from exc
        return list(await asyncio.gather(*(off_loop(self._probe_sync, s, st) for s, st in pairs)))

    async def probe(self, serial: str) -> DeviceInfo:
        for s, st in await off_loop(self._list_sync):
            if s == serial:
                return await off_loop(self._probe_sync, s, st)
        return DeviceInfo(
            serial, "absent", DeviceState.UNAVAILABLE, detail="adb does not list this device"
        )

    async def reprobe(self, serial: str) -> DeviceInfo:
        """Probe one device again now and hand the result to every running `watch_devices`.

        A device's probe is cached per (serial, adb state), and adb reports nothing when only
        the device's settings change (CtrlProxy installed or enabled), so this is how a watcher
        learns it: the watchers yield a new list when the serial is still listed in that state."""
        info = await self.probe(serial)
        self._tell_watchers(info)
        return info

    def _tell_watchers(self, info: DeviceInfo) -> None:
        with self._watchers_lock:
            watchers = list(self._watchers)
        for loop, queue in watchers:
            with contextlib.suppress(RuntimeError):  # that watcher's loop has closed
                loop.call_soon_threadsafe(queue.put_nowait, info)

    async def watch_devices(self) -> AsyncIterator[list[DeviceInfo]]:
        """Yield the full device list now and after every change adb reports (host:track-devices)
        or `reprobe` finds.

        The blocking tracker runs in a thread; closing the generator closes its connection.
        """
        await self.start()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[_WatchItem] = asyncio.Queue()
        conn = self._client.make_connection()
        try:
            conn.send_command("host:track-devices")
            conn.check_okay()
        except BaseException:
            conn.close()
            raise
        stop = threading.Event()

        def reader() -> None:
            try:
                while not stop.is_set():
                    pairs = parse_device_lines(conn.read_string_block())
                    loop.call_soon_threadsafe(queue.put_nowait, pairs)
            except BaseException as exc:  # closed by us, or adb server died
                if not stop.is_set():
                    with contextlib.suppress(RuntimeError):  # loop already closed
                        loop.call_soon_threadsafe(queue.put_nowait, exc)

        thread = threading.Thread(target=reader, name="adb-track-devices", daemon=True)
        thread.start()
        known: dict[tuple[str, str], DeviceInfo] = {}
        pairs: list[tuple[str, str]] = []
        watcher = (loop, queue)
        with self._watchers_lock:
            self._watchers.append(watcher)
        try:
            while True:
                item = await queue.get()
                if isinstance(item, BaseException):
                    raise AdbUnavailable(f"adb server stopped tracking devices: {item}")
                if isinstance(item, DeviceInfo):  # from reprobe
                    key = (item.serial, item.adb_state)
                    if key not in pairs or known.get(key) == item:
                        continue  # not listed in that state (any more), or nothing new
                    known[key] = item
                else:
                    pairs = item
                infos = []
                for serial, st in pairs:
                    info = known.get((serial, st))
                    if info is None:
                        info = await off_loop(self._probe_sync, serial, st)
                    infos.append(info)
                known = {(i.serial, i.adb_state): i for i in infos}
                yield infos
        finally:
            with self._watchers_lock:
                self._watchers.remove(watcher)
            stop.set()
            with contextlib.suppress(OSError):  # close() alone does not wake a blocked recv
                conn.conn.shutdown(socket.SHUT_RDWR)
            conn.close()
            await off_loop(thread.join, 2.0)

    # ---- device commands used by the CtrlProxy client and the mirror -------------------------

    async def shell(self, serial: str, cmd: str, limit_s: float = 10.0) -> str:
        return str(await off_loop(self.device(serial).shell, cmd, timeout=limit_s))

    def forward_free_port_blocking(self, serial: str, remote: str) -> int:
        """`adb forward tcp:<free host port> <remote>`; returns the host port. Blocking."""
        with socket.socket() as s:  # probe a free port just before forwarding, as AutoMobile does
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        self.device(serial).forward(f"tcp:{port}", remote)
        return port

    async def forward_free_port(self, serial: str, remote: str) -> int:
        return await off_loop(self.forward_free_port_blocking, serial, remote)

    async def forward_remove(self, serial: str, port: int) -> None:
        with contextlib.suppress(adbutils.AdbError, OSError):
            await off_loop(self.device(serial).forward_remove, f"tcp:{port}", False)

    def open_exec(self, serial: str, cmd: str) -> adbutils.AdbConnection:
        """A raw `exec:` stream (what `adb exec-out` uses: no pty, binary safe). Blocking."""
        conn = self.device(serial).open_transport(timeout=None)
        try:
            conn.send_command("exec:" + cmd)
            conn.check_okay()
        except BaseException:
            conn.close()  # adb refused (device gone, bad command): never leak the socket
            raise
        return conn

    def exec_out_blocking(self, serial: str, cmd: str, limit_s: float = 10.0) -> bytes:
        """`adb exec-out CMD`: everything it writes, until it exits. Blocking."""
        conn = self.open_exec(serial, cmd)
        try:
            conn.conn.settimeout(limit_s)
            data = conn.read_until_close(encoding=None)
            return data if isinstance(data, bytes) else data.encode()
        finally:
            conn.close()

    def push_if_changed(self, serial: str, data: bytes, device_path: str) -> bool:
        """Push `data` unless the device already has the same file (size, then `sha256sum`);
        True when pushed. Blocking."""
        dev = self.device(serial)
        try:
            remote_size = dev.sync.stat(device_path).size
        except (adbutils.AdbError, OSError):
            remote_size = -1
        if remote_size == len(data):
            digest = hashlib.sha256(data).hexdigest()
            out = str(dev.shell(f"sha256sum {shlex.quote(device_path)} 2>&1", timeout=10))
            if out.split()[:1] == [digest]:
                return False
        dev.sync.push(data, device_path, mode=0o644)
        return True

    async def tap(self, serial: str, x: int, y: int) -> None:
        await self.shell(serial, f"input tap {int(x)} {int(y)}")

    async def key(self, serial: str, keycode: int) -> None:
        """Press and release one key (AOSP InputShellCommand.java `input keyevent CODE`)."""
        await self.shell(serial, f"input keyevent {int(keycode)}")

    async def swipe(
        self, serial: str, x1: int, y1: int, x2: int, y2: int, duration_ms: int
    ) -> None:
        await self.shell(
            serial, f"input swipe {int(x1)} {int(y1)} {int(x2)} {int(y2)} {int(duration_ms)}"
        )

    async def enable_ctrlproxy(self, serial: str) -> DeviceInfo:
        """Enable CtrlProxy's service through settings, as AutoMobile does on emulators
        (CtrlProxyManager.ts `enableViaSettings`); then probe again."""
        current = (
            await self.shell(serial, "settings get secure enabled_accessibility_services")
        ).strip()
        value = ctrlproxy_services_value(current)
        if value != ":".join(_service_entries(current)):
            out = await self.shell(
                serial, f"settings put secure enabled_accessibility_services {shlex.quote(value)}"
            )
            _check_settings_put(out)
        _check_settings_put(await self.shell(serial, "settings put secure accessibility_enabled 1"))
        return await self.reprobe(serial)
