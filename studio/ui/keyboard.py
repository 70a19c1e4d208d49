"""The keyboard: Help > Keyboard shortcuts (read from the window's QActions, so it cannot drift),
Tab that leaves text editors (indenting with spaces on Ctrl+] and Ctrl+[ instead), and Undo/Redo
that reach the prototype wherever focus is.

Qt gives a focused text field the first claim on Ctrl+Z (its own typing history). A field with
nothing of its own to undo still claims the key and does nothing, which is what the walkthrough
hit in the Inspector; `UndoEverywhere` lets such a field pass the key on to the window's Undo.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import (
    QAction,
    QFocusEvent,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPalette,
    QPen,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QScrollArea,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

INDENT = "  "  # two spaces, as the spec files are written
INDENT_KEY = QKeySequence("Ctrl+]")
OUTDENT_KEY = QKeySequence("Ctrl+[")
SHORTCUTS_KEY = QKeySequence("Ctrl+/")


@dataclass(frozen=True)
class KeyRow:
    """One line of the shortcuts list: where the command lives, what it does, its keys."""

    group: str
    command: str
    keys: str


#: Keys that text fields handle themselves (not QActions); the filters below use the same keys.
FIELD_KEYS: tuple[KeyRow, ...] = (
    KeyRow("In panels and fields", "Next / previous field", "Tab / Shift+Tab"),
    KeyRow(
        "In panels and fields",
        "Indent / outdent the selected lines (JSON editor)",
        f"{INDENT_KEY.toString(QKeySequence.SequenceFormat.NativeText)} / "
        f"{OUTDENT_KEY.toString(QKeySequence.SequenceFormat.NativeText)}",
    ),
    KeyRow("In panels and fields", "Send the instruction (agent)", "Ctrl+Enter"),
    KeyRow("In panels and fields", "Rename the selected prototype (library)", "F2"),
    KeyRow("In panels and fields", "Delete the selected prototype (library)", "Delete"),
)


def _plain(text: str) -> str:
    """A menu text without its mnemonic ampersands and trailing ellipsis dots kept as shown."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


#: Qt's codes for keyboards' media and application keys (Open, Save, Undo...) start here; the
#: standard bindings include them, but the list shows what a designer types.
_MEDIA_KEYS = 0x01000061


def _typed(key: QKeySequence) -> bool:
    return not key.isEmpty() and key[0].key().value < _MEDIA_KEYS


def _keys(action: QAction) -> str:
    fmt = QKeySequence.SequenceFormat.NativeText
    return ", ".join(k.toString(fmt) for k in action.shortcuts() if _typed(k))


def _menu_rows(menu: QMenu, group: str) -> Iterator[KeyRow]:
    for action in menu.actions():
        if action.isSeparator():
            continue
        sub = action.menu()
        if isinstance(sub, QMenu):
            yield from _menu_rows(sub, f"{group} > {_plain(sub.title())}")
        elif _keys(action):
            yield KeyRow(group, _plain(action.text()), _keys(action))


def shortcut_rows(window: QWidget) -> list[KeyRow]:
    """Every shortcut of `window`: its menus' actions (menu by menu), the other QActions with a
    shortcut it or its panels own (as "Other"), then the keys fields handle themselves."""
    rows: list[KeyRow] = []
    seen: set[int] = set()
    bar = getattr(window, "menuBar", None)
    if bar is not None:
        for top in bar().actions():
            menu = top.menu()
            if isinstance(menu, QMenu):
                for row in _menu_rows(menu, _plain(menu.title())):
                    rows.append(row)
                seen.update(id(a) for a in _all_actions(menu))
    for action in window.findChildren(QAction):
        if id(action) in seen or action.menu() is not None or not _keys(action):
            continue
        rows.append(KeyRow("Other", _plain(action.text()), _keys(action)))
    return [*rows, *FIELD_KEYS]


def _all_actions(menu: QMenu) -> Iterator[QAction]:
    for action in menu.actions():
        yield action
        sub = action.menu()
        if isinstance(sub, QMenu):
            yield from _all_actions(sub)


class ShortcutsDialog(QDialog):
    """Help > Keyboard shortcuts: a filterable list read from the window when it opens."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts")
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Filter commands or keys")
        self.filter.setClearButtonEnabled(True)
        self.list = QTreeWidget(self)
        self.list.setObjectName("shortcutsList")
        self.list.setHeaderLabels(["Command", "Keys"])
        self.list.setRootIsDecorated(False)
        header = self.list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self._window = window
        self.rows: list[KeyRow] = []
        self.refresh()
        self.filter.textChanged.connect(self._fill)
        self.resize(560, 520)

    def refresh(self) -> None:
        """Read the window's actions again (a command added since is listed)."""
        self.rows = shortcut_rows(self._window)
        self._fill()

    def _fill(self) -> None:
        needle = self.filter.text().strip().casefold()
        self.list.clear()
        group = None
        for row in self.rows:
            if needle and needle not in f"{row.group} {row.command} {row.keys}".casefold():
                continue
            if row.group != group:
                group = row.group
                heading = QTreeWidgetItem([group, ""])
                font = heading.font(0)
                font.setBold(True)
                heading.setFont(0, font)
                heading.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.list.addTopLevelItem(heading)
            self.list.addTopLevelItem(QTreeWidgetItem([f"    {row.command}", row.keys]))

    def shown_rows(self) -> list[tuple[str, str]]:
        """(command, keys) of the rows shown now, headings left out (tests, accessibility)."""
        items = (self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount()))
        return [(i.text(0).strip(), i.text(1)) for i in items if i is not None and i.text(1)]


