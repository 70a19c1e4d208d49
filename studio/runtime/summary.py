"""What a prototype shows right now, as text: the agent's view when no renderer is attached."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from studio.runtime.tree import expanded_children
from studio.runtime.values import render_scalar

Node = Mapping[str, Any]
Binder = Callable[[str], str]

MODALS = frozenset({"dialog", "snackbar", "bottomSheet"})
_SILENT = frozenset(
    {"box", "row", "column", "card", "scroll", "pager", "bottomSheet", "spacer", "divider"}
)


def _texts(*parts: object) -> list[str]:
    return [p for p in parts if isinstance(p, str) and p]


def _labels(entries: object) -> list[str]:
    if not isinstance(entries, list):
        return []
    return [
        e["label"] for e in entries if isinstance(e, Mapping) and isinstance(e.get("label"), str)
    ]


def _part_label(part: object) -> str | None:
    return part.get("label") if isinstance(part, Mapping) else None


def node_texts(node: Node, value: Callable[[str], Any]) -> list[str]:
    """The strings a node shows (unbound), in reading order. `value` reads a state key."""
    kind = node.get("type")
    if kind == "text" or kind == "badge":
        return _texts(node.get("text"))
    if kind in ("button", "chip", "switch", "checkbox", "slider"):
        return _texts(node.get("label"))
    if kind == "fab":
        return _texts(node.get("label")) or _texts(node.get("contentDescription"), node.get("icon"))
    if kind == "textField":
        key = node.get("stateKey")
        current = value(key) if isinstance(key, str) else None
        return (
            _texts(current)
            if isinstance(current, str) and current
            else _texts(node.get("placeholder"))
        )
    if kind in ("radioGroup", "segmentedButton"):
        return _labels(node.get("options"))
    if kind == "listItem":
        return _texts(node.get("headline"), node.get("supporting"))
    if kind == "topAppBar":
        return _texts(node.get("title")) + _labels(node.get("actions"))
    if kind in ("tabBar", "bottomNav"):
        return _labels(node.get("items"))
    if kind == "dialog":
        return _texts(
            node.get("title"),
            node.get("text"),
            _part_label(node.get("confirm")),
            _part_label(node.get("dismiss")),
        )
    if kind == "snackbar":
        return _texts(node.get("text"), _part_label(node.get("action")))
    if kind == "datePicker":
        current = value(str(node.get("stateKey")))
        return _texts(current)
    if kind == "timePicker":
        hour, minute = value(str(node.get("hourKey"))), value(str(node.get("minuteKey")))
        if hour is None or minute is None:
            return []
        return [f"{render_scalar(hour)}:{render_scalar(minute).rjust(2, '0')}"]
    if kind in ("icon", "iconButton", "image"):
        asset = node.get("asset")
        if isinstance(asset, Mapping):  # a {light, dark} pair: name the light one
            asset = asset.get("light")
        name = node.get("name") or node.get("icon") or asset
        return _texts(node.get("contentDescription")) or _texts(name)
    return _texts(node.get("contentDescription"))


def bound_value(node: Node, value: Callable[[str], Any]) -> Any:
    """The state value a control shows, when it has one."""
    kind = node.get("type")
    key = node.get("stateKey")
    trailing = node.get("trailing")
    if kind == "listItem" and isinstance(trailing, Mapping):
        key = trailing.get("stateKey")
    if kind == "timePicker" or not isinstance(key, str):
        return None
    return value(key)


def summarize(
    root: Node,
    *,
    visible: Callable[[Node, Mapping[str, Any] | None], bool],
    is_open: Callable[[Node], bool],
    page_of: Callable[[str], int],
    bind: Callable[[str, Mapping[str, Any] | None, str | None], str],
    value: Callable[[str], Any],
) -> list[dict[str, Any]]:
    """`[{address, type, text, ...}]` for each visible node with something to show, in reading
    order: only the current page of each pager, closed dialogs/snackbars/sheets and nodes whose
    `visibleWhen` fails left out. A repeat instance's entry adds `item` (its index); a control
    bound to state adds `value`; a node with an `id` adds it."""
    out: list[dict[str, Any]] = []

    def visit(node: Node, address: str, scope: Mapping[str, Any] | None, pager: str | None) -> None:
        if not visible(node, scope):
            return
        kind = node.get("type")
        if kind in MODALS and not is_open(node):
            return
        texts = [bind(t, scope, pager) for t in node_texts(node, value)]
        current = bound_value(node, value)
        shown = bool(texts) or current is not None
        if shown and (kind not in _SILENT or node.get("contentDescription")):
            entry: dict[str, Any] = {"address": address, "type": kind, "text": " | ".join(texts)}
            if isinstance(node.get("id"), str):
                entry["id"] = node["id"]
            if scope and isinstance(scope.get("index"), int):
                entry["item"] = scope["index"]
            if current is not None:
                entry["value"] = current
            out.append(entry)
        children = expanded_children(node, address, scope)
        if kind == "pager" and isinstance(node.get("id"), str):
            pager = node["id"]
            page = page_of(pager)
            children = children[page : page + 1]
        for child, at, child_scope in children:
            visit(child, at, child_scope, pager)

    visit(root, "root", None, None)
    return out


def text_field_on_screen(
    root: Node,
    *,
    visible: Callable[[Node, Mapping[str, Any] | None], bool],
    is_open: Callable[[Node], bool],
    page_of: Callable[[str], int],
) -> bool:
    """Whether an editable field is on screen, as AutoMobile decides when its window may take
    the focus (and so Back): RM PrototypeRenderModel.kt `hasVisibleTextField`. A `textField`
    counts unless it or an ancestor is hidden by `visibleWhen`, it lies on a pager page other
    than the settled one, or inside a dialog, snackbar or sheet that is closed (an open one's
    fields count: `modalPrototypeSheets`). Scroll position does not matter: a field scrolled out
    of the viewport still counts, as on the phone."""

    def visit(node: Node, address: str, scope: Mapping[str, Any] | None) -> bool:
        if not visible(node, scope):
            return False
        kind = node.get("type")
        if kind == "textField":
            return True
        if kind in MODALS and not is_open(node):
            return False
        children = expanded_children(node, address, scope)
        if kind == "pager":
            pager = node.get("id")
            page = page_of(pager) if isinstance(pager, str) else 0
            children = children[page : page + 1]
        return any(visit(child, at, child_scope) for child, at, child_scope in children)

    return visit(root, "root", None)
