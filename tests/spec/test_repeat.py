"""Repeat instances and the placeholder grammar shared with components."""

from __future__ import annotations

import copy
from typing import Any

from studio.spec.binding import (
    PROPS,
    Binding,
    Instance,
    bind_text,
    bind_typed,
    field_references,
    render_scalar,
)
from studio.spec.repeat import expand_repeat, repeat_instances

ITEM = Binding("item", index=True)


def _list_node() -> dict[str, Any]:
    return {
        "type": "column",
        "repeat": {"as": "item", "items": [{"id": "a", "n": 1}, {"id": "b", "n": 2.0}]},
        "children": [
            {
                "type": "text",
                "text": "#{index} {item.id} x{item.n} {item.missing} {count}",
                "onTap": [
                    {"type": "setState", "key": "pos", "value": "{index}"},
                    {"type": "setState", "key": "pick_{item.id}", "value": "{item.n}"},
                    {"type": "emit", "name": "tap_{item.id}"},
                ],
            },
            {
                "type": "card",
                "children": [{"type": "switch", "stateKey": "liked_{item.id}"}],
                "visibleWhen": {"key": "show_{item.id}", "equals": "{item.id}"},
            },
        ],
    }


def test_instances_are_item_major_with_their_scope() -> None:
    node = _list_node()
    before = copy.deepcopy(node)
    instances = repeat_instances(node)
    assert [(child["type"], scope["index"]) for child, scope in instances] == [
        ("text", 0),
        ("card", 0),
        ("text", 1),
        ("card", 1),
    ]
    assert instances[2][1] == {"item": {"id": "b", "n": 2.0}, "index": 1}
    assert node == before, "the template was changed"


def test_fields_are_bound_per_item_like_the_device() -> None:
    instances = repeat_instances(_list_node())
    text_b = instances[2][0]
    # Unknown fields and state placeholders stay literal; 2.0 renders without a decimal point.
    assert text_b["text"] == "#1 b x2 {item.missing} {count}"
    set_pos, set_pick, emit = text_b["onTap"]
    assert set_pos["value"] == 1 and isinstance(set_pos["value"], int)
    assert (set_pick["key"], set_pick["value"]) == ("pick_b", 2.0)
    assert emit["name"] == "tap_b"
    card_a = instances[1][0]
    assert card_a["children"][0]["stateKey"] == "liked_a", "descendants are bound too"
    assert card_a["visibleWhen"] == {"key": "show_a", "equals": "a"}


def test_node_without_repeat_yields_its_children_unbound() -> None:
    node = {"type": "row", "children": [{"type": "text", "text": "{item.x}"}]}
    assert repeat_instances(node) == [({"type": "text", "text": "{item.x}"}, {})]
    assert expand_repeat(node) is node


def test_expand_repeat_gives_plain_children() -> None:
    expanded = expand_repeat(_list_node())
    assert "repeat" not in expanded
    assert [c["type"] for c in expanded["children"]] == ["text", "card", "text", "card"]


def test_placeholder_grammar_leaves_other_braces_literal() -> None:
    instance = Instance(ITEM, {"x": "v"}, 3)
    assert bind_text("{{item.x}} {item} {other.x} {item.} {index}", instance) == (
        "{v} {item} {other.x} {item.} 3"
    )
    assert field_references("{item.a}{item.b-c}{item.b}", ITEM) == ["a", "b"]
    # Components have no {index}.
    assert bind_text("{index} {props.x}", Instance(PROPS, {"x": 1})) == "{index} 1"


def test_single_placeholder_keeps_the_type() -> None:
    instance = Instance(ITEM, {"on": True, "n": 7, "s": "7"}, 0)
    assert bind_typed("{item.on}", instance) is True
    assert bind_typed("{item.n}", instance) == 7
    assert bind_typed("{item.s}", instance) == "7"
    assert bind_typed(" {item.n}", instance) == " 7"
    assert bind_typed("{item.none}", instance) == "{item.none}"


def test_scalars_render_as_javascript_does() -> None:
    assert [render_scalar(v) for v in (True, False, 3, 3.0, 0.5, 1e-7, 1.5e-5, 1e21)] == [
        "true",
        "false",
        "3",
        "3",
        "0.5",
        "1e-7",
        "0.000015",
        "1000000000000000000000",
    ]
