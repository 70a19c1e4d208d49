"""The on-disk library: entries, layout, trash, templates, unknown fields, damaged files."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from studio.library.errors import EntryNotFound, InvalidSpec, LibraryError
from studio.library.revisions import Revision, RevisionLog
from studio.library.store import Library
from studio.library.templates import list_templates
from tests.library.helpers import JPEG, png, spec, tree


@pytest.fixture
def library(_isolated_home: Path) -> Library:
    return Library()


def index_of(lib: Library) -> dict:
    return json.loads((lib.folder / "library.json").read_text())


def test_library_lives_under_proto_studio_home(_isolated_home: Path) -> None:
    lib = Library()
    entry = lib.create("Counter", spec(), "file", {"logo": png()})
    folder = _isolated_home / "library"
    assert lib.folder == folder
    assert (folder / "library.json").is_file()
    assert json.loads((folder / entry.id / "spec.json").read_text()) == spec()
    assert (folder / entry.id / "assets" / "logo.png").read_bytes() == png()


def test_create_list_get_and_index_fields(library: Library) -> None:
    a = library.create("  My   first prototype ", spec(), "paste")
    b = library.create("Second", spec(id="second"), "generated")
    assert [e.name for e in library.list_entries()] == ["My first prototype", "Second"]
    assert library.get(b.id).source == "generated"
    assert library.load_spec(a.id) == spec()
    record = index_of(library)["entries"][0]
    assert record["id"] == a.id and record["source"] == "paste"
    assert record["created"] == record["modified"] and record["created"].endswith("Z")
    assert record["thumbnail"] is None
    assert index_of(library)["format"] == 1
    # a second instance reads the same library back
    again = Library()
    assert [e.id for e in again.list_entries()] == [a.id, b.id]
    assert again.problems == []


def test_invalid_spec_is_refused_with_path_and_nothing_written(library: Library) -> None:
    library.create("Keep", spec(), "file")
    before = tree(library.folder)
    bad = spec()
    bad["root"]["children"][1]["stateKey"] = "count"  # a textField bound to a number
    with pytest.raises(InvalidSpec) as info:
        library.create("Bad", bad, "file")
    message = str(info.value)
    assert "\n" not in message
    assert info.value.path == "root.children[1].stateKey"
    assert message.startswith("Bad: root.children[1].stateKey: ")
    assert tree(library.folder) == before


def test_unknown_source_and_empty_name_refused(library: Library) -> None:
    with pytest.raises(LibraryError, match="unknown source"):
        library.create("X", spec(), "ftp")
    with pytest.raises(LibraryError, match="empty"):
        library.create("   ", spec(), "file")
    assert library.list_entries() == []


def test_bad_asset_refused(library: Library) -> None:
    with pytest.raises(LibraryError, match="'logo'"):
        library.create("X", spec(), "file", {"logo": b"not an image at all"})
    with pytest.raises(LibraryError, match="at most 32"):
        library.create("X", spec(), "file", {f"a{i}": png() for i in range(33)})
    assert library.list_entries() == []
    assert [p.name for p in library.folder.iterdir()] == ["library.lock"]


def test_save_spec_validates_and_updates_modified(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    changed = spec(state={"count": 5, "name": "x"})
    saved = library.save_spec(entry.id, changed)
    assert library.load_spec(entry.id) == changed
    assert saved.modified >= entry.modified and saved.created == entry.created
    with pytest.raises(InvalidSpec, match=r"^Counter: root: Required property"):
        library.save_spec(entry.id, {"id": "x", "window": {"placement": {"type": "fullscreen"}}})
    assert library.load_spec(entry.id) == changed


def test_rename_duplicate_delete_restore(library: Library) -> None:
    entry = library.create("Counter", spec(), "file", {"logo": png(), "photo": JPEG})
    library.set_thumbnail(entry.id, png(4, 4))
    revisions = RevisionLog(spec())
    revisions.push(Revision(spec(id="edited"), "user", "edit"))
    library.save_revisions(entry.id, revisions)

    renamed = library.rename(entry.id, "Tally")
    assert library.get(entry.id).name == "Tally" == renamed.name

    copy = library.duplicate(entry.id)
    assert copy.id != entry.id and copy.name == "Tally copy"
    assert library.load_spec(copy.id) == spec()
    assert {a: x.data for a, x in library.load_assets(copy.id).items()} == {
        "logo": png(),
        "photo": JPEG,
    }
    assert library.thumbnail_path(copy.id) is not None
    assert library.load_revisions(copy.id) is None  # drafts are not copied
    assert library.duplicate(entry.id).name == "Tally copy 2"

    library.delete(entry.id)
    assert entry.id not in [e.id for e in library.list_entries()]
    assert [e.id for e in library.trashed()] == [entry.id]
    assert not (library.folder / entry.id).exists()
    assert not library.draft_path(entry.id).exists()
    with pytest.raises(EntryNotFound):
        library.load_spec(entry.id)
    # the trash survives a restart
    lib2 = Library()
    restored = lib2.restore(entry.id)
    assert restored.name == "Tally" and restored.deleted is None
    assert lib2.load_spec(entry.id) == spec()
    log = lib2.load_revisions(entry.id)
    assert log is not None and log.current == spec(id="edited")
    assert lib2.trashed() == []
    with pytest.raises(EntryNotFound):
        lib2.restore(entry.id)


def test_purge_deletes_for_good(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    library.delete(entry.id)
    library.purge(entry.id)
    assert library.trashed() == []
    assert not (library.trash_folder / entry.id).exists()
    with pytest.raises(EntryNotFound):
        library.restore(entry.id)


def test_thumbnail_must_be_png(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    with pytest.raises(LibraryError, match="PNG"):
        library.set_thumbnail(entry.id, JPEG)
    assert library.thumbnail_path(entry.id) is None
    library.set_thumbnail(entry.id, png())
    assert library.get(entry.id).thumbnail == "thumbnail.png"
    path = library.thumbnail_path(entry.id)
    assert path is not None and path.read_bytes() == png()


def test_revisions_round_trip_in_a_sibling_file(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    assert library.load_revisions(entry.id) is None
    log = RevisionLog(spec())
    log.push(Revision(spec(state={"count": 1, "name": ""}), "agent", "one", instruction="add one"))
    log.push(Revision(spec(state={"count": 2, "name": ""}), "user", "two"))
    log.undo()
    library.save_revisions(entry.id, log)
    draft = library.folder / f"{entry.id}.draft.json"
    assert draft.is_file() and json.loads(draft.read_text())["id"] == entry.id
    loaded = Library().load_revisions(entry.id)
    assert loaded is not None
    assert loaded.cursor == 1 and len(loaded.revisions) == 2
    assert loaded.current == spec(state={"count": 1, "name": ""})
    assert loaded.revisions[0].instruction == "add one"
    bad = RevisionLog(spec())
    bad.push(Revision({"id": "x"}, "agent", "broken"))
    with pytest.raises(InvalidSpec):
        library.save_revisions(entry.id, bad)
    assert library.load_revisions(entry.id) is not None


def test_first_launch_templates_once_and_not_after_delete(library: Library) -> None:
    added = library.ensure_templates()
    shipped = list_templates()
    assert [e.name for e in added] == [t.name for t in shipped]
    assert len(added) == 5
    assert {e.source for e in library.list_entries()} == {"template"}
    assert {e.get("template") for e in added} == {t.id for t in shipped}
    assert library.ensure_templates() == []
    settings = next(e for e in added if e.get("template") == "settings")
    library.delete(settings.id)
    library.purge(settings.id)
    again = Library()
    assert again.ensure_templates() == []
    assert len(again.list_entries()) == 4
    assert index_of(again)["seededTemplates"] == [t.id for t in shipped]


def test_unknown_fields_preserved(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    doc = index_of(library)
    doc["syncState"] = {"cursor": 42}
    doc["entries"][0]["color"] = "teal"
    doc["entries"][0]["pinned"] = True
    (library.folder / "library.json").write_text(json.dumps(doc))
    lib = Library()
    assert lib.get(entry.id).get("color") == "teal"
    lib.rename(entry.id, "Renamed")
    lib.save_spec(entry.id, spec(id="other"))
    after = index_of(lib)
    assert after["syncState"] == {"cursor": 42}
    assert after["entries"][0]["color"] == "teal" and after["entries"][0]["pinned"] is True
    assert after["entries"][0]["name"] == "Renamed"


def test_newer_format_read_without_loss_and_not_downgraded(
    library: Library, caplog: pytest.LogCaptureFixture
) -> None:
    entry = library.create("Counter", spec(), "file")
    doc = index_of(library)
    doc["format"] = 7
    doc["collections"] = [{"name": "Work", "ids": [entry.id]}]
    future = {"id": "f00f00f00f00", "name": "From the future", "source": "cloud", "v7": [1, 2]}
    doc["entries"].append(future)
    (library.folder / "library.json").write_text(json.dumps(doc))
    with caplog.at_level(logging.WARNING, logger="studio.library.store"):
        lib = Library()
    assert [e.id for e in lib.list_entries()] == [entry.id]
    assert any("unknown source 'cloud'" in p for p in lib.problems)
    assert any("cloud" in r.getMessage() for r in caplog.records)
    assert lib.format == 7
    lib.rename(entry.id, "Still works")
    lib.create("New", spec(), "file")
    after = index_of(lib)
    assert after["format"] == 7
    assert after["collections"] == [{"name": "Work", "ids": [entry.id]}]
    assert future in after["entries"]


def test_corrupt_entry_skipped_with_warning(
    library: Library, caplog: pytest.LogCaptureFixture
) -> None:
    good = library.create("Good", spec(), "file")
    broken = library.create("Broken", spec(), "file")
    missing = library.create("Missing", spec(), "file")
    (library.folder / broken.id / "spec.json").write_text('{"id": "x", ')
    (library.folder / missing.id / "spec.json").unlink()
    with caplog.at_level(logging.WARNING, logger="studio.library.store"):
        lib = Library()
    assert [e.id for e in lib.list_entries()] == [good.id]
    assert len(lib.problems) == 2
    assert any("Broken" in p and "Invalid JSON" in p for p in lib.problems)
    assert any("Missing" in p and "missing" in p for p in lib.problems)
    assert all("\n" not in p for p in lib.problems)
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 2
    with pytest.raises(LibraryError, match="Invalid JSON"):
        lib.load_spec(broken.id)
    # still in the index (not silently dropped) and can be deleted
    lib.create("Another", spec(), "file")
    assert broken.id in {e["id"] for e in index_of(lib)["entries"]}
    lib.delete(broken.id)
    assert [e.id for e in lib.trashed()] == [broken.id]


@pytest.mark.expected_log(r"library\.json: not JSON .*rebuilt", logger="studio.library.store")
@pytest.mark.expected_log("not in library.json; recovered as", logger="studio.library.store")
def test_corrupt_index_rebuilt_from_folders(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    (library.folder / "library.json").write_text("{ definitely not json")
    lib = Library()
    assert [e.id for e in lib.list_entries()] == [entry.id]
    assert lib.load_spec(entry.id) == spec()
    assert any("library.json" in p and "rebuilt" in p for p in lib.problems)
    assert list(lib.folder.glob("library.json.corrupt-*"))


def test_import_spec_file_and_text(library: Library, tmp_path: Path) -> None:
    path = tmp_path / "Shopping list.json"
    path.write_text(json.dumps(spec()))
    entry = library.import_spec_file(path)
    assert (entry.name, entry.source) == ("Shopping list", "file")
    pasted = library.import_spec_text(json.dumps(spec(id="pasted")))
    assert (pasted.name, pasted.source) == ("pasted", "paste")
    assert library.load_spec(pasted.id)["id"] == "pasted"


def test_import_bad_spec_file_names_the_file(library: Library, tmp_path: Path) -> None:
    before = tree(library.folder)
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "id": "x",\n  oops\n}')
    with pytest.raises(LibraryError) as info:
        library.import_spec_file(broken)
    assert str(info.value).startswith("broken.json: Invalid JSON: Expecting property name")
    assert str(info.value).endswith("at line 3:3")
    invalid = tmp_path / "invalid.json"
    invalid.write_text(json.dumps(spec(extra=1)))
    with pytest.raises(InvalidSpec, match=r"^invalid.json: extra: Unknown property$"):
        library.import_spec_file(invalid)
    with pytest.raises(LibraryError, match="^pasted text: Invalid JSON"):
        library.import_spec_text("nope")
    with pytest.raises(LibraryError, match=r"^missing.json: cannot read"):
        library.import_spec_file(tmp_path / "missing.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (1_048_577))
    with pytest.raises(LibraryError, match="at most 1048576 bytes"):
        library.import_spec_file(big)
    assert tree(library.folder) == before


def test_no_temp_files_left_behind(library: Library) -> None:
    entry = library.create("Counter", spec(), "file", {"logo": png()})
    library.save_spec(entry.id, spec(id="v2"))
    library.rename(entry.id, "B")
    library.set_thumbnail(entry.id, png())
    library.save_revisions(entry.id, RevisionLog(spec()))
    library.duplicate(entry.id)
    library.delete(entry.id)
    library.restore(entry.id)
    leftovers = [p for p in library.folder.rglob("*") if ".tmp-" in p.name]
    assert leftovers == []


@pytest.mark.expected_log("not in library.json; recovered as", logger="studio.library.store")
def test_interrupted_create_is_recovered(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    # a crash between moving the folder into place and writing the index: the index lacks it
    doc = index_of(library)
    doc["entries"] = []
    (library.folder / "library.json").write_text(json.dumps(doc))
    lib = Library()
    assert [e.id for e in lib.list_entries()] == [entry.id]
    assert lib.get(entry.id).name == "counter"  # named after the spec id
    assert any("recovered" in p for p in lib.problems)


def test_interrupted_delete_is_finished(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    library.delete(entry.id)
    # a crash after the index write but before the move: the folder is still in place
    os.rename(library.trash_folder / entry.id, library.folder / entry.id)
    lib = Library()
    assert lib.list_entries() == []
    assert (lib.trash_folder / entry.id / "spec.json").is_file()
    assert lib.restore(entry.id).id == entry.id


def test_newer_drafts_file_keeps_its_fields(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    library.save_revisions(entry.id, RevisionLog(spec()))
    path = library.draft_path(entry.id)
    doc = json.loads(path.read_text())
    doc["format"] = 3
    doc["branches"] = [{"name": "alt"}]
    path.write_text(json.dumps(doc))
    lib = Library()
    log = lib.load_revisions(entry.id)
    assert log is not None
    log.push(Revision(spec(id="next"), "user", "next"))
    lib.save_revisions(entry.id, log)
    after = json.loads(path.read_text())
    assert after["format"] == 3 and after["branches"] == [{"name": "alt"}]
    assert after["log"]["revisions"][-1]["summary"] == "next"


def test_names_from_ids_and_files_are_cut_to_one_short_line(library: Library) -> None:
    long_id = "screen-" + "x" * 300
    entry = library.import_spec_text(json.dumps(spec(id=long_id)))
    assert entry.name == long_id[:200]
    named = library.import_spec_text(json.dumps(spec()), name="Shopping\nlist")
    assert named.name == "Shopping list"


@pytest.mark.expected_log(r"draft\.json: .*drafts ignored", logger="studio.library.store")
def test_unreadable_drafts_are_reported_not_fatal(library: Library) -> None:
    entry = library.create("Counter", spec(), "file")
    library.draft_path(entry.id).write_text('{"format": 1, "log": {"base": {}, "revisions": [7]}}')
    assert library.load_revisions(entry.id) is None
    assert any(f"{entry.id}.draft.json" in p and "drafts ignored" in p for p in library.problems)
    library.save_revisions(entry.id, RevisionLog(spec()))
    assert library.load_revisions(entry.id) is not None


def test_opening_the_same_unchanged_file_again_opens_its_entry(tmp_path: Path) -> None:
    """A recent file or a second drop of the same file does not add a copy each time; a file
    changed since gets an entry of its own."""
    lib = Library(tmp_path / "home")
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(spec()), encoding="utf-8")
    first = lib.import_spec_file(path)
    again = lib.import_spec_file(path)
    assert again.id == first.id
    assert [e.id for e in lib.list_entries()].count(first.id) == 1
    changed = dict(spec(), id="demo-2")
    path.write_text(json.dumps(changed), encoding="utf-8")
    other = lib.import_spec_file(path)
    assert other.id != first.id
    assert lib.load_spec(other.id)["id"] == "demo-2"


def test_new_prototypes_get_unique_names(library: Library, tmp_path: Path) -> None:
    """Walkthrough step 6: a second "Sign-in form" from the template, an imported bundle of a
    prototype already in the library and a pasted spec each get the next free number."""
    first = library.create("Sign-in form", spec(), "template")
    assert first.name == "Sign-in form"
    assert library.create("Sign-in form", spec(), "template").name == "Sign-in form 2"
    assert library.create("sign-in FORM", spec(), "file").name == "sign-in FORM 3"  # any case
    assert library.create("Sign-in form 2", spec(), "paste").name == "Sign-in form 4"
    bundle = tmp_path / "shared.protobundle"
    library.export_bundle(first.id, bundle)
    assert library.import_spec_file(bundle).name == "Sign-in form 5"
    assert library.import_spec_text(json.dumps(spec(id="counter"))).name == "counter"
    assert library.import_spec_text(json.dumps(spec(id="counter"))).name == "counter 2"
    # A deleted prototype's name is free again; renaming is the user's choice and is kept.
    library.delete(first.id)
    assert library.create("Sign-in form", spec(), "file").name == "Sign-in form"
    other = library.create("Other", spec(), "file")
    assert library.rename(other.id, "Sign-in form 2").name == "Sign-in form 2"
    # At the length limit the number replaces the end of the name.
    long = "x" * 200
    library.create(long, spec(), "file")
    numbered = library.create(long, spec(), "file").name
    assert numbered == "x" * 198 + " 2" and len(numbered) == 200
