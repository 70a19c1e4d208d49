"""Lone surrogates (failures.md F9): every import and write path refuses them in one line naming
the place, and leaves the library exactly as it was (no staging folder, no index change)."""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.library.bundle import read_bundle
from studio.library.errors import LibraryError
from studio.library.revisions import Revision, RevisionLog
from studio.library.store import Library
from tests.library.helpers import good_entries, make_zip, manifest, png, spec, tree

LONE = "\ud800"


@pytest.fixture
def library(_isolated_home: Path) -> Library:
    lib = Library()
    lib.create("Existing", spec(), "file", {"logo": png()})
    return lib


def _surrogate_spec() -> dict[str, Any]:
    bad = spec()
    bad["root"]["children"][0]["text"] = f"Count{LONE}: {{count}}"
    return bad


def _check_one_line(exc: BaseException, *parts: str) -> None:
    message = str(exc)
    assert "\n" not in message
    message.encode("utf-8")  # the message itself can be printed and logged
    for part in parts:
        assert part in message, message


def _unchanged(library: Library, before: dict[str, bytes]) -> None:
    assert tree(library.folder) == before
    assert [p.name for p in library.folder.iterdir() if ".tmp-" in p.name] == []
    assert Library(library.folder.parent).problems == []


def test_spec_file_with_a_lone_surrogate_names_the_field(library: Library, tmp_path: Path) -> None:
    # The exact reproduction of F9: the escape `\ud800` in a file, imported as a file.
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(_surrogate_spec()), encoding="ascii")
    before = tree(library.folder)
    with pytest.raises(LibraryError) as info:
        library.import_spec_file(path)
    _check_one_line(info.value, "surrogate.json", "root.children[0].text", "U+D800")
    _unchanged(library, before)


def test_spec_id_with_a_lone_surrogate(library: Library, tmp_path: Path) -> None:
    path = tmp_path / "id.json"
    path.write_text(json.dumps(spec(id=f"vari{LONE}nts")), encoding="ascii")
    before = tree(library.folder)
    with pytest.raises(LibraryError) as info:
        library.import_spec_file(path)
    _check_one_line(info.value, "id.json")
    _unchanged(library, before)


def test_pasted_text_with_a_lone_surrogate(library: Library) -> None:
    before = tree(library.folder)
    with pytest.raises(LibraryError) as info:
        library.import_spec_text(json.dumps(_surrogate_spec()))
    _check_one_line(info.value, "pasted text", "root.children[0].text")
    _unchanged(library, before)


def test_a_key_with_a_lone_surrogate_is_named_escaped(library: Library) -> None:
    bad = spec()
    bad["state"] = {"count": 0, "name": "", f"k{LONE}": 1}
    before = tree(library.folder)
    with pytest.raises(LibraryError) as info:
        library.create("Keys", bad, "paste")
    _check_one_line(info.value, "Keys")
    assert "\\ud800" in str(info.value)
    _unchanged(library, before)


def _bundle(**files: bytes) -> bytes:
    return make_zip(good_entries(**files))


BUNDLES: dict[str, tuple[Callable[[], bytes], tuple[str, ...]]] = {
    "spec text": (
        lambda: _bundle(**{"spec.json": json.dumps(_surrogate_spec()).encode()}),
        ("spec.json", "root.children[0].text", "U+D800"),
    ),
    "manifest name": (
        lambda: _bundle(**{"manifest.json": manifest(name=f"Coun{LONE}ter")}),
        ("manifest.json", "name", "U+D800"),
    ),
    "manifest id and spec id": (
        lambda: _bundle(
            **{
                "manifest.json": manifest(id=f"c{LONE}"),
                "spec.json": json.dumps(spec(id=f"c{LONE}")).encode(),
            }
        ),
        ("manifest.json",),
    ),
    "manifest createdBy": (
        lambda: _bundle(**{"manifest.json": manifest(createdBy=f"x{LONE}")}),
        ("manifest.json", "createdBy"),
    ),
    "asset name (UTF-8 bytes of a surrogate)": (
        lambda: _raw_asset_name(b"assets/lo\xed\xa0\x80o.png"),
        ("entry name", "not UTF-8"),
    ),
}


