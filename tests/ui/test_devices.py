"""Phones in the studio window: the device picker (fake adb host-protocol server), guidance for
devices that are not ready, and end to end over a real adb server and adbd with the CtrlProxy,
screenrecord and input stand-ins: choose the phone, see it show and mirror the prototype, tap it,
edit, switch back."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication

from studio.device.adb import CTRLPROXY_SERVICE, Adb, AdbServer, ctrlproxy_enable_commands
from studio.device.mirror import MirrorState
from studio.ui.device_picker import ADB_PROBLEM
from studio.ui.devices import BUILTIN, NO_PHONE, NO_PHONE_LABEL, DeviceManager
from studio.ui.preview_pane import PreviewPane
from tests.device import media
from tests.device.fake_adb_server import FakeAdbServer, FakeDevice
from tests.device.fixtures import Phone, StandIn
from tests.device.test_adb_listing import android_shell
from tests.device.test_real_adb import SPEC
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.helpers.studio import StudioHarness as Studio
from tests.helpers.waiting import run_until as wait_until

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)


# ---- unit level: a fake adb server ---------------------------------------------------------------


@pytest.fixture
def fake_adb() -> Iterator[FakeAdbServer]:
    server = FakeAdbServer()
    server.set_devices(
        [
            FakeDevice("ready1", shell=android_shell()),
            FakeDevice("locked1", "unauthorized"),
            FakeDevice("gone1", "offline"),
            FakeDevice("noapk1", shell=android_shell(installed=False)),
            FakeDevice("off1", shell=android_shell(services="com.other/.Svc", model="Galaxy")),
            FakeDevice("emu1", shell=android_shell(services="null", model="sdk_gphone64_x86_64")),
        ]
    )
    yield server
    server.close()


@pytest.fixture
def devices(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, fake_adb: FakeAdbServer
) -> Iterator[DeviceManager]:
    pane = PreviewPane(deferred=True)  # the toolbar and centre, without the Qt Quick preview
    qtbot.addWidget(pane)
    pane.show()
    manager = DeviceManager(pane, Adb(AdbServer(host="127.0.0.1", port=fake_adb.port)), pane)
    manager.start()
    yield manager
    qloop.run_until_complete(manager.aclose())


def test_picker_lists_every_device_with_its_state_and_follows_adb(
    qloop: asyncio.AbstractEventLoop, devices: DeviceManager, fake_adb: FakeAdbServer
) -> None:
    picker = devices.picker
    wait_until(qloop, lambda: picker.count() == 7)
    assert picker.labels() == [
        "Built-in preview",
        "Pixel 8 (ready1) · ready",
        "locked1 · unauthorized",
        "gone1 · offline",
        "Pixel 8 (noapk1) · CtrlProxy missing",
        "Galaxy (off1) · not enabled",
        "sdk_gphone64_x86_64 (emu1) · not enabled",
    ]
    assert picker.current_serial() == BUILTIN
    assert "USB debugging" in picker.itemData(2, Qt.ItemDataRole.ToolTipRole)
    # adb reports changes through host:track-devices: the list follows without a click
    fake_adb.set_devices([FakeDevice("locked1", shell=android_shell(model="Pixel 7"))])
    wait_until(qloop, lambda: picker.count() == 2)
    assert picker.labels() == ["Built-in preview", "Pixel 7 (locked1) · ready"]
    fake_adb.set_devices([FakeDevice("locked1", "authorizing")])  # the prompt is on the phone
    wait_until(qloop, lambda: "locked1 · accept the prompt on the phone" in picker.labels())


def test_not_ready_devices_show_guidance_with_the_adb_commands(
    qloop: asyncio.AbstractEventLoop, devices: DeviceManager, fake_adb: FakeAdbServer
) -> None:
    picker, page, pane = devices.picker, devices.page, devices.pane
    wait_until(qloop, lambda: picker.count() == 7)
    guidance = page.guidance

    picker.choose("off1")
    assert pane.centre.currentWidget() is page and not guidance.isHidden()
    assert guidance.title.text() == "CtrlProxy is not enabled on Galaxy"
    # a physical phone: its user turns the service on in Settings (AutoMobile's rule)
    assert "Settings > Accessibility > AutoMobile CtrlProxy" in guidance.detail.text()
    assert "a locked phone does not start the service" in guidance.detail.text()
    assert guidance.enable_button.isHidden() and guidance.install_button.isHidden()
    # the commands keep the accessibility services already enabled (read from the device)
    wait_until(qloop, lambda: "(reading the device…)" not in guidance.command_lines())
    assert guidance.command_lines() == ctrlproxy_enable_commands("off1", "com.other/.Svc")
    assert (
        f"settings put secure enabled_accessibility_services com.other/.Svc:{CTRLPROXY_SERVICE}"
        in guidance.command_lines()[1]
    )
    guidance.copy_button.click()
    assert QGuiApplication.clipboard().text().splitlines() == guidance.command_lines()
    assert not pane.device_combo.isEnabled()  # the built-in preview's controls are off

    picker.choose("locked1")
    assert guidance.title.text() == "locked1 has not allowed USB debugging"
    assert "adb -s locked1 reconnect" in guidance.command_lines()
    assert guidance.enable_button.isHidden()
    picker.choose("noapk1")
    assert guidance.command_lines()[0].startswith(
        "adb -s noapk1 install -r -d control-proxy-debug.apk"
    )
    assert not guidance.install_button.isHidden()
    # no pinned CtrlProxy with prototypes yet (docs/devices.md): it says so instead of downloading
    guidance.install_button.click()
    assert not guidance.download.isHidden() and guidance.download.button.isHidden()
    assert "No CtrlProxy with prototype support is pinned" in guidance.download.label.text()
    picker.choose("emu1")  # an emulator: enabling through settings is offered
    wait_until(qloop, lambda: "(reading the device…)" not in guidance.command_lines())
    assert not guidance.enable_button.isHidden()
    assert "On an emulator the studio can turn it on" in guidance.detail.text()

    picker.choose(BUILTIN)
    assert pane.centre.currentWidget() is pane.placeholder and pane.device_combo.isEnabled()


def test_retry_probes_again_and_a_ready_device_that_cannot_be_reached_says_why(
    qloop: asyncio.AbstractEventLoop, devices: DeviceManager, fake_adb: FakeAdbServer
) -> None:
    picker, guidance = devices.picker, devices.page.guidance
    wait_until(qloop, lambda: picker.count() == 7)
    picker.choose("off1")
    # the user enables the service in Settings; adb sees no change, so they press Retry
    fake_adb.devices[4].shell = android_shell(model="Galaxy")
    guidance.retry_button.click()
    wait_until(qloop, lambda: "Galaxy (off1) · ready" in picker.labels())
    assert devices.session is not None and devices.session.serial == "off1"
    assert devices.page.mirror is devices.session.view
    # this fake adb refuses `forward`, so CtrlProxy is unreachable: the locked-phone guidance
    wait_until(qloop, lambda: guidance.title.text() == "CtrlProxy on Galaxy did not answer")
    assert "adb -s off1 shell input keyevent KEYCODE_WAKEUP" in guidance.command_lines()
    assert "a locked phone does not bind" in guidance.detail.text()


def test_unplugging_the_chosen_device_goes_back_to_the_built_in_preview(
    qloop: asyncio.AbstractEventLoop, devices: DeviceManager, fake_adb: FakeAdbServer
) -> None:
    picker, pane = devices.picker, devices.pane
    errors: list[str] = []
    devices.errorMessage.connect(errors.append)
    wait_until(qloop, lambda: picker.count() == 7)
    picker.choose("ready1")
    session = devices.session
    assert session is not None and pane.centre.currentWidget() is devices.page
    wait_until(qloop, lambda: any(f.startswith("forward:tcp:") for f in fake_adb.forwards))
    # this fake has no screen: the mirror gives up (adbutils leaks a socket when a transport is
    # refused, so the cable is pulled only once the mirror has stopped asking)
    wait_until(
        qloop,
        lambda: session.mirror is not None and session.mirror.status.state is MirrorState.FAILED,
    )
    fake_adb.set_devices([])  # the cable is pulled
    wait_until(qloop, lambda: picker.labels() == ["Built-in preview", "No phone found"])
    qloop.run_until_complete(devices.idle())
    assert devices.session is None and picker.current_serial() == BUILTIN
    assert pane.centre.currentWidget() is pane.placeholder
    assert errors[-1] == "ready1 was disconnected; back to the built-in preview"
    assert session.mirror is not None and session.mirror.status.state is MirrorState.STOPPED


def test_no_phone_says_so_with_the_steps_and_refresh_asks_adb_again(
    qloop: asyncio.AbstractEventLoop, devices: DeviceManager, fake_adb: FakeAdbServer
) -> None:
    """Issue 14: with no phone the picker says "No phone found", with the steps and Refresh."""
    picker, guidance = devices.picker, devices.page.guidance
    wait_until(qloop, lambda: picker.count() == 7)  # probed (a probe of an unplugged phone
    fake_adb.set_devices([])  # makes adbutils leak its socket)
    wait_until(qloop, lambda: picker.labels() == ["Built-in preview", NO_PHONE_LABEL])
    picker.choose(NO_PHONE)
    assert devices.pane.centre.currentWidget() is devices.page and not guidance.isHidden()
    assert guidance.title.text() == "No phone found"
    wait_until(qloop, lambda: "looking it up" not in guidance.detail.text())
    steps = guidance.detail.text()
    for step in ("USB debugging", "Allow USB debugging?", "emulator", "adb in use:"):
        assert step in steps
    assert f"server 127.0.0.1:{fake_adb.port}" in steps  # where adb is
    assert guidance.retry_button.text() == "Refresh"
    watches = fake_adb.commands.count("host:track-devices")
    guidance.retry_button.click()  # Refresh: adb is asked again
    wait_until(qloop, lambda: fake_adb.commands.count("host:track-devices") > watches)
    fake_adb.set_devices([FakeDevice("p1", shell=android_shell())])  # plugged in
    wait_until(qloop, lambda: "Pixel 8 (p1) · ready" in picker.labels())
    assert NO_PHONE_LABEL not in picker.labels()


def test_without_adb_the_picker_says_how_to_get_it(
    qloop: asyncio.AbstractEventLoop, qtbot: Any
) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pane = PreviewPane(deferred=True)
    qtbot.addWidget(pane)
    # a server that is not local and does not answer: never started, never reached
    manager = DeviceManager(pane, Adb(AdbServer(host="10.255.255.1", port=port)), pane)
    errors: list[str] = []
    manager.errorMessage.connect(errors.append)
    manager.start()
    try:
        wait_until(qloop, lambda: "adb unavailable" in manager.picker.labels(), timeout=15)
        manager.picker.choose(ADB_PROBLEM)
        guidance = manager.page.guidance
        assert guidance.title.text() == "adb is not available"
        text = guidance.detail.text()
        assert "not reachable" in text and "platform-tools" in text
        assert "sudo apt install adb" in text and "brew install android-platform-tools" in text
        assert guidance.retry_button.text() == "Refresh"
        assert errors and errors[0].startswith("Devices: adb server 10.255.255.1")
    finally:
        qloop.run_until_complete(manager.aclose())


# ---- end to end: a real adb server and adbd with the phone's stand-ins --------------------------


def _ctrlproxy_log(phone: Phone) -> list[dict[str, Any]]:
    return [
        e for e in phone.log("ctrlproxy.log") if "shown" in e or "asset" in e or "dismissed" in e
    ]


def _shown(phone: Phone) -> list[dict[str, Any]]:
    return [e["shown"] for e in _ctrlproxy_log(phone) if "shown" in e]


def _dismissals(phone: Phone) -> list[Any]:
    return [e for e in _ctrlproxy_log(phone) if "dismissed" in e]


def _mean(image: np.ndarray) -> np.ndarray:
    return image.reshape(-1, 3).mean(axis=0)


@contextlib.contextmanager
def studio_on(
    make_studio: Callable[..., Studio],
    phone: Phone,
    spec: dict[str, Any] = SPEC,
    assets: dict[str, bytes] | None = None,
) -> Iterator[Studio]:
    """The real studio window (the studio fixture) with the prototype `spec` open (a library
    entry with `assets` when given, else an imported file), its phones reached through the
    stand-in phone's adb server; the fixture closes it in the app's order."""
    studio = make_studio(adb=phone.adb)
    controller, library = studio.controller, studio.library
    if assets is None:
        spec_file = library.folder.parent / "likes.json"
        spec_file.write_text(json.dumps(spec), encoding="utf-8")
        controller.import_files([spec_file])
    else:
        entry = library.create("Likes", spec, "file", assets)
        controller.open_entry(entry.id)
    studio.settle()
    studio.wait_for(lambda: controller.document is not None)
    assert controller.document is not None and controller.document.spec["id"] == spec["id"]
    yield studio


@pytest.fixture
def phone_studio(make_studio: Callable[..., Studio], fresh_phone: Phone) -> Iterator[Studio]:
    with studio_on(make_studio, fresh_phone) as studio:
        yield studio


def test_phone_shows_mirrors_taps_reshows_edits_and_dismisses(
    phone_studio: Studio, fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn], qtbot: Any
) -> None:
    start_ctrlproxy()
    studio, loop = phone_studio, phone_studio.loop
    devices, pane = studio.window.devices, studio.window.preview_pane
    serial = fresh_phone.serial
    wait_until(loop, lambda: serial in devices.picker.devices)
    assert f"Stand-in Pixel ({serial}) · ready" in devices.picker.labels()

    devices.picker.choose(serial)  # the designer picks the phone in the preview toolbar
    session = devices.session
    assert session is not None
    wait_until(loop, lambda: session.shows == 1)
    assert _shown(fresh_phone) == [SPEC]  # the open prototype, shown natively
    assert "Showing 'likes'" in studio.status
    assert pane.centre.currentWidget() is devices.page
    view = session.view
    assert devices.page.mirror is view and view.isVisible()

    # the mirror shows the phone's screen: screenrecord's known frames end on blue
    def blue() -> bool:
        frame = view.frame
        return frame is not None and media.near(media.mean_color(frame), media.BLUE)

    wait_until(loop, blue)
    wait_until(loop, lambda: view.status.state is MirrorState.STREAMING and view.status.fps > 0)
    rect = view.image_rect()
    assert abs(rect.width() / rect.height() - 360 / 800) < 0.01
    assert "fps" in view.overlay_text() and view.notice_text() == ""
    assert view.status.mode == "h264 (screenrecord)"
    # what the connected CtrlProxy advertises
    line = devices.page.capabilities.text()
    assert line.startswith("CtrlProxy: prototypes, in-place re-show, appearance, theme modes")
    assert "prototype_persistence_replay_v1" in devices.page.capabilities.toolTip()

    # a click on the mirror's Like button (the lower half) taps the phone; its event is logged
    at = QPoint(int(rect.center().x()), int(rect.y() + rect.height() * 0.75))
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=at)
    wait_until(loop, lambda: any(line.startswith("device: ") for line in pane.log_lines()))
    viewport = view.viewport()
    assert viewport is not None
    x, y = viewport.to_device(at.x(), at.y()) or (-1, -1)
    assert abs(x - 180) <= 2 and abs(y - 600) <= 2  # on the 360x800 screen
    assert fresh_phone.read("taps.log").splitlines() == [f"tap {x} {y}"]
    assert pane.log_lines()[-1] == 'device: #1 emit change {"key": "liked", "value": true}'

    # an edit (as the inspector makes it) is re-shown in place with the phone's state merged in
    document = studio.controller.document
    assert document is not None
    document.apply_ops(
        [
            {
                "op": "replaceNode",
                "id": "title",
                "node": {**SPEC["root"]["children"][0], "text": "Hi"},
            }
        ]
    )
    wait_until(loop, lambda: session.shows == 2)
    shown = _shown(fresh_phone)
    assert shown[1]["root"]["children"][0]["text"] == "Hi"
    assert shown[1]["state"] == {"liked": True, "count": 3}  # the tap on the phone survived
    assert "Re-shown 'likes'" in studio.status
    document.undo()  # undo is re-shown too
    wait_until(loop, lambda: session.shows == 3)
    assert _shown(fresh_phone)[2]["root"]["children"][0]["text"] == "Hello"
    assert _dismissals(fresh_phone) == []  # in place, no restart

    # back to the built-in preview: dismissed on the phone, mirror stopped
    devices.picker.choose(BUILTIN)
    loop.run_until_complete(devices.idle())
    assert {"dismissed": "likes", "reason": "agent"} in _ctrlproxy_log(fresh_phone)
    assert devices.session is None and session.mirror is not None
    assert session.mirror.status.state is MirrorState.STOPPED
    assert pane.centre.currentWidget() is pane.preview and pane.device_combo.isEnabled()


def test_a_spec_with_studio_extensions_is_refused_with_the_place(
    phone_studio: Studio, fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy(without=("prototype_platform_test_v1",))  # no studio platform modules
    studio, loop = phone_studio, phone_studio.loop
    devices = studio.window.devices
    wait_until(loop, lambda: fresh_phone.serial in devices.picker.devices)
    document = studio.controller.document
    assert document is not None
    document.replace_spec({**SPEC, "requires": {"platform": ["test"]}}, summary="needs test")
    studio.settle()
    devices.picker.choose(fresh_phone.serial)
    wait_until(loop, lambda: bool(devices.page.banner_lines()))
    banner = devices.page.banner_lines()
    assert banner[0] == f"Not shown on {fresh_phone.serial}:"
    assert banner[1] == (
        "requires.platform[0]: uses the studio platform module 'test', which this device does "
        "not advertise (prototype_platform_test_v1)"
    )
    assert "requires.platform[0]" in studio.status and "\n" not in studio.status
    assert _shown(fresh_phone) == []  # nothing reached the phone
    # the designer removes the extension: the next revision shows, the banner goes
    document.replace_spec(dict(SPEC), summary="no extension")
    assert devices.session is not None
    wait_until(loop, lambda: devices.session is not None and devices.session.shows == 1)
    assert devices.page.banner_lines() == [] and _shown(fresh_phone) == [SPEC]


def test_a_floating_spec_anchored_below_its_root_is_refused_before_it_is_sent(
    phone_studio: Studio, fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    # AutoMobile's host refuses it whatever the device advertises (prototypeTools.ts
    # `assertAnchorsShowable`, prototypeAnchors.ts `prototypeAnchorPlacementError`): the studio,
    # which is the host here, does too, with the place, in the device panel and the status line.
    start_ctrlproxy()  # prototype_anchor_v1 included
    studio, loop = phone_studio, phone_studio.loop
    devices = studio.window.devices
    wait_until(loop, lambda: fresh_phone.serial in devices.picker.devices)
    document = studio.controller.document
    assert document is not None
    anchor = {"type": "bounds", "bounds": {"x": 10, "y": 20, "width": 40, "height": 40}}
    badge = {**SPEC["root"]["children"][0], "anchor": anchor}
    floating = {"placement": {"type": "floating", "gravity": "center", "offset": {"x": 0, "y": 0}}}
    root = {**SPEC["root"], "children": [badge, *SPEC["root"]["children"][1:]]}
    document.replace_spec({**SPEC, "window": floating, "root": root}, summary="anchored")
    studio.settle()
    line = (
        "root.children[0].anchor: a floating window can anchor only its root (the window moves "
        "onto it), so the phone shows nothing; anchor the root, or use a fullscreen or sheet "
        "placement"
    )
    # the built-in preview already says so, and shows no window
    assert studio.window.preview_pane.refusal_text() == f"Not shown: {line}"
    devices.picker.choose(fresh_phone.serial)
    wait_until(loop, lambda: bool(devices.page.banner_lines()))
    assert devices.page.banner_lines() == [f"Not shown on {fresh_phone.serial}:", line]
    assert line in studio.status and "\n" not in studio.status
    assert _shown(fresh_phone) == []  # nothing reached the phone
    # the designer anchors the root instead, as the line says: shown, the banners go
    fixed = {**SPEC, "window": floating, "root": {**SPEC["root"], "anchor": anchor}}
    document.replace_spec(fixed, summary="root anchored")
    wait_until(loop, lambda: devices.session is not None and devices.session.shows == 1)
    assert devices.page.banner_lines() == [] and _shown(fresh_phone) == [fixed]
    assert studio.window.preview_pane.refusal_text() == ""


def test_a_locked_phone_gets_guidance_and_retry_shows_once_ctrlproxy_answers(
    phone_studio: Studio, fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    studio, loop = phone_studio, phone_studio.loop
    devices = studio.window.devices
    guidance = devices.page.guidance
    wait_until(loop, lambda: fresh_phone.serial in devices.picker.devices)
    devices.picker.choose(fresh_phone.serial)  # CtrlProxy not running: like a locked phone
    wait_until(loop, lambda: not guidance.isHidden())
    assert guidance.title.text() == "CtrlProxy on Stand-in Pixel did not answer"
    assert "is the phone unlocked?" in guidance.detail.text()
    assert f"adb -s {fresh_phone.serial} shell wm dismiss-keyguard" in guidance.command_lines()
    start_ctrlproxy()  # the user unlocks the phone
    guidance.retry_button.click()
    session = devices.session
    assert session is not None
    wait_until(loop, lambda: session.shows == 1)
    assert guidance.isHidden() and _shown(fresh_phone) == [SPEC]


def test_the_watcher_starts_the_adb_server_off_the_gui_thread(
    qloop: asyncio.AbstractEventLoop, qtbot: Any
) -> None:
    import socket
    import subprocess
    import threading

    from studio.ui.devices import DeviceWatcher

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = AdbServer(host="127.0.0.1", port=port)
    assert not server.reachable()
    watcher = DeviceWatcher(Adb(server))
    threads: list[str] = []
    watcher.devicesChanged.connect(lambda _infos: threads.append(threading.current_thread().name))
    try:
        with qtbot.waitSignal(watcher.devicesChanged, timeout=20000) as listed:
            watcher.start()
        assert listed.args == [[]]  # no devices on this private server
        assert server.reachable()
        assert threads == [threading.main_thread().name]  # delivered on the GUI thread
        assert watcher.running
        qloop.run_until_complete(watcher.aclose())
        assert not watcher.running  # cancelled and joined
    finally:
        qloop.run_until_complete(watcher.aclose())
        subprocess.run(
            [server.executable(), "-P", str(port), "kill-server"], capture_output=True, timeout=10
        )


def test_enable_with_adb_turns_a_disabled_ctrlproxy_on_and_shows(
    qloop: asyncio.AbstractEventLoop,
    make_studio: Callable[..., Studio],
    fresh_phone: Phone,
    start_ctrlproxy: Callable[..., StandIn],
) -> None:
    start_ctrlproxy()
    fresh_phone.sh("settings put secure enabled_accessibility_services com.other/.Svc")
    fresh_phone.set_prop("ro.kernel.qemu", "1")  # an emulator: AutoMobile enables it itself
    serial = fresh_phone.serial
    with studio_on(make_studio, fresh_phone) as studio:
        devices = studio.window.devices
        guidance = devices.page.guidance
        label = f"Stand-in Pixel ({serial}) · not enabled"
        wait_until(qloop, lambda: label in devices.picker.labels())
        devices.picker.choose(serial)
        wait_until(qloop, lambda: "(reading the device…)" not in guidance.command_lines())
        assert guidance.command_lines()[1] == (
            f"adb -s {serial} shell settings put secure enabled_accessibility_services "
            f"com.other/.Svc:{CTRLPROXY_SERVICE}"
        )
        guidance.enable_button.click()  # runs those commands through adb
        wait_until(qloop, lambda: devices.session is not None and devices.session.shows == 1)
        assert fresh_phone.sh("settings get secure enabled_accessibility_services").strip() == (
            f"com.other/.Svc:{CTRLPROXY_SERVICE}"
        )
        assert _shown(fresh_phone) == [SPEC] and guidance.isHidden()


# ---- the open entry's assets and the preview's theme go to the phone ---------------------------

IMAGE_SPEC: dict[str, Any] = {
    **SPEC,
    "root": {"type": "column", "children": [{"type": "image", "id": "hero", "asset": "hero"}]},
}


def test_the_entrys_assets_reach_the_phone_before_the_show_and_once(
    qloop: asyncio.AbstractEventLoop,
    make_studio: Callable[..., Studio],
    fresh_phone: Phone,
    start_ctrlproxy: Callable[..., StandIn],
) -> None:
    start_ctrlproxy()
    hero = media.png(media.solid(8, 8, media.RED))
    serial = fresh_phone.serial
    with studio_on(make_studio, fresh_phone, IMAGE_SPEC, {"hero": hero}) as studio:
        devices = studio.window.devices
        wait_until(qloop, lambda: serial in devices.picker.devices)
        devices.picker.choose(serial)
        session = devices.session
        assert session is not None
        wait_until(qloop, lambda: session.shows == 1)
        log = _ctrlproxy_log(fresh_phone)
        kinds = ["asset" if "asset" in e else "shown" for e in log if "asset" in e or "shown" in e]
        assert kinds == ["asset", "shown"]  # uploaded first: the image is not blank
        assert (log[0]["asset"], log[0]["mimeType"]) == ("hero", "image/png")
        assert base64.b64decode(log[0]["dataBase64"]) == hero
        assert "has no asset" not in studio.status  # no missing-asset warning
        # an edit re-shows in place without uploading the unchanged image again
        document = studio.controller.document
        assert document is not None
        document.apply_ops([{"op": "replace", "path": "/state/count", "value": 4}])
        wait_until(qloop, lambda: session.shows == 2)
        assert [e for e in _ctrlproxy_log(fresh_phone) if "asset" in e] == [log[0]]


def test_the_theme_choice_is_sent_as_appearance_and_reshown_in_place(
    phone_studio: Studio, fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy()
    studio, loop = phone_studio, phone_studio.loop
    devices, pane = studio.window.devices, studio.window.preview_pane
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("dark"))
    wait_until(loop, lambda: fresh_phone.serial in devices.picker.devices)
    devices.picker.choose(fresh_phone.serial)
    session = devices.session
    assert session is not None
    wait_until(loop, lambda: session.shows == 1)
    assert pane.theme_combo.isEnabled()  # still the designer's to change in device mode

    def appearances() -> list[str | None]:
        return [e["appearance"] for e in _ctrlproxy_log(fresh_phone) if "shown" in e]

    assert appearances() == ["dark"]
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("light"))
    wait_until(loop, lambda: session.shows == 2)
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("system"))
    wait_until(loop, lambda: session.shows == 3)
    assert appearances() == ["dark", "light", "device"]  # System: the device's own theme
    assert _dismissals(fresh_phone) == []  # in place
    assert "Re-shown 'likes'" in studio.status


def test_a_device_without_appearance_follows_its_own_theme_and_says_so_once(
    phone_studio: Studio, fresh_phone: Phone, start_ctrlproxy: Callable[..., StandIn]
) -> None:
    start_ctrlproxy(without=("prototype_appearance_v1",))
    studio, loop = phone_studio, phone_studio.loop
    devices, pane = studio.window.devices, studio.window.preview_pane
    messages: list[str] = []
    devices.statusMessage.connect(messages.append)
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("dark"))
    wait_until(loop, lambda: fresh_phone.serial in devices.picker.devices)
    devices.picker.choose(fresh_phone.serial)
    session = devices.session
    assert session is not None
    wait_until(loop, lambda: session.shows == 1)
    pane.theme_combo.setCurrentIndex(pane.theme_combo.findData("light"))
    document = studio.controller.document
    assert document is not None
    document.apply_ops([{"op": "replace", "path": "/state/count", "value": 4}])
    wait_until(loop, lambda: session.shows == 2)
    shown = [e for e in _ctrlproxy_log(fresh_phone) if "shown" in e]
    assert [e["appearance"] for e in shown] == [None, None]  # never sent to this device
    follows = [m for m in messages if "follows its own light/dark theme" in m]
    assert follows == [  # with the show's message, which would replace it in the status bar
        f"Showing 'likes' on {fresh_phone.serial}. {fresh_phone.serial} follows its own "
        "light/dark theme: its CtrlProxy has no prototype_appearance_v1"
    ]
