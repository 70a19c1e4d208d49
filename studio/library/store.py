"""The on-disk prototype library: one folder per prototype, an index, drafts, trash and templates.

Layout under `<root>/library/` (root: `$PROTO_STUDIO_HOME`, else the platform's user data folder):

    library.json          the index: format, entries, trash, seededTemplates (+ unknown keys, kept)
    <id>/spec.json        the prototype's (valid) spec
    <id>/assets/<a>.<ext> its assets (PNG, JPEG, WebP, TTF, OTF), named by asset id
    <id>/thumbnail.png    its thumbnail (written by the UI)
    <id>.draft.json       its drafts and revisions (a RevisionLog), a sibling file as the design
                          asks: `{"format": 1, "id": <id>, "log": RevisionLog.to_json()}`
    .trash/<id>/, .trash/<id>.draft.json   deleted prototypes, until purged (restore brings them back)

Every file is written atomically (temp file, fsync, os.replace, fsync the folder); a new prototype
is assembled in a temp folder and renamed into place. The index is written last, so an operation
is complete once library.json says so; on open, an interrupted delete/restore is finished and a
prototype folder missing from the index (a create cut short) is recovered, and temp files a
killed process left anywhere in the tree are removed once they are an hour old. Unknown
top-level fields of a drafts file (and a newer format number) read by `load_revisions` are
written back by `save_revisions`.

Two processes may share a library: every update of library.json holds the library's file lock
(`studio.library.lock`), re-reads the index when another process changed it and applies its
change to what is on disk, so neither loses the other's entries or names (a second writer waits
up to a few seconds, then gets `LibraryBusy` naming the holder's pid).

A write that fails changes nothing and says so in one line: a full disk is `NotEnoughSpace`
("not enough space to save the spec of "Counter" in <folder>"), a value that has no UTF-8 JSON
form (a lone surrogate, NaN) is `UnstorableText` naming the file and the path.

A bad entry (missing folder, unreadable spec.json, an index record from a newer build) is skipped
with a logged warning and listed in `problems`, never fatal, and never dropped from library.json.
"""

from __future__ import annotations

import copy
import dataclasses
import errno
import hashlib
import logging
import os
import re
import secrets
import shutil
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from studio.library import assets as asset_rules
from studio.library.atomic import (
    TEMP_MARK,
    dumps,
    fsync_dir,
    move,
    remove_stale_temps,
    remove_tree,
    temp_name,
    write_bytes,
)
from studio.library.bundle import SUFFIX, read_bundle, write_bundle
from studio.library.entries import (
    FORMAT_VERSION,
    SOURCES,
    LibraryEntry,
    LibraryIndex,
    Unreadable,
    now_iso,
    valid_entry_id,
)
from studio.library.errors import EntryNotFound, LibraryError
from studio.library.lock import WAIT, LibraryLock
from studio.library.paths import library_dir
from studio.library.revisions import RevisionLog
from studio.library.specs import MAX_SPEC_BYTES, check_spec, parse_json, parse_spec
from studio.library.storable import check_name, check_storable, json_bytes, write_failed
from studio.library.templates import list_templates
from studio.spec.io import spec_file_bytes

log = logging.getLogger(__name__)

INDEX = "library.json"
SPEC = "spec.json"
ASSETS = "assets"
THUMBNAIL = "thumbnail.png"
TRASH = ".trash"
DRAFT_SUFFIX = ".draft.json"
DRAFT_FORMAT = 1
MAX_NAME_CHARS = 200
MAX_THUMBNAIL_BYTES = 8 * 1024 * 1024

JSON = dict[str, Any]


def _auto_name(candidate: object, fallback: str) -> str:
    """A name made from a file name or a spec id: one line, cut to the length limit; what is
    not text (a file name's undecodable bytes, a lone surrogate) becomes U+FFFD."""
    text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in str(candidate or ""))
    cleaned = " ".join(text.split())[:MAX_NAME_CHARS].strip()
    return cleaned or fallback


_NUMBERED = re.compile(r"^(.*\S) (\d+)$")