def _raw_asset_name(raw: bytes) -> bytes:
    """A bundle whose asset entry name is `raw` (flagged UTF-8), patched into both headers."""
    placeholder = b"assets/" + b"x" * (len(raw) - len(b"assets/.png")) + b".png"
    assert len(placeholder) == len(raw)
    data = make_zip([*good_entries()[:2], (placeholder.decode(), png())], method=zipfile.ZIP_STORED)
    patched = bytearray(data.replace(placeholder, raw))
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        pos = patched.find(signature)
        while pos >= 0:
            patched[pos + flag_at] |= 0x00  # low byte untouched
            patched[pos + flag_at + 1] |= 0x08  # bit 11: the name is UTF-8
            pos = patched.find(signature, pos + 4)
    return bytes(patched)


@pytest.mark.parametrize("case", sorted(BUNDLES))
def test_bundle_with_a_lone_surrogate_is_refused_and_leaves_nothing(
    case: str, library: Library, tmp_path: Path
) -> None:
    build, parts = BUNDLES[case]
    path = tmp_path / "hostile.protobundle"
    path.write_bytes(build())
    before = tree(library.folder)
    for importer in (library.import_bundle, library.import_spec_file):
        with pytest.raises(LibraryError) as info:
            importer(path)
        _check_one_line(info.value, "hostile.protobundle", *parts)
        _unchanged(library, before)
    with pytest.raises(LibraryError):
        read_bundle(path.read_bytes())


def test_every_write_path_refuses_a_lone_surrogate_in_one_line(library: Library) -> None:
    entry = library.list_entries()[0]
    before = tree(library.folder)
    bad = _surrogate_spec()
    attempts: dict[str, Callable[[], object]] = {
        "create (name)": lambda: library.create(f"A{LONE}", spec(), "paste"),
        "create (spec)": lambda: library.create("A", bad, "paste"),
        "save_spec": lambda: library.save_spec(entry.id, bad),
        "rename": lambda: library.rename(entry.id, f"B{LONE}"),
        "duplicate (name)": lambda: library.duplicate(entry.id, f"C{LONE}"),
        "save_revisions (current)": lambda: library.save_revisions(entry.id, RevisionLog(bad)),
        "save_revisions (summary)": lambda: library.save_revisions(
            entry.id, _log_with(Revision(spec(), "agent", f"s{LONE}"))
        ),
        "save_revisions (instruction)": lambda: library.save_revisions(
            entry.id, _log_with(Revision(spec(), "agent", "s", instruction=f"i{LONE}"))
        ),
    }
    for label, attempt in attempts.items():
        with pytest.raises(LibraryError) as info:
            attempt()
        _check_one_line(info.value, "U+D800")
        assert tree(library.folder) == before, label
    _unchanged(library, before)


def test_an_index_unknown_field_holding_a_surrogate_cannot_wedge_the_library(
    library: Library,
) -> None:
    # A hand-edited library.json with the escape "\ud800" in a field this build does not know:
    # the library still opens, and every later write keeps the field (written escaped).
    index = json.loads((library.folder / "library.json").read_text())
    index["entries"][0]["note"] = LONE
    (library.folder / "library.json").write_text(json.dumps(index), encoding="ascii")
    reopened = Library(library.folder.parent)
    entry = reopened.list_entries()[0]
    reopened.rename(entry.id, "Renamed")
    again = Library(library.folder.parent)
    assert again.get(entry.id).name == "Renamed"
    assert again.get(entry.id).get("note") == LONE


def test_a_file_name_that_is_not_utf8_still_imports(library: Library, tmp_path: Path) -> None:
    # On Linux, a name's undecodable bytes come back as lone surrogates (surrogateescape).
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9.json"))
    odd.write_text(json.dumps(spec(id="cafe")))
    entry = library.import_spec_file(odd)
    assert entry.name == "caf\ufffd"
    assert entry.get("importedFrom") == str(odd.resolve())  # kept exactly, escaped in the file
    reopened = Library(library.folder.parent)
    assert reopened.problems == []
    assert reopened.get(entry.id).get("importedFrom") == str(odd.resolve())
    assert library.import_spec_file(odd).id == entry.id  # the same file opens its entry again


def test_extra_fields_json_cannot_hold_are_refused(library: Library) -> None:
    before = tree(library.folder)
    with pytest.raises(LibraryError) as info:
        library.create("A", spec(), "paste", extra={"note": float("nan")})
    _check_one_line(info.value, "A: library.json", "note", "nan")
    _unchanged(library, before)


def _log_with(revision: Revision) -> RevisionLog:
    log = RevisionLog(spec())
    log.push(revision)
    return log
