"""Putting a verified CtrlProxy APK on a phone as AutoMobile's host does: the legacy package
removed, `install -r -d` (else uninstall and install), then its accessibility service enabled
through settings on an emulator; a physical phone's user turns it on in Settings.

Follows kaeawc/auto-mobile `src/utils/CtrlProxyManager.ts` (`uninstallLegacyPackageIfPresent`,
`installDownloadedApk`, `install`, `enableViaSettings`, `getToggleCapabilities`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

import adbutils

from studio.concurrency import off_loop
from studio.device.adb import (
    CTRLPROXY_PACKAGE,
    LEGACY_CTRLPROXY_PACKAGE,
    Adb,
    AdbCommandFailed,
    DeviceInfo,
    DeviceState,
)

ENABLE_IN_SETTINGS = (
    "Turn it on on the phone: Settings > Accessibility > AutoMobile CtrlProxy (on some phones "
    "under Installed apps or Downloaded apps). Android allows only the phone's user to do this."
)


@dataclass(frozen=True)
class InstallOutcome:
    """What happened, and the device as probed afterwards."""

    how: str  # "upgraded", "installed" or "reinstalled" (CtrlProxyManager.ts statuses)
    info: DeviceInfo
    enabled_by_us: bool  # the service was turned on through settings (an emulator)
    message: str  # one line for the status bar


def _pm(adb: Adb, serial: str, args: str) -> str:
    return str(adb.device(serial).shell(f"pm {args} 2>&1", timeout=120)).strip()


def _install_blocking(adb: Adb, serial: str, apk: Path) -> str:
    legacy = _pm(adb, serial, "list packages")
    if f"package:{LEGACY_CTRLPROXY_PACKAGE}" in legacy.split():
        _pm(adb, serial, f"uninstall {LEGACY_CTRLPROXY_PACKAGE}")
    installed = "package:" in _pm(adb, serial, f"path {CTRLPROXY_PACKAGE}")
    remote = f"{adb.device_tmp.rstrip('/')}/proto-studio-ctrlproxy.apk"  # pushed, then pm install
    dev = adb.device(serial)
    dev.sync.push(str(apk), remote, mode=0o644)
    quoted = shlex.quote(remote)
    try:
        if installed:
            out = _pm(adb, serial, f"install -r -d {quoted}")  # an upgrade (or a downgrade)
            if out.splitlines()[-1:] == ["Success"]:
                return "upgraded"
            _pm(adb, serial, f"uninstall {CTRLPROXY_PACKAGE}")  # e.g. another signer's build
        out = _pm(adb, serial, f"install {quoted}")
        if "Success" not in out.split():
            line = next((ln for ln in out.splitlines() if "Failure" in ln), out[:200])
            raise AdbCommandFailed(f"installing CtrlProxy on {serial} failed: {line.strip()}")
        return "reinstalled" if installed else "installed"
    finally:
        try:
            dev.shell(f"rm -f {quoted}", timeout=10)
        except (adbutils.AdbError, OSError):
            pass


async def install_ctrlproxy(adb: Adb, serial: str, apk: Path, *, emulator: bool) -> InstallOutcome:
    """Install the APK, enable its service through settings when the device is an emulator
    (AutoMobile refuses that on physical devices by policy), and probe the device again."""
    try:
        how = await off_loop(_install_blocking, adb, serial, apk)
    except (adbutils.AdbError, OSError) as exc:
        raise AdbCommandFailed(f"installing CtrlProxy on {serial} failed: {exc}") from exc
    enabled_by_us = False
    info = await adb.reprobe(serial)
    if info.state is DeviceState.CTRLPROXY_NOT_ENABLED and emulator:
        info = await adb.enable_ctrlproxy(serial)
        enabled_by_us = True
    if info.state is DeviceState.READY:
        message = f"CtrlProxy {how} on {serial}" + (" and turned on" if enabled_by_us else "")
    elif info.state is DeviceState.CTRLPROXY_NOT_ENABLED:
        message = f"CtrlProxy {how} on {serial}. {ENABLE_IN_SETTINGS}"
    else:
        message = f"CtrlProxy {how} on {serial}; the phone is {info.state.value}"
    return InstallOutcome(how, info, enabled_by_us, message)
