"""The device mode of the window on the stand-in phone (real adb server and adbd): installing
CtrlProxy from the studio (issue 15 point 2: size first, the user's click, verified, installed,
enabled only on emulators), mirroring through AutoMobile's video server once downloaded (point 3),
and what happens on the phone reaching the studio (point 4: dismissals, the phone's own refusals,
pages and light/dark). AutoMobile's releases are a local stand-in with pinned checksums."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.device.adb import CTRLPROXY_PACKAGE, CTRLPROXY_SERVICE, DeviceState
from studio.device.releases import Release, Releases
from studio.ui.devices import DeviceManager
from studio.ui.preview_pane import PreviewPane
from tests.device import media
from tests.device.fixtures import PHONE_SRC, Phone, StandIn
from tests.device.release_server import ReleaseServer, fake_apk, release_server
from tests.device.test_real_adb import ON_BUTTON, PAGER, SPEC
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.ui.test_devices import wait_until

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)

APK = fake_apk()
JAR = (PHONE_SRC / "video_server_standin.py").read_bytes()
FILES = {"/0.0.99/control-proxy-debug.apk": APK, "/0.0.99/automobile-video.jar": JAR}


@pytest.fixture
def github() -> Iterator[ReleaseServer]:
    with release_server(FILES) as server:
        yield server


def _releases(server: ReleaseServer, tmp_path: Path, *, apk_sha256: str | None = None) -> Releases:
    pinned = [
        Release(
            "0.0.99",
            apk_sha256 or hashlib.sha256(APK).hexdigest(),
            hashlib.sha256(JAR).hexdigest(),
            prototypes=True,
        )
    ]
    return Releases(pinned, base_url=server.base_url, cache_dir=tmp_path / "cache")


@pytest.fixture
def manager_for(
    qloop: asyncio.AbstractEventLoop, qtbot: Any, fresh_phone: Phone
) -> Iterator[Callable[[Releases], DeviceManager]]:
    """A DeviceManager on a preview pane, its phones reached through the stand-in phone's adb,
    the prototype SPEC open."""
    made: list[DeviceManager] = []

    def make(releases: Releases) -> DeviceManager:
        pane = PreviewPane(deferred=True)
        manager = DeviceManager(pane, fresh_phone.adb, pane, releases=releases)
        # Closed (its session and CtrlProxy connection stopped) before pytest-qt deletes the
        # pane it lives in: else a phone event reaches a deleted session at teardown.
        qtbot.addWidget(
            pane, before_close_func=lambda _: qloop.run_until_complete(manager.aclose())
        )
        pane.resize(600, 900)
        pane.show()
        manager.show_spec(SPEC)
        manager.start()
        made.append(manager)
        return manager

    yield make
    for manager in made:
        qloop.run_until_complete(manager.aclose())


def _choose(
    loop: asyncio.AbstractEventLoop, manager: DeviceManager, phone: Phone, state: str
) -> None:
    label = f"Stand-in Pixel ({phone.serial}) · {state}"
    wait_until(loop, lambda: label in manager.picker.labels())
    manager.picker.choose(phone.serial)


def _download_and_install(loop: asyncio.AbstractEventLoop, manager: DeviceManager) -> None:
    """Install CtrlProxy…, then the offer's two clicks: the size, then the download."""
    panel = manager.page.guidance
    panel.install_button.click()
    panel.download.button.click()
    wait_until(loop, lambda: panel.download.button.text().startswith("Download and install ("))
    panel.download.button.click()


# ---- installing CtrlProxy (point 2) -------------------------------------------------------------


def test_install_asks_the_size_first_downloads_on_the_click_and_guides_a_phone_user(
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    fresh_phone: Phone,
    github: ReleaseServer,
    manager_for: Callable[[Releases], DeviceManager],
) -> None:
    fresh_phone.sh(f"rm -f {fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}")
    fresh_phone.sh("settings put secure enabled_accessibility_services null")
    manager = manager_for(_releases(github, tmp_path))
    messages: list[str] = []
    manager.statusMessage.connect(messages.append)
    _choose(qloop, manager, fresh_phone, "CtrlProxy missing")
    panel = manager.page.guidance
    offer = panel.download
    assert not panel.install_button.isHidden()
    panel.install_button.click()
    assert offer.isVisible() and offer.button.text() == "Download…" and github.requests == []
    offer.button.click()  # the first click only asks for the size
    wait_until(qloop, lambda: offer.button.text().startswith("Download and install ("))
    size = f"{len(APK) // 1024} kB"
    assert offer.button.text() == f"Download and install ({size})"
    assert (
        f"control-proxy-debug.apk (AutoMobile 0.0.99), {size} from 127.0.0.1" in offer.label.text()
    )
    assert [m for m, _ in github.requests] == ["HEAD", "HEAD"]  # nothing downloaded yet
    progress: list[int] = []
    offer.progress.valueChanged.connect(progress.append)
    offer.button.click()  # the user's click: download, verify, install
    wait_until(qloop, lambda: any("CtrlProxy installed" in m for m in messages), timeout=20)
    assert progress and progress[-1] == len(APK)
    assert "Settings > Accessibility > AutoMobile CtrlProxy" in messages[-1]  # a phone: guided
    assert fresh_phone.sh("settings get secure enabled_accessibility_services").strip() == "null"
    _choose(qloop, manager, fresh_phone, "not enabled")  # the picker follows the new state


