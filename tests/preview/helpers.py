"""Helpers for preview tests: image checks, item lookup, node-scoped clicks."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage
from PySide6.QtQuick import QQuickItem


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
