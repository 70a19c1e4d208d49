"""Our JSON Schema resource: valid 2020-12, current with the rule table, and in agreement with
the validator's structural verdicts on AutoMobile's corpus."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from studio.resources import resource_path
from studio.spec.rules import definitions, icon_names
from studio.spec.schema import build_schema, schema_path, schema_text
from studio.spec.validator import validate


def _schema() -> dict[str, object]:
    return json.loads(schema_path().read_text(encoding="utf-8"))


def test_schema_is_valid_draft_2020_12() -> None:
    schema = _schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_schema_file_is_current() -> None:
    """Regenerate with `python -m studio.spec.schema` after changing studio/spec/rules.py."""
    assert schema_path().read_text(encoding="utf-8") == schema_text()


def test_schema_names_all_node_types_and_extensions() -> None:
    defs = build_schema()["$defs"]
    node_types = [name.split(".", 1)[1] for name in defs if name.startswith("node.")]
    assert len(node_types) == 32
    assert "action.platform" in defs
    spec = defs["spec"]["properties"]
    assert {"requires", "data"} <= set(spec)


def test_icon_names_resource_is_sorted_unique_and_used() -> None:
    lines = (
        resource_path("schema", "material-icon-names.txt").read_text(encoding="utf-8").splitlines()
    )
    assert lines[0].startswith("#")
    names = [line for line in lines if line and not line.startswith("#")]
    assert len(names) == 2075 and names == sorted(set(names))
    assert icon_names() == tuple(names)
    assert build_schema()["$defs"]["iconName"]["enum"] == names
    assert validate(
        {
            "id": "t",
            "window": {"placement": {"type": "fullscreen"}},
            "root": {"type": "icon", "name": names[-1]},
        }
    ).ok


def test_schema_accepts_every_valid_corpus_fixture(conformance_dir: Path) -> None:
    validator = Draft202012Validator(_schema())
    for path in sorted(conformance_dir.glob("fixtures/*/valid/*.json")):
        spec = json.loads(path.read_text(encoding="utf-8"))
        errors = [e.message for e in validator.iter_errors(spec)]
        assert errors == [], path.name


def test_schema_rejects_what_the_walk_rejects_in_the_corpus(conformance_dir: Path) -> None:
    """Every invalid corpus fixture that fails our structural walk also fails the schema; those
    the schema accepts fail only limits or code rules (documented in the schema)."""
    from studio.spec.structure import Ctx, spec_check

    validator = Draft202012Validator(_schema())
    structural = 0
    for path in sorted(conformance_dir.glob("fixtures/*/invalid/*.json")):
        spec = json.loads(path.read_text(encoding="utf-8"))["spec"]
        if spec_check("ordered")(spec, Ctx(), 0) is None:
            # only code rules reject it (repeat, pagers, state types): the schema accepts it
            assert validator.is_valid(spec), path.name
            continue
        structural += 1
        result = validate(spec)
        code_only = result.message == "Invalid json value" or "limit" in str(result.message)
        if not code_only:
            assert not validator.is_valid(spec), (path.name, str(result))
    assert structural > 100


def test_rule_table_has_the_top_level_fields() -> None:
    spec = definitions()["spec"]
    assert sorted(spec.fields) == sorted(  # type: ignore[union-attr]
        ["id", "window", "theme", "state", "motion", "root", "requires", "data"]
    )


def test_schema_agrees_with_the_walk_on_our_fixtures() -> None:
    """Same agreement on tests/fixtures/spec: the walk's structural errors (other than limits
    and payload cost, which only code can count) are schema errors, and the rest is accepted."""
    from studio.spec.structure import Ctx, spec_check

    validator = Draft202012Validator(_schema())
    fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "spec"
    checked = 0
    for path in sorted(fixtures.glob("*/*.json")):
        if path.stem == "key-trailing-newline":
            continue  # Python's `re` (jsonschema) lets `$` match before a final newline; ECMA does not
        data = json.loads(path.read_text(encoding="utf-8"))
        spec = data["spec"] if path.parent.name == "invalid" else data
        error = spec_check("ordered")(spec, Ctx(), 0)
        if error is None:
            assert validator.is_valid(spec), path.name
        elif error.message != "Invalid json value" and "limit" not in error.message:
            assert not validator.is_valid(spec), (path.name, error.message)
        checked += 1
    assert checked > 150
