"""Node addresses: ids first, AutoMobile paths otherwise."""

from __future__ import annotations

import pytest

from studio.spec.address import address_of, addresses, iter_nodes, node_at, resolve
from studio.spec.errors import SpecError
from tests.spec.sample_specs import inbox_spec


def test_iter_nodes_walks_children_and_child_in_document_order() -> None:
    entries = [(path, depth, parent) for path, _, depth, parent in iter_nodes(inbox_spec())]
    assert entries == [
        ("root", 0, None),
        ("root.children[0]", 1, "root"),
        ("root.children[1]", 1, "root"),
        ("root.children[2]", 1, "root"),
        ("root.children[2].child", 2, "root.children[2]"),
        ("root.children[2].child.children[0]", 3, "root.children[2].child"),
        ("root.children[3]", 1, "root"),
        ("root.children[4]", 1, "root"),
        ("root.children[4].child", 2, "root.children[4]"),
    ]


def test_addresses_use_ids_and_paths_and_the_first_duplicate_wins() -> None:
    table = addresses(inbox_spec())
    assert table["root.children[0]"] == "title"
    assert table["root.children[1]"] == "darkSwitch"
    assert table["root.children[3]"] == "root.children[3]", "a duplicate id is not an address"
    assert table["root.children[4].child"] == "root.children[4].child"
    assert address_of("root.children[0]", {"type": "text", "id": "x"}) == "x"
    assert address_of("root.children[0]", {"type": "text", "id": ""}) == "root.children[0]"


def test_a_path_like_id_never_hides_the_root() -> None:
    spec = inbox_spec()
    spec["root"]["children"][0]["id"] = "root"
    assert resolve(spec, "root")[0] == "root"
    assert addresses(spec)["root.children[0]"] == "root.children[0]"


def test_resolve_by_id_and_by_path() -> None:
    spec = inbox_spec()
    path, node = resolve(spec, "title")
    assert path == "root.children[0]" and node["text"] == "Inbox ({count})"
    path, node = resolve(spec, "root.children[4].child")
    assert node == {"type": "button", "label": "Hello {name}"}
    assert node_at(spec, "root.children[2].child.children[0]")["text"] == "{item.t}"


@pytest.mark.parametrize(
    "address",
    ["nope", "root.children[9]", "root.child", "root.children[01]", "root.children[0].child", ""],
)
def test_unknown_addresses_raise_a_spec_error_naming_them(address: str) -> None:
    with pytest.raises(SpecError) as raised:
        resolve(inbox_spec(), address)
    assert raised.value.path == address
    assert raised.value.message.startswith(f'Unknown node address "{address}"')


def test_a_preview_path_inside_a_component_maps_to_its_use_node() -> None:
    from studio.spec.address import authored_ancestor

    spec = inbox_spec()
    spec["components"] = {"pair": {"root": {"type": "row", "children": [{"type": "spacer"}]}}}
    spec["root"]["children"][2] = {"type": "use", "component": "pair"}
    assert authored_ancestor(spec, "root.children[2].children[0]") == "root.children[2]"
    assert authored_ancestor(spec, "root.children[4].child") == "root.children[4].child"
