"""The core (spec, runtime, library, agent, platform, device, the document and the workspace)
imports without Qt."""

from __future__ import annotations

import subprocess
import sys

CORE = [
    "studio.spec",
    "studio.runtime",
    "studio.library",
    "studio.agent",
    "studio.platform",
    "studio.device",
    "studio.workspace",
]

BLOCKER = """
import importlib, importlib.abc, pkgutil, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'qasync'):
            raise ImportError('Qt is blocked in the core: ' + name)
        return None
sys.meta_path.insert(0, Block())
import studio, studio.document, studio.concurrency
for pkg in %r:
    mod = importlib.import_module(pkg)
    for info in pkgutil.walk_packages(mod.__path__, pkg + '.'):
        importlib.import_module(info.name)
print('ok')
"""


def test_core_imports_with_qt_blocked() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKER % (CORE,)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().endswith("ok")
