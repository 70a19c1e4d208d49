"""Start-up cost PySide adds to every later import, taken off.

Once PySide6.QtCore is imported, PySide calls `feature_imported` after every module import in the
process (the hook behind its opt-in `from __feature__ import snake_case, true_property`), and for
a module it has not seen, `_mod_uses_pyside` reads the module's whole source (`inspect.getsource`)
to look for the word "PySide6": 0 ("no feature": PySide's default) if it is there, -1 ("ignore
this module") if not (shibokensupport/feature.py in PySide 6.11; napari/napari#8584 measured the
same tax). The studio imports some 800 modules after QtCore, and the source reads were about a
sixth of their import time (about 100 ms of CPU on this machine).

No module in the studio or its dependencies uses `__feature__`, so every module runs with PySide's
default selection either way; `skip_source_scan` answers 0 for every module without reading it,
the answer a module that names PySide6 gets. Where PySide's internals differ from this shape (a
later release), it changes nothing.
"""

from __future__ import annotations

import sys
from types import ModuleType


def _uses_pyside(_module: ModuleType) -> bool:
    return True


def skip_source_scan() -> bool:
    """Stop PySide reading each newly imported module's source; True when it was done here."""
    import PySide6.QtCore  # noqa: F401  (installs the hook and its support module)

    feature = sys.modules.get("PySide6.support.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = _uses_pyside  # type: ignore[attr-defined]
    return True
