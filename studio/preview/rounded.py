"""`image://rounded/...`: an image asset drawn into its node's box with its content scale and
clipped to the node's rounded corners, for both scene graphs (the software one cannot clip to a
rounded shape; the phone clips with `Modifier.clip(shape)`, SC `prototypeNodeModifier`)."""

from __future__ import annotations

import json
from functools import lru_cache
from urllib.parse import unquote

from PySide6.QtCore import QRectF, QSize, Qt, QUrl
from PySide6.QtGui import QImage, QPainter, QPainterPath
from PySide6.QtQuick import QQuickImageProvider


@lru_cache(maxsize=16)
def _load(path: str) -> QImage:
    return QImage(path)


def rounded_path(rect: QRectF, radii: list[float]) -> QPainterPath:
    """A rectangle with per-corner radii (top-left, top-right, bottom-right, bottom-left), each
    at most half the shorter side."""
    top_left, top_right, bottom_right, bottom_left = (
        max(0.0, min(r, rect.width() / 2, rect.height() / 2)) for r in radii
    )
    path = QPainterPath()
    x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
    path.moveTo(x + top_left, y)
    path.lineTo(x + w - top_right, y)
    path.arcTo(x + w - 2 * top_right, y, 2 * top_right, 2 * top_right, 90, -90)
    path.lineTo(x + w, y + h - bottom_right)
    path.arcTo(
        x + w - 2 * bottom_right,
        y + h - 2 * bottom_right,
        2 * bottom_right,
        2 * bottom_right,
        0,
        -90,
    )
    path.lineTo(x + bottom_left, y + h)
    path.arcTo(x, y + h - 2 * bottom_left, 2 * bottom_left, 2 * bottom_left, 270, -90)
    path.lineTo(x, y + top_left)
    path.arcTo(x, y, 2 * top_left, 2 * top_left, 180, -90)
    path.closeSubpath()
    return path


def render_rounded(
    path: str, width: float, height: float, scale: str, radii: list[float], ratio: float
) -> QImage:
    """The asset at `path` in a `width` x `height` dp box (`fit`, `crop` or `fill`), clipped to
    the rounded rectangle, at `ratio` device pixels per dp."""
    size = QSize(max(1, round(width * ratio)), max(1, round(height * ratio)))
    out = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(Qt.GlobalColor.transparent)
    source = _load(path)
    if source.isNull():
        return out
    box = QRectF(0, 0, size.width(), size.height())
    sw, sh = source.width(), source.height()
    if scale == "fill":
        target = box
    else:
        factor = (max if scale == "crop" else min)(box.width() / sw, box.height() / sh)
        tw, th = sw * factor, sh * factor
        target = QRectF((box.width() - tw) / 2, (box.height() - th) / 2, tw, th)
    painter = QPainter(out)
    painter.setRenderHints(
        QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
    )
    painter.setClipPath(rounded_path(box, [r * ratio for r in radii]))
    painter.drawImage(target, source)
    painter.end()
    return out


class RoundedImages(QQuickImageProvider):
    """Serves `image://rounded/<url-encoded JSON {url, w, h, scale, radii, ratio}>`."""

    def __init__(self) -> None:
        super().__init__(QQuickImageProvider.ImageType.Image)

    def requestImage(self, image_id: str, size: QSize, requested: QSize) -> QImage:  # noqa: N802
        try:
            job = json.loads(unquote(image_id))
            return render_rounded(
                QUrl(str(job["url"])).toLocalFile(),
                float(job["w"]),
                float(job["h"]),
                str(job.get("scale", "fit")),
                [float(r) for r in job["radii"]],
                float(job.get("ratio", 1.0)),
            )
        except (ValueError, KeyError, TypeError):
            return QImage()
