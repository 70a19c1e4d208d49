"""The outline, readNode and readData views of a spec."""

from __future__ import annotations

import pytest

from studio.spec.errors import SpecError
from studio.spec.outline import outline, outline_text, read_data, read_node
from tests.spec.sample_specs import inbox_spec


def test_outline_lists_every_node_compactly() -> None:
    entries = outline(inbox_spec())
    assert entries[0] == {
        "address": "root",
        "path": "root",
        "type": "column",
        "label": "",
        "children": 5,
        "depth": 0,
    }
    assert entries[1] == {
        "address": "title",
        "path": "root.children[0]",
        "id": "title",
        "type": "text",
        "label": "Inbox ({count})",
        "children": 0,
        "depth": 1,
    }
    by_path = {e["path"]: e for e in entries}
    assert by_path["root.children[2]"]["children"] == 1
    assert by_path["root.children[2].child"]["repeat"] == 2
    assert by_path["root.children[3]"]["address"] == "root.children[3]"
    assert by_path["root.children[4].child"]["label"] == "Hello {name}"


def test_long_labels_are_cut_to_60_characters() -> None:
    spec = inbox_spec()
    spec["root"]["children"][0]["text"] = "word " * 40
    label = outline(spec)[1]["label"]
    assert len(label) == 60 and label.endswith("…")


def test_outline_text_is_one_indented_line_per_node() -> None:
    spec = inbox_spec()
    spec["components"] = {"card": {"root": {"type": "spacer"}}}
    spec["root"]["children"].append({"type": "use", "component": "card"})
    lines = outline_text(spec).splitlines()
    assert lines[0] == "root: column [6]"
    assert lines[1] == '  title: text "Inbox ({count})"'
    assert "    root.children[2].child: column [1] repeat×2" in lines
    assert "  root.children[5]: use card" in lines
    assert lines[-1] == "components: card"


def test_read_node_returns_a_deep_copy_of_the_subtree() -> None:
    spec = inbox_spec()
    node = read_node(spec, "root.children[2]")
    assert node["child"]["children"][0] == {"type": "text", "text": "{item.t}"}
    node["child"]["children"].clear()
    assert spec["root"]["children"][2]["child"]["children"], "the spec was changed through it"
    assert read_node(spec, "darkSwitch")["stateKey"] == "dark"


def test_read_data_reads_state_and_data_by_pointer() -> None:
    spec = inbox_spec()
    spec["data"] = {"rates": [{"code": "EUR", "a/b": 1}], "~x": 2}
    assert read_data(spec, "/state/count") == 2
    assert read_data(spec, "/state")["name"] == "Ann"
    assert read_data(spec, "/data/rates/0/code") == "EUR"
    assert read_data(spec, "/data/rates/0/a~1b") == 1
    assert read_data(spec, "/data/~0x") == 2
    both = read_data(spec, "")
    assert both == read_data(spec, "/") == {"state": spec["state"], "data": spec["data"]}
    both["state"]["count"] = 99
    assert spec["state"]["count"] == 2


def test_read_data_without_data_gives_empty_objects() -> None:
    spec = inbox_spec()
    del spec["state"]
    assert read_data(spec, "") == {"state": {}, "data": {}}


@pytest.mark.parametrize(
    "pointer", ["/state/missing", "/data/rates/5", "/root", "state", "/data/rates/01", "/x~2"]
)
def test_unknown_pointers_raise_naming_the_pointer(pointer: str) -> None:
    spec = inbox_spec()
    spec["data"] = {"rates": [1, 2]}
    with pytest.raises(SpecError) as raised:
        read_data(spec, pointer)
    assert raised.value.path == pointer
    assert pointer in raised.value.message
