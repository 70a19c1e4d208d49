"""The colour roles as a QObject with one property per role, for cheap reads from QML.

(A `QVariantMap` property is converted to a JavaScript object on every read: 36 entries each
time `preview.colors.primary` is evaluated, ~30 µs; a QObject property read costs ~1 µs.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import Property, QObject, Signal

from studio.preview.scheme import ROLES


def _set_colors(self: Any, colors: Mapping[str, str]) -> None:
    """Replace the colours (notifies QML when they differ)."""
    if dict(colors) != self._colors:
        self._colors = dict(colors)
        self.changed.emit()


def _init(self: Any, parent: QObject | None = None) -> None:
    QObject.__init__(self, parent)
    self._colors = {}


def _getter(role: str) -> Callable[[Any], str]:
    def get(self: Any) -> str:
        return str(self._colors.get(role, "#00000000"))

    return get


def _build() -> Any:
    # Properties must exist when the class is created (PySide builds the meta-object then).
    changed = Signal()
    namespace: dict[str, Any] = {
        "__doc__": "`preview.colors.<role>` in QML: the scheme's #AARRGGBB for each of the 36 roles.",
        "changed": changed,
        "__init__": _init,
        "set_colors": _set_colors,
    }
    for role in ROLES:
        namespace[role] = Property(str, _getter(role), notify=changed)
    return type("Palette", (QObject,), namespace)


Palette = _build()
