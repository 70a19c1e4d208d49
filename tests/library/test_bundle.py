"""The `.protobundle` format: hostile zips are refused in one line and nothing is written."""

from __future__ import annotations

import io
import json
import os
import stat
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.library.bundle import bundle_bytes, read_bundle
from studio.library.errors import BundleError
from studio.library.revisions import Revision, RevisionLog
from studio.library.store import Library
from tests.library.helpers import (
    ELF,
    JPEG,
    SPEC,
    TTF,
    good_entries,
    make_zip,
    manifest,
    patch_central_sizes,
    png,
    spec,
    tree,
)


@pytest.fixture
def library(_isolated_home: Path) -> Library:
    lib = Library()
    lib.create("Existing", spec(), "file")
    return lib


def _bomb_asset(size: int = 3 * 1024 * 1024) -> bytes:
    return png()[:8] + b"\x00" * size


def _noise(size: int) -> bytes:
    """Bytes that deflate poorly (about 2:1), so only a size cap can stop them."""
    return os.urandom(size).translate(bytes(range(16)) * 16)


HOSTILE: dict[str, tuple[Callable[[], bytes], str]] = {
    "zip slip ../": (
        lambda: make_zip([*good_entries(), ("../x", b"owned")]),
        "entry '../x': path escapes the bundle",
    ),
    "zip slip nested ..": (
        lambda: make_zip([*good_entries(), ("assets/../../x.png", png())]),
        "path escapes the bundle",
    ),
    "absolute /x": (
        lambda: make_zip([*good_entries(), ("/x", b"owned")]),
        "entry '/x': absolute path",
    ),
    "windows C:\\x": (
        lambda: make_zip([*good_entries(), ("C:\\x", b"owned")]),
        "backslash in the name",
    ),
    "windows C:/x": (
        lambda: make_zip([*good_entries(), ("C:/x", b"owned")]),
        "absolute path",
    ),
    "symlink": (
        lambda: make_zip(
            [*good_entries()[:2], ("assets/logo.png", b"/etc/passwd", stat.S_IFLNK | 0o777)]
        ),
        "entry 'assets/logo.png': symbolic link",
    ),
    "zip bomb (ratio)": (
        lambda: make_zip(good_entries(**{"assets/logo.png": _bomb_asset()})),
        "compression ratio above 100:1 (zip bomb?)",
    ),
    "zip bomb (lying header)": (
        lambda: patch_central_sizes(
            make_zip(good_entries(**{"assets/logo.png": _bomb_asset()})),
            "assets/logo.png",
            file_size=200_000,
        ),
        "compression ratio above 100:1 while inflating",
    ),
    "size beyond a lying header": (
        lambda: patch_central_sizes(
            make_zip(good_entries(**{"assets/logo.png": png()[:8] + _noise(5 * 1024 * 1024)})),
            "assets/logo.png",
            file_size=1000,
        ),
        "more than 4194304 bytes",
    ),
    "duplicate names": (
        lambda: make_zip([*good_entries(), ("spec.json", json.dumps(SPEC).encode())]),
        "entry 'spec.json': duplicate name",
    ),
    "duplicate names by case": (
        lambda: make_zip([*good_entries(), ("assets/LOGO.png", png())]),
        "differs only in case",
    ),
    "too many entries": (
        lambda: make_zip([*good_entries(), *((f"assets/a{i}.png", png()) for i in range(62))]),
        "65 entries; a bundle has at most 64",
    ),
    "oversize in all (headers)": (
        lambda: _oversize(declared=4_000_000, data=lambda: png()[:8] + os.urandom(50_000)),
        "28000432 bytes uncompressed; at most 25165824",
    ),
    "oversize in all (lying headers)": (
        # 7 x 4 MB inflating at about 92:1 (under the ratio cap), each header saying 1 MB: the
        # real size is counted while inflating and the lie is caught at the first entry
        lambda: _oversize(declared=1_000_000, data=lambda: png()[:8] + os.urandom(16384) * 244),
        "entry 'assets/big0.png': 3997704 bytes, its header says 1000000",
    ),
    "a .png that is not a PNG": (
        lambda: make_zip(good_entries(**{"assets/logo.png": JPEG})),
        "assets/logo.png: asset 'logo': .png file holds image/jpeg, not image/png",
    ),
    "an executable with an image name": (
        lambda: make_zip(good_entries(**{"assets/logo.png": ELF})),
        "is not a PNG, JPEG, WebP, TTF or OTF file",
    ),
    "an executable by name": (
        lambda: make_zip([*good_entries(), ("assets/run.exe", ELF)]),
        "entry 'assets/run.exe': not allowed in a bundle",
    ),
    "an unexpected file": (
        lambda: make_zip([*good_entries(), ("drafts.json", b"{}")]),
        "entry 'drafts.json': not allowed in a bundle",
    ),
    "a folder other than assets/": (
        lambda: make_zip([*good_entries(), ("assets/fonts/", b"")]),
        "unexpected folder",
    ),
    "a font too large": (
        lambda: make_zip(good_entries(**{"assets/font.ttf": TTF + _noise(2_200_000)})),
        "font/ttf allows 2097152",
    ),
    "manifest not JSON": (
        lambda: make_zip(good_entries(**{"manifest.json": b"{format: 1"})),
        "manifest.json: not JSON",
    ),
    "manifest from a newer format": (
        lambda: make_zip(good_entries(**{"manifest.json": manifest(format=2)})),
        "bundle format 2 is newer than this studio reads (1)",
    ),
    "manifest without a name": (
        lambda: make_zip(good_entries(**{"manifest.json": manifest(name=None)})),
        "manifest.json name must be a non-empty string",
    ),
    "manifest missing": (
        lambda: make_zip(good_entries()[1:]),
        "manifest.json is missing",
    ),
    "manifest id differs from the spec": (
        lambda: make_zip(good_entries(**{"manifest.json": manifest(id="other")})),
        "manifest.json id 'other' differs from spec.json id 'counter'",
    ),
    "invalid spec": (
        lambda: make_zip(
            good_entries(**{"spec.json": json.dumps(spec(root={"type": "nope"})).encode()})
        ),
        "spec.json: root.type: ",
    ),
    "spec with duplicate keys": (
        lambda: make_zip(good_entries(**{"spec.json": b'{"id": "a", "id": "b"}'})),
        "spec.json: not JSON (duplicate key 'id')",
    ),
    "not a zip": (lambda: b"PK\x03\x04 this is not really a zip", "not a zip file"),
    "damaged deflate data": (
        lambda: _damaged(
            make_zip(good_entries(**{"assets/logo.png": png() + os.urandom(300_000)}))
        ),
        "entry 'assets/logo.png': bad CRC-32",
    ),
    "invalid deflate stream": (
        lambda: _bad_stream(make_zip(good_entries(**{"assets/logo.png": png() * 800}))),
        "damaged zip (Error -3 while decompressing data: invalid block type)",
    ),
    "encrypted entry": (
        lambda: _encrypted(make_zip(good_entries())),
        "encrypted",
    ),
}


