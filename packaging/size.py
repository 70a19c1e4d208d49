"""The bundle's size against its limit, and what each exclusion of packaging/trim.py saved.

Usage: python packaging/size.py DIR [REPORT]   (packaging/build.sh runs it after each build)

Prints what the spec left out (from REPORT, build/pyinstaller/trim-report.json) and the size of
DIR; exits 1 with one line when DIR is over the limit (PROTO_STUDIO_MAX_MB, default 200, in
MiB as `du -sh` counts).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

MIB = 1024 * 1024
DEFAULT_LIMIT_MB = 200


def folder_size(path: Path) -> int:
    """Bytes of the regular files below `path` (symlinks not followed)."""
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            file = Path(root) / name
            if not file.is_symlink():
                total += file.stat().st_size
    return total


def limit_mb() -> float:
    raw = os.environ.get("PROTO_STUDIO_MAX_MB", str(DEFAULT_LIMIT_MB))
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"build: PROTO_STUDIO_MAX_MB={raw!r} is not a number of MiB") from None
    if value <= 0:
        raise SystemExit(f"build: PROTO_STUDIO_MAX_MB={raw!r} must be positive")
    return value


def report_lines(report: dict[str, object]) -> list[str]:
    lines = []
    saved = report.get("saved")
    if isinstance(saved, dict):
        total = sum(int(v.get("bytes", 0)) for v in saved.values() if isinstance(v, dict))
        lines.append(f"build: left out {total / MIB:.1f} MiB:")
        for name, value in sorted(saved.items(), key=lambda kv: -int(kv[1].get("bytes", 0))):
            lines.append(f"build:   {int(value['bytes']) / MIB:6.1f} MiB  {name}: {value['why']}")
    optional = report.get("optional")
    if isinstance(optional, dict):
        for package, users in sorted(optional.items()):
            lines.append(
                f"build: {package}: bundled, imported by {', '.join(users)}"
                if users
                else f"build: {package}: left out, nothing the studio loads imports it"
            )
    return lines


def check(folder: Path, report_path: Path | None) -> int:
    report: dict[str, object] = {}
    if report_path is not None and report_path.is_file():
        report = json.loads(report_path.read_text())
        for line in report_lines(report):
            print(line)
    limit = limit_mb()
    size = folder_size(folder)
    where = f"{folder} is {size / MIB:.1f} MiB"
    if size / MIB > limit:
        print(
            f"build: {where}, over the {limit:g} MiB limit; leave out what the studio does not "
            "load (packaging/trim.py) or raise PROTO_STUDIO_MAX_MB",
            file=sys.stderr,
        )
        return 1
    print(f"build: {where}; limit {limit:g} MiB")
    return 0


def main(argv: list[str]) -> int:
    if not argv or len(argv) > 2:
        print("usage: python packaging/size.py DIR [REPORT]", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    if not folder.is_dir():
        print(
            f"build: {folder} does not exist (build it first: packaging/build.sh)", file=sys.stderr
        )
        return 2
    return check(folder, Path(argv[1]) if len(argv) > 1 else None)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
