"""The `.protobundle` format: a strict zip reader and a deterministic, canonical writer.

A bundle is a zip holding exactly `manifest.json` (`{"format": 1, "id", "name", "createdBy"}`),
`spec.json` (a valid spec whose `id` is the manifest's) and `assets/<id>.<ext>` files. Drafts,
revision history and instructions are never exported.

The reader trusts nothing in the archive: it caps the entry count, the total uncompressed size and
each entry's compression ratio from the central directory AND again while streaming the bytes
(headers can lie); refuses absolute paths, `..`, backslashes, symlinks and other special files,
duplicate names (also by case), folders other than `assets/` and any name not listed above;
checks assets by signature against AutoMobile's asset contract; parses JSON strictly; checks the
manifest; validates the spec. Everything is read into memory (at most 24 MiB), so a refused bundle
never leaves a file behind.

Built on `zipfile` for the central directory; the checks it does not make are hand-written.
"""

from __future__ import annotations

import io
import re
import stat
import struct
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.library import assets as asset_rules
from studio.library.atomic import write_bytes
from studio.library.errors import BundleError, LibraryError
from studio.library.specs import MAX_SPEC_BYTES, check_spec, parse_json
from studio.library.storable import check_storable, json_bytes, write_failed
from studio.spec.io import spec_file_bytes

BUNDLE_FORMAT = 1
SUFFIX = ".protobundle"
CREATED_BY = "proto-studio"

MAX_BUNDLE_FILE_BYTES = 24 * 1024 * 1024
MAX_TOTAL_UNCOMPRESSED = 24 * 1024 * 1024
MAX_ENTRIES = 64
MAX_RATIO = 100
RATIO_FLOOR = 64 * 1024
"""The ratio cap applies past this many bytes: a tiny entry cannot be a bomb, and short JSON
(or an all-zero test asset) legitimately compresses far better than 100:1."""
MAX_MANIFEST_BYTES = 64 * 1024
MAX_NAME_CHARS = 200
_CHUNK = 64 * 1024

MANIFEST = "manifest.json"
SPEC = "spec.json"
ASSETS_DIR = "assets/"
_ASSET_NAME = re.compile(r"assets/([^/]+)\.([A-Za-z0-9]+)")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)

JSON = dict[str, Any]


@dataclass(frozen=True)
class Bundle:
    """A bundle that passed every check: its manifest, its valid spec and its assets."""

    manifest: JSON
    spec: JSON
    assets: dict[str, asset_rules.Asset]

    @property
    def name(self) -> str:
        return str(self.manifest["name"])


# ----------------------------------------------------------------------------- reading


def read_bundle(source: Path | str | bytes) -> Bundle:
    """Read and check a bundle (a path or the zip's bytes); BundleError with a one-line reason."""
    label = "bundle" if isinstance(source, bytes) else Path(source).name
    if isinstance(source, bytes):
        data = source
    else:
        path = Path(source)
        try:
            size = path.stat().st_size
            if size > MAX_BUNDLE_FILE_BYTES:
                raise BundleError(
                    f"{label}: {size} bytes; a bundle is at most {MAX_BUNDLE_FILE_BYTES}"
                )
            data = path.read_bytes()
        except OSError as exc:
            raise BundleError(f"{label}: cannot read ({exc.strerror or exc})") from None
    if len(data) > MAX_BUNDLE_FILE_BYTES:
        raise BundleError(
            f"{label}: {len(data)} bytes; a bundle is at most {MAX_BUNDLE_FILE_BYTES}"
        )
    try:
        return _read(data, label)
    except BundleError:
        raise
    except LibraryError as exc:  # strict JSON, invalid spec: already one line naming the entry
        raise BundleError(f"{label}: {exc}") from None
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        zlib.error,
        EOFError,
        OSError,
        ValueError,
    ) as exc:
        raise BundleError(f"{label}: damaged zip ({exc})") from None
    except NotImplementedError as exc:
        raise BundleError(f"{label}: unsupported zip feature ({exc})") from None