def test_a_wrong_checksum_is_refused_with_a_clear_message_and_nothing_installed(
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    fresh_phone: Phone,
    github: ReleaseServer,
    manager_for: Callable[[Releases], DeviceManager],
) -> None:
    fresh_phone.sh(f"rm -f {fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}")
    manager = manager_for(_releases(github, tmp_path, apk_sha256="f" * 64))
    _choose(qloop, manager, fresh_phone, "CtrlProxy missing")
    panel = manager.page.guidance
    _download_and_install(qloop, manager)
    wait_until(qloop, lambda: panel.download.button.text() == "Try again", timeout=20)
    text = panel.download.label.text()
    assert f"is not the pinned {'f' * 64}" in text and text.endswith("nothing was installed")
    assert not any(line.startswith("install") for line in fresh_phone.read("pm.log").splitlines())
    probe = qloop.run_until_complete(fresh_phone.adb.probe(fresh_phone.serial))
    assert probe.state is DeviceState.CTRLPROXY_MISSING


def test_on_an_emulator_the_install_turns_ctrlproxy_on_and_the_prototype_shows(
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    fresh_phone: Phone,
    github: ReleaseServer,
    start_ctrlproxy: Callable[..., StandIn],
    manager_for: Callable[[Releases], DeviceManager],
) -> None:
    start_ctrlproxy()  # the service runs once it is installed and enabled
    fresh_phone.sh(f"rm -f {fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}")
    fresh_phone.sh("settings put secure enabled_accessibility_services null")
    fresh_phone.set_prop("ro.kernel.qemu", "1")
    manager = manager_for(_releases(github, tmp_path))
    _choose(qloop, manager, fresh_phone, "CtrlProxy missing")
    panel = manager.page.guidance
    panel.install_button.click()
    panel.download.button.click()
    wait_until(qloop, lambda: panel.download.button.text().startswith("Download and install ("))
    panel.download.button.click()
    wait_until(
        qloop, lambda: manager.session is not None and manager.session.shows == 1, timeout=20
    )
    assert fresh_phone.sh("settings get secure enabled_accessibility_services").strip() == (
        CTRLPROXY_SERVICE
    )
    assert [e["shown"] for e in fresh_phone.log("ctrlproxy.log") if "shown" in e] == [SPEC]


# ---- AutoMobile's video server for the mirror (point 3) ---------------------------------------


def test_the_video_server_is_offered_and_once_downloaded_the_mirror_uses_it(
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    fresh_phone: Phone,
    github: ReleaseServer,
    start_ctrlproxy: Callable[..., StandIn],
    manager_for: Callable[[Releases], DeviceManager],
) -> None:
    start_ctrlproxy()
    manager = manager_for(_releases(github, tmp_path))
    _choose(qloop, manager, fresh_phone, "ready")
    session = manager.session
    assert session is not None
    offer = manager.page.mirror_offer
    wait_until(qloop, lambda: offer.isVisible() and offer.button.text() == "Download…")
    view = session.view
    wait_until(qloop, lambda: view.status.mode == "h264 (screenrecord)")
    assert github.requests == []  # offered, not fetched
    offer.button.click()
    wait_until(qloop, lambda: offer.button.text().startswith("Download ("))
    offer.button.click()
    wait_until(qloop, lambda: view.status.mode == "h264 (AutoMobile video server)", timeout=20)

    def blue() -> bool:
        return view.frame is not None and media.near(media.mean_color(view.frame), media.BLUE)

    wait_until(qloop, blue, timeout=15)
    assert "Mirroring through AutoMobile's video server" in offer.label.text()


# ---- what happens on the phone (point 4) ---------------------------------------------------------


