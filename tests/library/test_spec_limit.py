"""A spec the validator accepts is never refused by the library that stored it (issue 17.1,
research F1): at the byte limit, through every path that saves a spec (file import, paste,
an editor save, an applied agent draft), the prototype stays listed, loads back the same,
exports and validates as a file. The library stores 2-space indented JSON when that fits the
limit, else exactly the compact `JSON.stringify` bytes the validator counted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.agent.draft import Draft
from studio.cli import main
from studio.document import Document
from studio.library.errors import InvalidSpec
from studio.library.store import Library
from studio.spec.io import spec_file_bytes
from studio.spec.rules import MAX_SPEC_BYTES
from studio.spec.size import measure
from studio.spec.validator import validate
from tests.helpers.hostile import near_limit_spec


@pytest.fixture
def library(_isolated_home: Path) -> Library:
    return Library()


def _kept(library: Library, entry_id: str, spec: dict[str, Any]) -> None:
    """What a user would check after a restart: listed, no problems, the same spec, exportable."""
    reopened = Library(library.folder.parent)
    assert [e.id for e in reopened.list_entries()] == [entry_id]
    assert reopened.problems == []
    assert reopened.load_spec(entry_id) == spec
    stored = (reopened.folder / entry_id / "spec.json").read_bytes()
    assert len(stored) <= MAX_SPEC_BYTES
    assert validate(stored).ok, "the stored file is itself a valid spec file"
    # Exported as a bundle, it imports into another library as the same spec.
    bundle = library.folder.parent / f"{entry_id}.protobundle"
    reopened.export_bundle(entry_id, bundle)
    other = Library(library.folder.parent / "other")
    assert other.load_spec(other.import_bundle(bundle).id) == spec


def test_the_limit_case_is_over_the_limit_when_indented() -> None:
    spec = near_limit_spec()
    assert validate(spec).ok
    assert measure(spec, exact=True).bytes == 999_095
    assert len(json.dumps(spec, indent=2).encode()) > MAX_SPEC_BYTES


@pytest.mark.parametrize("size", [999_095, MAX_SPEC_BYTES])
def test_stored_bytes_are_what_the_validator_counted(size: int) -> None:
    spec = near_limit_spec(size)
    data = spec_file_bytes(spec)
    assert len(data) == measure(spec, exact=True).bytes == size
    assert json.loads(data) == spec
    assert validate(data).ok
    small = near_limit_spec(400_000)
    assert spec_file_bytes(small).startswith(b'{\n  "id"'), "readable when it fits"


def test_import_of_a_minified_file(library: Library, tmp_path: Path) -> None:
    spec = near_limit_spec()
    path = tmp_path / "minified.json"
    path.write_text(json.dumps(spec, separators=(",", ":")), encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    entry = library.import_spec_file(path)
    _kept(library, entry.id, spec)


def test_paste(library: Library) -> None:
    spec = near_limit_spec(MAX_SPEC_BYTES)
    entry = library.import_spec_text(json.dumps(spec, separators=(",", ":")))
    _kept(library, entry.id, spec)


def test_editor_save(library: Library) -> None:
    small = near_limit_spec(500_000)
    entry = library.create("Big", small, "file")
    document = Document(small, name="Big", entry_id=entry.id)
    spec = near_limit_spec()
    document.replace_spec(spec, summary="grow")  # what the inspector's whole-spec edit does
    document.apply_ops([{"op": "add", "path": "/state", "value": {"x": 1}}])
    assert validate(document.spec).ok
    library.save_revisions(entry.id, document.revisions)  # what the studio saves, in this order
    library.save_spec(entry.id, document.spec)
    _kept(library, entry.id, document.spec)
    log = Library(library.folder.parent).load_revisions(entry.id)
    assert log is not None and log.current == document.spec


def test_agent_draft_apply(library: Library) -> None:
    base = near_limit_spec(999_000)
    entry = library.create("Big", base, "file")
    draft = Draft(base)
    filler = "y" * (MAX_SPEC_BYTES - measure(base, exact=True).bytes - len(',"state":{"s":""}'))
    draft.patch([{"op": "add", "path": "/state", "value": {"s": filler}}], "fill to the limit")
    applied = draft.apply()
    assert measure(applied, exact=True).bytes == MAX_SPEC_BYTES
    document = Document(base, name="Big", entry_id=entry.id)
    document.push_revision(draft.revisions[-1])
    library.save_spec(entry.id, document.spec)
    _kept(library, entry.id, applied)


def test_one_byte_over_is_refused_and_nothing_is_written(library: Library) -> None:
    spec = near_limit_spec(MAX_SPEC_BYTES)
    entry = library.create("Big", near_limit_spec(400_000), "file")
    before = (library.folder / entry.id / "spec.json").read_bytes()
    spec["root"]["children"][-1]["text"] += "x"
    with pytest.raises(InvalidSpec, match=r"^Big: \$: Spec byte limit exceeded$"):
        library.save_spec(entry.id, spec)
    assert (library.folder / entry.id / "spec.json").read_bytes() == before
