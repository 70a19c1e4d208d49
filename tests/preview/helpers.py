"""Helpers for preview tests: image checks, item lookup, node-scoped clicks and drags."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest


def pixels(image: QImage) -> np.ndarray:
    """The image as an (h, w, 4) uint8 array (ARGB32)."""
    converted = image.convertToFormat(QImage.Format.Format_ARGB32)
    width, height = converted.width(), converted.height()
    data = np.frombuffer(converted.constBits(), dtype=np.uint8, count=converted.sizeInBytes())
    stride = converted.bytesPerLine()
    return data.reshape(height, stride)[:, : width * 4].reshape(height, width, 4).copy()


def distinct_colors(image: QImage) -> int:
    array = pixels(image).reshape(-1, 4)
    return len(np.unique(array.view(np.uint32)))


def node_entries(summary: list[dict[str, Any]], node_type: str) -> list[dict[str, Any]]:
    return [entry for entry in summary if entry["type"] == node_type]


def center_of(entry: dict[str, Any]) -> QPoint:
    b = entry["bounds"]
    return QPoint(round(b["x"] + b["width"] / 2), round(b["y"] + b["height"] / 2))


def find_items(root: QQuickItem, class_prefix: str) -> list[QQuickItem]:
    """Visible items under `root` whose class name starts with `class_prefix`."""
    out: list[QQuickItem] = []

    def visit(item: QQuickItem) -> None:
        for child in item.childItems():
            if not child.isVisible():
                continue
            if child.metaObject().className().startswith(class_prefix):
                out.append(child)
            visit(child)

    visit(root)
    return out


def scene_point(item: QQuickItem, x: float | None = None, y: float | None = None) -> QPointF:
    """A point of `item` (its centre by default) in scene coordinates."""
    px = item.width() / 2 if x is None else x
    py = item.height() / 2 if y is None else y
    return item.mapToScene(QPointF(px, py))


def item_rect(item: QQuickItem) -> QRectF:
    return item.mapRectToScene(QRectF(0, 0, item.width(), item.height()))


LEFT = Qt.MouseButton.LeftButton
NO_MOD = Qt.KeyboardModifier.NoModifier


def find_named(root: QQuickItem, name: str, *, visible: bool = False) -> QQuickItem | None:
    """The item of objectName `name` in `root`'s item tree (`root` too; Repeater and view
    delegates are in it, unlike QObject children), or None. With `visible`, only a visible one
    counts (its parents' visibility aside, so a closed popup's items are still searched)."""
    stack = [root]
    while stack:
        item = stack.pop()
        if item.objectName() == name and (not visible or item.isVisible()):
            return item
        stack.extend(item.childItems())
    return None


def named(root: QQuickItem, name: str, *, visible: bool = False) -> QQuickItem:
    """`find_named`, failing (AssertionError naming it) where there is no such item."""
    found = find_named(root, name, visible=visible)
    if found is None:
        raise AssertionError(f"no item named {name!r}")
    return found


def click_item(scene: Any, item: QQuickItem) -> None:
    """A left click at the centre of `item` on a HeadlessScene's window."""
    at = item.mapToScene(item.boundingRect().center()).toPoint()
    QTest.mouseClick(scene.view, LEFT, NO_MOD, at)


def drag(scene: Any, start: QPoint, dx: int, dy: int, steps: int = 20, ms: int = 16) -> None:
    """On a HeadlessScene's window: press at `start` and move by (dx, dy) in `steps` moves `ms`
    apart, still pressed (the caller releases, so it can look while held)."""
    QTest.mousePress(scene.view, LEFT, NO_MOD, start)
    for i in range(1, steps + 1):
        point = QPoint(start.x() + dx * i // steps, start.y() + dy * i // steps)
        QTest.mouseMove(scene.view, point, ms)


def swipe(qtbot: Any, widget: Any, start: QPoint, dx: int, dy: int, steps: int = 10) -> None:
    """On a widget (the studio's QQuickWidget): press at `start`, move by (dx, dy) in `steps`
    moves and release at the end."""
    qtbot.mousePress(widget, LEFT, pos=start)
    for i in range(1, steps + 1):
        qtbot.mouseMove(widget, QPoint(start.x() + dx * i // steps, start.y() + dy * i // steps))
    qtbot.mouseRelease(widget, LEFT, pos=QPoint(start.x() + dx, start.y() + dy))
