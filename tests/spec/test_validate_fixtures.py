"""Our own fixtures (tests/fixtures/spec): every node type, action, limit and code rule, and
the studio extensions, each accepted or rejected with AutoMobile's path and message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studio.spec.rules import NODE_TYPES
from studio.spec.validator import validate

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "spec"
VALID = sorted((FIXTURES / "valid").glob("*.json"))
INVALID = sorted((FIXTURES / "invalid").glob("*.json"))


class UnitsCatalog:
    """A platform catalog with one module, `units`, and its calls `units.convert` and
    `units.alarm`."""

    schemas: dict[str, dict[str, Any]] = {
        "units.convert": {
            "type": "object",
            "properties": {
                "value": {"type": "number"},
                "from": {"type": "string"},
                "to": {"type": "string"},
            },
            "required": ["value", "from", "to"],
            "additionalProperties": False,
        },
        # A call taking a time of day and a set of days: timePicker and filter chip arguments.
        "units.alarm": {
            "type": "object",
            "properties": {
                "at": {"type": "string", "format": "time", "pattern": "^[0-2][0-9]:[0-5][0-9]$"},
                "days": {
                    "type": "array",
                    "items": {"type": "string", "enum": ["mon", "tue", "wed"]},
                    "maxItems": 2,
                },
                "count": {"type": "integer"},
            },
            "required": ["at"],
            "additionalProperties": False,
        },
    }

    def has_module(self, module: str) -> bool:
        return module == "units"

    def call_schema(self, call: str) -> dict[str, Any] | None:
        return self.schemas.get(call)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_fixture_is_accepted(path: Path) -> None:
    result = validate(json.loads(path.read_text(encoding="utf-8")), catalog=UnitsCatalog())
    assert result.ok, str(result)
    assert bool(result) is True and result.path is None and result.message is None


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_fixture_is_rejected_with_path_and_message(path: Path) -> None:
    wrapper = json.loads(path.read_text(encoding="utf-8"))
    result = validate(wrapper["spec"], catalog=UnitsCatalog())
    assert not result
    assert (result.path, result.message) == (wrapper["expectedPath"], wrapper["expectedMessage"])


def test_fixtures_cover_every_node_type_both_ways() -> None:
    assert len(NODE_TYPES) == 32
    names = {p.stem for p in VALID}, {p.stem for p in INVALID}
    for kind in NODE_TYPES:
        assert f"node-{kind}" in names[0] and f"node-{kind}" in names[1], kind


def test_fixtures_cover_every_action_type() -> None:
    spec = json.loads((FIXTURES / "valid" / "actions-all.json").read_text(encoding="utf-8"))
    kinds = {a["type"] for a in spec["root"]["children"][0]["onTap"]}
    assert kinds == {"emit", "setPage", "setState", "toggle", "increment", "decrement", "dismiss"}


def test_plain_specs_do_not_need_a_catalog() -> None:
    """A spec without the studio extensions never consults the platform catalog."""

    class Exploding:
        def has_module(self, module: str) -> bool:
            raise AssertionError("consulted")

        def call_schema(self, call: str) -> dict[str, Any] | None:
            raise AssertionError("consulted")

    for path in VALID:
        if not path.stem.startswith("ext-"):
            assert validate(json.loads(path.read_text(encoding="utf-8")), catalog=Exploding()).ok
