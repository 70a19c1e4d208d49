"""The shipped templates: listed in index.json, valid AutoMobile specs, Material 3 building blocks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from studio.library.templates import list_templates, templates_dir
from studio.spec import validate

EXPECTED = ["list-detail", "sign-in-form", "tabbed-app", "settings", "feed"]


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if "type" in node and isinstance(node["type"], str):
            yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from nodes(value)


def test_index_lists_the_five_templates() -> None:
    templates = list_templates()
    assert [t.id for t in templates] == EXPECTED
    for t in templates:
        assert t.name.strip() and len(t.description) > 20
        assert t.path().is_file()
    files = {p.stem for p in templates_dir().glob("*.json")} - {"index"}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("template_id", EXPECTED)
def test_template_is_a_valid_spec(template_id: str) -> None:
    text = (templates_dir() / f"{template_id}.json").read_text(encoding="utf-8")
    spec = json.loads(text)
    result = validate(text)
    assert result.ok, f"{template_id}.json: {result}"
    assert spec["id"] == template_id
    assert spec["state"], "state is declared"
    types = [n["type"] for n in nodes(spec["root"])]
    assert "topAppBar" in types
    assert len(types) >= 25, "a realistic screen, not a stub"


def test_templates_cover_the_material_building_blocks() -> None:
    seen: set[str] = set()
    for template_id in EXPECTED:
        spec = json.loads((templates_dir() / f"{template_id}.json").read_text(encoding="utf-8"))
        seen.update(n["type"] for n in nodes(spec["root"]))
    for needed in (
        "topAppBar", "listItem", "card", "textField", "switch", "checkbox", "pager", "tabBar",
        "bottomNav", "dialog", "snackbar", "bottomSheet", "fab", "segmentedButton", "slider",
        "chip", "radioGroup",
    ):  # fmt: skip
        assert needed in seen, needed


def test_a_broken_template_would_be_caught() -> None:
    spec = json.loads((templates_dir() / "settings.json").read_text(encoding="utf-8"))
    spec["state"]["pushNotifications"] = "yes"  # a switch bound to a string
    result = validate(spec)
    assert not result.ok and result.path is not None and result.path.endswith("stateKey")
