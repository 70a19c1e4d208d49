"""Repeat instances: bound templates, scopes, templated keys, conditions per item."""

from __future__ import annotations

from collections.abc import Callable

from studio.runtime import Runtime

Make = Callable[..., Runtime]


def test_instances_bind_each_item(make_runtime: Make) -> None:
    rt = make_runtime("repeat")
    root = rt.spec["root"]
    found = rt.instances(root)
    assert [scope for _, scope in found] == [
        {"as": "person", "item": {"id": "a", "name": "Ada", "age": 36, "vip": True}, "index": 0},
        {"as": "person", "item": {"id": "b", "name": "Bo", "age": 4.5, "vip": False}, "index": 1},
    ]
    first, second = (node for node, _ in found)
    assert "repeat" not in first and first["style"] == {"spacing": 8}
    text, button, item, dialog = second["children"]
    assert text["text"] == "1. Bo (4.5) {person.missing}"  # unknown fields stay as written
    assert text["visibleWhen"] == {"key": "selected", "notEquals": "b"}
    assert text["styleWhen"][0]["when"] == {"key": "liked_b", "equals": True}
    assert button["label"] == "Like Bo"
    assert button["onTap"][0] == {"type": "toggle", "key": "liked_b"}
    assert button["onTap"][1]["name"] == "liked_b"
    assert button["onTap"][1]["payload"] == {"id": "{person.id}"}
    assert button["onTap"][2] == {"type": "setState", "key": "selected", "value": "b"}
    assert item["trailing"]["stateKey"] == "open_b"
    assert (
        item["headline"] == "Count for {person.name}"
    )  # not a device-bound field; bind_text does it
    assert dialog["openWhen"]["key"] == "open_b"
    assert dialog["title"] == "About Bo" and dialog["confirm"]["label"] == "Close Bo"
    assert dialog["confirm"]["onTap"] == [{"type": "toggle", "key": "open_b"}]
    assert root["children"][1]["label"] == "Like {person.name}"  # the spec is untouched


def test_text_of_an_instance_binds_with_its_scope(make_runtime: Make) -> None:
    rt = make_runtime("repeat")
    (node0, scope0), (node1, scope1) = rt.instances(rt.spec["root"])
    template_text = rt.spec["root"]["children"][0]["text"]
    assert rt.bind_text(template_text, scope0) == "0. Ada (36) {person.missing}"
    assert rt.bind_text(node1["children"][0]["text"], scope1) == "1. Bo (4.5) {person.missing}"
    assert rt.bind_text(node1["children"][2]["headline"], scope1) == "Count for Bo"


def test_non_repeat_node_is_its_own_single_instance(make_runtime: Make) -> None:
    rt = make_runtime("repeat")
    leaf = {"type": "text", "text": "x"}
    assert rt.instances(leaf) == [(leaf, {})]


def test_running_an_instances_actions(make_runtime: Make) -> None:
    rt = make_runtime("repeat")
    (_, _), (node1, scope1) = rt.instances(rt.spec["root"])
    button = node1["children"][1]
    rt.run_actions(button["onTap"], scope1)
    assert rt.state["liked_b"] is False and rt.state["selected"] == "b"
    assert [e.name for e in rt.events] == ["liked_b", "change"]
    assert rt.events[-1].payload == {
        "keys": ["liked_b", "selected"],
        "values": {"liked_b": False, "selected": "b"},
    }
    assert not rt.is_visible(node1["children"][0], scope1)


def test_templated_control_keys_are_typed_per_item(make_runtime: Make) -> None:
    rt = make_runtime("repeat")
    rt.set_value("open_a", True)
    assert rt.is_open(rt.instances(rt.spec["root"])[0][0]["children"][3])
    try:
        rt.set_value("open_b", "yes")
    except ValueError as error:
        assert "boolean" in str(error)
    else:
        raise AssertionError("a string into a checkbox key was accepted")


def test_asset_references_cover_every_image_font_and_nav_item_IM_prototypeAssetReferences() -> None:  # noqa: N802
    """IM PrototypeImages.kt `prototypeAssetReferences`: fonts of `style` and `styleWhen`, then
    the node's images (both sides of a pair), tab and nav item images; first use first, no
    repeats; a repeat's template as written (PrototypeRepeat.kt binds no asset id), with no
    items too."""
    from studio.runtime.tree import asset_facts, asset_references

    root = {"type": "column", "style": {"fontFamily": {"asset": "brand"}}, "children": [
        {"type": "text", "text": "a", "styleWhen": [
            {"when": {"key": "k", "equals": True}, "style": {"fontFamily": {"asset": "bold"}}}]},
        {"type": "image", "asset": {"light": "day", "dark": "night"}},
        {"type": "tabBar", "items": [{"label": "A", "image": "tab_a"}, {"label": "B"},
                                     {"label": "C", "image": {"light": "day", "dark": "c"}}]},
        {"type": "column", "repeat": {"items": [{"p": "one"}, {"p": "two"}], "as": "it"},
         "children": [{"type": "image", "asset": "{it.p}"}]},
        {"type": "row", "repeat": {"items": [], "as": "it"},
         "children": [{"type": "image", "asset": "empty"}]},
        {"type": "bottomNav", "items": [{"label": "N", "image": "brand"}]},
    ]}  # fmt: skip
    facts = asset_facts().update(root)
    assert asset_references(facts) == [
        "brand", "bold", "day", "night", "tab_a", "c", "{it.p}", "empty"
    ]  # fmt: skip
    # The template is walked once, not once per item: a thousand items name "{it.p}" once.
    many = {**root, "children": [{"type": "column", "repeat": {
        "items": [{"p": str(i)} for i in range(1000)], "as": "it"},
        "children": [{"type": "image", "asset": "{it.p}"}]}]}  # fmt: skip
    assert asset_facts().update(many) == ("brand", "{it.p}")
