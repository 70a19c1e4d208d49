"""The studio's asyncio loop on Qt: qasync's QEventLoop, finalizing async generators as
asyncio's own loops do.

asyncio's `BaseEventLoop.run_forever` installs `sys.set_asyncgen_hooks` so that an async
generator left suspended (a stream the caller stopped reading, a task cancelled mid-read) is
closed by a task on the loop (`_asyncgen_finalizer_hook` schedules `aclose()`). qasync's
`run_forever` does not, so such generators were finalized by the garbage collector outside the
loop: httpx/httpcore's body generators then printed "async generator ignored GeneratorExit" and
anyio's "cancel scope in a different task" tracebacks during agent runs and cancels (issue 14).
"""

from __future__ import annotations

import sys
from typing import Any

import qasync


class StudioEventLoop(qasync.QEventLoop):  # type: ignore[misc]  # qasync ships no type stubs
    def run_forever(self) -> Any:
        old = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(
            firstiter=self._asyncgen_firstiter_hook, finalizer=self._asyncgen_finalizer_hook
        )
        try:
            return super().run_forever()
        finally:
            sys.set_asyncgen_hooks(*old)
