"""The preview's device-mode page: the device's header, a banner for refusals and warnings, the
mirror, and the guidance (exact adb commands, Retry, Enable) for a device that cannot show."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.device.adb import (
    CTRLPROXY_PACKAGE,
    DeviceInfo,
    DeviceState,
    ctrlproxy_enable_commands,
)
from studio.ui.device_picker import STATE_LABELS

if TYPE_CHECKING:
    from studio.ui.mirror import MirrorView


def guidance_for(info: DeviceInfo, services: str | None = None) -> tuple[str, str, list[str]]:
    """(title, what to do, the exact adb commands) for a device that cannot show prototypes.

    `services` is the device's current `enabled_accessibility_services` (the enable command keeps
    them); None while it is being read."""
    s = shlex.quote(info.serial)
    name = info.model or info.serial
    if info.state is DeviceState.UNAUTHORIZED:
        return (
            f"{name} has not allowed USB debugging",
            info.detail + " If no prompt shows, reconnect and check again:",
            [f"adb -s {s} reconnect", "adb devices -l"],
        )
    if info.state is DeviceState.OFFLINE:
        return (f"{name} is offline", info.detail, [f"adb -s {s} reconnect", "adb devices -l"])
    if info.state is DeviceState.CTRLPROXY_MISSING:
        return (
            f"CtrlProxy is missing on {name}",
            info.detail,
            [
                f"adb -s {s} shell pm path {CTRLPROXY_PACKAGE}",
                f"adb -s {s} install -r <AutoMobile's CtrlProxy APK>",
                *ctrlproxy_enable_commands(info.serial, services or "")[1:],
            ],
        )
    if info.state is DeviceState.CTRLPROXY_NOT_ENABLED:
        detail = (
            "CtrlProxy is installed but its accessibility service is off. Enable it in Settings > "
            "Accessibility, or with these adb commands (they keep the services already enabled; "
            "retail phones may refuse `settings put`). Unlock the phone: a locked device does not "
            "bind the service."
        )
        if services is None:
            return (f"CtrlProxy is not enabled on {name}", detail, ["(reading the device…)"])
        return (
            f"CtrlProxy is not enabled on {name}",
            detail,
            ctrlproxy_enable_commands(info.serial, services),
        )
    if info.state is DeviceState.UNAVAILABLE:
        return (f"{name} is not available", info.detail, ["adb devices -l"])
    return (f"{name} is ready", info.detail, [])


def locked_guidance(info: DeviceInfo, error: str) -> tuple[str, str, list[str]]:
    """A ready device whose CtrlProxy does not answer: usually locked, or the service not bound."""
    s = shlex.quote(info.serial)
    return (
        f"CtrlProxy on {info.model or info.serial} did not answer",
        f"{error} Unlock the phone (a locked device does not bind CtrlProxy's service) and check "
        "that the service is enabled, then Retry:",
        [
            f"adb -s {s} shell input keyevent KEYCODE_WAKEUP",
            f"adb -s {s} shell wm dismiss-keyguard",
            f"adb -s {s} shell settings get secure enabled_accessibility_services",
            f'adb -s {s} shell "dumpsys accessibility | grep -i ctrlproxy"',
        ],
    )


# ---- the centre page in device mode -----------------------------------------------------------


class GuidancePanel(QWidget):
    """What to do about a device that cannot show prototypes: the exact adb commands (copyable),
    Retry, and for a disabled CtrlProxy "Enable with adb"."""

    retryRequested = Signal()
    enableRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("deviceGuidance")
        self.title = QLabel(self)
        self.title.setObjectName("deviceGuidanceTitle")
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
        self.enable_button.setToolTip("Run the settings commands now (emulators, rooted phones)")
        self.retry_button = QPushButton("Retry", self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.enable_button)
        buttons.addStretch(1)
        buttons.addWidget(self.retry_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addWidget(self.commands)
        layout.addLayout(buttons)
        self.copy_button.clicked.connect(self.copy_commands)
        self.retry_button.clicked.connect(self.retryRequested)
        self.enable_button.clicked.connect(self.enableRequested)

    def set_guidance(
        self, title: str, detail: str, commands: list[str], *, can_enable: bool = False
    ) -> None:
        self.title.setText(title)
        self.detail.setText(detail)
        self.commands.setPlainText("\n".join(commands))
        self.commands.setVisible(bool(commands))
        self.copy_button.setVisible(bool(commands))
        self.enable_button.setVisible(can_enable)

    def command_lines(self) -> list[str]:
        return [line for line in self.commands.toPlainText().splitlines() if line]

    def copy_commands(self) -> None:
        QGuiApplication.clipboard().setText(self.commands.toPlainText())


class DevicePage(QWidget):
    """The preview's device mode: the device's name, a banner for refusals and warnings, the
    guidance panel and the mirrored screen."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("devicePage")
        self.header = QLabel(self)
        self.header.setObjectName("deviceHeader")
        self.banner = QLabel(self)
        self.banner.setObjectName("deviceBanner")
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.setStyleSheet(
            "QLabel#deviceBanner { background: #7a3e00; color: white; padding: 6px; }"
        )
        self.banner.hide()
        self.guidance = GuidancePanel(self)
        self.guidance.hide()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(4, 4, 4, 4)
        self._layout.addWidget(self.header)
        self._layout.addWidget(self.banner)
        self._layout.addWidget(self.guidance)
        self._layout.addStretch(1)
        self.mirror: MirrorView | None = None

    def set_header(self, text: str) -> None:
        self.header.setText(text)

    def set_banner(self, lines: list[str]) -> None:
        self.banner.setText("\n".join(lines))
        self.banner.setVisible(bool(lines))

    def banner_lines(self) -> list[str]:
        return self.banner.text().splitlines() if self.banner.isVisibleTo(self) else []

    def show_guidance(
        self, guidance: tuple[str, str, list[str]], *, can_enable: bool = False
    ) -> None:
        self.guidance.set_guidance(*guidance, can_enable=can_enable)
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
    if info.android_version:
        parts.append(f"Android {info.android_version}")
    if info.screen_size:
        parts.append(f"{info.screen_size[0]}×{info.screen_size[1]}")
    parts.append(STATE_LABELS.get(info.state, info.state.value))
    return " · ".join(p for p in parts if p)
