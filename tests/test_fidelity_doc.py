"""docs/fidelity.md stays true: every row names a test, and every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_every_test_the_fidelity_table_names_exists() -> None:
    doc = (REPO / "docs" / "fidelity.md").read_text(encoding="utf-8")
    rows = [
        line for line in doc.splitlines() if line.startswith("| ") and not line.startswith("| row")
    ]
    rows = [row for row in rows if not set(row.replace("|", "").strip()) <= {"-"}]
    assert rows, "no rows in docs/fidelity.md"
    defined = {
        match
        for path in (REPO / "tests").rglob("test_*.py")
        for match in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        assert len(cells) == 4 and cells[1] in {"M", "A", "D", "X", "P"}, row
        named = re.findall(r"`(test_\w+)`", cells[3])
        assert named, f"a row without a test: {row}"
        missing = [name for name in named if name not in defined]
        assert not missing, f"{cells[0]}: no such test {missing}"
        if cells[1] in {"A", "D", "X", "P"}:
            assert len(cells[2]) > 40, f"{cells[0]}: a row that does not match needs its reason"
