"""Component expansion against AutoMobile's corpus (read in place) and our own fixtures."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.spec.components import expand, expand_components, expand_with_locations
from studio.spec.errors import SpecError

OWN = Path(__file__).resolve().parent.parent / "fixtures" / "spec" / "components"

#: Corpus cases whose error is found by the validator in the expanded spec (then mapped back to
#: the authored path with `locate`), not by expansion itself: name -> the expanded-spec path.
VALIDATOR_SIDE = {
    "bound-key-type-mapping.json": "root.children[0].onTap[0].key",
    "error-path-mapping.json": "root.children[2].children[1].label",
    "repeat-inside-component-bad-item-key.json": "root.children[0].repeat.items[1]",
    "expanded-byte-limit.json": "$",
}


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _corpus(conformance_dir: Path, kind: str) -> list[Path]:
    files = sorted((conformance_dir / "fixtures").glob(f"*/components/{kind}/*.json"))
    assert files, f"no corpus fixtures under */components/{kind}"
    return files


def _validate(spec: Any) -> Any:
    from studio.spec.validator import validate

    return validate(spec)


def test_corpus_expand_fixtures_expand_exactly(conformance_dir: Path) -> None:
    for path in _corpus(conformance_dir, "expand"):
        case = _load(path)
        original = copy.deepcopy(case["spec"])
        expanded, error = expand_components(case["spec"])
        assert error is None, path.name
        assert expanded == case["expanded"], path.name
        assert case["spec"] == original, f"{path.name}: the input was changed"


def test_corpus_expand_fixtures_validate(conformance_dir: Path) -> None:
    for path in _corpus(conformance_dir, "expand"):
        result = _validate(_load(path)["spec"])
        assert result.ok, f"{path.name}: {result.path}: {result.message}"


def test_corpus_invalid_fixtures_rejected_by_validate(conformance_dir: Path) -> None:
    for path in _corpus(conformance_dir, "invalid"):
        case = _load(path)
        result = _validate(case["spec"])
        assert not result.ok, path.name
        assert (result.path, result.message) == (case["expectedPath"], case["expectedMessage"]), (
            path.name
        )


def test_corpus_invalid_fixtures_found_by_expansion(conformance_dir: Path) -> None:
    """Expansion reports its own errors exactly; the rest are left to the validator."""
    for path in _corpus(conformance_dir, "invalid"):
        case = _load(path)
        expected = (case["expectedPath"], case["expectedMessage"])
        _, error = expand_components(case["spec"])
        if path.name in VALIDATOR_SIDE:
            assert error is None, path.name
        else:
            assert error == expected, path.name


def test_locate_maps_expanded_paths_back_to_the_authored_place(conformance_dir: Path) -> None:
    for path in _corpus(conformance_dir, "invalid"):
        if path.name not in VALIDATOR_SIDE:
            continue
        case = _load(path)
        expansion = expand_with_locations(case["spec"])
        assert expansion.error is None and expansion.expanded
        assert expansion.locate(VALIDATOR_SIDE[path.name]) == case["expectedPath"], path.name


def test_gallery_validates_and_expands_to_the_component_gallery(conformance_dir: Path) -> None:
    fixtures = conformance_dir / "fixtures"
    gallery = _load(fixtures / "prototype-spec" / "components" / "gallery.json")
    expected = _load(fixtures / "overlay-spec" / "valid" / "component-gallery.json")
    assert expand(gallery) == expected
    result = _validate(gallery)
    assert result.ok, f"{result.path}: {result.message}"


@pytest.mark.parametrize("path", sorted((OWN / "expand").glob("*.json")), ids=lambda p: p.stem)
def test_own_expand_fixtures(path: Path) -> None:
    case = _load(path)
    assert expand(case["spec"]) == case["expanded"]
    result = _validate(case["spec"])
    assert result.ok, f"{result.path}: {result.message}"


@pytest.mark.parametrize("path", sorted((OWN / "invalid").glob("*.json")), ids=lambda p: p.stem)
def test_own_invalid_fixtures(path: Path) -> None:
    case = _load(path)
    expected = (case["expectedPath"], case["expectedMessage"])
    assert expand_components(case["spec"])[1] == expected
    with pytest.raises(SpecError) as raised:
        expand(case["spec"])
    assert (raised.value.path, raised.value.message) == expected
    result = _validate(case["spec"])
    assert (result.path, result.message) == expected


def test_spec_without_components_or_use_is_returned_as_the_same_object() -> None:
    spec = {
        "id": "p",
        "window": {"placement": {"type": "fullscreen"}},
        "root": {"type": "column", "children": [{"type": "text", "text": "{props.x}"}]},
    }
    expanded, error = expand_components(spec)
    assert error is None
    assert expanded is spec
    assert expand_with_locations(spec).expanded is False


def test_components_without_use_are_dropped() -> None:
    spec = {
        "id": "p",
        "window": {"placement": {"type": "fullscreen"}},
        "components": {"a": {"root": {"type": "spacer"}}},
        "root": {"type": "spacer"},
    }
    expanded = expand(spec)
    assert "components" not in expanded
    assert "components" in spec, "the input keeps its components"


def test_each_use_gets_its_own_copy() -> None:
    spec: dict[str, Any] = {
        "id": "p",
        "window": {"placement": {"type": "fullscreen"}},
        "components": {"t": {"root": {"type": "text", "text": "{props.v}", "style": {"alpha": 1}}}},
        "root": {
            "type": "row",
            "children": [
                {"type": "use", "component": "t", "props": {"v": "one"}},
                {"type": "use", "component": "t", "props": {"v": "two"}},
            ],
        },
    }
    expanded = expand(spec)
    first, second = expanded["root"]["children"]
    assert (first["text"], second["text"]) == ("one", "two")
    assert spec["components"]["t"]["root"]["text"] == "{props.v}"


def test_js_key_order_decides_the_first_bad_prop() -> None:
    """Object.entries lists integer-like keys first, so "1" is reported before "bad-name"."""
    spec = {
        "id": "p",
        "window": {"placement": {"type": "fullscreen"}},
        "components": {"t": {"root": {"type": "spacer"}}},
        "root": {"type": "use", "component": "t", "props": {"bad-name": 1, "1": 2}},
    }
    assert expand_components(spec)[1] == ('root.props["1"]', "Invalid prop name")
