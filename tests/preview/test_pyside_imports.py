"""PySide's per-import source scan is off in the studio's processes (studio.preview.pyside): with
PySide6.QtCore loaded, an import no longer reads the module's source (shibokensupport/feature.py
`feature_imported` -> `_mod_uses_pyside` -> `inspect.getsource`, which fills `linecache`), and a
module naming PySide6 still runs on PySide's default feature selection. Each case runs in a fresh
interpreter: the hook is process-wide."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import linecache, sys
sys.path[:0] = [{repo!r}, {tmp!r}]
if {skip}:
    from studio.preview.pyside import skip_source_scan
    assert skip_source_scan()
import PySide6.QtCore
import plain_mod, qt_mod
print(plain_mod.__file__ in linecache.cache, qt_mod.size())
"""


def _run(tmp_path: Path, skip: bool) -> str:
    (tmp_path / "plain_mod.py").write_text("VALUE = 1\n")
    (tmp_path / "qt_mod.py").write_text(
        "from PySide6.QtCore import QSize\n\ndef size():\n    return QSize(3, 4).width()\n"
    )
    code = PROBE.format(repo=str(REPO), tmp=str(tmp_path), skip=skip)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.strip()


def test_pyside_reads_every_imported_modules_source_unless_the_scan_is_skipped(
    tmp_path: Path,
) -> None:
    assert _run(tmp_path, skip=False) == "True 3"  # PySide's own behaviour: the source was read
    assert _run(tmp_path, skip=True) == "False 3"  # not read; Qt calls work as before