def shortcuts_action(window: QWidget) -> QAction:
    """Help > Keyboard shortcuts (Ctrl+/): opens the list, one dialog at a time."""
    action = QAction("&Keyboard shortcuts", window)
    action.setObjectName("action_shortcuts")
    action.setShortcut(SHORTCUTS_KEY)
    action.setStatusTip("Every command's keys, read from the menus")
    action.triggered.connect(lambda: open_shortcuts(window))
    return action


def open_shortcuts(window: QWidget) -> ShortcutsDialog:
    dialog = window.findChild(ShortcutsDialog, "shortcutsDialog")
    if dialog is None:
        dialog = ShortcutsDialog(window)  # kept (hidden) on the window after Close
    elif not dialog.isVisible():
        dialog.filter.clear()  # opened again: the whole list, read again
        dialog.refresh()
    dialog.show()
    dialog.raise_()
    return dialog


class TabLeaves(QObject):
    """On a plain-text editor: Tab and Shift+Tab move focus (never insert a tab); with `indent`,
    Ctrl+] and Ctrl+[ indent and outdent the selected lines by two spaces."""

    def __init__(self, editor: QPlainTextEdit | QTextEdit, *, indent: bool = False) -> None:
        super().__init__(editor)
        self._indent = indent
        editor.setTabChangesFocus(True)
        editor.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self._indent or event.type() not in (
            QEvent.Type.KeyPress,
            QEvent.Type.ShortcutOverride,
        ):
            return False
        if not isinstance(event, QKeyEvent) or not isinstance(watched, QPlainTextEdit):
            return False
        pressed = QKeySequence(event.keyCombination())
        if pressed not in (INDENT_KEY, OUTDENT_KEY):
            return False
        event.accept()
        if event.type() == QEvent.Type.KeyPress:
            shift_lines(watched, outdent=pressed == OUTDENT_KEY)
        return True


def shift_lines(editor: QPlainTextEdit, *, outdent: bool) -> None:
    """Indent (or outdent) every line the selection touches by INDENT, as one undo step."""
    cursor = editor.textCursor()
    document = editor.document()
    first = document.findBlock(cursor.selectionStart())
    last = document.findBlock(max(cursor.selectionEnd() - (1 if cursor.hasSelection() else 0), 0))
    edit = QTextCursor(document)
    edit.beginEditBlock()
    block = first
    while block.isValid():
        edit.setPosition(block.position())
        if outdent:
            text = block.text()
            strip = len(text) - len(text.lstrip(" "))
            edit.movePosition(
                QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor, min(strip, 2)
            )
            edit.removeSelectedText()
        else:
            edit.insertText(INDENT)
        if block == last:
            break
        block = block.next()
    edit.endEditBlock()


def _own_history(widget: QWidget, redo: bool) -> bool | None:
    """Whether a text widget has its own typing to undo (redo); None for other widgets."""
    if isinstance(widget, QLineEdit):
        return widget.isRedoAvailable() if redo else widget.isUndoAvailable()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        if widget.isReadOnly():
            return False
        doc = widget.document()
        return doc.isRedoAvailable() if redo else doc.isUndoAvailable()
    return None


def _text_field(widget: QWidget) -> QWidget:
    """The field a key goes to: a spin box's or an editable combo's line edit is the field."""
    parent = widget.parentWidget()
    if isinstance(widget, QAbstractSpinBox | QComboBox):
        edit = widget.findChild(QLineEdit)
        return edit if edit is not None else widget
    if isinstance(parent, QAbstractSpinBox | QComboBox) and isinstance(widget, QLineEdit):
        return widget
    return widget


