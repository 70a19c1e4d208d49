"""The preview's device-mode page: the device's header and what its CtrlProxy advertises, a banner
for refusals and warnings (with "Show again" after a dismissal on the phone), the mirror, the
offer of faster mirroring, and the guidance (exact adb commands, Retry, Enable, Install, Refresh)
for a device that cannot show, or for no phone at all."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.device import capabilities as caps
from studio.device.adb import DeviceInfo, DeviceState, ctrlproxy_enable_commands
from studio.device.install import ENABLE_IN_SETTINGS
from studio.ui.device_picker import STATE_LABELS

if TYPE_CHECKING:
    from studio.ui.mirror import MirrorView

PLATFORM_TOOLS_URL = "https://developer.android.com/tools/releases/platform-tools"
RELEASES_URL = "https://github.com/kaeawc/auto-mobile/releases"


@dataclass(frozen=True)
class Guidance:
    """What the panel says and offers: a title, what to do, the exact commands, which buttons."""

    title: str
    detail: str
    commands: list[str] = field(default_factory=list)
    enable: bool = False  # "Enable with adb" (emulators: AutoMobile's rule)
    install: bool = False  # "Install CtrlProxy"
    retry: str = "Retry"  # the label of the retry button ("Refresh" for no phone)


def guidance_for(info: DeviceInfo, services: str | None = None) -> Guidance:
    """What to do about a device that cannot show prototypes.

    `services` is the device's current `enabled_accessibility_services` (the enable command keeps
    them); None while it is being read."""
    s = shlex.quote(info.serial)
    name = info.model or info.serial
    if info.state is DeviceState.UNAUTHORIZED:
        title = (
            f"Accept the USB debugging prompt on {name}"
            if info.adb_state == "authorizing"
            else f"{name} has not allowed USB debugging"
        )
        return Guidance(
            title,
            info.detail + " If no prompt shows, reconnect and check again:",
            [f"adb -s {s} reconnect", "adb devices -l"],
        )
    if info.state is DeviceState.OFFLINE:
        return Guidance(
            f"{name} is offline", info.detail, [f"adb -s {s} reconnect", "adb devices -l"]
        )
    if info.state is DeviceState.CTRLPROXY_MISSING:
        return Guidance(
            f"CtrlProxy is missing on {name}",
            "Proto Studio shows prototypes through AutoMobile's CtrlProxy. Install it here (the "
            "download is checked against a pinned checksum), or by hand with these commands:",
            [
                f"adb -s {s} install -r -d control-proxy-debug.apk   # from {RELEASES_URL}",
                *ctrlproxy_enable_commands(info.serial, services or "")[1:],
            ],
            enable=info.emulator,
            install=True,
        )
    if info.state is DeviceState.CTRLPROXY_NOT_ENABLED:
        if info.emulator:
            detail = (
                "CtrlProxy is installed but its accessibility service is off. On an emulator the "
                "studio can turn it on through settings (the commands keep the services already on):"
            )
        else:
            detail = (
                f"CtrlProxy is installed but its accessibility service is off. {ENABLE_IN_SETTINGS} "
                "Unlock the phone: a locked phone does not start the service. Rooted phones may "
                "accept these commands:"
            )
        commands = (
            ["(reading the device…)"]
            if services is None
            else ctrlproxy_enable_commands(info.serial, services)
        )
        return Guidance(
            f"CtrlProxy is not enabled on {name}", detail, commands, enable=info.emulator
        )
    if info.state is DeviceState.UNAVAILABLE:
        return Guidance(f"{name} is not available", info.detail, ["adb devices -l"])
    return Guidance(f"{name} is ready", info.detail)


def update_guidance(info: DeviceInfo) -> Guidance:
    """A reachable CtrlProxy that cannot show prototypes (it does not list show_prototype)."""
    return Guidance(
        f"CtrlProxy on {info.model or info.serial} cannot show prototypes",
        "This CtrlProxy predates AutoMobile's prototypes (it does not advertise show_prototype). "
        "Install a newer one here, or by hand:",
        [
            f"adb -s {shlex.quote(info.serial)} install -r -d control-proxy-debug.apk   # from {RELEASES_URL}"
        ],
        install=True,
    )


def locked_guidance(info: DeviceInfo, error: str) -> Guidance:
    """A ready device whose CtrlProxy cannot be reached: usually locked, or the service not
    bound. Only for connection failures: a refusal shows the device's own words instead."""
    s = shlex.quote(info.serial)
    return Guidance(
        f"CtrlProxy on {info.model or info.serial} did not answer",
        f"{error} Unlock the phone (a locked phone does not bind CtrlProxy's service) and check "
        "that the service is enabled, then Retry:",
        [
            f"adb -s {s} shell input keyevent KEYCODE_WAKEUP",
            f"adb -s {s} shell wm dismiss-keyguard",
            f"adb -s {s} shell settings get secure enabled_accessibility_services",
            f'adb -s {s} shell "dumpsys accessibility | grep -i ctrlproxy"',
        ],
    )


