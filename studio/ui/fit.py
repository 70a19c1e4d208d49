"""What keeps the window on a laptop screen: it opens at a size that fits the screen it is on
(`first_geometry`, `onto_screen`), and a dock's panel never sets the dock's (and so the
window's) minimum width; when the dock is narrower than the panel's minimum, the panel scrolls
sideways inside it instead of widening it. Heights are kept (a dock is never shorter than its
panel's minimum) except for forms, which scroll up and down as well."""

from __future__ import annotations

from PySide6.QtCore import QChildEvent, QEvent, QMargins, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QComboBox, QFrame, QScrollArea, QTabBar, QWidget

#: The narrowest a dock may be made, whatever its panel asks for.
MIN_DOCK_WIDTH = 120
#: The shortest a dock whose panel may scroll up and down (a form) may be made.
MIN_FORM_HEIGHT = 120
#: The window's size on first run, where the screen has room for it.
FIRST_SIZE = QSize(1440, 900)
#: Room left around a window fitted to a screen: the window manager's title bar and borders.
SCREEN_MARGIN = 32
#: The frame a window manager adds around a window (a title bar, borders): a guess, as it is
#: only known once the window is shown.
FRAME_GUESS = QMargins(8, 32, 8, 8)


def first_geometry(available: QRect, size: QSize = FIRST_SIZE) -> QRect:
    """Where the window opens with nothing remembered: `size`, or less where the screen's
    `available` area (without panels and docks) less SCREEN_MARGIN is smaller, centred on it."""
    room = available.adjusted(SCREEN_MARGIN, SCREEN_MARGIN, -SCREEN_MARGIN, -SCREEN_MARGIN)
    rect = QRect(QPoint(0, 0), size.boundedTo(room.size()))
    rect.moveCenter(available.center())
    return rect


def onto_screen(rect: QRect, available: QRect, frame: QMargins = FRAME_GUESS) -> QRect:
    """A remembered geometry (the window's inside, without the `frame` the window manager adds)
    as it may be shown on a screen whose `available` area it no longer fits (a laptop unplugged
    from a larger monitor): unchanged where it is wholly on it with its frame, else made no
    larger than the screen and moved onto it (Qt's own `restoreGeometry` moves a window only
    where it is wholly off the screen, and ignores the frame)."""
    if available.contains(rect.marginsAdded(frame)):
        return rect
    room = available.marginsRemoved(frame)
    size = rect.size().boundedTo(room.size())
    x = min(max(rect.left(), room.left()), room.right() + 1 - size.width())
    y = min(max(rect.top(), room.top()), room.bottom() + 1 - size.height())
    return QRect(QPoint(x, y), size)


#: The fewest characters a form's combo box keeps room for: its longest entry ("surfaceContainer
#: Highest", "four corners") no longer sets the form's, and so the dock's, minimum width.
COMBO_CHARACTERS = 8


def compact(combo: QComboBox) -> QComboBox:
    """A combo box as narrow as COMBO_CHARACTERS allow (its popup still shows entries whole)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(COMBO_CHARACTERS)
    return combo


class DockBody(QScrollArea):
    """The one child of a dock: `panel()`, given the whole dock while the dock is at least as
    large as the panel's minimum, and scrolled (never squeezed) where it is not.

    QScrollArea's own `widgetResizable` sizes a panel with height-for-width content (wrapped
    labels) to its *preferred* height and then shows a scroll bar in a dock that is tall
    enough; this body sizes the panel to the viewport, bounded below by the panel's minimum."""

    def __init__(
        self, panel: QWidget, parent: QWidget | None = None, *, keep_height: bool = True
    ) -> None:
        super().__init__(parent)
        # A form (the inspector) may scroll up and down too; a sheet with its input at the
        # bottom (the agent) or a list panel keeps its whole minimum height.
        self._keep_height = keep_height
        self.setObjectName(f"{panel.objectName() or 'panel'}Body")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes into the panel, not here
        self.setWidget(panel)

    def setWidget(self, widget: QWidget) -> None:  # noqa: N802 (Qt's name)
        """Show `widget` (the previous panel is deleted, as QScrollArea does)."""
        super().setWidget(widget)
        widget.installEventFilter(self)
        self.updateGeometry()
        self._fit()

    def panel(self) -> QWidget:
        widget = self.widget()
        assert widget is not None  # set in __init__ and only ever replaced
        return widget

    def _need(self) -> QSize:
        panel = self.panel()
        return panel.minimumSizeHint().expandedTo(panel.minimumSize())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """What the panel would like (a dock starts at its panel's size)."""
        widget = self.widget()
        return widget.sizeHint() if widget is not None else super().sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """The panel's minimum height, but never its width (that scrolls)."""
        widget = self.widget()
        if widget is None:
            return super().minimumSizeHint()
        need = self._need()
        bar = self.horizontalScrollBar().sizeHint().height()
        width = min(need.width(), MIN_DOCK_WIDTH)
        height = need.height() if self._keep_height else min(need.height(), MIN_FORM_HEIGHT)
        return QSize(width, height + (bar if need.width() > width else 0))

    def resizeEvent(self, event: object) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)  # type: ignore[arg-type]  # a QResizeEvent
        self._fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the dock re-reads the panel's minimum height
            self._fit()
        return super().eventFilter(watched, event)

    def _fit(self) -> None:
        """Give the panel the viewport, or its minimum where the viewport is smaller."""
        widget = self.widget()
        if widget is None:
            return
        need = self._need()
        room = self.maximumViewportSize()  # the viewport without scroll bars
        bar_w = self.verticalScrollBar().sizeHint().width()
        bar_h = self.horizontalScrollBar().sizeHint().height()
        wide = need.width() > room.width()
        height = room.height() - (bar_h if wide else 0)
        tall = need.height() > height
        width = room.width() - (bar_w if tall else 0)
        if not wide and need.width() > width:  # the vertical bar made it too narrow
            wide, height = True, room.height() - bar_h
        size = QSize(max(width, need.width()), max(height, need.height()))
        if widget.size() != size:
            widget.resize(size)

    def scrolls(self) -> bool:
        """Whether the dock is smaller than the panel's minimum now (it scrolls)."""
        bars = (self.horizontalScrollBar(), self.verticalScrollBar())
        return any(bar.maximum() > 0 for bar in bars)


class WholeTabTitles(QObject):
    """The tab bars under tabbed docks show whole titles and scroll, instead of cutting every
    title to a letter ("I…", "R…", "S…" for six panels tabbed under the Inspector in a 340 px
    column). QMainWindow makes those tab bars itself, when docks are tabbed (also later, when
    the designer drags one onto another), so each is set as it joins the window."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        window.installEventFilter(self)
        for bar in window.findChildren(QTabBar):
            self._whole(bar)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.ChildPolished and isinstance(event, QChildEvent):
            child = event.child()
            if isinstance(child, QTabBar):
                self._whole(child)
        return False

    @staticmethod
    def _whole(bar: QTabBar) -> None:
        bar.setElideMode(Qt.TextElideMode.ElideNone)
        bar.setUsesScrollButtons(True)