class UndoEverywhere(QObject):
    """An application event filter for `window`: when the focused field of that window has no
    typing of its own to undo (redo), it does not claim Ctrl+Z (Ctrl+Shift+Z, Ctrl+Y), so the
    window's Undo (Redo) of the prototype runs. A field with its own typing undoes that first."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)  # Qt drops it when this filter (the window's child) dies

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self._window:
            return False
        undo = event.matches(QKeySequence.StandardKey.Undo)
        redo = event.matches(QKeySequence.StandardKey.Redo) or (
            QKeySequence(event.keyCombination()) in (QKeySequence("Ctrl+Shift+Z"),)
        )
        if not (undo or redo):
            return False
        own = _own_history(_text_field(watched), redo=redo and not undo)
        if own is False:
            event.ignore()  # not claimed: the window's shortcut gets the key
            return True
        return False


def scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    """The scroll area whose viewport holds `widget`, if any."""
    parent = widget.parentWidget()
    while parent is not None:
        area = parent.parentWidget()
        if isinstance(area, QAbstractScrollArea) and area.viewport() is parent:
            return area
        parent = area
    return None


def _on_screen(widget: QWidget) -> bool:
    """Shown now, or scrolled out of a scroll area that is (a long form's fields below the fold
    are still stops: Tab scrolls to them); not on a tab behind another (an empty region)."""
    if not widget.visibleRegion().isEmpty():
        return True
    area = scroll_area_of(widget)
    return area is not None and _on_screen(area)


def show_focused(widget: QWidget) -> None:
    """Scroll every scroll area around `widget` so that it can be seen (after Tab moved to it)."""
    area = scroll_area_of(widget)
    while area is not None:
        if isinstance(area, QScrollArea):
            area.ensureWidgetVisible(widget)
        area = scroll_area_of(area)


def _reading_key(widget: QWidget, region: QWidget) -> tuple[int, ...]:
    """Where `widget` comes in reading order within `region`: its row (widgets whose centres are
    within a line's height share one, as a tool bar's do), then its x. Inside a scroll area the
    place is the area's, then the widget's in the area's content, so that scrolling never
    reorders the stops (a field below the fold stays before what follows the area)."""
    area = scroll_area_of(widget)
    content = area.widget() if isinstance(area, QScrollArea) else None
    if area is not None and content is not None and region.isAncestorOf(area):
        return (*_reading_key(area, region), *_row_and_x(widget, content))
    return _row_and_x(widget, region)


def _row_and_x(widget: QWidget, within: QWidget) -> tuple[int, int]:
    top_left = widget.mapTo(within, widget.rect().topLeft())
    centre = widget.mapTo(within, widget.rect().center())
    return min(centre.y(), top_left.y() + 12) // 16, top_left.x()


def focus_stops(region: QWidget) -> list[QWidget]:
    """The widgets inside `region` that Tab stops on now (visible, enabled, taking Tab focus,
    not behind another tab), in reading order: top to bottom in rows, left to right in a row."""
    found: list[tuple[tuple[int, ...], QWidget]] = []
    for widget in [region, *region.findChildren(QWidget)]:
        if widget.focusProxy() is not None or widget.isWindow():
            continue
        if not (widget.focusPolicy() & Qt.FocusPolicy.TabFocus):
            continue
        if not widget.isVisible() or not widget.isEnabled() or not _on_screen(widget):
            continue
        if not isinstance(widget, QWidget):
            continue
        found.append((_reading_key(widget, region), widget))
    found.sort(key=lambda item: item[0])
    return [widget for _, widget in found]


def reading_order(regions: list[QWidget]) -> list[QWidget]:
    """Every focus stop of `regions` (the panels, in the order a designer reads them)."""
    order: list[QWidget] = []
    for region in regions:
        if region.isVisible():
            order.extend(w for w in focus_stops(region) if w not in order)
    return order


def next_focus(regions: list[QWidget], current: QWidget | None, forward: bool) -> QWidget | None:
    """The stop after (before) `current` in reading order, wrapping; None when `current` is in
    none of the regions (the menu bar, a dialog): Qt's own order applies there."""
    order = reading_order(regions)
    if not order:
        return None
    index = _index_of(order, current)
    if index is None:
        return None
    step = 1 if forward else -1
    return order[(index + step) % len(order)]


def _index_of(order: list[QWidget], current: QWidget | None) -> int | None:
    widget = current
    while widget is not None:  # a field inside a stop (a combo's line edit) counts as the stop
        if widget in order:
            return order.index(widget)
        widget = widget.parentWidget()
    return None


class FocusRing(QWidget):
    """A 2 px ring in the palette's highlight colour around `target` while it has the keyboard
    focus, for the stops the style draws no ring on (the Qt Quick preview, an empty list).
    `inside`: draw the ring just inside that widget's edges instead (the viewport the preview
    scrolls in, which is smaller than the preview at a high zoom and clips what is outside)."""

    def __init__(self, target: QWidget, *, inside: QWidget | None = None) -> None:
        super().__init__(inside or target.parentWidget())
        self.setObjectName("focusRing")
        self._target = target
        self._inside = inside
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        target.installEventFilter(self)
        if inside is not None:
            inside.installEventFilter(self)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.FocusIn and isinstance(event, QFocusEvent):
            keyboard = event.reason() in (
                Qt.FocusReason.TabFocusReason,
                Qt.FocusReason.BacktabFocusReason,
                Qt.FocusReason.ShortcutFocusReason,
            )
            if keyboard:
                self._place()
                self.show()
                self.raise_()
        elif kind == QEvent.Type.Hide or (kind == QEvent.Type.FocusOut and watched is self._target):
            self.hide()
        elif kind in (QEvent.Type.Move, QEvent.Type.Resize) and self.isVisible():
            self._place()
        return False

    def _place(self) -> None:
        if self._inside is not None:
            self.setGeometry(self._inside.rect())
        else:
            self.setGeometry(self._target.geometry().adjusted(-2, -2, 2, 2))

    def paintEvent(self, event: object) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), 2)
        painter.setPen(pen)
        painter.drawRect(self.rect().adjusted(1, 1, -1, -1))
        painter.end()
