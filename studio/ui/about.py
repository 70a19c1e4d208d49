"""Help > About: the studio's version, and the licences of everything the installer bundles.

The notices (`studio.notices`) are read off the GUI thread: the dialog opens at once and fills
its component list when they arrive.
"""

from __future__ import annotations

import asyncio
import html
import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.concurrency import TaskOwner, off_loop
from studio.ui.identity import app_icon
from studio.version import version

if TYPE_CHECKING:  # studio.notices imports importlib.metadata: read on the first open only
    from studio.notices import Notice


def about_action(window: QWidget) -> QAction:
    """The Help > About action; the dialog it opens is kept on the window (one at a time)."""
    action = QAction("&About Proto Studio", window)
    action.setObjectName("action_about")
    action.setMenuRole(QAction.MenuRole.AboutRole)  # the application menu on macOS

    def show() -> None:
        dialog = getattr(window, "about_dialog", None)
        if not isinstance(dialog, AboutDialog):
            dialog = AboutDialog(window)
            window.about_dialog = dialog  # type: ignore[attr-defined]  # kept on the window
        dialog.show()
        dialog.raise_()
        dialog.load()

    action.triggered.connect(show)
    return action


class AboutDialog(QDialog):
    """Version, Qt and Python versions, and every bundled component with its licence texts."""

    loaded = Signal(int)  # the number of components listed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About Proto Studio")
        self.setWindowIcon(app_icon())
        self.resize(820, 620)
        self.notices: list[Notice] = []
        self._tasks = TaskOwner("about")
        self._loading: asyncio.Task[None | None] | None = None

        icon = QLabel(self)
        icon.setPixmap(app_icon().pixmap(64, 64))
        from PySide6 import __version__ as pyside_version
        from PySide6.QtCore import qVersion

        self.title = QLabel(
            f"<h2>Proto Studio</h2><p>Version {html.escape(version())}</p>"
            f"<p>Qt {qVersion()} · PySide6 {pyside_version} · Python "
            f"{'.'.join(map(str, sys.version_info[:3]))}</p>"
            "<p>Author AutoMobile prototype specs with an AI agent, preview them live, demo "
            "them on a phone. Licensed under the Apache License 2.0.</p>",
            self,
        )
        self.title.setObjectName("aboutTitle")
        self.title.setWordWrap(True)
        header = QHBoxLayout()
        header.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        header.addWidget(self.title, 1)

        self.components = QTreeWidget(self)
        self.components.setObjectName("aboutComponents")
        self.components.setHeaderLabels(["Component", "Version", "Licence"])
        self.components.setRootIsDecorated(False)
        self.components.currentItemChanged.connect(self._show_current)
        self.details = QLabel("Reading the licences of the bundled components…", self)
        self.details.setObjectName("aboutDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.details.setOpenExternalLinks(True)
        self.text_choice = QComboBox(self)
        self.text_choice.setObjectName("aboutTextChoice")
        self.text_choice.currentIndexChanged.connect(self._show_text)
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("aboutLicenceText")
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.details)
        right_layout.addWidget(self.text_choice)
        right_layout.addWidget(self.text, 1)
        split = QSplitter(self)
        split.addWidget(self.components)
        split.addWidget(right)
        split.setSizes([330, 490])

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)

    def load(self) -> asyncio.Task[None | None] | None:
        """Read the notices off the GUI thread (once); `loaded` fires when they are listed."""
        if not self.notices and (self._loading is None or self._loading.done()):
            self._loading = self._tasks.spawn(self._load(), label="About: licences")
        return self._loading

    async def _load(self) -> None:
        from studio.notices import all_notices

        notices = await off_loop(all_notices)
        self.fill(notices)

    def fill(self, notices: list[Notice]) -> None:
        self.notices = notices
        self.components.clear()
        for notice in notices:
            item = QTreeWidgetItem([notice.name, notice.version, notice.licence])
            item.setToolTip(2, notice.licence)
            self.components.addTopLevelItem(item)
        for column in range(2):
            self.components.resizeColumnToContents(column)
        if notices:
            self.components.setCurrentItem(self.components.topLevelItem(0))
        self.loaded.emit(len(notices))

    def notice(self, name: str) -> Notice | None:
        return next((n for n in self.notices if n.name == name), None)

    def _show_current(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        if item is None:
            return
        notice = self.notices[self.components.indexOfTopLevelItem(item)]
        source = html.escape(notice.source)
        if notice.source.startswith("https://"):
            url = notice.source.split(" ", 1)[0]
            source = f'<a href="{html.escape(url)}">{html.escape(url)}</a>' + html.escape(
                notice.source[len(url) :]
            )
        parts = [
            f"<b>{html.escape(notice.name)}</b> {html.escape(notice.version)}",
            f"Licence: {html.escape(notice.licence)}",
            f"Source: {source}",
        ]
        if notice.note:
            parts.append(html.escape(notice.note))
        self.details.setText("<br>".join(parts))
        self.text_choice.blockSignals(True)
        self.text_choice.clear()
        for title, _text in notice.texts:
            self.text_choice.addItem(title)
        self.text_choice.blockSignals(False)
        self.text_choice.setVisible(len(notice.texts) > 1)
        self._show_text(0)

    def _show_text(self, index: int) -> None:
        item = self.components.currentItem()
        if item is None:
            return
        notice = self.notices[self.components.indexOfTopLevelItem(item)]
        if 0 <= index < len(notice.texts):
            self.text.setPlainText(notice.texts[index][1])
        else:
            self.text.setPlainText("(the licence named above; no separate text is bundled)")

    def closeEvent(self, event: QCloseEvent) -> None:
        self._tasks.cancel_all()  # a read still running is started again on the next open
        super().closeEvent(event)
