"""The inspector's colour editor (a `colorValue`: a theme role, `#RRGGBB` / `#AARRGGBB`, or a
light and a dark one): a role picker whose entries show the open prototype's colours as swatches,
a swatch button that opens a colour dialog for a hex value, and "Light and dark" for a pair.

It reads and writes the same text as the colour line it replaces (a role or hex as is, a pair as
JSON: `studio.spec.fields.show` / `parse`), so the inspector's gate (parse, then the validator)
is unchanged."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QColorDialog,
    QComboBox,
    QGridLayout,
    QLabel,
    QToolButton,
    QWidget,
)

from studio.spec.rules import COLOR_ROLES
from studio.ui.field_editors import CompoundEditor
from studio.ui.fit import compact

ONE, PAIR = "One colour", "Light and dark"
SWATCH = QSize(16, 16)
MODES = ("light", "dark")


def _qcolor(hex_text: str) -> QColor | None:
    """`#RRGGBB` or `#AARRGGBB` (the spec's forms, which QColor reads alike), else None."""
    text = hex_text.strip()
    if len(text) not in (7, 9) or not text.startswith("#"):
        return None
    colour = QColor(text)
    return colour if colour.isValid() else None


def _hex(colour: QColor) -> str:
    """The spec's hex for a picked colour: `#RRGGBB`, or `#AARRGGBB` where it is translucent."""
    name = colour.name(
        QColor.NameFormat.HexArgb if colour.alpha() < 255 else QColor.NameFormat.HexRgb
    )
    return name.upper()


def swatch(colour: QColor | None) -> QIcon:
    """A small square of `colour`; an outlined empty square for none (unset or not a colour)."""
    pixmap = QPixmap(SWATCH)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setPen(QPen(QColor("#79747E"), 1))
    if colour is not None:
        painter.setBrush(colour)
    painter.drawRect(0, 0, SWATCH.width() - 1, SWATCH.height() - 1)
    painter.end()
    return QIcon(pixmap)


class ColourToken(QWidget):
    """One colour: a swatch button (opens a colour dialog) and an editable role/hex combo."""

    def __init__(self, name: str, owner: ColourEditor) -> None:
        super().__init__(owner)
        self._owner = owner
        self._palette: Mapping[str, str] = {}
        self.button = QToolButton(self)
        self.button.setObjectName(f"colourSwatch_{name}")
        self.button.setToolTip("Pick a colour")
        self.button.setIconSize(SWATCH)
        self.button.clicked.connect(self.pick)
        self.combo = compact(QComboBox(self))
        self.combo.setObjectName(f"colourValue_{name}")
        self.combo.setEditable(True)
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.combo.setToolTip("A theme role, or a hex colour (#RRGGBB or #AARRGGBB)")
        self.combo.addItem("")
        for role in COLOR_ROLES:
            self.combo.addItem(role)
        line = self.combo.lineEdit()
        assert line is not None  # editable
        line.setPlaceholderText("role or #hex")
        line.editingFinished.connect(owner.finish)
        line.textChanged.connect(lambda _t: self._show_swatch())
        self.combo.activated.connect(lambda _i: owner.finish())
        self.dialog: QColorDialog | None = None
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.button, 0, 0)
        grid.addWidget(self.combo, 0, 1)
        grid.setColumnStretch(1, 1)
        self._show_swatch()

    def text(self) -> str:
        return self.combo.currentText().strip()

    def set_text(self, text: str) -> None:
        if self.combo.currentText() != text:
            self.combo.setEditText(text)
        self._show_swatch()

    def colour(self) -> QColor | None:
        """What the token draws as in the open prototype's theme (a role's colour, a hex)."""
        text = self.text()
        if text in self._palette:
            return _qcolor(self._palette[text])
        return _qcolor(text)

    def set_palette(self, palette: Mapping[str, str]) -> None:
        """The role colours (#AARRGGBB) of one mode of the open prototype's theme."""
        self._palette = palette
        typed = self.combo.currentText()  # a changed current item resets an editable combo's text
        for index in range(1, self.combo.count()):
            role = self.combo.itemText(index)
            self.combo.setItemIcon(index, swatch(_qcolor(palette.get(role, ""))))
        self.set_text(typed)

    def _show_swatch(self) -> None:
        self.button.setIcon(swatch(self.colour()))

    def pick(self) -> None:
        """The colour dialog, starting from what the token shows; a picked colour is its hex."""
        dialog = QColorDialog(self.colour() or QColor("#6750A4"), self)
        dialog.setObjectName("colourDialog")
        dialog.setOption(QColorDialog.ColorDialogOption.ShowAlphaChannel)
        # The studio draws its own dialog: the same on every desktop, and testable offscreen.
        dialog.setOption(QColorDialog.ColorDialogOption.DontUseNativeDialog)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.colorSelected.connect(self._picked)
        dialog.finished.connect(lambda _r: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()

    def _picked(self, colour: QColor) -> None:
        self.set_text(_hex(colour))
        self._owner.finish()


class ColourEditor(CompoundEditor):
    """A `colorValue` as a designer picks it: one token, or a light and a dark one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mode = compact(QComboBox(self))
        self.mode.setObjectName("colourMode")
        self.mode.addItems([ONE, PAIR])
        self.mode.setToolTip("One colour in both modes, or one for light and one for dark")
        self.mode.activated.connect(lambda _i: self._mode_picked())
        self.tokens = {mode: ColourToken(mode, self) for mode in MODES}
        self.labels = {mode: QLabel(mode.capitalize(), self) for mode in MODES}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.mode, 0, 0, 1, 2)
        for row, mode in enumerate(MODES, start=1):
            grid.addWidget(self.labels[mode], row, 0)
            grid.addWidget(self.tokens[mode], row, 1)
        grid.setColumnStretch(1, 1)
        self._show_mode()

    def paired(self) -> bool:
        return self.mode.currentText() == PAIR

    def text(self) -> str:
        light, dark = (self.tokens[m].text() for m in MODES)
        if not self.paired():
            return light
        if not light and not dark:
            return ""
        return json.dumps({"light": light, "dark": dark}, ensure_ascii=False)

    def set_text(self, text: str) -> None:
        value: Any = text
        if text.strip().startswith("{"):
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = text
        if isinstance(value, dict):
            self.mode.setCurrentText(PAIR)
            for mode in MODES:
                token = value.get(mode, "")
                self.tokens[mode].set_text(token if isinstance(token, str) else json.dumps(token))
        else:
            self.mode.setCurrentText(ONE)
            self.tokens["light"].set_text(str(value))
            self.tokens["dark"].set_text("")
        self._show_mode()

    def set_palettes(self, light: Mapping[str, str], dark: Mapping[str, str]) -> None:
        """The open prototype's role colours per mode, for the swatches. In "One colour" the
        token's swatches show the light theme's colours."""
        self.tokens["light"].set_palette(light)
        self.tokens["dark"].set_palette(dark)

    def finish(self) -> None:
        """A token was edited: apply, unless a new pair still lacks its other half."""
        if self.paired() and not all(self.tokens[m].text() for m in MODES):
            return  # the pair applies once both halves are set (it is one value)
        self.changed.emit()

    def _mode_picked(self) -> None:
        light, dark = self.tokens["light"], self.tokens["dark"]
        if self.paired() and not dark.text():
            dark.set_text(light.text())  # start the pair from the one colour
        self._show_mode()
        self.finish()

    def _show_mode(self) -> None:
        paired = self.paired()
        self.labels["light"].setVisible(paired)
        self.labels["dark"].setVisible(paired)
        self.tokens["dark"].setVisible(paired)


def show_theme_colours(container: QWidget, spec: Mapping[str, Any]) -> None:
    """Give every colour editor in `container` the role colours of `spec`'s theme (its swatches
    show what each role draws as in this prototype, light and dark)."""
    editors = container.findChildren(ColourEditor)
    if not editors:
        return
    from studio.preview.scheme import build_scheme

    light, dark = (build_scheme(spec, mode).colors for mode in MODES)
    for editor in editors:
        editor.set_palettes(light, dark)
