"""Prototype assets checked against AutoMobile's asset contract: type by signature, sizes, count, ids.

The limits are facts read from AutoMobile's `schemas/prototype-asset-contract.json` (not copied):
PNG, JPEG and WebP images up to 4 MiB, TTF/OTF fonts up to 2 MiB, at most 32 assets, 16 MiB in
all, ids of 1..256 characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

MAX_ASSET_BYTES = 4 * 1024 * 1024
MAX_FONT_BYTES = 2 * 1024 * 1024
MAX_ASSET_COUNT = 32
MAX_ASSET_TOTAL_BYTES = 16 * 1024 * 1024
MAX_ASSET_ID_LENGTH = 256
MAX_FILE_NAME_BYTES = 255
"""File systems cap a name at 255 bytes, so `<id>.<ext>` must fit (ids up to 250 in practice)."""

# Asset ids become file names (`assets/<id>.<ext>`), so the studio accepts a portable subset:
# ASCII letters, digits, `_`, `-` and inner dots (never leading or trailing: Windows drops a
# trailing dot), and no Windows device name (`con`, `nul`, `com1`...).
_ID_RE = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?")
_DEVICE_NAMES = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?", re.IGNORECASE)

EXTENSIONS: dict[str, str] = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "webp": "image/webp",
    "ttf": "font/ttf",
    "otf": "font/otf",
}
CANONICAL_EXT: dict[str, str] = {
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/webp": "webp",
    "font/ttf": "ttf",
    "font/otf": "otf",
}


class AssetError(ValueError):
    """An asset that the contract refuses; the message names the asset."""


@dataclass(frozen=True)
class Asset:
    """One asset: its id (as a spec names it), its MIME type (from its bytes) and its bytes."""

    id: str
    mime: str
    data: bytes

    @property
    def file_name(self) -> str:
        return f"{self.id}.{CANONICAL_EXT[self.mime]}"


def sniff(data: bytes) -> str | None:
    """The MIME type the bytes' signature says, or None when it is no allowed type."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[:4] in (b"\x00\x01\x00\x00", b"true"):
        return "font/ttf"
    if data[:4] == b"OTTO":
        return "font/otf"
    return None


def is_font(mime: str) -> bool:
    return mime.startswith("font/")


def check_id(asset_id: str, ext: str = "webp") -> None:
    """Refuse an id the contract or the file system cannot hold."""
    if not 1 <= len(asset_id) <= MAX_ASSET_ID_LENGTH:
        raise AssetError(f"asset id must be 1..{MAX_ASSET_ID_LENGTH} characters ({len(asset_id)})")
    if not _ID_RE.fullmatch(asset_id) or ".." in asset_id:
        raise AssetError(
            f"asset id {asset_id!r}: use letters, digits, '_', '-' and inner dots only"
        )
    if _DEVICE_NAMES.fullmatch(asset_id):
        raise AssetError(f"asset id {asset_id!r} is a reserved device name on Windows")
    if len(f"{asset_id}.{ext}".encode()) > MAX_FILE_NAME_BYTES:
        raise AssetError(f"asset id {asset_id[:40]!r}...: too long for a file name")


def check_asset(asset_id: str, data: bytes, ext: str | None = None) -> Asset:
    """One asset checked: id, type by signature (matching `ext` when given), size by type."""
    mime = sniff(data)
    if mime is None:
        raise AssetError(f"asset {asset_id!r} is not a PNG, JPEG, WebP, TTF or OTF file")
    if ext is not None:
        declared = EXTENSIONS.get(ext.lower())
        if declared is None:
            raise AssetError(f"asset {asset_id!r}: extension .{ext} is not allowed")
        # .otf files with TrueType outlines are common: a font extension accepts either font.
        if declared != mime and not (is_font(declared) and is_font(mime)):
            raise AssetError(f"asset {asset_id!r}: .{ext} file holds {mime}, not {declared}")
    check_id(asset_id, CANONICAL_EXT[mime])
    limit = MAX_FONT_BYTES if is_font(mime) else MAX_ASSET_BYTES
    if len(data) > limit:
        raise AssetError(f"asset {asset_id!r} is {len(data)} bytes; {mime} allows {limit}")
    return Asset(asset_id, mime, data)


def check_assets(assets: Mapping[str, bytes]) -> dict[str, Asset]:
    """A set of assets checked as a whole: each asset, then the count and the total size."""
    if len(assets) > MAX_ASSET_COUNT:
        raise AssetError(f"{len(assets)} assets; at most {MAX_ASSET_COUNT} are allowed")
    checked = {asset_id: check_asset(asset_id, data) for asset_id, data in assets.items()}
    folded: dict[str, str] = {}
    for asset_id in checked:
        other = folded.setdefault(asset_id.casefold(), asset_id)
        if other != asset_id:  # one file on a case-insensitive disk
            raise AssetError(f"asset ids {other!r} and {asset_id!r} differ only in case")
    total = sum(len(a.data) for a in checked.values())
    if total > MAX_ASSET_TOTAL_BYTES:
        raise AssetError(f"assets total {total} bytes; at most {MAX_ASSET_TOTAL_BYTES} allowed")
    return checked