def unique_name(name: str, taken: Iterable[str]) -> str:
    """`name`, or the first free numbered form of it: "Sign-in form" -> "Sign-in form 2" when
    taken (case-insensitively), "Sign-in form 2" -> "Sign-in form 3"; cut to the length limit."""
    used = {t.casefold() for t in taken}
    if name.casefold() not in used:
        return name
    numbered = _NUMBERED.match(name)
    stem, n = (numbered.group(1), int(numbered.group(2)) + 1) if numbered else (name, 2)
    while True:
        suffix = f" {n}"
        candidate = stem[: MAX_NAME_CHARS - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        n += 1


def _clean_name(name: str) -> str:
    if not isinstance(name, str):
        raise LibraryError("a prototype name must be text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise LibraryError("a prototype name cannot be empty")
    check_name(cleaned)
    if len(cleaned) > MAX_NAME_CHARS:
        raise LibraryError(f"a prototype name is at most {MAX_NAME_CHARS} characters")
    return cleaned


def _spec_bytes(spec: JSON, *, where: str) -> bytes:
    """The bytes of a spec.json: `studio.spec.io.spec_file_bytes` (indented when that fits the
    spec limit, else the compact bytes the validator counted), so the library never refuses a
    spec it stored; what cannot be written at all is the library's one-line error."""
    try:
        return spec_file_bytes(spec)
    except (ValueError, RecursionError):
        return dumps(spec, where=where)  # raises UnstorableText naming `where`


class Library:
    """The prototype library in `<root>/library/`. Methods are blocking (file I/O); the UI calls
    them off the GUI thread (`studio.ui.controller` runs them on one worker thread, in order).
    Thread-safe within a process; other processes may use the same library (see the module).
    `lock_wait`: how long an update waits for another process's before `LibraryBusy`."""

    def __init__(self, root: Path | str | None = None, *, lock_wait: float = WAIT):
        self.folder = library_dir(Path(root) if root is not None else None)
        self.trash_folder = self.folder / TRASH
        self._lock = threading.RLock()
        self._problems: list[str] = []
        self._broken: dict[str, str] = {}
        self._checked: set[str] = set()
        self._draft_extra: dict[str, JSON] = {}
        self._index = LibraryIndex()
        self._index_stamp: tuple[int, int, int] | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise write_failed(exc, "the library", self.folder.parent) from None
        self._file_lock = LibraryLock(self.folder, wait=lock_wait)
        self.reload()

    # ------------------------------------------------------------------ reading

    @property
    def problems(self) -> list[str]:
        """One line per entry or file that was skipped (the library still works without them)."""
        with self._lock:
            return list(self._problems)

    @property
    def format(self) -> int:
        """The format version of library.json (a newer one is kept, never downgraded)."""
        return self._index.format

    def reload(self) -> None:
        """Read library.json and check every entry again (e.g. after another tool changed it)."""
        with self._lock, self._file_lock:
            self._problems = []
            self._broken = {}
            self._checked = set()
            remove_stale_temps(self.folder)  # the whole tree: prototype folders and trash too
            self._load_index()

    def _load_index(self) -> None:
        """Under both locks: read the index from disk, finish interrupted moves, recover
        orphaned folders and check the entries not checked yet."""
        self._index = self._read_index()
        self._index_stamp = self._stat_index()
        self._finish_moves()
        self._adopt_orphans()
        for record in self._index.entries:
            if isinstance(record, LibraryEntry) and record.id not in self._checked:
                self._checked.add(record.id)
                reason = self._check_entry(record.id)
                if reason:
                    self._broken[record.id] = reason
                    self._problem(f"{record.name} ({record.id}): {reason}; skipped")

    def _stat_index(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.folder / INDEX)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def _sync(self) -> None:
        """Pick up what another process wrote to library.json since this one last read it."""
        if self._stat_index() != self._index_stamp:
            with self._lock, self._file_lock:
                if self._stat_index() != self._index_stamp:
                    self._load_index()

    def _fresh(self) -> LibraryIndex:
        """Under both locks: a copy of the index as it is on disk now, to change and commit."""
        if self._stat_index() != self._index_stamp:
            self._load_index()
        index = self._index
        return dataclasses.replace(
            index,
            entries=list(index.entries),
            trash=list(index.trash),
            seeded_templates=list(index.seeded_templates),
            extra=dict(index.extra),
        )

    def _commit(self, index: LibraryIndex, what: str = "the library index") -> None:
        """Under both locks: write `index` as library.json; it becomes the library's index only
        once it is on disk (a failed write changes nothing). `what` names the user's change in
        the error ("not enough space to save the spec of "Counter" in …")."""
        data = json_bytes(index.to_json(), where=INDEX, escape_surrogates=True)
        try:
            write_bytes(self.folder / INDEX, data)
        except OSError as exc:
            raise write_failed(exc, what, self.folder) from None
        self._index = index
        self._index_stamp = self._stat_index()

    def list_entries(self) -> list[LibraryEntry]:
        """The usable prototypes, in library order (newest first is the UI's choice), with
        those another process added since the last read."""
        with self._lock:
            self._sync()
            return [
                r
                for r in self._index.entries
                if isinstance(r, LibraryEntry) and r.id not in self._broken
            ]

    def trashed(self) -> list[LibraryEntry]:
        """Deleted prototypes that `restore` can bring back."""
        with self._lock:
            return [r for r in self._index.trash if isinstance(r, LibraryEntry)]

    def get(self, entry_id: str) -> LibraryEntry:
        with self._lock:
            self._sync()  # another process may have added, renamed or removed it
            entry = self._index.find(entry_id)
            if entry is None:
                raise EntryNotFound(f"no prototype {entry_id!r} in the library")
            if entry_id in self._broken:
                raise LibraryError(f"{entry.name} ({entry_id}): {self._broken[entry_id]}")
            return entry

    def path(self, entry_id: str) -> Path:
        """The prototype's folder."""
        self.get(entry_id)
        return self.folder / entry_id

    def load_spec(self, entry_id: str) -> JSON:
        """The stored spec (validated when it was stored)."""
        with self._lock:
            self.get(entry_id)
            return self._read_spec(self.folder / entry_id, entry_id)

    def load_assets(self, entry_id: str) -> dict[str, asset_rules.Asset]:
        """The prototype's assets by id."""
        with self._lock:
            self.get(entry_id)
            return self._read_assets(self.folder / entry_id / ASSETS)

    def assets_folder(self, entry_id: str) -> Path:
        """The folder of a prototype's assets (`<id>.<ext>` files; it may not exist): where the
        preview looks up the ids its spec names."""
        return self.folder / entry_id / ASSETS

    def thumbnail_path(self, entry_id: str) -> Path | None:
        entry = self.get(entry_id)
        if not entry.thumbnail:
            return None
        path = self.folder / entry_id / entry.thumbnail
        return path if path.is_file() else None

    # ------------------------------------------------------------------ writing

    def create(
        self,
        name: str,
        spec: JSON,
        source: str,
        assets: Mapping[str, bytes] | None = None,
        *,
        extra: JSON | None = None,
    ) -> LibraryEntry:
        """Store a new prototype (spec validated, assets checked first; nothing written if not)."""
        name = _clean_name(name)
        if source not in SOURCES:
            raise LibraryError(f"unknown source {source!r}")
        # Extra fields are kept exactly (a path's undecodable bytes as \udcXX escapes); only
        # what JSON cannot hold at all (NaN, nesting too deep) is refused.
        json_bytes(extra or {}, where=f"{name}: {INDEX}", escape_surrogates=True)
        spec = copy.deepcopy(check_spec(spec, name))
        try:
            checked = asset_rules.check_assets(assets or {})
        except asset_rules.AssetError as exc:
            raise LibraryError(f"{name}: {exc}") from None
        with self._lock:
            return self._create(name, spec, source, checked, extra or {})

    def save_spec(self, entry_id: str, spec: JSON) -> LibraryEntry:
        """Replace the prototype's spec (validated first; nothing written if refused)."""
        with self._lock:
            entry = self.get(entry_id)
            spec = check_spec(spec, entry.name)
            data = _spec_bytes(spec, where=f"{entry.name}: {SPEC}")
            with self._file_lock:
                index = self._fresh()
                entry = self._find(index, entry_id)
                changed = entry.with_changes(modified=now_iso())
                index.put(changed)
                what = f'the spec of "{entry.name}"'
                self._replace_file(
                    self.folder / entry_id / SPEC, data, what, lambda: self._commit(index, what)
                )
                return changed

    def rename(self, entry_id: str, name: str) -> LibraryEntry:
        name = _clean_name(name)
        with self._lock:
            old = self.get(entry_id).name
            return self._update(
                entry_id,
                lambda e: e.with_changes(name=name, modified=now_iso()),
                f'the new name of "{old}"',
            )

    def duplicate(self, entry_id: str, name: str | None = None) -> LibraryEntry:
        """A copy (spec, assets, thumbnail; not drafts) as a new entry, "<name> copy" (numbered
        when that is taken)."""
        with self._lock:
            entry = self.get(entry_id)
            spec = self.load_spec(entry_id)
            assets = self._read_assets(self.folder / entry_id / ASSETS)
            thumb = self.thumbnail_path(entry_id)
            copy_name = _clean_name(name or f"{entry.name[: MAX_NAME_CHARS - 5]} copy")
            extra = {k: v for k, v in entry.extra.items() if k != "template"}
            extra["duplicatedFrom"] = entry_id
            return self._create(
                copy_name,
                spec,
                entry.source,
                assets,
                extra,
                thumbnail=thumb.read_bytes() if thumb else None,
            )

    def delete(self, entry_id: str) -> LibraryEntry:
        """Move the prototype (and its drafts) to the trash; `restore` undoes it."""
        with self._lock, self._file_lock:
            index = self._fresh()
            entry = index.find(entry_id)  # a broken entry can be deleted too
            if entry is None:
                raise EntryNotFound(f"no prototype {entry_id!r} in the library")
            index.remove(entry_id)
            trashed = entry.with_changes(deleted=now_iso())
            index.trash.append(trashed)
            self._commit(index)
            self._broken.pop(entry_id, None)
            self._move_files(entry_id, self.folder, self.trash_folder)
            return trashed

    def restore(self, entry_id: str) -> LibraryEntry:
        """Bring a deleted prototype back from the trash."""
        with self._lock, self._file_lock:
            index = self._fresh()
            trashed = index.find_trashed(entry_id)
            if trashed is None:
                raise EntryNotFound(f"no prototype {entry_id!r} in the trash")
            index.remove_trashed(entry_id)
            entry = trashed.with_changes(deleted=None)
            index.entries.append(entry)
            self._commit(index)
            self._move_files(entry_id, self.trash_folder, self.folder)
            reason = self._check_entry(entry_id)
            self._checked.add(entry_id)
            if reason:
                self._broken[entry_id] = reason
            return entry

    def purge(self, entry_id: str) -> None:
        """Delete a trashed prototype for good."""
        with self._lock, self._file_lock:
            index = self._fresh()
            if index.remove_trashed(entry_id) is None:
                raise EntryNotFound(f"no prototype {entry_id!r} in the trash")
            self._commit(index)
            remove_tree(self.trash_folder / entry_id)
            remove_tree(self.trash_folder / f"{entry_id}{DRAFT_SUFFIX}")

    def set_thumbnail(self, entry_id: str, png: bytes) -> LibraryEntry:
        """Store the prototype's thumbnail (PNG bytes, e.g. from the preview)."""
        if asset_rules.sniff(png) != "image/png":
            raise LibraryError(f"{entry_id}: a thumbnail must be a PNG image")
        if len(png) > MAX_THUMBNAIL_BYTES:
            raise LibraryError(f"{entry_id}: thumbnail of {len(png)} bytes is too large")
        with self._lock:
            entry = self.get(entry_id)
            what = f'the thumbnail of "{entry.name}"'
            path = self.folder / entry_id / THUMBNAIL
            if entry.thumbnail == THUMBNAIL:
                self._replace_file(path, png, what, lambda: None)
                return entry
            with self._file_lock:
                index = self._fresh()
                changed = self._find(index, entry_id).with_changes(thumbnail=THUMBNAIL)
                index.put(changed)
                self._replace_file(path, png, what, lambda: self._commit(index, what))
                return changed

    # ------------------------------------------------------------------ drafts and revisions

    def draft_path(self, entry_id: str) -> Path:
        return self.folder / f"{entry_id}{DRAFT_SUFFIX}"

    def load_revisions(self, entry_id: str) -> RevisionLog | None:
        """The prototype's revision log, or None when it has none (or it is unreadable: then a
        line in `problems`)."""
        with self._lock:
            self.get(entry_id)
            path = self.draft_path(entry_id)
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                return None
            try:
                raw = parse_json(data, path.name)
                if not isinstance(raw, dict) or not isinstance(raw.get("log"), dict):
                    raise LibraryError(f"{path.name}: not a drafts file")
                revisions = RevisionLog.from_json(raw["log"])
                # A newer build's drafts file keeps its version and fields when saved again.
                self._draft_extra[entry_id] = {
                    k: v for k, v in raw.items() if k not in ("id", "log")
                }
                return revisions
            except (LibraryError, ValueError, TypeError, AttributeError, KeyError) as exc:
                self._problem(f"{path.name}: {exc}; drafts ignored")
                return None

    def save_revisions(self, entry_id: str, revisions: RevisionLog) -> None:
        """Store the revision log atomically (its current spec is validated first)."""
        with self._lock:
            entry = self.get(entry_id)
            check_spec(revisions.current, f"{entry.name} draft")
            doc: JSON = {"format": DRAFT_FORMAT}
            doc.update(self._draft_extra.get(entry_id, {}))
            doc.update(id=entry_id, log=revisions.to_json())
            data = dumps(doc, compact=True, where=f"{entry.name}: {self.draft_path(entry_id).name}")
            try:
                write_bytes(self.draft_path(entry_id), data)
            except OSError as exc:
                raise write_failed(exc, f'the drafts of "{entry.name}"', self.folder) from None

    # ------------------------------------------------------------------ import and export

    def import_spec_file(self, path: Path | str) -> LibraryEntry:
        """Import a spec file (source "file"); a `.protobundle` (or any zip) goes to import_bundle."""
        path = Path(path)
        try:
            with open(path, "rb") as fh:
                head = fh.read(4)
                if path.suffix == SUFFIX or head == b"PK\x03\x04":
                    return self.import_bundle(path)
                fh.seek(0)
                data = fh.read(MAX_SPEC_BYTES + 1)
        except OSError as exc:
            raise LibraryError(f"{path.name}: cannot read ({exc.strerror or exc})") from None
        spec = parse_spec(data, path.name)
        check_storable(spec, path.name)
        check_spec(spec, path.name)
        # Opening the same, unchanged file again (a recent file, a second drop) opens the entry
        # it made before instead of adding a copy each time.
        origin = {"importedFrom": str(path.resolve()), "importedSha256": _sha256(data)}
        with self._lock:
            for entry in self.list_entries():
                if all(entry.get(k) == v for k, v in origin.items()):
                    return entry
        return self.create(
            _auto_name(path.stem, "Imported prototype"), spec, "file", extra=dict(origin)
        )

    def import_spec_text(self, text: str, name: str | None = None) -> LibraryEntry:
        """Import pasted spec text (source "paste"), named after the spec's id unless given."""
        spec = parse_spec(text, "pasted text")
        check_storable(spec, "pasted text")
        check_spec(spec, "pasted text")
        return self.create(name or _auto_name(spec.get("id"), "Pasted prototype"), spec, "paste")

    def import_bundle(self, path: Path | str) -> LibraryEntry:
        """Import a `.protobundle` (source "share"); every check passes before anything is
        written (the prototype is assembled in a temp folder and renamed into place)."""
        path = Path(path)
        bundle = read_bundle(path)
        try:
            name = _clean_name(bundle.name)
        except LibraryError as exc:
            raise LibraryError(f"{path.name}: manifest.json name: {exc}") from None
        with self._lock:
            return self._create(name, bundle.spec, "share", bundle.assets, {})

    def export_bundle(self, entry_id: str, path: Path | str) -> None:
        """Write the canonical bundle (spec, assets, manifest; never drafts or history)."""
        with self._lock:
            entry = self.get(entry_id)
            spec = self.load_spec(entry_id)
            assets = self._read_assets(self.folder / entry_id / ASSETS)
        write_bundle(path, spec, entry.name, assets)

    def ensure_templates(self) -> list[LibraryEntry]:
        """First launch: add each shipped template once (source "template"). A template the user
        deleted is not added again (library.json remembers which were seeded)."""
        added: list[LibraryEntry] = []
        with self._lock, self._file_lock:  # another process seeding at once adds each once
            self._fresh()
            for template in list_templates():
                if template.id in self._index.seeded_templates:
                    continue
                try:
                    spec = check_spec(template.load_spec(), f"template {template.id}")
                except (LibraryError, OSError, ValueError) as exc:
                    self._problem(f"template {template.id}: {exc}; not added")
                    continue
                added.append(
                    self._create(
                        template.name,
                        spec,
                        "template",
                        {},
                        {"template": template.id},
                        seeded_template=template.id,
                    )
                )
        return added

    # ------------------------------------------------------------------ internals

    def _problem(self, message: str) -> None:
        if message in self._problems:  # the index is re-read after another process's write
            return
        log.warning("library: %s", message)
        self._problems.append(message)

    def _new_id(self, index: LibraryIndex) -> str:
        taken = index.ids()
        while True:
            entry_id = secrets.token_hex(6)
            if entry_id not in taken and not (self.folder / entry_id).exists():
                return entry_id

    @staticmethod
    def _find(index: LibraryIndex, entry_id: str) -> LibraryEntry:
        entry = index.find(entry_id)
        if entry is None:  # removed by another process since this one read the index
            raise EntryNotFound(f"no prototype {entry_id!r} in the library")
        return entry

    def _create(
        self,
        name: str,
        spec: JSON,
        source: str,
        assets: Mapping[str, asset_rules.Asset],
        extra: JSON,
        *,
        thumbnail: bytes | None = None,
        seeded_template: str | None = None,
    ) -> LibraryEntry:
        spec_bytes = _spec_bytes(spec, where=f"{name}: {SPEC}")  # before anything is written
        with self._file_lock:
            index = self._fresh()
            # A new prototype never takes a name in use: "Sign-in form 2", "Tally copy 2".
            name = unique_name(name, (r.name for r in index.entries if isinstance(r, LibraryEntry)))
            entry_id = self._new_id(index)
            final = self.folder / entry_id
            staging = temp_name(final)
            try:
                staging.mkdir()
                _write_synced(staging / SPEC, spec_bytes)
                if assets:
                    (staging / ASSETS).mkdir()
                    for asset in assets.values():
                        _write_synced(staging / ASSETS / asset.file_name, asset.data)
                    fsync_dir(staging / ASSETS)
                if thumbnail is not None:
                    _write_synced(staging / THUMBNAIL, thumbnail)
                fsync_dir(staging)
                move(staging, final)
            except OSError as exc:
                shutil.rmtree(staging, ignore_errors=True)
                raise write_failed(exc, f'the new prototype "{name}"', self.folder) from None
            stamp = now_iso()
            entry = LibraryEntry(
                id=entry_id,
                name=name,
                source=source,
                created=stamp,
                modified=stamp,
                thumbnail=THUMBNAIL if thumbnail is not None else None,
                extra=dict(extra),
            )
            index.entries.append(entry)
            if seeded_template is not None:
                index.seeded_templates.append(seeded_template)
            try:
                self._commit(index, f'the new prototype "{name}"')
            except BaseException:
                remove_tree(final)
                raise
            self._checked.add(entry_id)
            return entry

    def _update(
        self, entry_id: str, change: Callable[[LibraryEntry], LibraryEntry], what: str
    ) -> LibraryEntry:
        """Change one index record (as it is on disk now) and write the index."""
        with self._file_lock:
            index = self._fresh()
            entry = change(self._find(index, entry_id))
            index.put(entry)
            self._commit(index, what)
            return entry

    def _replace_file(self, path: Path, data: bytes, what: str, commit: Callable[[], None]) -> None:
        """Replace `path` with `data` atomically, then run `commit` (the index write); if that
        fails the old file is put back, so a failed save changes nothing. The old file is kept
        as a hard link meanwhile (no copy, no space needed to restore it)."""
        link = temp_name(path)
        backup: Path | None = link
        try:
            os.link(path, link)
        except FileNotFoundError:
            backup = None
        except OSError as exc:
            if exc.errno in _NO_LINKS:
                backup = None  # a file system without hard links: no rollback of the file
            else:
                raise write_failed(exc, what, self.folder) from None
        try:
            try:
                write_bytes(path, data)
            except OSError as exc:
                raise write_failed(exc, what, self.folder) from None
            try:
                commit()
            except BaseException:
                if backup is not None:
                    os.replace(backup, path)
                    backup = None
                else:
                    path.unlink(missing_ok=True)
                raise
        finally:
            if backup is not None:
                backup.unlink(missing_ok=True)

    def _read_index(self) -> LibraryIndex:
        path = self.folder / INDEX
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return LibraryIndex()
        try:
            index, problems = LibraryIndex.from_json(parse_json(data, INDEX))
        except (LibraryError, ValueError) as exc:
            # Never fatal: keep the damaged file for inspection and rebuild from the folders.
            aside = path.with_name(f"{INDEX}.corrupt-{secrets.token_hex(3)}")
            try:
                shutil.copyfile(path, aside)
            except OSError:
                aside = path
            self._problem(f"{exc}; rebuilt from the prototype folders (old file: {aside.name})")
            return LibraryIndex()
        for line in problems:
            self._problem(line)
        if index.format > FORMAT_VERSION:
            log.info("library.json format %d is newer than %d; kept", index.format, FORMAT_VERSION)
        return index

    def _finish_moves(self) -> None:
        """Complete a delete or restore cut short between the index write and the move."""
        for record in self._index.trash:
            if (
                isinstance(record, LibraryEntry)
                and (self.folder / record.id).is_dir()
                and not (self.trash_folder / record.id).exists()
            ):
                self._move_files(record.id, self.folder, self.trash_folder)
        for record in self._index.entries:
            if (
                isinstance(record, LibraryEntry)
                and not (self.folder / record.id).exists()
                and (self.trash_folder / record.id).is_dir()
            ):
                self._move_files(record.id, self.trash_folder, self.folder)

    def _adopt_orphans(self) -> None:
        """A prototype folder the index does not list (a create cut short, or a damaged index)
        is recovered as an entry rather than lost; written with the next index write."""
        known = self._index.ids()
        for child in sorted(self.folder.iterdir()):
            if (
                child.name in known
                or not valid_entry_id(child.name)
                or not child.is_dir()
                or not (child / SPEC).is_file()
            ):
                continue
            try:
                spec = self._read_spec(child, child.name)
            except LibraryError as exc:
                self._problem(f"{child.name}: {exc}; not recovered")
                continue
            stamp = now_iso()
            name = _auto_name(spec.get("id"), child.name)
            self._index.entries.append(
                LibraryEntry(
                    id=child.name,
                    name=name,
                    source="file",
                    created=stamp,
                    modified=stamp,
                    thumbnail=THUMBNAIL if (child / THUMBNAIL).is_file() else None,
                    extra={"recovered": True},
                )
            )
            self._problem(f"{child.name}: not in {INDEX}; recovered as {name!r}")

    def _check_entry(self, entry_id: str) -> str | None:
        folder = self.folder / entry_id
        if not folder.is_dir():
            return "its folder is missing"
        try:
            self._read_spec(folder, entry_id)
        except LibraryError as exc:
            return str(exc)
        return None

    def _read_spec(self, folder: Path, entry_id: str) -> JSON:
        path = folder / SPEC
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise LibraryError(f"{entry_id}/{SPEC} is missing") from None
        except OSError as exc:
            raise LibraryError(f"{entry_id}/{SPEC}: cannot read ({exc.strerror or exc})") from None
        return parse_spec(data, f"{entry_id}/{SPEC}")

    def _read_assets(self, folder: Path) -> dict[str, asset_rules.Asset]:
        out: dict[str, asset_rules.Asset] = {}
        if not folder.is_dir():
            return out
        for path in sorted(folder.iterdir()):
            if path.name.startswith(".") or not path.is_file():
                continue
            try:
                out[path.stem] = asset_rules.check_asset(
                    path.stem, path.read_bytes(), path.suffix[1:]
                )
            except (asset_rules.AssetError, OSError) as exc:
                self._problem(f"{folder.parent.name}/{ASSETS}/{path.name}: {exc}; skipped")
        return out

    def _move_files(self, entry_id: str, src: Path, dst: Path) -> None:
        dst.mkdir(parents=True, exist_ok=True)
        for name in (entry_id, f"{entry_id}{DRAFT_SUFFIX}"):
            if (src / name).exists() and not (dst / name).exists():
                move(src / name, dst / name)


#: errno values for "this file system has no hard links" (FAT, some network shares).
_NO_LINKS = frozenset({errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV})


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "xb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


__all__ = ["TEMP_MARK", "Library", "LibraryEntry", "Unreadable"]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
