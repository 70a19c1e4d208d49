"""Text sizes for the layout, from the Qt Quick items that draw the text (resources/qml/Measure.qml).

The layout (`studio.preview.layout`) measures every text before anything is instantiated; asking
the same items the scene draws with (StyledText, RoleText, ButtonLabel, the text field's input) keeps
line breaking, font resolution and rounding identical by construction. Results are cached per
text and style until the theme changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Q_ARG, Q_RETURN_ARG, QMetaObject, QObject, QRectF, Qt
from shiboken6 import Shiboken

from studio.preview.layout import INF

_DIRECT = Qt.ConnectionType.DirectConnection
#: Text style keys that change a text's size (colour and alignment do not).
_SIZE_KEYS = ("size", "weight", "lineHeight", "letterSpacing", "italic", "family")


class QuickMeasurer:
    """The `layout.Measurer` of one preview scene, with its caches. Its items live in the scene
    (DeviceScreen.qml declares a `Measure`), so they go with it, before the controller."""

    def __init__(self) -> None:
        self._item: QObject | None = None
        self._styled: dict[tuple[Any, ...], tuple[float, float, float]] = {}
        self._roles: dict[tuple[str, str], tuple[float, float]] = {}
        self._buttons: dict[tuple[str, str, float, float], float] = {}
        self._fields: dict[str, float] = {}

    def attach(self, item: QObject) -> None:
        """The scene's Measure item."""
        if item is not self._item:
            self._item = item
            self.reset()

    def _measure_item(self) -> QObject:
        item = self._item
        if item is None or not Shiboken.isValid(item):
            raise RuntimeError("preview: the scene has no text measurer (Measure.qml) yet")
        return item

    @property
    def ready(self) -> bool:
        return self._item is not None and Shiboken.isValid(self._item)

    def reset(self) -> None:
        """The theme changed (type scale, family, fonts): measure everything again."""
        self._styled.clear()
        self._roles.clear()
        self._buttons.clear()
        self._fields.clear()
        if self.ready:
            QMetaObject.invokeMethod(self._item, "reset", _DIRECT)

    def close(self) -> None:
        """No more measuring (the scene is going)."""
        self._item = None

    # -- layout.Measurer ---------------------------------------------------------------------
    def styled(
        self, text: str, role: str, ts: Mapping[str, Any], st: Mapping[str, Any], width: float
    ) -> tuple[float, float, float]:
        max_lines = int(st.get("maxLines", 0) or 0)
        overflow = str(st.get("overflow", "clip"))
        key = (text, role, width, max_lines, overflow, *(ts.get(k) for k in _SIZE_KEYS))
        hit = self._styled.get(key)
        if hit is not None:
            return hit
        sized = {k: ts[k] for k in _SIZE_KEYS if k in ts}
        node_style = {"maxLines": max_lines, "overflow": overflow}
        rect: QRectF = QMetaObject.invokeMethod(
            self._measure_item(),
            "styled",
            _DIRECT,
            Q_RETURN_ARG("QRectF"),
            Q_ARG("QString", text),
            Q_ARG("QString", role),
            Q_ARG("QVariant", sized),
            Q_ARG("QVariant", node_style),
            Q_ARG("double", -1.0 if width == INF else float(width)),
        )
        out = (rect.x(), rect.y(), rect.width())
        self._styled[key] = out
        return out

    def role_text(self, text: str, role: str) -> tuple[float, float]:
        key = (text, role)
        hit = self._roles.get(key)
        if hit is None:
            point = QMetaObject.invokeMethod(
                self._measure_item(),
                "roleText",
                _DIRECT,
                Q_RETURN_ARG("QPointF"),
                Q_ARG("QString", text),
                Q_ARG("QString", role),
            )
            hit = self._roles[key] = (point.x(), point.y())
        return hit

    def button(self, label: str, icon: str, pad_start: float, pad_end: float) -> float:
        key = (label, icon, pad_start, pad_end)
        hit = self._buttons.get(key)
        if hit is None:
            hit = self._buttons[key] = float(
                QMetaObject.invokeMethod(
                    self._measure_item(),
                    "buttonWidth",
                    _DIRECT,
                    Q_RETURN_ARG("double"),
                    Q_ARG("QString", label),
                    Q_ARG("QString", icon),
                    Q_ARG("double", pad_start),
                    Q_ARG("double", pad_end),
                )
            )
        return hit

    def field_height(self, text: str) -> float:
        hit = self._fields.get(text)
        if hit is None:
            hit = self._fields[text] = float(
                QMetaObject.invokeMethod(
                    self._measure_item(),
                    "fieldHeight",
                    _DIRECT,
                    Q_RETURN_ARG("double"),
                    Q_ARG("QString", text),
                )
            )
        return hit
