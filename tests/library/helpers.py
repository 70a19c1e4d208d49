"""Builders for library tests: small valid specs, real image bytes, hand-made (hostile) zips."""

from __future__ import annotations

import copy
import io
import json
import stat
import struct
import warnings
import zipfile
import zlib
from pathlib import Path
from typing import Any

SPEC: dict[str, Any] = {
    "id": "counter",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"count": 0, "name": ""},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "text": "Count: {count}"},
            {"type": "textField", "stateKey": "name", "placeholder": "Name"},
            {"type": "image", "asset": "logo"},
        ],
    },
}


def spec(**changes: Any) -> dict[str, Any]:
    """A fresh copy of the valid test spec, top-level keys replaced by `changes`."""
    out = copy.deepcopy(SPEC)
    out.update(changes)
    return out


def png(width: int = 2, height: int = 2) -> bytes:
    """A real (decodable) RGB PNG."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    rows = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x00" * 64
TTF = b"\x00\x01\x00\x00\x00\x0a\x00\x80\x00\x03" + b"\x00" * 128
ELF = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 64


def manifest(**changes: Any) -> bytes:
    doc: dict[str, Any] = {"format": 1, "id": "counter", "name": "Counter", "createdBy": "test"}
    doc.update(changes)
    return json.dumps({k: v for k, v in doc.items() if v is not None}).encode()


def make_zip(
    entries: list[tuple[str, bytes] | tuple[str, bytes, int]],
    method: int = zipfile.ZIP_DEFLATED,
) -> bytes:
    """A zip with exactly these entries (names kept raw; optional Unix mode per entry)."""
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names; we want them
        with zipfile.ZipFile(buf, "w", method) as zf:
            for item in entries:
                name, data = item[0], item[1]
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = method
                info.create_system = 3
                mode = item[2] if len(item) == 3 else stat.S_IFREG | 0o644
                info.external_attr = mode << 16
                zf.writestr(info, data)
    return buf.getvalue()


def good_entries(**overrides: bytes) -> list[tuple[str, bytes] | tuple[str, bytes, int]]:
    files = {
        "manifest.json": manifest(),
        "spec.json": json.dumps(SPEC).encode(),
        "assets/logo.png": png(),
    }
    files.update(overrides)
    return list(files.items())


def patch_central_sizes(data: bytes, name: str, file_size: int | None = None) -> bytes:
    """Rewrite the central-directory uncompressed size of `name` (a lying header)."""
    raw = bytearray(data)
    target = name.encode()
    pos = 0
    while True:
        pos = raw.find(b"PK\x01\x02", pos)
        if pos < 0:
            raise AssertionError(f"{name} not in the central directory")
        name_len = struct.unpack_from("<H", raw, pos + 28)[0]
        if bytes(raw[pos + 46 : pos + 46 + name_len]) == target:
            if file_size is not None:
                struct.pack_into("<I", raw, pos + 24, file_size)
            return bytes(raw)
        pos += 4


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes (to prove nothing was written)."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }
