"""The platform panel (a document-level editor): the modules the prototype declares in
`requires.platform` (studio extension), each with what it does and how many actions call it;
add one of the modules this build has (`studio.platform.requires.available_modules`), remove one
(refused, with the calls listed, while an action uses it). Each is one validated revision
through the workspace (`studio.workspace.editing`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from studio.platform.requires import ModuleInfo
    from studio.workspace import Shown

NAME_ROLE = Qt.ItemDataRole.UserRole + 1


def _shipped() -> list[ModuleInfo]:
    from studio.platform.requires import available_modules

    return available_modules()


class PlatformPanel(QWidget):
    """Out: `addRequested(module)`, `removeRequested(module)`. In: `present(shown)`,
    `show_error(line)`. `modules` gives the modules to offer (this build's, read on first
    show: building the registry costs a few hundred ms that most sessions never need)."""

    addRequested = Signal(str)
    removeRequested = Signal(str)

    def __init__(
        self, parent: QWidget | None = None, modules: Callable[[], list[ModuleInfo]] = _shipped
    ) -> None:
        super().__init__(parent)
        self.setObjectName("platformPanel")
        self._source = modules
        self._known: dict[str, ModuleInfo] | None = None
        self._spec: dict[str, Any] | None = None
        self.list = QListWidget(self)
        self.list.setObjectName("platformModules")
        self.choice = QComboBox(self)
        self.choice.setObjectName("platformChoice")
        self.add_button = QPushButton("Add module", self)
        self.remove_button = QPushButton("Remove", self)
        self.error = QLabel("", self)
        self.error.setObjectName("platformError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b3261e;")
        self.error.hide()
        hint = QLabel("Modules the prototype's platform actions may call.", self)
        hint.setWordWrap(True)
        adding = QHBoxLayout()
        adding.addWidget(self.choice, 1)
        adding.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(hint)
        layout.addWidget(self.list)
        layout.addWidget(self.error)
        layout.addLayout(adding)
        layout.addWidget(self.remove_button)
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        self.setEnabled(False)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._known is None and self._spec is not None:
            self._draw()

    def known(self) -> dict[str, ModuleInfo]:
        if self._known is None:
            self._known = {m.name: m for m in self._source()}
        return self._known

    def declared(self) -> list[str]:
        return [str(self.list.item(i).data(NAME_ROLE)) for i in range(self.list.count())]

    def offered(self) -> list[str]:
        return [str(self.choice.itemData(i)) for i in range(self.choice.count())]

    def present(self, shown: Shown) -> None:
        if shown.spec is self._spec:
            return
        self._spec = shown.spec
        self.setEnabled(shown.source == "document")
        self.error.hide()
        if self._known is not None or self.isVisible():
            self._draw()
        else:
            self._draw_declared()

    def _draw_declared(self) -> None:
        from studio.platform.requires import required_modules
        from studio.spec.platform_rules import module_calls

        spec = self._spec or {}
        known = self._known or {}
        self.list.clear()
        for name in required_modules(spec):
            calls = module_calls(spec, name)
            info = known.get(name)
            used = f"{len(calls)} call{'' if len(calls) == 1 else 's'}"
            text = f"{name} · {used}" + (f" · {info.description}" if info else "")
            item = QListWidgetItem(text, self.list)
            item.setData(NAME_ROLE, name)
            item.setToolTip("\n".join(f"{path} ({where}: {call})" for path, where, call in calls))

    def _draw(self) -> None:
        known = self.known()
        self._draw_declared()
        declared = set(self.declared())
        self.choice.clear()
        for name, info in sorted(known.items()):
            if name not in declared:
                self.choice.addItem(f"{name} — {info.description}", name)
        self.add_button.setEnabled(self.choice.count() > 0)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def choose(self, module: str) -> None:
        self.known()
        if self.choice.count() == 0:
            self._draw()
        self.choice.setCurrentIndex(self.choice.findData(module))

    def _add(self) -> None:
        module = self.choice.currentData()
        if isinstance(module, str):
            self.addRequested.emit(module)

    def _remove(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.removeRequested.emit(str(item.data(NAME_ROLE)))
