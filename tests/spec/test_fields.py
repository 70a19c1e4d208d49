"""The inspector's field model read from our JSON Schema (studio.spec.fields), Qt-free."""

from __future__ import annotations

import pytest

from studio.spec import fields as F
from studio.spec.rules import NODE_TYPES


def by_name(type_: str) -> dict[str, F.Field]:
    return {f.name: f for f in F.fields_for(type_)}


def test_every_node_type_has_its_schema_properties_as_fields() -> None:
    for type_ in NODE_TYPES:
        names = by_name(type_)
        assert "id" in names and "style.width" in names, type_
        assert not {"type", "child", "children"} & set(names), type_


def test_kinds_bounds_and_choices_come_from_the_schema() -> None:
    slider = by_name("slider")
    assert slider["min"].kind == "number" and slider["min"].required
    assert slider["stateKey"].kind == "stateKey"
    assert slider["onTap"].kind == "json" and slider["onTap"].group == "Behaviour"
    assert by_name("button")["variant"].choices == (
        "filled",
        "tonal",
        "elevated",
        "outlined",
        "text",
    )
    assert by_name("button")["icon"].kind == "icon"
    style = by_name("text")
    assert (style["style.alpha"].minimum, style["style.alpha"].maximum) == (0, 1)
    assert style["style.fontWeight"].kind == "integer"
    assert style["style.color"].kind == "color" and "primary" in style["style.color"].choices
    assert style["style.width"].kind == "dimension"
    assert "favorite" in F.icon_names()


def test_parse_and_set_values() -> None:
    width = by_name("text")["style.width"]
    assert F.parse(width, "48") == {"dp": 48}
    assert F.parse(width, "fill") == "fill"
    assert F.show(width, {"dp": 48}) == "48"
    node = F.set_value({"type": "text", "text": "a"}, width, {"dp": 48})
    assert node == {"type": "text", "text": "a", "style": {"width": {"dp": 48}}}
    assert F.set_value(node, width, None) == {"type": "text", "text": "a"}  # emptied style goes
    with pytest.raises(F.FieldError, match="^Alpha: at most 1$"):
        F.parse(by_name("text")["style.alpha"], "2")
    with pytest.raises(F.FieldError, match="is not a number"):
        F.parse(by_name("slider")["max"], "ten")
    assert F.parse(by_name("text")["text"], "") == ""  # a required text may be empty
    assert F.parse(by_name("button")["testTag"], "") is None  # an optional one is removed
