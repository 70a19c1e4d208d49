"""One version number: pyproject.toml's, read at run time (installed metadata or the checkout)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import studio
from studio.version import UNKNOWN, version, version_from_pyproject

REPO = Path(__file__).resolve().parents[1]


def pyproject_version() -> str:
    return str(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"])


def test_the_studio_reports_pyprojects_version() -> None:
    assert version() == pyproject_version()
    assert studio.__version__ == pyproject_version()


def test_the_command_line_prints_the_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "studio.cli", "--version"],
        capture_output=True, text=True, timeout=60, cwd=REPO,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"proto-studio {pyproject_version()}"


def test_a_checkout_without_metadata_reads_pyproject(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "proto-studio"\nversion = "2.3.4rc1"\n')
    assert version_from_pyproject(path) == "2.3.4rc1"


def test_a_missing_or_broken_pyproject_gives_an_explicit_unknown(tmp_path: Path) -> None:
    assert version_from_pyproject(tmp_path / "absent.toml") == UNKNOWN
    broken = tmp_path / "pyproject.toml"
    broken.write_text("[project\nversion = 1")
    assert version_from_pyproject(broken) == UNKNOWN
    weird = tmp_path / "weird.toml"
    weird.write_text('[project]\nversion = "1.0; rm -rf /"\n')
    assert version_from_pyproject(weird) == UNKNOWN