def _read(data: bytes, label: str) -> Bundle:
    def fail(message: str) -> BundleError:
        return BundleError(f"{label}: {message}")

    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise fail("not a zip file") from None
    except UnicodeDecodeError as exc:  # a name flagged UTF-8 that is not (e.g. a surrogate)
        raw = bytes(exc.object[:80]) if isinstance(exc.object, bytes | bytearray) else b""
        shown = raw.decode("utf-8", "backslashreplace")
        raise fail(f"entry name {shown!r} is not UTF-8 (byte {exc.start + 1})") from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise fail(f"{len(infos)} entries; a bundle has at most {MAX_ENTRIES}")
        files = _check_directory(infos, fail)
        contents = _stream(data, files, fail)

    manifest = _check_manifest(contents.pop(MANIFEST), fail)
    spec = parse_json(contents.pop(SPEC), SPEC)
    check_storable(spec, SPEC)
    check_spec(spec, SPEC)
    if spec.get("id") != manifest["id"]:
        raise fail(
            f"manifest.json id {manifest['id']!r} differs from spec.json id {spec.get('id')!r}"
        )
    raw_assets: dict[str, bytes] = {}
    for name, blob in contents.items():
        match = _ASSET_NAME.fullmatch(name)
        assert match is not None  # guaranteed by _check_directory
        asset_id, ext = match.group(1), match.group(2)
        try:
            raw_assets[asset_id] = asset_rules.check_asset(asset_id, blob, ext).data
        except asset_rules.AssetError as exc:
            raise fail(f"{name}: {exc}") from None
    try:
        assets = asset_rules.check_assets(raw_assets)
    except asset_rules.AssetError as exc:
        raise fail(str(exc)) from None
    return Bundle(manifest=manifest, spec=spec, assets=assets)


def _check_name(name: str) -> str | None:
    """Why this entry name is refused, or None."""
    if not name:
        return "empty entry name"
    if "\\" in name:
        return "backslash in the name"
    if any(ord(c) < 0x20 or c == "\x7f" for c in name):
        return "control character in the name"
    if name.startswith("/") or re.match(r"[A-Za-z]:", name):
        return "absolute path"
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "path escapes the bundle" if ".." in parts else "malformed path"
    return None


def _check_directory(infos: list[zipfile.ZipInfo], fail: Any) -> list[zipfile.ZipInfo]:
    """Check every central-directory record; return the file entries to read."""
    seen: set[str] = set()
    folded: set[str] = set()
    files: list[zipfile.ZipInfo] = []
    declared_total = 0
    for info in infos:
        name = info.filename
        # zipfile turns backslashes into slashes on Windows only; check the raw name too.
        raw_name = info.orig_filename
        shown = raw_name[:80]
        reason = _check_name(raw_name) or _check_name(name)
        if reason:
            raise fail(f"entry {shown!r}: {reason}")
        if name in seen:
            raise fail(f"entry {shown!r}: duplicate name")
        if name.casefold() in folded:
            raise fail(f"entry {shown!r}: duplicate name (differs only in case)")
        seen.add(name)
        folded.add(name.casefold())
        mode = info.external_attr >> 16
        if info.create_system == 3 and mode:  # Unix permissions and file type
            if stat.S_ISLNK(mode):
                raise fail(f"entry {shown!r}: symbolic link")
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_IFMT(mode) == 0):
                raise fail(f"entry {shown!r}: not a regular file")
        if info.flag_bits & 0x1:
            raise fail(f"entry {shown!r}: encrypted")
        if info.is_dir():
            if name != ASSETS_DIR:
                raise fail(f"entry {shown!r}: unexpected folder (only assets/ is allowed)")
            if info.file_size:
                raise fail(f"entry {shown!r}: folder with content")
            continue
        asset = _ASSET_NAME.fullmatch(name)
        if name not in (MANIFEST, SPEC) and (
            asset is None or asset.group(2).lower() not in asset_rules.EXTENSIONS
        ):
            raise fail(f"entry {shown!r}: not allowed in a bundle")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise fail(f"entry {shown!r}: unsupported compression method {info.compress_type}")
        limit = _entry_limit(name)
        if info.file_size > limit:
            raise fail(f"entry {shown!r}: {info.file_size} bytes; at most {limit}")
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise fail(f"entry {shown!r}: compression ratio above {MAX_RATIO}:1 (zip bomb?)")
        declared_total += info.file_size
        files.append(info)
    if declared_total > MAX_TOTAL_UNCOMPRESSED:
        raise fail(f"{declared_total} bytes uncompressed; at most {MAX_TOTAL_UNCOMPRESSED}")
    for required in (MANIFEST, SPEC):
        if required not in seen:
            raise fail(f"{required} is missing")
    return files


def _entry_limit(name: str) -> int:
    if name == MANIFEST:
        return MAX_MANIFEST_BYTES
    if name == SPEC:
        return MAX_SPEC_BYTES
    return asset_rules.MAX_ASSET_BYTES


def _stream(data: bytes, files: list[zipfile.ZipInfo], fail: Any) -> dict[str, bytes]:
    """Inflate every file from its local record, counting the real bytes in and out against the
    caps and the ratio; the header's sizes are only compared at the end, never trusted.

    Hand-written over zlib because `zipfile` stops at the header's size and reads compressed
    data ahead, so neither the real size nor the real ratio can be measured through it."""
    total = 0
    out: dict[str, bytes] = {}
    for info in files:
        name = info.filename
        limit = _entry_limit(name)
        offset = info.header_offset
        local = data[offset : offset + 30]
        if len(local) < 30 or local[:4] != b"PK\x03\x04":
            raise fail(f"entry {name!r}: bad local header")
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        local_name = data[offset + 30 : offset + 30 + name_len]
        encoding = "utf-8" if info.flag_bits & 0x800 else "cp437"
        if local_name.decode(encoding, "replace") != info.orig_filename:
            raise fail(f"entry {name!r}: local name differs from the directory")
        start = offset + 30 + name_len + extra_len
        raw = memoryview(data)[start : start + info.compress_size]
        if info.compress_type == zipfile.ZIP_STORED:
            blob = bytes(raw[: limit + 1])
            if len(blob) > limit:
                raise fail(f"entry {name!r}: more than {limit} bytes")
            consumed = len(blob)
        else:
            inflater = zlib.decompressobj(-15)
            parts: list[bytes] = []
            size = consumed = pos = 0
            while not inflater.eof:
                if inflater.unconsumed_tail:
                    feed = inflater.unconsumed_tail
                elif pos < len(raw):
                    feed = bytes(raw[pos : pos + _CHUNK])
                    pos += len(feed)
                else:
                    feed = b""  # no input left: only output zlib still holds may come
                piece = inflater.decompress(feed, _CHUNK)
                if not piece and not feed:
                    raise fail(f"entry {name!r}: truncated data")
                consumed += len(feed) - len(inflater.unconsumed_tail) - len(inflater.unused_data)
                size += len(piece)
                parts.append(piece)
                _check_counts(name, size, consumed, total + size, limit, fail)
            blob = b"".join(parts)
        total += len(blob)
        _check_counts(name, len(blob), consumed, total, limit, fail)
        if len(blob) != info.file_size:
            raise fail(f"entry {name!r}: {len(blob)} bytes, its header says {info.file_size}")
        if zlib.crc32(blob) != info.CRC:
            raise fail(f"entry {name!r}: bad CRC-32")
        out[name] = blob
    return out


def _check_counts(name: str, size: int, consumed: int, total: int, limit: int, fail: Any) -> None:
    if size > limit:
        raise fail(f"entry {name!r}: more than {limit} bytes")
    if size > RATIO_FLOOR and size > MAX_RATIO * max(consumed, 1):
        raise fail(f"entry {name!r}: compression ratio above {MAX_RATIO}:1 while inflating")
    if total > MAX_TOTAL_UNCOMPRESSED:
        raise fail(f"more than {MAX_TOTAL_UNCOMPRESSED} bytes uncompressed")


