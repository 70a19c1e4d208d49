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
prototype folder missing from the index (a create cut short) is recovered. One writer at a time
(the studio process): two processes writing the same library is not supported. Unknown
top-level fields of a drafts file (and a newer format number) read by `load_revisions` are
written back by `save_revisions`.

A bad entry (missing folder, unreadable spec.json, an index record from a newer build) is skipped
with a logged warning and listed in `problems`, never fatal, and never dropped from library.json.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import os
import secrets
import shutil
import threading
from collections.abc import Mapping
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
    write_json,
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
from studio.library.paths import library_dir
from studio.library.revisions import RevisionLog
from studio.library.specs import MAX_SPEC_BYTES, check_spec, parse_json, parse_spec
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
    """A name made from a file name or a spec id: one line, cut to the length limit."""
    cleaned = " ".join(str(candidate or "").split())[:MAX_NAME_CHARS].strip()
    return cleaned or fallback


def _clean_name(name: str) -> str:
    if not isinstance(name, str):
        raise LibraryError("a prototype name must be text")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise LibraryError("a prototype name cannot be empty")
    if len(cleaned) > MAX_NAME_CHARS:
        raise LibraryError(f"a prototype name is at most {MAX_NAME_CHARS} characters")
    return cleaned


class Library:
    """The prototype library in `<root>/library/`. Methods are blocking (file I/O); the UI calls
    them off the GUI thread (`studio.ui.controller` runs them on one worker thread, in order).
    Thread-safe within a process."""

    def __init__(self, root: Path | str | None = None):
        self.folder = library_dir(Path(root) if root is not None else None)
        self.trash_folder = self.folder / TRASH
        self._lock = threading.RLock()
        self._problems: list[str] = []
        self._broken: dict[str, str] = {}
        self._draft_extra: dict[str, JSON] = {}
        self._index = LibraryIndex()
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
        with self._lock:
            self._problems = []
            self._broken = {}
            self.folder.mkdir(parents=True, exist_ok=True)
            remove_stale_temps(self.folder)
            if self.trash_folder.is_dir():
                remove_stale_temps(self.trash_folder)
            self._index = self._read_index()
            self._finish_moves()
            self._adopt_orphans()
            for record in self._index.entries:
                if isinstance(record, LibraryEntry):
                    reason = self._check_entry(record.id)
                    if reason:
                        self._broken[record.id] = reason
                        self._problem(f"{record.name} ({record.id}): {reason}; skipped")

    def list_entries(self) -> list[LibraryEntry]:
        """The usable prototypes, in library order (newest first is the UI's choice)."""
        with self._lock:
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
            write_bytes(self.folder / entry_id / SPEC, spec_file_bytes(spec))
            return self._update(entry.with_changes(modified=now_iso()))

    def rename(self, entry_id: str, name: str) -> LibraryEntry:
        name = _clean_name(name)
        with self._lock:
            entry = self.get(entry_id)
            return self._update(entry.with_changes(name=name, modified=now_iso()))

    def duplicate(self, entry_id: str, name: str | None = None) -> LibraryEntry:
        """A copy (spec, assets, thumbnail; not drafts) as a new entry, "<name> copy"."""
        with self._lock:
            entry = self.get(entry_id)
            spec = self.load_spec(entry_id)
            assets = self._read_assets(self.folder / entry_id / ASSETS)
            thumb = self.thumbnail_path(entry_id)
            copy_name = _clean_name(name or self._copy_name(entry.name))
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
        with self._lock:
            entry = self._index.find(entry_id)  # a broken entry can be deleted too
            if entry is None:
                raise EntryNotFound(f"no prototype {entry_id!r} in the library")
            self._index.remove(entry_id)
            trashed = entry.with_changes(deleted=now_iso())
            self._index.trash.append(trashed)
            self._write_index()
            self._broken.pop(entry_id, None)
            self._move_files(entry_id, self.folder, self.trash_folder)
            return trashed

    def restore(self, entry_id: str) -> LibraryEntry:
        """Bring a deleted prototype back from the trash."""
        with self._lock:
            trashed = self._index.find_trashed(entry_id)
            if trashed is None:
                raise EntryNotFound(f"no prototype {entry_id!r} in the trash")
            self._index.remove_trashed(entry_id)
            entry = trashed.with_changes(deleted=None)
            self._index.entries.append(entry)
            self._write_index()
            self._move_files(entry_id, self.trash_folder, self.folder)
            reason = self._check_entry(entry_id)
            if reason:
                self._broken[entry_id] = reason
            return entry

    def purge(self, entry_id: str) -> None:
        """Delete a trashed prototype for good."""
        with self._lock:
            if self._index.remove_trashed(entry_id) is None:
                raise EntryNotFound(f"no prototype {entry_id!r} in the trash")
            self._write_index()
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
            write_bytes(self.folder / entry_id / THUMBNAIL, png)
            if entry.thumbnail == THUMBNAIL:
                return entry
            return self._update(entry.with_changes(thumbnail=THUMBNAIL))

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
            write_bytes(self.draft_path(entry_id), dumps(doc, compact=True))

    def discard_revisions(self, entry_id: str) -> None:
        with self._lock:
            self.get(entry_id)
            self.draft_path(entry_id).unlink(missing_ok=True)
            fsync_dir(self.folder)

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
        check_spec(spec, "pasted text")
        return self.create(name or _auto_name(spec.get("id"), "Pasted prototype"), spec, "paste")

    def import_bundle(self, path: Path | str) -> LibraryEntry:
        """Import a `.protobundle` (source "share"); every check passes before anything is
        written (the prototype is assembled in a temp folder and renamed into place)."""
        bundle = read_bundle(Path(path))
        with self._lock:
            return self._create(_clean_name(bundle.name), bundle.spec, "share", bundle.assets, {})

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
        with self._lock:
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
        log.warning("library: %s", message)
        self._problems.append(message)

    def _new_id(self) -> str:
        taken = self._index.ids()
        while True:
            entry_id = secrets.token_hex(6)
            if entry_id not in taken and not (self.folder / entry_id).exists():
                return entry_id

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
        entry_id = self._new_id()
        final = self.folder / entry_id
        staging = temp_name(final)
        try:
            staging.mkdir()
            _write_synced(staging / SPEC, spec_file_bytes(spec))
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
            raise LibraryError(
                f"{name}: cannot write the library ({exc.strerror or exc})"
            ) from None
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
        self._index.entries.append(entry)
        if seeded_template is not None:
            self._index.seeded_templates.append(seeded_template)
        try:
            self._write_index()
        except BaseException:
            self._index.remove(entry_id)
            if seeded_template is not None:
                self._index.seeded_templates.remove(seeded_template)
            remove_tree(final)
            raise
        return entry

    def _update(self, entry: LibraryEntry) -> LibraryEntry:
        previous = self._index.find(entry.id)
        self._index.put(entry)
        try:
            self._write_index()
        except BaseException:
            if previous is not None:
                self._index.put(previous)
            raise
        return entry

    def _write_index(self) -> None:
        try:
            write_json(self.folder / INDEX, self._index.to_json())
        except OSError as exc:
            raise LibraryError(f"{INDEX}: cannot write ({exc.strerror or exc})") from None

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

    def _copy_name(self, name: str) -> str:
        names = {r.name for r in self._index.entries if isinstance(r, LibraryEntry)}
        candidate = f"{name} copy"
        n = 2
        while candidate in names:
            candidate = f"{name} copy {n}"
            n += 1
        return candidate[:MAX_NAME_CHARS]


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "xb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


__all__ = ["TEMP_MARK", "Library", "LibraryEntry", "Unreadable"]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
