"""Run by test_two_writers.py: one of two processes creating and renaming prototypes in one library.

Usage: python shared_writer.py ROOT TAG COUNT. Waits for a line on stdin (so both writers start
together), then creates COUNT prototypes named TAG-0.. and renames every other one to TAG-i
renamed, as failures.md F6's reproduction does; prints "done" and exits.
"""

from __future__ import annotations

import sys

from studio.library.store import Library


def main(root: str, tag: str, count: int) -> None:
    library = Library(root, lock_wait=60)
    print("ready", flush=True)
    sys.stdin.readline()
    made = []
    for i in range(count):
        spec = {
            "id": f"{tag.lower()}{i}",
            "window": {"placement": {"type": "fullscreen"}},
            "root": {"type": "text", "text": "x"},
        }
        made.append(library.create(f"{tag}-{i}", spec, "paste"))
    for i, entry in enumerate(made):
        if i % 2:
            library.rename(entry.id, f"{tag}-{i} renamed")
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
