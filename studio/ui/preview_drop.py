"""Drops onto the preview in edit mode: a palette entry or dragged tree rows land before, after or
inside the node under the cursor, with an indicator over the preview that shows where, or why
the drop would be refused, before the drop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QFrame, QLabel, QWidget

from studio.spec.catalog import container
from studio.ui.spec_tree import Refusal, drag_payload

#: (node path, node type, its rect in the preview widget's coordinates)
Target = tuple[str, str, QRect]


class PreviewDropTarget(QObject):
    """An event filter on the preview's Qt Quick widget. `enabled()` says whether drops are
    taken (edit mode); `resolve(address)` turns a preview address into a node path (None for
    what cannot take a drop, such as a repeat's instance); `refusal` judges a drop."""

    dropRequested = Signal(list, str, str, str)  # paths, new type ("": a move), target, position

    def __init__(
        self,
        widget: QWidget,
        screen: Callable[[], Any],
        nodes: Callable[[], list[dict[str, Any]]],
        enabled: Callable[[], bool],
        resolve: Callable[[str], str | None],
    ) -> None:
        super().__init__(widget)
        self._widget = widget
        self._screen = screen
        self._nodes = nodes
        self._enabled = enabled
        self._resolve = resolve
        self.refusal: Refusal = lambda *_args: None
        #: A node's readable name for the hint (`studio.spec.names`).
        self.describe: Callable[[str], str] = lambda path: path
        self._targets: list[Target] | None = None
        self.indicator = QFrame(widget)
        self.indicator.setObjectName("previewDropIndicator")
        self.indicator.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.indicator.hide()
        self.hint = QLabel("", widget)
        self.hint.setObjectName("previewDropHint")
        self.hint.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hint.setStyleSheet("background: #fffbfe; padding: 2px 6px; border-radius: 4px;")
        self.hint.hide()
        widget.setAcceptDrops(True)
        widget.installEventFilter(self)

    def targets(self) -> list[Target]:
        """The nodes on screen that can take a drop, deepest last (read once per drag)."""
        if self._targets is None:
            screen = self._screen()
            found: list[Target] = []
            for entry in self._nodes():
                path = self._resolve(str(entry.get("address") or ""))
                if path is None:
                    continue
                b = entry["bounds"]
                rect = screen.mapRectToScene(QRectF(b["x"], b["y"], b["width"], b["height"]))
                found.append((path, str(entry.get("type")), rect.toAlignedRect()))
            self._targets = found
        return self._targets

    def place(self, point: QPointF) -> tuple[str, str, QRect] | None:
        """(target path, position, the target's rect) for a drop at `point`: the smallest node
        under it; inside a container (near its edge: before or after it), else before or after
        by which half the point is in."""
        under = [t for t in self.targets() if t[2].contains(point.toPoint())]
        if not under:
            return None
        path, type_, rect = min(under, key=lambda t: t[2].width() * t[2].height())
        offset = point.y() - rect.top()
        if path == "root":
            return path, "inside", rect
        if container(type_) is not None:
            edge = min(8.0, rect.height() / 4)
            if offset < edge:
                return path, "before", rect
            if offset > rect.height() - edge:
                return path, "after", rect
            return path, "inside", rect
        return path, ("before" if offset < rect.height() / 2 else "after"), rect

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (
            QEvent.Type.DragEnter,
            QEvent.Type.DragMove,
            QEvent.Type.Drop,
            QEvent.Type.DragLeave,
        ):
            return False
        if kind == QEvent.Type.DragLeave:
            self._clear()
            return False
        assert isinstance(event, QDragMoveEvent | QDropEvent)
        payload = drag_payload(event.mimeData())
        if payload is None or not self._enabled():
            return False  # files and other drags: the window's own drop handling
        if kind == QEvent.Type.DragEnter:
            self._targets = None
        placed = self.place(event.position())
        refusal = (
            self.refusal(placed[0], placed[1], payload[0], payload[1])
            if placed is not None
            else "drop onto a node of the preview"
        )
        self._show(placed, refusal)
        if refusal is not None:
            event.ignore()
            if kind == QEvent.Type.Drop:
                self._clear()
            elif kind == QEvent.Type.DragEnter:
                event.accept()  # keep receiving moves: the next position may take it
            return True
        event.setDropAction(Qt.DropAction.MoveAction)
        event.accept()
        if kind == QEvent.Type.Drop and placed is not None:
            self._clear()
            self.dropRequested.emit(payload[0], payload[1] or "", placed[0], placed[1])
        return True

    def _show(self, placed: tuple[str, str, QRect] | None, refusal: str | None) -> None:
        colour = "#b3261e" if refusal else "#0061a4"
        if placed is not None:
            _, position, rect = placed
            if position == "inside":
                self.indicator.setGeometry(rect)
                self.indicator.setStyleSheet(f"border: 2px solid {colour}; background: none;")
            else:
                y = rect.top() if position == "before" else rect.bottom()
                self.indicator.setGeometry(rect.left(), y - 1, rect.width(), 3)
                self.indicator.setStyleSheet(f"background: {colour}; border: none;")
            self.indicator.show()
            self.indicator.raise_()
        else:
            self.indicator.hide()
        if refusal:
            self.hint.setText(f"Cannot drop here: {refusal}")
        elif placed is not None:
            where = "into" if placed[1] == "inside" else placed[1]
            self.hint.setText(f"Drop {where} {self.describe(placed[0])}")
        self.hint.setStyleSheet(
            f"color: {colour}; background: #fffbfe; padding: 2px 6px; border-radius: 4px;"
        )
        self.hint.adjustSize()
        self.hint.move(8, 8)
        self.hint.show()
        self.hint.raise_()

    def _clear(self) -> None:
        self._targets = None
        self.indicator.hide()
        self.hint.hide()
        self.hint.setText("")