def test_an_idle_dismissal_is_shown_again_and_a_users_waits_for_show_again(
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    fresh_phone: Phone,
    github: ReleaseServer,
    start_ctrlproxy: Callable[..., StandIn],
    manager_for: Callable[[Releases], DeviceManager],
) -> None:
    start_ctrlproxy(ttl_ms=800)
    manager = manager_for(_releases(github, tmp_path))
    messages: list[str] = []
    manager.statusMessage.connect(messages.append)
    _choose(qloop, manager, fresh_phone, "ready")
    session = manager.session
    assert session is not None
    wait_until(qloop, lambda: session.shows == 1)
    qloop.run_until_complete(fresh_phone.adb.tap(fresh_phone.serial, *ON_BUTTON))  # Like
    # idle on the phone past its TTL: dismissed there, shown again by the studio, as it was
    wait_until(qloop, lambda: session.shows == 2, timeout=10)
    shown = [e["shown"] for e in fresh_phone.log("ctrlproxy.log") if "shown" in e]
    assert shown[1]["state"] == {"liked": True, "count": 3}
    assert any("(idle for 5 minutes); showing it again" in m for m in messages)
    assert messages[-1].startswith("Shown again (dismissed on the phone idle for 5 minutes)")
    assert manager.page.banner_lines() == []
    # Back on the phone: dismissed by the user, the banner offers to show it again
    qloop.run_until_complete(
        fresh_phone.adb.shell(fresh_phone.serial, "input keyevent KEYCODE_BACK")
    )
    wait_until(
        qloop, lambda: manager.page.banner_lines() == ["Dismissed on the phone by the user."]
    )
    assert manager.page.show_again.isVisible() and session.shows == 2
    manager.page.show_again.click()
    wait_until(qloop, lambda: session.shows == 3)
    assert manager.page.banner_lines() == [] and not manager.page.show_again.isVisible()
    reasons = [e.get("reason") for e in fresh_phone.log("ctrlproxy.log") if "dismissed" in e]
    assert reasons[:2] == ["ttl", "user"]


def test_the_phones_own_refusal_is_shown_without_unlock_advice(
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    fresh_phone: Phone,
    github: ReleaseServer,
    start_ctrlproxy: Callable[..., StandIn],
    manager_for: Callable[[Releases], DeviceManager],
) -> None:
    """A valid spec the device refuses (an app-layer window without SYSTEM_ALERT_WINDOW:
    PrototypeController.kt `requireLayerPermitted`)."""
    start_ctrlproxy()
    manager = manager_for(_releases(github, tmp_path))
    manager.show_spec({**SPEC, "window": {**SPEC["window"], "layer": "app"}})
    _choose(qloop, manager, fresh_phone, "ready")
    wait_until(qloop, lambda: bool(manager.page.banner_lines()))
    banner = manager.page.banner_lines()
    assert banner[0] == f"The phone refused it ({fresh_phone.serial}):"
    assert "SYSTEM_ALERT_WINDOW" in banner[1] and "appops set" in banner[1]
    assert manager.page.guidance.isHidden()  # not "did not answer … unlock the phone"
    fresh_phone.set_prop("appops.SYSTEM_ALERT_WINDOW", "allow")
    manager.show_spec(dict(SPEC))  # the next good revision shows and clears it
    session = manager.session
    assert session is not None
    wait_until(qloop, lambda: session.shows == 1)
    assert manager.page.banner_lines() == []


def test_pages_and_light_dark_on_the_phone_are_reflected(
    qloop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    fresh_phone: Phone,
    github: ReleaseServer,
    start_ctrlproxy: Callable[..., StandIn],
    manager_for: Callable[[Releases], DeviceManager],
) -> None:
    start_ctrlproxy()
    manager = manager_for(_releases(github, tmp_path))
    manager.show_spec(PAGER)
    manager.pane.theme_combo.setCurrentIndex(manager.pane.theme_combo.findData("light"))
    _choose(qloop, manager, fresh_phone, "ready")
    session = manager.session
    assert session is not None
    wait_until(qloop, lambda: session.shows == 1)
    state = manager.page.phone_state
    wait_until(qloop, lambda: state.text() == "On the phone: drawn light (override)")
    qloop.run_until_complete(fresh_phone.adb.swipe(fresh_phone.serial, 300, 400, 40, 400, 200))
    wait_until(qloop, lambda: state.text() == "On the phone: p at page 2")
    manager.pane.theme_combo.setCurrentIndex(manager.pane.theme_combo.findData("system"))
    wait_until(qloop, lambda: session.shows == 2)
    fresh_phone.sh("cmd uimode night yes")
    wait_until(qloop, lambda: state.text() == "On the phone: drawn dark (system)")
    log = manager.pane.log_lines()
    # The phone's kinds carry no name (RESP PrototypeEventKind); the log prints none for them.
    assert "device: #1 page_changed" in log
    assert 'device: #2 appearance_changed {"mode": "dark", "source": "system"}' in log