def _check_manifest(data: bytes, fail: Any) -> JSON:
    manifest = parse_json(data, MANIFEST)
    if not isinstance(manifest, dict):
        raise fail("manifest.json is not a JSON object")
    check_storable(manifest, MANIFEST)
    version = manifest.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise fail("manifest.json format must be an integer")
    if version > BUNDLE_FORMAT:
        raise fail(f"bundle format {version} is newer than this studio reads ({BUNDLE_FORMAT})")
    if version != BUNDLE_FORMAT:
        raise fail(f"manifest.json format {version} is not a bundle format")
    for key in ("id", "name", "createdBy"):
        value = manifest.get(key)
        if not isinstance(value, str) or not value.strip():
            raise fail(f"manifest.json {key} must be a non-empty string")
    name = manifest["name"]
    if len(name) > MAX_NAME_CHARS or any(ord(c) < 0x20 for c in name):
        raise fail(f"manifest.json name must be one line of at most {MAX_NAME_CHARS} characters")
    return manifest


# ----------------------------------------------------------------------------- writing


def bundle_bytes(
    spec: JSON, name: str, assets: Mapping[str, asset_rules.Asset] | None = None
) -> bytes:
    """The canonical bundle of a spec: the same input always gives the same bytes."""
    manifest = {
        "format": BUNDLE_FORMAT,
        "id": spec.get("id"),
        "name": name,
        "createdBy": CREATED_BY,
    }
    members: list[tuple[str, bytes, int]] = [
        (MANIFEST, _json_bytes(manifest), zipfile.ZIP_DEFLATED),
        (SPEC, _spec_bytes(spec), zipfile.ZIP_DEFLATED),
    ]
    for asset in sorted((assets or {}).values(), key=lambda a: a.file_name):
        # Images are compressed already: stored as they are (deflating them costs time, saves
        # nothing). Fonts deflate well.
        method = zipfile.ZIP_DEFLATED if asset_rules.is_font(asset.mime) else zipfile.ZIP_STORED
        members.append((ASSETS_DIR + asset.file_name, asset.data, method))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for member, blob, method in members:
            if method == zipfile.ZIP_DEFLATED and _too_compressible(blob):
                method = zipfile.ZIP_STORED  # so that our own reader's ratio cap never trips
            info = zipfile.ZipInfo(member, date_time=_FIXED_TIME)
            info.create_system = 3
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            info.compress_type = method
            zf.writestr(info, blob, compresslevel=9 if method == zipfile.ZIP_DEFLATED else None)
    return buf.getvalue()


def write_bundle(
    path: Path | str,
    spec: JSON,
    name: str,
    assets: Mapping[str, asset_rules.Asset] | None = None,
) -> None:
    """Write the canonical bundle atomically; it is read back first, so the studio never writes
    a bundle that it (or another reader of the format) would refuse."""
    path = Path(path)
    data = bundle_bytes(spec, name, assets)
    read_bundle(data)
    try:
        write_bytes(path, data)
    except OSError as exc:
        raise write_failed(exc, path.name, path.parent.resolve()) from None


def _too_compressible(blob: bytes) -> bool:
    if len(blob) <= RATIO_FLOOR:
        return False
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = len(deflater.compress(blob)) + len(deflater.flush())
    return len(blob) > MAX_RATIO * deflated


def _json_bytes(value: Any) -> bytes:
    return json_bytes(value, where="bundle")


def _spec_bytes(spec: Any) -> bytes:
    """spec.json as the library stores it (`spec_file_bytes`: indented when that fits the limit,
    else the compact bytes the validator counted), so a bundle of a spec near 1 MiB imports."""
    try:
        return spec_file_bytes(spec)
    except (ValueError, RecursionError):
        return _json_bytes(spec)  # raises the library's one-line error for what cannot be written