def _oversize(declared: int, data: Callable[[], bytes]) -> bytes:
    names = [f"assets/big{i}.png" for i in range(7)]
    zipped = make_zip([*good_entries(), *((name, data()) for name in names)])
    for name in names:
        zipped = patch_central_sizes(zipped, name, file_size=declared)
    return zipped


def _damaged(data: bytes) -> bytes:
    """Overwrite the middle of the (largest) entry's compressed bytes with garbage."""
    raw = bytearray(data)
    middle = len(raw) // 2
    raw[middle : middle + 64] = b"\xff" * 64
    return bytes(raw)


def _bad_stream(data: bytes, name: str = "assets/logo.png") -> bytes:
    """Make the entry's first deflate block header invalid (block type 3)."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo(name)
    raw = bytearray(data)
    name_len, extra_len = struct.unpack_from("<HH", raw, info.header_offset + 26)
    raw[info.header_offset + 30 + name_len + extra_len] = 0xFF
    return bytes(raw)


def _encrypted(data: bytes) -> bytes:
    raw = bytearray(data)
    pos = raw.find(b"PK\x01\x02")
    raw[pos + 8] |= 0x01  # general purpose flag bit 0 in the central directory
    return bytes(raw)


@pytest.mark.parametrize("case", list(HOSTILE), ids=list(HOSTILE))
def test_hostile_bundle_refused_and_nothing_written(
    case: str, library: Library, tmp_path: Path
) -> None:
    build, reason = HOSTILE[case]
    path = tmp_path / "hostile.protobundle"
    path.write_bytes(build())
    before = tree(library.folder)
    with pytest.raises(BundleError) as info:
        library.import_bundle(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("hostile.protobundle: ")
    assert reason in message
    assert tree(library.folder) == before
    assert [e.name for e in library.list_entries()] == ["Existing"]
    assert not (tmp_path / "x").exists() and not Path("/x").exists()


def test_a_good_bundle_built_by_hand_is_accepted(library: Library, tmp_path: Path) -> None:
    path = tmp_path / "good.protobundle"
    path.write_bytes(make_zip([*good_entries(), ("assets/", b""), ("assets/font.ttf", TTF)]))
    entry = library.import_bundle(path)
    assert (entry.name, entry.source) == ("Counter", "share")
    assert set(library.load_assets(entry.id)) == {"logo", "font"}


def test_round_trip_export_import(library: Library, tmp_path: Path) -> None:
    original = library.create("Logo demo", spec(), "generated", {"logo": png(), "photo": JPEG})
    log = RevisionLog(spec())
    log.push(Revision(spec(id="draft"), "agent", "secret plan", instruction="do not export me"))
    library.save_revisions(original.id, log)
    out = tmp_path / "demo.protobundle"
    library.export_bundle(original.id, out)

    with zipfile.ZipFile(out) as zf:
        assert zf.namelist() == [
            "manifest.json",
            "spec.json",
            "assets/logo.png",
            "assets/photo.jpg",
        ]
        assert json.loads(zf.read("manifest.json")) == {
            "format": 1,
            "id": "counter",
            "name": "Logo demo",
            "createdBy": "proto-studio",
        }
    assert b"do not export me" not in out.read_bytes()

    imported = library.import_bundle(out)
    assert imported.id != original.id
    # Imported next to its original: the name takes the next free number.
    assert (imported.name, imported.source) == ("Logo demo 2", "share")
    assert library.load_spec(imported.id) == library.load_spec(original.id)
    assets = {k: a.data for k, a in library.load_assets(imported.id).items()}
    assert assets == {"logo": png(), "photo": JPEG}
    assert library.load_revisions(imported.id) is None

    # deterministic: the same prototype always gives the same bytes
    again = tmp_path / "again.protobundle"
    library.rename(imported.id, "Logo demo")
    library.export_bundle(imported.id, again)
    assert again.read_bytes() == out.read_bytes()


def test_import_spec_file_dispatches_bundles(library: Library, tmp_path: Path) -> None:
    path = tmp_path / "shared.zip"
    path.write_bytes(make_zip(good_entries()))
    entry = library.import_spec_file(path)
    assert entry.source == "share"


def test_reader_accepts_its_writer(tmp_path: Path) -> None:
    data = bundle_bytes(spec(), "Name")
    bundle = read_bundle(data)
    assert bundle.spec == spec() and bundle.name == "Name" and bundle.assets == {}


def test_large_compressible_assets_round_trip(library: Library, tmp_path: Path) -> None:
    font = TTF + bytes(range(256)) * 7000  # 1.7 MiB deflating beyond 100:1: the writer stores it
    image = png()[:8] + os.urandom(8192) * 400  # 3.2 MiB stored as it is
    entry = library.create("Fonts", spec(), "file", {"face": font, "logo": image})
    out = tmp_path / "fonts.protobundle"
    library.export_bundle(entry.id, out)
    imported = library.import_bundle(out)
    assets = {k: a.data for k, a in library.load_assets(imported.id).items()}
    assert assets == {"face": font, "logo": image}
