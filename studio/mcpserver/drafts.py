"""The draft an outside agent writes over MCP, kept in the library next to the prototype
(`<id>.review.json`) until the designer applies or discards it in the studio (no Qt).

One file per prototype: the spec the draft started from, its revisions (the patch ops, each
validated when it was made) and who wrote them. Written atomically; a file that cannot be read is
a one-line problem naming it, and the prototype itself is never touched by a draft.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.library.atomic import dumps, write_bytes
from studio.library.errors import LibraryError
from studio.library.revisions import Revision, RevisionLog
from studio.library.specs import parse_json
from studio.library.store import Library

JSON = dict[str, Any]
SUFFIX = ".review.json"
FORMAT = 1


@dataclass(frozen=True)
class OutsideDraft:
    """A draft written by an outside agent: `revisions` over `base`, by `client`."""

    entry_id: str
    review_id: str
    base: JSON
    revisions: tuple[Revision, ...]
    client: str

    @property
    def spec(self) -> JSON:
        return self.revisions[-1].spec if self.revisions else self.base


def draft_file(library: Library, entry_id: str) -> Path:
    return library.folder / f"{entry_id}{SUFFIX}"


def load_outside_draft(library: Library, entry_id: str) -> OutsideDraft | None:
    """The prototype's outside draft, None when it has none; LibraryError naming the file when it
    cannot be read."""
    path = draft_file(library, entry_id)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LibraryError(f"{path.name}: cannot read it ({exc.strerror or exc})") from None
    try:
        raw = parse_json(data, path.name)
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise ValueError(f"not a review file of format {FORMAT}")
        log = RevisionLog.from_json(raw["log"])
        return OutsideDraft(
            entry_id,
            str(raw.get("review") or f"mcp-{entry_id}"),
            log.base,
            tuple(log.applied),
            str(raw.get("client") or "an MCP client"),
        )
    except (LibraryError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise LibraryError(f"{path.name}: {exc}; delete it to drop the outside draft") from None


def save_outside_draft(library: Library, draft: OutsideDraft) -> None:
    """Replace the prototype's outside draft atomically (no revisions: the file is removed)."""
    if not draft.revisions:
        clear_outside_draft(library, draft.entry_id)
        return
    path = draft_file(library, draft.entry_id)
    log = RevisionLog(draft.base, list(draft.revisions))
    doc: JSON = {
        "format": FORMAT,
        "id": draft.entry_id,
        "review": draft.review_id,
        "client": draft.client,
        "log": log.to_json(),
    }
    try:
        write_bytes(path, dumps(doc, compact=True, where=path.name))
    except OSError as exc:
        raise LibraryError(f"{path.name}: cannot write it ({exc.strerror or exc})") from None


def clear_outside_draft(library: Library, entry_id: str) -> None:
    """Drop the outside draft (applied or discarded in the studio)."""
    try:
        draft_file(library, entry_id).unlink(missing_ok=True)
    except OSError as exc:
        raise LibraryError(
            f"{draft_file(library, entry_id).name}: cannot remove it ({exc.strerror or exc})"
        ) from None
