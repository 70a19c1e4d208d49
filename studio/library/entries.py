"""The library index (`library.json`): its entries, read and written without losing unknown fields."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

FORMAT_VERSION = 1
"""The `library.json` format this build writes. A newer file is read and written back at its
own (newer) version, with every field this build does not know kept as it was."""

SOURCES = frozenset({"file", "paste", "share", "generated", "template", "mcp"})
"""Where an entry came from, always written by the importing code (never read from a bundle)."""

_ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_KNOWN = ("id", "name", "source", "created", "modified", "thumbnail", "deleted")

JSON = dict[str, Any]


def now_iso() -> str:
    """A UTC timestamp, e.g. `2026-11-30T18:52:10.123Z`."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def valid_entry_id(entry_id: str) -> bool:
    """True for an id that is safe as a folder name (lower-case letters, digits, `_`, `-`)."""
    return bool(_ID_RE.fullmatch(entry_id))


@dataclass(frozen=True)
class LibraryEntry:
    """One prototype in the library. `extra` holds the fields this build does not know (kept)."""

    id: str
    name: str
    source: str
    created: str
    modified: str
    thumbnail: str | None = None
    deleted: str | None = None
    extra: JSON = field(default_factory=dict, compare=False)

    def get(self, key: str, default: Any = None) -> Any:
        """An unknown (or newer) field by name, e.g. `entry.get("template")`."""
        return self.extra.get(key, default)

    def with_changes(self, **changes: Any) -> LibraryEntry:
        return replace(self, **changes)

    def to_json(self) -> JSON:
        out: JSON = {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "created": self.created,
            "modified": self.modified,
            "thumbnail": self.thumbnail,
        }
        if self.deleted is not None:
            out["deleted"] = self.deleted
        for key, value in self.extra.items():
            if key not in out:
                out[key] = copy.deepcopy(value)
        return out

    @classmethod
    def from_json(cls, raw: Any) -> LibraryEntry:
        """Read one index entry; ValueError (one line) when it cannot be used by this build."""
        if not isinstance(raw, dict):
            raise ValueError("entry is not an object")
        entry_id = raw.get("id")
        if not isinstance(entry_id, str) or not valid_entry_id(entry_id):
            raise ValueError(f"entry id {entry_id!r} is not a valid id")
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"{entry_id}: name must be a non-empty string")
        source = raw.get("source")
        if source not in SOURCES:
            raise ValueError(f"{entry_id}: unknown source {source!r}")
        created, modified = raw.get("created"), raw.get("modified")
        if not isinstance(created, str) or not isinstance(modified, str):
            raise ValueError(f"{entry_id}: created and modified must be timestamps")
        thumbnail = raw.get("thumbnail")
        if thumbnail is not None and (
            not isinstance(thumbnail, str) or "/" in thumbnail or "\\" in thumbnail
        ):
            raise ValueError(f"{entry_id}: thumbnail must be a file name")
        deleted = raw.get("deleted")
        return cls(
            id=entry_id,
            name=name,
            source=source,
            created=created,
            modified=modified,
            thumbnail=thumbnail,
            deleted=deleted if isinstance(deleted, str) else None,
            extra={k: copy.deepcopy(v) for k, v in raw.items() if k not in _KNOWN},
        )


@dataclass
class Unreadable:
    """An index record this build cannot use (bad or from a newer build): skipped, kept as is."""

    raw: Any
    reason: str


Record = LibraryEntry | Unreadable


@dataclass
class LibraryIndex:
    """`library.json`: format version, entries, trash, seeded templates and any unknown keys."""

    format: int = FORMAT_VERSION
    entries: list[Record] = field(default_factory=list)
    trash: list[Record] = field(default_factory=list)
    seeded_templates: list[str] = field(default_factory=list)
    extra: JSON = field(default_factory=dict)

    def find(self, entry_id: str) -> LibraryEntry | None:
        for record in self.entries:
            if isinstance(record, LibraryEntry) and record.id == entry_id:
                return record
        return None

    def find_trashed(self, entry_id: str) -> LibraryEntry | None:
        for record in self.trash:
            if isinstance(record, LibraryEntry) and record.id == entry_id:
                return record
        return None

    def ids(self) -> set[str]:
        """Every id in use (entries, trash and unreadable records that carry an id)."""
        out: set[str] = set()
        for record in [*self.entries, *self.trash]:
            if isinstance(record, LibraryEntry):
                out.add(record.id)
            elif isinstance(record.raw, dict) and isinstance(record.raw.get("id"), str):
                out.add(record.raw["id"])
        return out

    def put(self, entry: LibraryEntry) -> None:
        """Replace the entry with the same id, or append it."""
        for i, record in enumerate(self.entries):
            if isinstance(record, LibraryEntry) and record.id == entry.id:
                self.entries[i] = entry
                return
        self.entries.append(entry)

    def remove(self, entry_id: str) -> LibraryEntry | None:
        for i, record in enumerate(self.entries):
            if isinstance(record, LibraryEntry) and record.id == entry_id:
                del self.entries[i]
                return record
        return None

    def remove_trashed(self, entry_id: str) -> LibraryEntry | None:
        for i, record in enumerate(self.trash):
            if isinstance(record, LibraryEntry) and record.id == entry_id:
                del self.trash[i]
                return record
        return None

    def to_json(self) -> JSON:
        def dump(records: list[Record]) -> list[Any]:
            return [r.to_json() if isinstance(r, LibraryEntry) else r.raw for r in records]

        out: JSON = {
            "format": self.format,
            "entries": dump(self.entries),
            "trash": dump(self.trash),
            "seededTemplates": list(self.seeded_templates),
        }
        for key, value in self.extra.items():
            if key not in out:
                out[key] = value
        return out

    @classmethod
    def from_json(cls, raw: Any) -> tuple[LibraryIndex, list[str]]:
        """Read `library.json`; returns the index and one line per record it had to skip.
        ValueError when the file is not a library index at all."""
        if not isinstance(raw, dict):
            raise ValueError("library.json is not a JSON object")
        version = raw.get("format")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ValueError(f"library.json format {version!r} is not a version number")
        problems: list[str] = []

        def read(key: str) -> list[Record]:
            items = raw.get(key, [])
            if not isinstance(items, list):
                raise ValueError(f"library.json {key} is not a list")
            records: list[Record] = []
            for i, item in enumerate(items):
                try:
                    records.append(LibraryEntry.from_json(item))
                except ValueError as exc:
                    problems.append(f"library.json {key}[{i}]: {exc}; skipped")
                    records.append(Unreadable(item, str(exc)))
            return records

        seeded = raw.get("seededTemplates", [])
        index = cls(
            format=version,
            entries=read("entries"),
            trash=read("trash"),
            seeded_templates=[s for s in seeded if isinstance(s, str)]
            if isinstance(seeded, list)
            else [],
            extra={
                k: v
                for k, v in raw.items()
                if k not in ("format", "entries", "trash", "seededTemplates")
            },
        )
        return index, problems
