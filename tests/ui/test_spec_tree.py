"""The spec tree panel: the outline, user selection out, selection and highlights in."""

from __future__ import annotations

from typing import Any

import pytest

from studio.ui.spec_tree import SpecTreePanel

SPEC: dict[str, Any] = {
    "id": "t",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {
        "type": "column",
        "children": [
            {"type": "topAppBar", "id": "bar", "title": "Inbox"},
            {
                "type": "scroll",
                "child": {"type": "column", "children": [{"type": "text", "text": "Row one"}]},
            },
        ],
    },
}


@pytest.fixture
def tree(qtbot: Any) -> SpecTreePanel:
    panel = SpecTreePanel()
    qtbot.addWidget(panel)
    panel.set_spec(SPEC)
    return panel


def rows(tree: SpecTreePanel) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    model = tree.view.model()

    def walk(parent: Any, depth: int) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            out.append(("  " * depth + str(index.data()), str(model.index(row, 1, parent).data())))
            walk(index, depth + 1)

    from PySide6.QtCore import QModelIndex

    walk(QModelIndex(), 0)
    return out


def test_shows_the_outline_with_ids_and_labels(tree: SpecTreePanel) -> None:
    assert rows(tree) == [
        ("column", "column"),
        ("  bar — Inbox", "topAppBar"),
        ("  scroll", "scroll"),
        ("    column", "column"),
        ("      text — Row one", "text"),
    ]


def test_user_selection_emits_the_address(tree: SpecTreePanel, qtbot: Any) -> None:
    index = tree._items["root.children[1].child.children[0]"].index()
    with qtbot.waitSignal(tree.nodeSelected) as blocker:
        tree.view.setCurrentIndex(index)
    assert blocker.args == ["root.children[1].child.children[0]"]


def test_select_from_elsewhere_does_not_echo(tree: SpecTreePanel, qtbot: Any) -> None:
    with qtbot.assertNotEmitted(tree.nodeSelected):
        tree.select("bar")
    assert tree.selected_address() == "bar"
    tree.select(None)
    assert tree.selected_address() is None
    tree.select("no-such-node")
    assert tree.selected_address() is None


def test_selection_kept_across_a_rebuild_when_the_node_still_exists(tree: SpecTreePanel) -> None:
    tree.select("bar")
    edited = {
        **SPEC,
        "root": {**SPEC["root"], "children": [{"type": "topAppBar", "id": "bar", "title": "Mail"}]},
    }
    tree.set_spec(edited)
    assert tree.selected_address() == "bar"
    assert rows(tree)[1] == ("  bar — Mail", "topAppBar")


def test_highlight_marks_changed_nodes(tree: SpecTreePanel) -> None:
    tree.highlight(["bar", "gone"])
    assert tree.highlighted() == {"bar"}
    assert tree._items["bar"].font().bold()
    assert not tree._items["root"].font().bold()
    tree.highlight([])
    assert not tree._items["bar"].font().bold()
