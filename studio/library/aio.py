"""The library for the event loop: every blocking call runs in a worker thread (asyncio.to_thread).

The UI (qasync) and the agent await these so that no file I/O happens on the GUI thread; the
Library's own lock serialises the calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from studio.library.assets import Asset
from studio.library.entries import LibraryEntry
from studio.library.revisions import RevisionLog
from studio.library.store import Library

JSON = dict[str, Any]


class AsyncLibrary:
    """`await lib.create(...)` etc.; `lib.sync` is the blocking Library underneath."""

    def __init__(self, library: Library):
        self.sync = library

    @classmethod
    async def open(cls, root: Path | str | None = None) -> AsyncLibrary:
        return cls(await asyncio.to_thread(Library, root))

    @property
    def problems(self) -> list[str]:
        return self.sync.problems

    async def reload(self) -> None:
        await asyncio.to_thread(self.sync.reload)

    async def list_entries(self) -> list[LibraryEntry]:
        return await asyncio.to_thread(self.sync.list_entries)

    async def trashed(self) -> list[LibraryEntry]:
        return await asyncio.to_thread(self.sync.trashed)

    async def get(self, entry_id: str) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.get, entry_id)

    async def load_spec(self, entry_id: str) -> JSON:
        return await asyncio.to_thread(self.sync.load_spec, entry_id)

    async def load_assets(self, entry_id: str) -> dict[str, Asset]:
        return await asyncio.to_thread(self.sync.load_assets, entry_id)

    async def create(
        self,
        name: str,
        spec: JSON,
        source: str,
        assets: Mapping[str, bytes] | None = None,
        *,
        extra: JSON | None = None,
    ) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.create, name, spec, source, assets, extra=extra)

    async def save_spec(self, entry_id: str, spec: JSON) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.save_spec, entry_id, spec)

    async def rename(self, entry_id: str, name: str) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.rename, entry_id, name)

    async def duplicate(self, entry_id: str, name: str | None = None) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.duplicate, entry_id, name)

    async def delete(self, entry_id: str) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.delete, entry_id)

    async def restore(self, entry_id: str) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.restore, entry_id)

    async def purge(self, entry_id: str) -> None:
        await asyncio.to_thread(self.sync.purge, entry_id)

    async def set_thumbnail(self, entry_id: str, png: bytes) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.set_thumbnail, entry_id, png)

    async def load_revisions(self, entry_id: str) -> RevisionLog | None:
        return await asyncio.to_thread(self.sync.load_revisions, entry_id)

    async def save_revisions(self, entry_id: str, revisions: RevisionLog) -> None:
        await asyncio.to_thread(self.sync.save_revisions, entry_id, revisions)

    async def discard_revisions(self, entry_id: str) -> None:
        await asyncio.to_thread(self.sync.discard_revisions, entry_id)

    async def import_spec_file(self, path: Path | str) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.import_spec_file, path)

    async def import_spec_text(self, text: str, name: str | None = None) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.import_spec_text, text, name)

    async def import_bundle(self, path: Path | str) -> LibraryEntry:
        return await asyncio.to_thread(self.sync.import_bundle, path)

    async def export_bundle(self, entry_id: str, path: Path | str) -> None:
        await asyncio.to_thread(self.sync.export_bundle, entry_id, path)

    async def ensure_templates(self) -> list[LibraryEntry]:
        return await asyncio.to_thread(self.sync.ensure_templates)
