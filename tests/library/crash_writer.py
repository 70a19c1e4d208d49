"""Run by test_crash.py: saves one prototype's revisions and spec in a loop until killed.

Prints `revisions N` after each completed save_revisions and `spec N` after each completed
save_spec, so the test knows what was durably stored before it sent SIGKILL.
Usage: python crash_writer.py ENTRY_ID  (the library is the one under $PROTO_STUDIO_HOME)
"""

from __future__ import annotations

import copy
import sys

from studio.library.revisions import Revision, RevisionLog
from studio.library.store import Library


def main(entry_id: str) -> None:
    library = Library()
    log = library.load_revisions(entry_id) or RevisionLog(library.load_spec(entry_id))
    n = int(log.current["state"]["count"])
    while True:
        n += 1
        spec = copy.deepcopy(log.current)
        spec["state"]["count"] = n
        # some bulk, so that a write takes long enough to be cut in the middle
        spec["root"]["children"][0]["text"] = f"Count: {{count}} (saved {n}) " + "x" * 4000
        log.push(Revision(spec, "agent", f"rev {n}", instruction=f"step {n}"))
        library.save_revisions(entry_id, log)
        print(f"revisions {n}", flush=True)
        library.save_spec(entry_id, spec)
        print(f"spec {n}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
