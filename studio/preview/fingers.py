"""The preview window's pointer, tracked for the release velocity Compose would fling with.

An event filter on the preview's QQuickWindow feeds one pointer's press, moves and release
(the mouse, or the first finger of a touch) into `velocity.PointerVelocity`, with the events'
own timestamps and scene positions, and remembers where the gesture went down and came up. The
scroll and the pager ask for the velocity when the finger lifts
(`PreviewController.releaseVelocity`), in place of Qt's `horizontalVelocity` /
`verticalVelocity`, and the pager for the way it went (`releaseTravel`). The window sees an event before any item does, so the release is counted
by the time a Flickable's `flickStarted` or `movementEnded` runs.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF
from PySide6.QtGui import QMouseEvent, QPointerEvent
from PySide6.QtQuick import QQuickItem, QQuickWindow

from studio.preview.velocity import PointerVelocity, clamp

#: ViewConfiguration's maximum fling velocity (dp/s) that Compose's Draggable caps the tracked
#: velocity with (`calculateVelocity(Velocity(maximumFlingVelocity, maximumFlingVelocity))`);
#: Overscroll.js MAX_FLING_VELOCITY is the same number for Qt's own cap.
MAX_FLING_VELOCITY = 8000.0

_MOUSE = {
    QEvent.Type.MouseButtonPress: "press",
    QEvent.Type.MouseMove: "move",
    QEvent.Type.MouseButtonRelease: "release",
}
_TOUCH = {
    QEvent.Type.TouchBegin: "press",
    QEvent.Type.TouchUpdate: "move",
    QEvent.Type.TouchEnd: "release",
    QEvent.Type.TouchCancel: "release",
}


class FingerTracker(QObject):
    """Tracks the pointer of the window it is installed on (`watch`)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pointer = PointerVelocity()
        self._window: QQuickWindow | None = None
        self._source = ""  # "mouse" or "touch": the kind of the gesture under way
        self._touch_id = -1
        # Where the last gesture went down and came up (scene coordinates).
        self._down = QPointF()
        self._up = QPointF()

    def watch(self, window: QQuickWindow) -> None:
        if window is self._window:
            return
        if self._window is not None:
            self._window.removeEventFilter(self)
        window.installEventFilter(self)
        self._window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind in _MOUSE:
            assert isinstance(event, QMouseEvent)
            self._mouse(_MOUSE[kind], event)
        elif kind in _TOUCH:
            assert isinstance(event, QPointerEvent)
            self._touch(_TOUCH[kind], event)
        return False

    def _mouse(self, step: str, event: QMouseEvent) -> None:
        if self._source == "touch":
            return  # a mouse event Qt made from the finger being tracked
        at = event.scenePosition()
        if step == "press":
            if self._pointer.down and event.buttons() & ~event.button():
                return  # a second button on the same drag (a lost release starts afresh)
            self._source = "mouse"
            self._down = self._up = QPointF(at)
            self._pointer.press(event.timestamp())
        elif step == "move":
            self._pointer.move(event.timestamp(), at.x(), at.y())
        elif not event.buttons():
            self._up = QPointF(at)
            self._pointer.release(event.timestamp())
            self._source = ""

    def _touch(self, step: str, event: QPointerEvent) -> None:
        points = event.points()
        if self._source == "mouse" or not points:
            return
        if step == "press":
            self._source = "touch"
            self._touch_id = points[0].id()
            self._down = self._up = QPointF(points[0].scenePosition())
            self._pointer.press(event.timestamp())
            return
        if self._touch_id < 0:
            return
        point = next((p for p in points if p.id() == self._touch_id), None)
        if point is None:
            return
        if step == "move":
            at = point.scenePosition()
            self._pointer.move(event.timestamp(), at.x(), at.y())
        if step == "release" or point.state() == point.State.Released:
            self._up = QPointF(point.scenePosition())
            self._pointer.release(event.timestamp())
            self._source = ""
            self._touch_id = -1

    def travel_in(self, item: QQuickItem) -> QPointF:
        """From where the last gesture went down to where it came up, in `item`'s coordinates
        (Compose's pager reads this as PagerState `upDownDifference`)."""
        return item.mapFromScene(self._up) - item.mapFromScene(self._down)

    def velocity_in(self, item: QQuickItem) -> QPointF:
        """The finger's velocity at its last move, in `item`'s coordinates per second (dp/s on
        a preview item), each axis capped at the maximum fling velocity."""
        vx, vy = self._pointer.velocity()
        origin = item.mapFromScene(QPointF(0.0, 0.0))
        end = item.mapFromScene(QPointF(vx, vy))
        return QPointF(
            clamp(end.x() - origin.x(), MAX_FLING_VELOCITY),
            clamp(end.y() - origin.y(), MAX_FLING_VELOCITY),
        )