def no_phone_guidance(adb_where: str) -> Guidance:
    """No device at all: how to get a phone or an emulator seen by adb."""
    return Guidance(
        "No phone found",
        "1. On the phone: Settings > About phone, tap Build number seven times, then Settings > "
        "System > Developer options > USB debugging on.\n"
        "2. Connect it by USB, unlock it and accept 'Allow USB debugging?' for this computer "
        "(tick 'Always allow').\n"
        "3. Or start an Android emulator (Android Studio > Device Manager, or `emulator -avd NAME`).\n"
        f"4. adb in use: {adb_where}. `adb devices -l` should list the phone. Then Refresh.",
        ["adb devices -l", "emulator -list-avds"],
        retry="Refresh",
    )


def adb_missing_guidance(reason: str) -> Guidance:
    """adb cannot be found or started: how to get it."""
    return Guidance(
        "adb is not available",
        f"{reason}. Proto Studio reaches phones through adb from Android's platform-tools: "
        f"download them from {PLATFORM_TOOLS_URL}, or install them with your package manager "
        "(Debian/Ubuntu: `sudo apt install adb`; macOS: `brew install android-platform-tools`; "
        "Windows: `winget install Google.PlatformTools`). Put `adb` on PATH (or set "
        "ADBUTILS_ADB_PATH to it), then Refresh.",
        ["adb version", "adb start-server"],
        retry="Refresh",
    )


# ---- widgets ---------------------------------------------------------------------------------


class DownloadOffer(QWidget):
    """A download offered, never started by itself: what it is and its size, a button, then a
    progress bar and Cancel while it runs, and the outcome."""

    accepted = Signal()
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.button = QPushButton(self)
        self.cancel_button = QPushButton("Cancel", self)
        self.progress = QProgressBar(self)
        self.progress.setTextVisible(True)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)
        row.addStretch(0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addLayout(row)
        self.button.clicked.connect(self.accepted)
        self.cancel_button.clicked.connect(self.cancelled)
        self.idle("", "")

    def idle(self, text: str, button: str) -> None:
        """An offer (or an outcome with a button to try again)."""
        self.label.setText(text)
        self.button.setText(button)
        self.button.setVisible(bool(button))
        self.button.setEnabled(True)
        self.progress.hide()
        self.cancel_button.hide()

    def running(self, text: str) -> None:
        self.label.setText(text)
        self.button.hide()
        self.progress.setRange(0, 0)  # busy until the size is known
        self.progress.show()
        self.cancel_button.show()

    def set_progress(self, done: int, total: int | None) -> None:
        if total:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))
            self.progress.setFormat(f"{done * 100 // total}%")
        else:
            self.progress.setRange(0, 0)


