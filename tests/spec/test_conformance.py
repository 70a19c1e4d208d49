"""AutoMobile's own corpus, read in place: our validator agrees with every fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.spec.validator import validate

FOLDERS = ("prototype-spec", "overlay-spec")
#: overlay-spec fixtures written for older limits; MANIFEST.json flags them. The current
#: contract accepts them: "rocket" is now an icon name, "elevated" a button variant, and
#: `repeat.items` allows 128 items (the fixture has 33).
STALE = {"button-unknown-icon.json", "button-unknown-variant.json", "repeat-too-many-items.json"}


def _files(root: Path, pattern: str) -> list[Path]:
    return sorted(root.glob(pattern))


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_valid_fixture_is_accepted(conformance_dir: Path, folder: str) -> None:
    files = _files(conformance_dir / "fixtures" / folder, "valid/*.json")
    assert len(files) >= 18
    rejected = {}
    for path in files:
        result = validate(path.read_bytes())  # as a file: raw bytes, counted as upstream does
        if not result.ok:
            rejected[path.name] = str(result)
    assert rejected == {}


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_invalid_fixture_is_rejected_at_its_expected_path(
    conformance_dir: Path, folder: str
) -> None:
    files = _files(conformance_dir / "fixtures" / folder, "invalid/*.json")
    assert len(files) >= 100
    wrong = {}
    for path in files:
        if path.name in STALE and folder == "overlay-spec":
            continue
        wrapper = _load(path)
        # As the object, and as text the way AutoMobile's Kotlin test sends it (the spec
        # re-serialised: a lone surrogate key goes as a `\ud800` escape): the same path.
        text = json.dumps(wrapper["spec"])
        for form, spec in (("object", wrapper["spec"]), ("text", text), ("bytes", text.encode())):
            result = validate(spec)
            if result.ok or result.path != wrapper["expectedPath"]:
                wrong[f"{path.name} ({form})"] = (wrapper["expectedPath"], str(result))
    assert wrong == {}


@pytest.mark.parametrize("name", sorted(STALE))
def test_stale_overlay_fixtures_follow_the_current_contract(
    conformance_dir: Path, name: str
) -> None:
    """These encode limits the current contract no longer has (see STALE): accepted now."""
    manifest = _load(conformance_dir / "MANIFEST.json")
    notes = {
        Path(f["file"]).name: f.get("note")
        for f in manifest["files"]
        if "overlay-spec/invalid" in f["file"]
    }
    assert notes[name], "MANIFEST.json no longer flags this fixture as stale"
    wrapper = _load(conformance_dir / "fixtures" / "overlay-spec" / "invalid" / name)
    assert validate(wrapper["spec"]).ok


@pytest.mark.parametrize("folder", FOLDERS)
def test_component_invalid_fixtures_match_path_and_message(
    conformance_dir: Path, folder: str
) -> None:
    files = _files(conformance_dir / "fixtures" / folder, "components/invalid/*.json")
    assert files
    wrong = {}
    for path in files:
        wrapper = _load(path)
        result = validate(wrapper["spec"])
        expected = (wrapper["expectedPath"], wrapper["expectedMessage"])
        if (result.path, result.message) != expected:
            wrong[path.name] = (expected, str(result))
    assert wrong == {}


def test_component_specs_validate(conformance_dir: Path) -> None:
    fixtures = conformance_dir / "fixtures"
    gallery = fixtures / "prototype-spec" / "components" / "gallery.json"
    assert validate(gallery.read_bytes()).ok
    for path in _files(fixtures / "overlay-spec", "components/expand/*.json"):
        wrapper = _load(path)
        assert validate(wrapper["spec"]).ok, path.name
        assert validate(wrapper["expanded"]).ok, path.name


def test_boundary_fixtures_pass(conformance_dir: Path) -> None:
    valid = conformance_dir / "fixtures" / "overlay-spec" / "valid"
    for name in (
        "exact-node-limit",
        "exact-depth-limit",
        "exact-image-limit",
        "repeat-exact-node-limit",
        "integer-json-spellings",
        "opaque-json-keys",
    ):
        assert validate((valid / f"{name}.json").read_bytes()).ok, name
