"""The bundle's size against its limit, and what each exclusion of packaging/trim.py saved.

Usage: python packaging/size.py DIR [REPORT]   (packaging/build.sh runs it after each build)

Prints what the spec left out (from REPORT, build/pyinstaller/trim-report.json) and the size of
DIR; exits 1 with one line when DIR is over the limit (PROTO_STUDIO_MAX_MB, default 200, in
MiB as `du -sh` counts). NumPy only counts towards the limit when something other than the
modules that are dropping it still imports it (`trim.NUMPY_PENDING`).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import trim  # noqa: E402

MIB = 1024 * 1024
DEFAULT_LIMIT_MB = 200


def folder_size(path: Path, *, under: tuple[str, ...] = ()) -> int:
    """Bytes of the regular files below `path` (symlinks not followed), or only below the
    top-level entries named in `under`."""
    total = 0
    for root, _dirs, files in os.walk(path):
        rel = Path(root).relative_to(path)
        if under and (not rel.parts or rel.parts[0] not in under):
            continue
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
    return lines


def check(folder: Path, report_path: Path | None) -> int:
    report: dict[str, object] = {}
    if report_path is not None and report_path.is_file():
        report = json.loads(report_path.read_text())
        for line in report_lines(report):
            print(line)
    limit = limit_mb()
    size = folder_size(folder)
    internal = folder / "_internal"
    base = internal if internal.is_dir() else folder
    numpy = folder_size(base, under=("numpy", "numpy.libs"))
    users = (report.get("optional") or {}).get("numpy", []) if report else []  # type: ignore[union-attr]
    pending = bool(numpy) and bool(users) and set(users) <= set(trim.NUMPY_PENDING)
    counted = size - numpy if pending else size
    where = f"{folder} is {size / MIB:.1f} MiB"
    if pending:
        where += (
            f" ({numpy / MIB:.1f} MiB of it NumPy, not counted: only {', '.join(users)}, which"
            " is dropping it, still imports it)"
        )
    if counted / MIB > limit:
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
