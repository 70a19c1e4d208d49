"""`studio.spec` is the lowest layer: it imports nothing else of the studio (the platform
catalog is handed to it, or registered by the package root), yet validation knows the modules
this build ships."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "studio" / "spec"
#: Root modules below every layer (they import nothing of the studio).
ROOT_UTILITIES = {"studio.resources"}


def _studio_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # function bodies too
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {name for name in found if name == "studio" or name.startswith("studio.")}


def test_spec_imports_only_spec() -> None:
    upward = {
        f"{path.name}: {name}"
        for path in sorted(SPEC.glob("*.py"))
        for name in _studio_imports(path)
        if not name.startswith("studio.spec") and name not in ROOT_UTILITIES
    }
    assert upward == set()


def test_the_shipped_platform_modules_are_the_default_catalog() -> None:
    code = (
        "from studio.spec import validate\n"
        "from studio.spec.extensions import default_catalog\n"
        "assert default_catalog().has_module('units')\n"
        "spec = {'id': 't', 'window': {'placement': {'type': 'fullscreen'}},\n"
        "        'requires': {'platform': ['units']}, 'root': {'type': 'spacer'}}\n"
        "assert validate(spec).ok, validate(spec)\n"
        "spec['requires']['platform'] = ['nope']\n"
        "print(validate(spec))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == (
        'requires.platform[0]: Platform module "nope" is not available in this build'
    )
