"""Drags on the preview in edit mode: a node pressed and dragged on the preview moves (the
selection, where the pressed node is in it), and a palette entry, dragged tree rows or preview
nodes land before, after or inside the node under the cursor, with an indicator over the preview
that shows where, or why the drop would be refused, before the drop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QDrag, QDragMoveEvent, QDropEvent, QMouseEvent, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QWidget

from studio.spec.catalog import container
from studio.ui.spec_tree import Refusal, drag_payload, nodes_mime

#: The widest a dragged node's picture is drawn under the cursor (px).
DRAG_IMAGE_WIDTH = 240
#: (node path, node type, its rect in the preview widget's coordinates)
Target = tuple[str, str, QRect]


class PreviewDropTarget(QObject):
    """An event filter on the preview's Qt Quick widget. `enabled()` says whether drops are
    taken (edit mode); `resolve(address)` turns a preview address into a node path (None for
    what cannot take a drop, such as a repeat's instance); `refusal` judges a drop."""

    dropRequested = Signal(list, str, str, str)  # paths, new type ("": a move), target, position
    dragStarted = Signal(list)  # the paths of the nodes a drag on the preview carries

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
        #: The selected nodes' paths (a drag from a selected node carries all of them).
        self.selected: Callable[[], list[str]] = list
        #: Where the left button went down on a node (its path), until a drag starts from it.
        self._press: tuple[QPointF, str] | None = None
        #: A drag started from the press: its release is not a click (which would select).
        self._dragged = False
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

    def node_at(self, point: QPointF) -> str | None:
        """The path of the smallest node on screen under `point` (None: none, or the root)."""
        under = [t for t in self.targets() if t[2].contains(point.toPoint())]
        if not under:
            return None
        path = min(under, key=lambda t: t[2].width() * t[2].height())[0]
        return None if path == "root" else path

    def _mouse(self, event: QMouseEvent) -> bool:
        """Start a drag of the node pressed on once the cursor has moved far enough with the
        button held (the press itself still reaches the preview, which selects the node)."""
        kind = event.type()
        left = Qt.MouseButton.LeftButton
        if kind == QEvent.Type.MouseButtonPress:
            self._press, self._dragged = None, False
            if event.button() == left and self._enabled():
                self._targets = None
                path = self.node_at(event.position())
                self._press = (event.position(), path) if path is not None else None
            return False
        if kind == QEvent.Type.MouseButtonRelease:
            dragged, self._press, self._dragged = self._dragged, None, False
            return dragged
        if self._press is None or not event.buttons() & left or not self._enabled():
            return False
        start, path = self._press
        if (event.position() - start).manhattanLength() < QApplication.startDragDistance():
            return False
        self._press, self._dragged = None, True
        selected = self.selected()
        paths = selected if path in selected else [path]
        self.dragStarted.emit(paths)
        drag = QDrag(self._widget)
        drag.setMimeData(nodes_mime(paths))
        rect = next((t[2] for t in self.targets() if t[0] == path), None)
        if rect is not None and not rect.isEmpty():
            # The node as drawn follows the cursor, at most 240 px wide, faded a little.
            image = self._widget.grab(rect).toImage()
            if image.width() > DRAG_IMAGE_WIDTH:
                image = image.scaledToWidth(
                    DRAG_IMAGE_WIDTH, Qt.TransformationMode.SmoothTransformation
                )
            faded = QPixmap(image.size())
            faded.fill(Qt.GlobalColor.transparent)
            painter = QPainter(faded)
            painter.setOpacity(0.8)
            painter.drawImage(0, 0, image)
            painter.end()
            drag.setPixmap(faded)
            scale = image.width() / rect.width()
            drag.setHotSpot(((start - QPointF(rect.topLeft())) * scale).toPoint())
        self._targets = None
        drag.exec(Qt.DropAction.MoveAction)
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseMove,
            QEvent.Type.MouseButtonRelease,
        ):
            assert isinstance(event, QMouseEvent)
            return self._mouse(event)
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