class GuidancePanel(QWidget):
    """What to do about a device that cannot show prototypes (or no device): the exact adb
    commands (copyable), Retry/Refresh, "Enable with adb" for an emulator, "Install CtrlProxy"
    where it is missing, and the install's download offer."""

    retryRequested = Signal()
    enableRequested = Signal()
    installRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deviceGuidance")
        self.title = QLabel(self)
        self.title.setObjectName("deviceGuidanceTitle")
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.detail = QLabel(self)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.commands = QPlainTextEdit(self)
        self.commands.setObjectName("deviceCommands")
        self.commands.setReadOnly(True)
        self.commands.setMaximumHeight(110)
        self.copy_button = QPushButton("Copy commands", self)
        self.enable_button = QPushButton("Enable with adb", self)
        self.enable_button.setToolTip("Turn the service on through settings (emulators)")
        self.install_button = QPushButton("Install CtrlProxy…", self)
        self.install_button.setToolTip(
            "Download AutoMobile's CtrlProxy and install it (asks first)"
        )
        self.retry_button = QPushButton("Retry", self)
        self.download = DownloadOffer(self)
        self.download.setObjectName("ctrlproxyDownload")
        self.download.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.enable_button)
        buttons.addWidget(self.install_button)
        buttons.addStretch(1)
        buttons.addWidget(self.retry_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addWidget(self.commands)
        layout.addWidget(self.download)
        layout.addLayout(buttons)
        self.copy_button.clicked.connect(self.copy_commands)
        self.retry_button.clicked.connect(self.retryRequested)
        self.enable_button.clicked.connect(self.enableRequested)
        self.install_button.clicked.connect(self.installRequested)
        self.guidance = Guidance("", "")

    def set_guidance(self, guidance: Guidance) -> None:
        self.guidance = guidance
        self.title.setText(guidance.title)
        self.detail.setText(guidance.detail)
        self.commands.setPlainText("\n".join(guidance.commands))
        self.commands.setVisible(bool(guidance.commands))
        self.copy_button.setVisible(bool(guidance.commands))
        self.enable_button.setVisible(guidance.enable)
        self.install_button.setVisible(guidance.install)
        self.retry_button.setText(guidance.retry)
        if not guidance.install:
            self.download.hide()

    def command_lines(self) -> list[str]:
        return [line for line in self.commands.toPlainText().splitlines() if line]

    def copy_commands(self) -> None:
        QGuiApplication.clipboard().setText(self.commands.toPlainText())


class DevicePage(QWidget):
    """The preview's device mode: the device's name and its CtrlProxy's capabilities, a banner
    for refusals and dismissals ("Show again"), the guidance panel, the offer of faster mirroring
    and the mirrored screen."""

    showAgainRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("devicePage")
        self.header = QLabel(self)
        self.header.setObjectName("deviceHeader")
        self.header.setWordWrap(True)
        self.capabilities = QLabel(self)
        self.capabilities.setObjectName("deviceCapabilities")
        self.capabilities.setWordWrap(True)
        self.capabilities.hide()
        self.phone_state = QLabel(self)
        self.phone_state.setObjectName("devicePhoneState")
        self.phone_state.setWordWrap(True)
        self.phone_state.hide()
        self.banner = QLabel(self)
        self.banner.setObjectName("deviceBanner")
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.setStyleSheet(
            "QLabel#deviceBanner { background: #7a3e00; color: white; padding: 6px; }"
        )
        self.show_again = QPushButton("Show again", self)
        self.show_again.setObjectName("deviceShowAgain")
        self.show_again.hide()
        banner_row = QHBoxLayout()
        banner_row.addWidget(self.banner, 1)
        banner_row.addWidget(self.show_again)
        self.banner.hide()
        self.guidance = GuidancePanel(self)
        self.guidance.hide()
        self.mirror_offer = DownloadOffer(self)
        self.mirror_offer.setObjectName("mirrorDownload")
        self.mirror_offer.hide()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(4, 4, 4, 4)
        self._layout.addWidget(self.header)
        self._layout.addWidget(self.capabilities)
        self._layout.addWidget(self.phone_state)
        self._layout.addLayout(banner_row)
        self._layout.addWidget(self.guidance)
        self._layout.addWidget(self.mirror_offer)
        self._layout.addStretch(1)
        self.mirror: MirrorView | None = None
        self.show_again.clicked.connect(self.showAgainRequested)

    def set_header(self, text: str) -> None:
        self.header.setText(text)

    def set_capabilities(self, supported: frozenset[str] | None) -> None:
        """What the connected CtrlProxy advertises (None: not connected)."""
        if supported is None:
            self.capabilities.hide()
            return
        line, everything = caps.summary(supported)
        self.capabilities.setText(line)
        self.capabilities.setToolTip(everything)
        self.capabilities.show()

    def set_phone_state(self, text: str) -> None:
        """What the phone reports about the prototype (its page, light or dark, hidden)."""
        self.phone_state.setText(text)
        self.phone_state.setVisible(bool(text))

    def set_banner(self, lines: list[str], *, show_again: bool = False) -> None:
        self.banner.setText("\n".join(lines))
        self.banner.setVisible(bool(lines))
        self.show_again.setVisible(bool(lines) and show_again)

    def banner_lines(self) -> list[str]:
        return self.banner.text().splitlines() if self.banner.isVisibleTo(self) else []

    def show_guidance(self, guidance: Guidance) -> None:
        self.guidance.set_guidance(guidance)
        self.guidance.show()

    def hide_guidance(self) -> None:
        self.guidance.hide()

    def set_mirror(self, view: MirrorView | None) -> None:
        """Put a session's mirror in the page (None takes it out; the session deletes it)."""
        if self.mirror is not None:
            self._layout.removeWidget(self.mirror)
            self.mirror.hide()
            self.mirror.setParent(None)
        self.mirror = view
        stretch = self._layout.itemAt(self._layout.count() - 1)
        if view is not None:
            if stretch is not None and stretch.spacerItem() is not None:
                self._layout.removeItem(stretch)
            self._layout.addWidget(view, 1)
            view.show()
        elif stretch is None or stretch.spacerItem() is None:
            self._layout.addStretch(1)


def device_header(info: DeviceInfo) -> str:
    parts = [info.model or info.serial, info.serial if info.model else ""]
    if info.emulator:
        parts.append("emulator")
    if info.android_version:
        parts.append(f"Android {info.android_version}")
    if info.screen_size:
        parts.append(f"{info.screen_size[0]}×{info.screen_size[1]}")
    parts.append(STATE_LABELS.get(info.state, info.state.value))
    return " · ".join(p for p in parts if p)
