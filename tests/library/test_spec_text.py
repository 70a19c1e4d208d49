"""The library reads spec text as the validator does, so importing a file (or pasting its text)
and `proto-studio validate` on it give one verdict (research F10.5), and what the library would
fail to write is refused before anything is written (F9's validator part: a lone surrogate)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.library.errors import LibraryError
from studio.library.store import Library
from studio.spec.validator import validate
from tests.library.helpers import spec, tree


@pytest.fixture
def library(_isolated_home: Path) -> Library:
    return Library()


def _file(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "spec.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_a_lone_surrogate_is_refused_where_it_is_and_nothing_is_written(
    library: Library, tmp_path: Path
) -> None:
    text = json.dumps(spec(id="vari\ud800nts"))  # the escape, as a model or a broken file sends
    # Each path names the place and the character (the library's own storability check may
    # word it before the validator does).
    with pytest.raises(LibraryError, match=r"^spec.json: id: .*U\+D800"):
        library.import_spec_file(_file(tmp_path, text))
    with pytest.raises(LibraryError, match=r"^pasted text: id: .*U\+D800"):
        library.import_spec_text(text)
    with pytest.raises(LibraryError, match=r"^Made: id: .*U\+D800"):
        library.create("Made", spec(id="vari\ud800nts"), "paste")
    entry = library.create("Kept", spec(), "paste")
    with pytest.raises(LibraryError, match=r"^Kept: id: .*U\+DFFF"):
        library.save_spec(entry.id, spec(id="x\udfff"))
    assert library.load_spec(entry.id) == spec()
    assert {k for k in tree(library.folder) if ".tmp-" in k} == set(), "no staging left"
    assert [e.name for e in Library().list_entries()] == ["Kept"]
    assert main(["validate", str(tmp_path / "spec.json")]) == 1


def test_duplicate_keys_and_a_bom_get_the_validators_verdict(
    library: Library, tmp_path: Path
) -> None:
    duplicated = json.dumps(spec())[:-1] + ', "id": "second"}'
    path = _file(tmp_path, duplicated)
    assert main(["validate", str(path)]) == 0
    entry = library.import_spec_file(path)
    assert library.load_spec(entry.id)["id"] == "second", "the last value, as AutoMobile reads it"
    bom = _file(tmp_path, b"\xef\xbb\xbf" + json.dumps(spec()).encode())
    assert main(["validate", str(bom)]) == 1
    with pytest.raises(LibraryError, match="byte order mark"):
        library.import_spec_file(bom)


def test_huge_numbers_are_refused_at_their_path(library: Library, tmp_path: Path) -> None:
    text = json.dumps(spec())[:-1] + ', "data": {"n": ' + "9" * 5000 + "}}"
    with pytest.raises(LibraryError, match=r"^spec.json: data.n: "):
        library.import_spec_file(_file(tmp_path, text))
    assert str(validate(text)) == "data.n: Invalid number value"
