"""The installed Qt binding does not leak references to None (PySide6 6.12.0 on Python 3.11 does,
and the app then aborts with "none_dealloc" after enough label updates)."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_keep_none_alive(qtbot: object) -> None:
    label = QLabel()
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setText("tick")
    after = sys.getrefcount(None)
    # Other code may take or drop a few references meanwhile; a leak loses one per call.
    assert before - after < 100, f"None lost {before - after} references over 2000 setText calls"
