"""The `share` module: `share.text` hands text to a place the user picks (side-effecting).

The "share target" is injected by the host. `FileShareTarget` asks the UI for a file path
(through a callback) and writes the text there atomically; without a target the call fails.
When the user cancels (closes the picker) the call ends `cancelled` and nothing is written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from studio.concurrency import off_loop
from studio.platform.module import (
    JSON,
    CallContext,
    PlatformCall,
    PlatformCancelled,
    PlatformError,
    PlatformModule,
)
from studio.platform.module import object_schema as obj
from studio.platform.modules.clipboard import MAX_BYTES, utf8_size


class ShareTarget(Protocol):
    """Where shared text goes. Returns False when the user cancelled the share."""

    async def share_text(self, text: str, *, title: str | None) -> bool: ...


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` via a temp file in the same folder, fsync, then `os.replace`."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


class FileShareTarget:
    """Shares text into a file: `pick_path(suggested_name)` asks the user (None = cancelled)."""

    def __init__(self, pick_path: Callable[[str], Awaitable[Path | None]]):
        self._pick_path = pick_path

    async def share_text(self, text: str, *, title: str | None) -> bool:
        path = await self._pick_path(_suggested_name(title))
        if path is None:
            return False
        try:
            # Off the event loop: the loop may be the GUI thread's (qasync).
            await off_loop(write_atomic, path, text.encode("utf-8"))
        except OSError as exc:
            raise PlatformError(f"share.text: cannot write {path}: {exc.strerror or exc}") from exc
        return True


def _suggested_name(title: str | None) -> str:
    stem = "".join(c if c.isalnum() or c in " -_" else "_" for c in (title or "shared")).strip()
    return f"{stem[:60] or 'shared'}.txt"


def module(target: ShareTarget | None) -> PlatformModule:
    async def share_text(args: JSON, context: CallContext) -> Any:
        if target is None:
            raise PlatformError("share.text: no share target in this host")
        text: str = args["text"]
        size = utf8_size(text)
        if size > MAX_BYTES:
            raise PlatformError(f"share.text: text is {size} bytes, the limit is {MAX_BYTES}")
        shared = await target.share_text(text, title=args.get("title"))
        context.audit.update(op="share", bytes=size if shared else 0)
        if not shared:  # the user closed the picker: the call is `cancelled`, not `ok`
            raise PlatformCancelled("share.text: cancelled by the user")
        return {"shared": True, "bytes": size}

    call = PlatformCall(
        name="text",
        description="Shares text to a place the user picks (the user confirms every share).",
        args=obj(
            {
                "text": {"type": "string", "maxLength": MAX_BYTES, "description": "Text"},
                "title": {"type": "string", "maxLength": 120, "description": "Title"},
            },
            required=["text"],
        ),
        result=obj(
            {
                "shared": {"type": "boolean", "description": "Shared"},
                "bytes": {"type": "integer", "description": "Bytes"},
            }
        ),
        handler=share_text,
        side_effect=True,
        consent="will save this text to a file you choose",
        timeout=300.0,  # the user picks a destination
    )
    return PlatformModule(
        name="share", description="Share text to a place the user picks.", calls={"text": call}
    )
