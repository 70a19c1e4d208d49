"""Getting a CtrlProxy with prototype support onto the phone (issue 15 point 2): AutoMobile's
release APK downloaded from a local stand-in of its GitHub releases, its size known first, checked
against the pinned sha256 (a wrong one refused with nothing installed), then installed over the
real adb path as AutoMobile's host installs it, and enabled through settings only on emulators."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.device.adb import (
    CTRLPROXY_PACKAGE,
    CTRLPROXY_SERVICE,
    LEGACY_CTRLPROXY_PACKAGE,
    DeviceState,
)
from studio.device.install import ENABLE_IN_SETTINGS, install_ctrlproxy
from studio.device.releases import (
    PINNED,
    DownloadCancelled,
    DownloadError,
    Release,
    Releases,
    human_size,
)
from tests.device.conftest import Phone
from tests.device.release_server import ReleaseServer, fake_apk, release_server

APK = fake_apk()
APK_PATH = "/0.0.99/control-proxy-debug.apk"


def _releases(server: ReleaseServer, tmp_path: Path, sha256: str | None = None) -> Releases:
    pinned = [Release("0.0.99", sha256 or hashlib.sha256(APK).hexdigest(), None, prototypes=True)]
    return Releases(pinned, base_url=server.base_url, cache_dir=tmp_path / "cache")


@pytest.fixture
def github() -> Iterator[ReleaseServer]:
    with release_server({APK_PATH: APK}) as server:
        yield server


def test_the_size_comes_first_then_a_verified_download_with_progress(
    github: ReleaseServer, tmp_path: Path
) -> None:
    releases = _releases(github, tmp_path)
    asset = releases.ctrlproxy_apk()
    assert asset is not None
    assert asset.url == f"{github.base_url}/0.0.99/control-proxy-debug.apk"  # release.ts URL form
    assert releases.size(asset) == len(APK)
    assert [m for m, _ in github.requests] == ["HEAD", "HEAD"]  # the size: nothing downloaded yet
    progress: list[tuple[int, int | None]] = []
    path = releases.download(asset, lambda done, total: progress.append((done, total)))
    assert path.read_bytes() == APK and releases.cached(asset) == path
    assert progress[-1] == (len(APK), len(APK))
    assert [d for d, _ in progress] == sorted(d for d, _ in progress) and len(progress) > 1
    assert releases.download(asset) == path  # cached: not downloaded again
    assert github.gets("/objects" + APK_PATH) == 1
    assert human_size(len(APK)) == f"{len(APK) // 1024} kB" and human_size(5 << 20) == "5.0 MB"


def test_a_wrong_checksum_is_refused_and_nothing_is_kept_or_installed(
    github: ReleaseServer, tmp_path: Path, fresh_phone: Phone
) -> None:
    fresh_phone.sh(f"rm -f {fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}")
    releases = _releases(github, tmp_path, sha256="0" * 64)
    asset = releases.ctrlproxy_apk()
    assert asset is not None
    with pytest.raises(DownloadError) as err:
        releases.download(asset)  # the studio installs only what this returns
    message = str(err.value)
    assert message.startswith("control-proxy-debug.apk (AutoMobile 0.0.99) from 127.0.0.1:")
    assert f"sha256 {hashlib.sha256(APK).hexdigest()} is not the pinned {'0' * 64}" in message
    assert message.endswith("the file was deleted and nothing was installed")
    assert "\n" not in message
    assert list((tmp_path / "cache").rglob("*")) == [tmp_path / "cache" / "0.0.99"]  # no file
    assert releases.cached(asset) is None
    assert fresh_phone.read("pm.log") == ""  # pm never ran
    assert (
        asyncio.run(fresh_phone.adb.probe(fresh_phone.serial)).state
        is DeviceState.CTRLPROXY_MISSING
    )


def test_a_cancelled_download_leaves_nothing(github: ReleaseServer, tmp_path: Path) -> None:
    releases = _releases(github, tmp_path)
    asset = releases.ctrlproxy_apk()
    assert asset is not None
    cancel = threading.Event()
    github.chunk_pause = threading.Event()

    def progress(done: int, total: int | None) -> None:
        cancel.set()  # the user presses Cancel after the first bytes
        assert github.chunk_pause is not None
        github.chunk_pause.set()

    with pytest.raises(DownloadCancelled, match="download cancelled"):
        releases.download(asset, progress, cancel)
    assert not releases.path(asset).exists()
    assert not releases.path(asset).with_name("control-proxy-debug.apk.part").exists()


def test_only_https_mirrors_or_this_machines_loopback() -> None:
    with pytest.raises(DownloadError, match="must be an https:// URL"):
        Releases(base_url="http://mirror.example/auto-mobile")
    assert Releases(base_url="https://mirror.example/am/").base_url == "https://mirror.example/am"


def test_the_pinned_list_never_offers_an_apk_without_prototypes() -> None:
    """The real entries: 0.0.66 (release.ts@896e5c50) predates Android prototypes, so there is no
    CtrlProxy to offer yet, while its video-server jar is offered."""
    releases = Releases(PINNED)
    assert releases.ctrlproxy_apk() is None and releases.newest_known() == "0.0.66"
    jar = releases.video_jar()
    assert jar is not None
    assert (
        jar.url
        == "https://github.com/kaeawc/auto-mobile/releases/download/0.0.66/automobile-video.jar"
    )
    assert jar.sha256 == "e5ce791aed17a1bf391db5737367a8ca2d7792b805f2fa4235e4ec7f8cee062c"


def _install(phone: Phone, releases: Releases, *, emulator: bool) -> object:
    asset = releases.ctrlproxy_apk()
    assert asset is not None
    apk = releases.download(asset)
    return asyncio.run(install_ctrlproxy(phone.adb, phone.serial, apk, emulator=emulator))


def test_install_on_a_physical_phone_guides_the_user_to_settings(
    github: ReleaseServer, tmp_path: Path, fresh_phone: Phone
) -> None:
    fresh_phone.sh(f"rm -f {fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}")
    fresh_phone.sh("settings put secure enabled_accessibility_services null")
    fresh_phone.sh(f"touch {fresh_phone.root}/installed/{LEGACY_CTRLPROXY_PACKAGE}")
    outcome = _install(fresh_phone, _releases(github, tmp_path), emulator=False)
    pm = fresh_phone.read("pm.log").splitlines()
    assert f"uninstall {LEGACY_CTRLPROXY_PACKAGE}" in pm  # CtrlProxyManager.ts: legacy removed
    assert any(line.startswith("install ") and "-r" not in line for line in pm)
    assert outcome.how == "installed" and not outcome.enabled_by_us  # never on a phone
    assert outcome.info.state is DeviceState.CTRLPROXY_NOT_ENABLED
    assert outcome.message.endswith(ENABLE_IN_SETTINGS)
    assert fresh_phone.sh("settings get secure enabled_accessibility_services").strip() == "null"
    assert fresh_phone.sh(f"ls {fresh_phone.root}/tmp").strip() == ""  # the pushed APK removed


def test_install_on_an_emulator_turns_the_service_on(
    github: ReleaseServer, tmp_path: Path, fresh_phone: Phone
) -> None:
    fresh_phone.sh(f"rm -f {fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}")
    fresh_phone.sh("settings put secure enabled_accessibility_services com.other/.Svc")
    fresh_phone.set_prop("ro.kernel.qemu", "1")
    outcome = _install(fresh_phone, _releases(github, tmp_path), emulator=True)
    assert outcome.enabled_by_us and outcome.info.state is DeviceState.READY
    assert fresh_phone.sh("settings get secure enabled_accessibility_services").strip() == (
        f"com.other/.Svc:{CTRLPROXY_SERVICE}"
    )


def test_an_upgrade_replaces_in_place_and_another_signer_is_uninstalled_first(
    github: ReleaseServer, tmp_path: Path, fresh_phone: Phone
) -> None:
    marker = f"{fresh_phone.root}/installed/{CTRLPROXY_PACKAGE}"
    fresh_phone.device.sync.push(b"AutoMobile release key", marker, mode=0o644)
    releases = _releases(github, tmp_path)
    assert _install(fresh_phone, releases, emulator=False).how == "upgraded"  # type: ignore[attr-defined]
    assert any("install -r -d" in line for line in fresh_phone.read("pm.log").splitlines())
    fresh_phone.device.sync.push(b"a developer's debug key", marker, mode=0o644)
    fresh_phone.sh(f"rm -f {fresh_phone.root}/pm.log")
    outcome = _install(fresh_phone, releases, emulator=False)
    assert outcome.how == "reinstalled"  # type: ignore[attr-defined]
    pm = [line.split()[0] for line in fresh_phone.read("pm.log").splitlines()]
    assert pm[:5] == ["list", "path", "install", "uninstall", "install"]
    assert fresh_phone.read(f"installed/{CTRLPROXY_PACKAGE}") == "AutoMobile release key"
