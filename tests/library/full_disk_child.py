"""Run by test_full_disk.py inside a private mount namespace, on a small tmpfs mounted at ROOT:
every library operation at several amounts of free space, one JSON line per attempt.

Usage: python full_disk_child.py ROOT OUTSIDE. ROOT is the (full) file system the library lives
on; OUTSIDE is an ordinary folder for the files an import reads. For each operation and each
amount of free space, the disk is filled with a filler file up to that amount, the operation is
tried, and the line says whether it worked, what it raised, and whether the library's files
changed (they must not when it was refused).
"""

from __future__ import annotations

import errno
import json
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.library.bundle import bundle_bytes
from studio.library.revisions import Revision, RevisionLog
from studio.library.store import Library

KIB = 1024
#: Free bytes to try: none, a little, and page by page around the sizes of the thumbnail and
#: of the big spec (so that the file fits but the index written after it does not).
FREE_LEVELS = (
    0,
    4 * KIB,
    12 * KIB,
    *range(56 * KIB, 72 * KIB, 4 * KIB),
    *range(144 * KIB, 168 * KIB, 4 * KIB),
    400 * KIB,
)
FILLER = ".filler"


def spec(text: str = "x", spec_id: str = "full") -> dict[str, Any]:
    return {
        "id": spec_id,
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"n": 0},
        "root": {"type": "column", "children": [{"type": "text", "text": text}]},
    }


def noisy_png(size: int) -> bytes:
    """A PNG signature followed by bytes that do not compress (a thumbnail of `size` bytes)."""
    return b"\x89PNG\r\n\x1a\n" + os.urandom(size)


def snapshot(folder: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name not in ("library.lock", FILLER):
            out[str(path.relative_to(folder))] = path.read_bytes()
    return out


def fill(root: Path, free: int) -> None:
    """Fill the file system, then give back `free` bytes."""
    filler = root / FILLER
    block = b"\0" * (1 << 16)
    with open(filler, "wb") as fh:
        try:
            while True:
                fh.write(block)
                fh.flush()
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
    # The last partial block may have gone in or not: make it exact with a byte-wise top-up.
    with open(filler, "ab", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 512)
        except OSError:
            pass
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - free))


def unfill(root: Path) -> None:
    (root / FILLER).unlink(missing_ok=True)


def main(root: Path, outside: Path) -> None:
    home = root / "home"
    library = Library(home)
    big = "y" * 150_000  # a spec of ~150 kB: some writes fit, some do not
    base = library.create("Base", spec(), "paste")
    library.set_thumbnail(base.id, noisy_png(2000))
    spec_file = outside / "import.json"
    spec_file.write_text(json.dumps(spec(big, "imported")))
    bundle_file = outside / "shared.protobundle"
    bundle_file.write_bytes(bundle_bytes(spec(big, "shared"), "Shared"))
    export_target = root / "export" / "out.protobundle"
    export_target.parent.mkdir()

    def revisions() -> RevisionLog:
        log = RevisionLog(library.load_spec(base.id))
        log.push(Revision(spec(big), "user", "big edit"))
        return log

    fresh: list[str] = []

    def new_entry() -> None:  # for the first thumbnail of an entry (the index changes too)
        fresh[:] = [library.create("Fresh", spec(), "paste").id]

    def nothing() -> None:
        pass

    def trashed_entry() -> None:
        new_entry()
        library.delete(fresh[0])

    ops: dict[str, tuple[Callable[[], None], Callable[[], object]]] = {
        "save_spec": (nothing, lambda: library.save_spec(base.id, spec(big))),
        "set_thumbnail": (nothing, lambda: library.set_thumbnail(base.id, noisy_png(60_000))),
        "set_thumbnail (first)": (
            new_entry,
            lambda: library.set_thumbnail(fresh[0], noisy_png(60_000)),
        ),
        "save_revisions": (nothing, lambda: library.save_revisions(base.id, revisions())),
        "create": (nothing, lambda: library.create("New", spec(big, "new"), "paste")),
        "import file": (nothing, lambda: library.import_spec_file(spec_file)),
        "import bundle": (nothing, lambda: library.import_bundle(bundle_file)),
        "rename": (nothing, lambda: library.rename(base.id, "Renamed " + "n" * 150)),
        "duplicate": (nothing, lambda: library.duplicate(base.id)),
        "export": (nothing, lambda: library.export_bundle(base.id, export_target)),
        "delete": (new_entry, lambda: library.delete(fresh[0])),
        "restore": (trashed_entry, lambda: library.restore(fresh[0])),
    }
    for name, (prepare, op) in ops.items():
        for free in FREE_LEVELS:
            library.save_spec(base.id, spec())  # the same starting point each time
            prepare()
            before = snapshot(home)
            export_before = export_target.read_bytes() if export_target.exists() else None
            fill(root, free)
            line: dict[str, Any] = {"op": name, "free": free}
            try:
                op()
                line["outcome"] = "ok"
            except Exception as exc:
                line.update(outcome="refused", type=type(exc).__name__, message=str(exc))
                if type(exc).__name__ not in ("NotEnoughSpace",):
                    line["traceback"] = traceback.format_exc()
                line["unchanged"] = snapshot(home) == before
                line["temps"] = [str(p) for p in home.rglob("*") if ".tmp-" in p.name]
                exported = export_target.read_bytes() if export_target.exists() else None
                line["export unchanged"] = exported == export_before
            finally:
                unfill(root)
            print(json.dumps(line), flush=True)
            library = Library(home)  # every attempt also leaves a library that opens cleanly
            if library.problems:
                print(json.dumps({"op": name, "free": free, "problems": library.problems}))
            for entry in library.list_entries():  # room for the next attempt
                if entry.id != base.id:
                    library.delete(entry.id)
            for entry in library.trashed():
                library.purge(entry.id)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
