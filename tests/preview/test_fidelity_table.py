"""docs/fidelity.md stays true: every row of its Window, Theme, Layout and sizing, Text and Shared
fields sections that claims a match names a test, and every test it names exists."""

from __future__ import annotations

import ast
import re

from tests.preview.conftest import REPO

DOC = REPO / "docs" / "fidelity.md"
FILES = {
    "L": "tests/preview/test_fidelity_layout.py",
    "W": "tests/preview/test_fidelity_window.py",
    "T": "tests/preview/test_fidelity_text.py",
    "TH": "tests/preview/test_fidelity_theme.py",
    "S": "tests/preview/test_scheme.py",
    "TP": "tests/preview/test_templates.py",
    "UI": "tests/ui/test_preview_pane.py",
}
CHECKED = ("Window", "Theme", "Layout and sizing", "Text", "Shared fields")


def _tests_in(path: str) -> set[str]:
    tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def _rows() -> list[tuple[str, list[str]]]:
    rows: list[tuple[str, list[str]]] = []
    section = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("|") and any(section.startswith(name) for name in CHECKED):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cells[0] in ("feature", "node · property", "field") or set(cells[0]) <= {"-"}:
                continue
            rows.append((f"{section}: {cells[0]}", cells))
    return rows


def test_every_checked_row_names_tests_that_exist() -> None:
    known = {key: _tests_in(path) for key, path in FILES.items()}
    rows = _rows()
    assert len(rows) >= 80
    problems = []
    for name, cells in rows:
        verdict, tests = cells[1], cells[-1]
        refs = re.findall(r"\b([A-Z]{1,2})::(test_\w+)", tests)
        if not refs and verdict == "M":
            problems.append(f"{name}: a match without a test")
        for key, test in refs:
            if test not in known.get(key, set()):
                problems.append(f"{name}: {key}::{test} does not exist")
    assert not problems, "\n".join(problems)
