"""Device listing, states and watching through adbutils against a fake adb host-protocol server."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable, Iterator

import pytest

from studio.device.adb import (
    CTRLPROXY_PACKAGE,
    CTRLPROXY_SERVICE,
    CTRLPROXY_SERVICE_SHORT,
    Adb,
    AdbServer,
    DeviceState,
    ctrlproxy_enable_commands,
    ctrlproxy_enabled,
)
from tests.device.fake_adb_server import FakeAdbServer, FakeDevice


def android_shell(
    *,
    model: str = "Pixel 8",
    release: str = "14",
    sdk: str = "34",
    size: str = "Physical size: 1080x2400",
    density: str = "Physical density: 420",
    installed: bool = True,
    services: str = f"com.other/.Svc:{CTRLPROXY_SERVICE}",
    qemu: str = "",
) -> Callable[[str], str]:
    """A scripted Android shell answering the commands the probe runs (one per `;`)."""
    props = {
        "ro.product.model": model,
        "ro.build.version.release": release,
        "ro.build.version.sdk": sdk,
        "ro.kernel.qemu": qemu,
    }

    def run(cmdline: str) -> str:
        out = []
        for part in cmdline.split(";"):
            cmd = part.replace("2>&1", "").strip()
            if cmd.startswith("echo "):
                out.append(cmd[5:])
            elif cmd.startswith("getprop "):
                out.append(props.get(cmd.split()[1], ""))
            elif cmd == "wm size":
                out.append(size)
            elif cmd == "wm density":
                out.append(density)
            elif cmd.startswith("pm path "):
                out.append("package:/data/app/base.apk" if installed else "")
            elif cmd == "settings get secure enabled_accessibility_services":
                out.append(services)
        return "\n".join(out) + "\n"

    return run


@pytest.fixture
def fake_adb() -> Iterator[FakeAdbServer]:
    server = FakeAdbServer()
    yield server
    server.close()


def _adb(server: FakeAdbServer) -> Adb:
    return Adb(AdbServer(host="127.0.0.1", port=server.port))


def test_lists_every_state_with_model_version_screen_and_density(fake_adb: FakeAdbServer) -> None:
    fake_adb.set_devices(
        [
            FakeDevice("ready1", shell=android_shell()),
            FakeDevice("locked1", "unauthorized"),
            FakeDevice("gone1", "offline"),
            FakeDevice("noapk1", shell=android_shell(installed=False)),
            FakeDevice("off1", shell=android_shell(services="com.other/.Svc", model="Galaxy")),
            FakeDevice("short1", shell=android_shell(services=CTRLPROXY_SERVICE_SHORT)),
            FakeDevice("emu1", shell=android_shell(model="sdk_gphone64_x86_64")),
            FakeDevice("emu2", shell=android_shell(qemu="1", model="Pixel 9")),
            FakeDevice(
                "plug1", "no permissions (user in plugdev group; are your udev rules wrong?)"
            ),
            FakeDevice("auth1", "authorizing"),
            FakeDevice(
                "override1",
                shell=android_shell(
                    size="Physical size: 1080x2400\nOverride size: 720x1600",
                    density="Physical density: 420\nOverride density: 280",
                ),
            ),
        ]
    )
    infos = {i.serial: i for i in asyncio.run(_adb(fake_adb).list_devices())}
    ready = infos["ready1"]
    assert ready.state is DeviceState.READY
    assert (ready.model, ready.android_version, ready.sdk) == ("Pixel 8", "14", 34)
    assert ready.screen_size == (1080, 2400) and ready.density == 420
    assert infos["locked1"].state is DeviceState.UNAUTHORIZED
    assert "USB debugging" in infos["locked1"].detail
    assert infos["gone1"].state is DeviceState.OFFLINE
    assert infos["noapk1"].state is DeviceState.CTRLPROXY_MISSING
    assert "not installed" in infos["noapk1"].detail
    off = infos["off1"]
    assert off.state is DeviceState.CTRLPROXY_NOT_ENABLED
    # the guidance gives the exact commands, keeping the accessibility services already enabled
    assert (
        f"settings put secure enabled_accessibility_services com.other/.Svc:{CTRLPROXY_SERVICE}"
        in off.detail
    )
    assert "accessibility_enabled 1" in off.detail and "locked" in off.detail
    # either component form counts as enabled (issue 15 point 1; CtrlProxyManager.ts `isEnabled`)
    assert infos["ready1"].state is DeviceState.READY  # the long form, as Settings writes it
    assert infos["short1"].state is DeviceState.READY
    # emulators by ro.kernel.qemu, else the model (CtrlProxyManager.ts `isEmulator`)
    assert [infos[s].emulator for s in ("ready1", "emu1", "emu2")] == [False, True, True]
    # adb's state text is split by tab, not by space (issue 15 point 7)
    plug = infos["plug1"]
    assert plug.state is DeviceState.UNAVAILABLE
    assert plug.adb_state == "no permissions (user in plugdev group; are your udev rules wrong?)"
    # authorizing: the phone shows the prompt, so the user is told to accept it
    assert infos["auth1"].state is DeviceState.UNAUTHORIZED
    assert "accept the 'Allow USB debugging?' prompt" in infos["auth1"].detail
    assert infos["override1"].screen_size == (720, 1600) and infos["override1"].density == 280
    assert ready.summary() == "ready1  ready  Pixel 8  Android 14  1080x2400  420dpi"


def test_watch_reports_devices_appearing_changing_and_leaving(fake_adb: FakeAdbServer) -> None:
    adb = _adb(fake_adb)

    async def scenario() -> list[list[tuple[str, DeviceState]]]:
        seen: list[list[tuple[str, DeviceState]]] = []
        gen = adb.watch_devices()
        try:
            seen.append([(i.serial, i.state) for i in await anext(gen)])
            fake_adb.set_devices([FakeDevice("p1", "unauthorized")])
            seen.append([(i.serial, i.state) for i in await anext(gen)])
            fake_adb.set_devices([FakeDevice("p1", shell=android_shell())])
            seen.append([(i.serial, i.state) for i in await anext(gen)])
            fake_adb.set_devices([])
            seen.append([(i.serial, i.state) for i in await anext(gen)])
        finally:
            await gen.aclose()
        return seen

    seen = asyncio.run(asyncio.wait_for(scenario(), 10))
    assert seen == [
        [],
        [("p1", DeviceState.UNAUTHORIZED)],
        [("p1", DeviceState.READY)],
        [],
    ]


def test_unreachable_server_gives_one_line_error() -> None:
    import socket

    from studio.device.adb import AdbUnavailable

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    adb = Adb(AdbServer(host="10.255.255.1", port=port))  # not local: never started by us
    with pytest.raises(AdbUnavailable, match="not reachable") as err:
        asyncio.run(adb.list_devices())
    assert "\n" not in str(err.value)


def test_the_adb_server_is_started_when_nothing_listens() -> None:
    import socket
    import subprocess

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = AdbServer(host="127.0.0.1", port=port)
    assert not server.reachable()
    try:
        assert asyncio.run(Adb(server).list_devices()) == []
        assert server.reachable()
    finally:
        subprocess.run(
            [server.executable(), "-P", str(port), "kill-server"], capture_output=True, timeout=10
        )


def test_reprobe_refreshes_a_watched_device_whose_adb_state_did_not_change(
    fake_adb: FakeAdbServer,
) -> None:
    """Enabling CtrlProxy changes nothing adb tracks: `reprobe` tells the watch, which yields the
    device as ready (its cached probe is replaced); an unlisted serial changes nothing."""
    fake_adb.set_devices([FakeDevice("p1", shell=android_shell(services="com.other/.Svc"))])
    adb = _adb(fake_adb)

    async def scenario() -> list[list[tuple[str, DeviceState]]]:
        seen: list[list[tuple[str, DeviceState]]] = []
        gen = adb.watch_devices()
        try:
            seen.append([(i.serial, i.state) for i in await anext(gen)])
            fake_adb.devices[0].shell = android_shell()  # the user enabled it in Settings
            assert (await adb.reprobe("p1")).state is DeviceState.READY
            seen.append([(i.serial, i.state) for i in await asyncio.wait_for(anext(gen), 5)])
            assert (await adb.reprobe("nope")).state is DeviceState.UNAVAILABLE
            fake_adb.set_devices([*fake_adb.devices, FakeDevice("p2", "unauthorized")])
            # the next list is adb's change, not a list for the unknown serial
            seen.append([(i.serial, i.state) for i in await asyncio.wait_for(anext(gen), 5)])
        finally:
            await gen.aclose()
        return seen

    seen = asyncio.run(asyncio.wait_for(scenario(), 10))
    assert seen == [
        [("p1", DeviceState.CTRLPROXY_NOT_ENABLED)],
        [("p1", DeviceState.READY)],
        [("p1", DeviceState.READY), ("p2", DeviceState.UNAUTHORIZED)],
    ]


@pytest.mark.parametrize(
    ("services", "enabled", "value"),
    [
        ("null", False, CTRLPROXY_SERVICE),
        ("", False, CTRLPROXY_SERVICE),
        ("com.other/.Svc", False, f"com.other/.Svc:{CTRLPROXY_SERVICE}"),
        (CTRLPROXY_SERVICE, True, CTRLPROXY_SERVICE),
        (
            f"com.other/.Svc:{CTRLPROXY_SERVICE_SHORT}",
            True,
            f"com.other/.Svc:{CTRLPROXY_SERVICE_SHORT}",
        ),
        (f"{CTRLPROXY_PACKAGE}x/.Other", False, f"{CTRLPROXY_PACKAGE}x/.Other:{CTRLPROXY_SERVICE}"),
    ],
)
def test_enabled_matches_the_package_and_enabling_never_duplicates(
    services: str, enabled: bool, value: str
) -> None:
    assert ctrlproxy_enabled(services) is enabled
    put = shlex.split(ctrlproxy_enable_commands("S1", services)[1])
    assert put[-2:] == ["enabled_accessibility_services", value]
    assert value.count(f"{CTRLPROXY_PACKAGE}/") == 1  # never a second CtrlProxy entry
