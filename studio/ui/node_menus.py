"""The node submenus of the Edit menu and the spec tree's context menu: Insert (into the
selected container or after the selected node), Insert before, Insert after (every node type,
by group) and Wrap in (the containers)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QMenu, QWidget

from studio.spec.catalog import KINDS
from studio.spec.edit import WRAPPERS


@dataclass(frozen=True)
class NodeMenus:
    """Each action's `data()` is the node type (or the container to wrap in)."""

    insert: QMenu
    before: QMenu
    after: QMenu
    wrap: QMenu


def _types(title: str, name: str, parent: QWidget) -> QMenu:
    menu = QMenu(title, parent)
    menu.setObjectName(name)
    group = ""
    for kind in KINDS:
        if kind.group != group and group:
            menu.addSeparator()
        group = kind.group
        action = menu.addAction(kind.name)
        action.setObjectName(f"{name}_{kind.type}")
        action.setData(kind.type)
        action.setStatusTip(kind.description)
    return menu


def build_node_menus(parent: QWidget) -> NodeMenus:
    wrap = QMenu("&Wrap in", parent)
    wrap.setObjectName("wrapMenu")
    for name in WRAPPERS:
        action = wrap.addAction(name.capitalize())
        action.setObjectName(f"wrapMenu_{name}")
        action.setData(name)
    return NodeMenus(
        _types("&Insert", "insertMenu", parent),
        _types("Insert &before", "insertBeforeMenu", parent),
        _types("Insert &after", "insertAfterMenu", parent),
        wrap,
    )
