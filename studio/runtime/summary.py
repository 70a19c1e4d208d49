"""What a prototype shows right now, as text: the agent's view when no renderer is attached."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Shown:
    """A node on screen: where it is, the repeat item it belongs to and the pager it is in."""

    node: Node
    address: str
    scope: Mapping[str, Any] | None
    pager: str | None


def shown_nodes(
    root: Node,
    *,
    visible: Callable[[Node, Mapping[str, Any] | None], bool],
    is_open: Callable[[Node], bool],
    page_of: Callable[[str], int],
    unnamed_pager: str = "all",
) -> Iterator[Shown]:
    """The nodes on screen in reading order, repeats expanded: a node whose `visibleWhen` fails,
    a closed dialog, snackbar or sheet, and a pager's pages other than its current one are left
    out with everything under them. A pager without an id has no page in the state: its pages
    are all walked with `unnamed_pager="all"`, only its first (where the phone's
    `rememberPagerState` starts) with `"first"`. Scroll position does not matter."""

    def visit(shown: Shown) -> Iterator[Shown]:
        node = shown.node
        if not visible(node, shown.scope):
            return
        kind = node.get("type")
        if kind in MODALS and not is_open(node):
            return
        yield shown
        children = expanded_children(node, shown.address, shown.scope)
        pager = shown.pager
        if kind == "pager":
            key = node.get("id")
            if isinstance(key, str):
                pager = key
                page = page_of(key)
                children = children[page : page + 1]
            elif unnamed_pager == "first":
                children = children[:1]
        for child, at, child_scope in children:
            yield from visit(Shown(child, at, child_scope, pager))

    yield from visit(Shown(root, "root", None, None))


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
    order (`shown_nodes`; every page of a pager without an id). A repeat instance's entry adds
    `item` (its index); a control bound to state adds `value`; a node with an `id` adds it."""
    out: list[dict[str, Any]] = []
    for shown in shown_nodes(root, visible=visible, is_open=is_open, page_of=page_of):
        node, scope, kind = shown.node, shown.scope, shown.node.get("type")
        texts = [bind(t, scope, shown.pager) for t in node_texts(node, value)]
        current = bound_value(node, value)
        if not (texts or current is not None):
            continue
        if kind in _SILENT and not node.get("contentDescription"):
            continue
        entry: dict[str, Any] = {"address": shown.address, "type": kind, "text": " | ".join(texts)}
        if isinstance(node.get("id"), str):
            entry["id"] = node["id"]
        if scope and isinstance(scope.get("index"), int):
            entry["item"] = scope["index"]
        if current is not None:
            entry["value"] = current
        out.append(entry)
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
    than the settled one (the first, for a pager without an id), or inside a dialog, snackbar or
    sheet that is closed (an open one's fields count: `modalPrototypeSheets`). Scroll position
    does not matter: a field scrolled out of the viewport still counts, as on the phone."""
    shown = shown_nodes(
        root, visible=visible, is_open=is_open, page_of=page_of, unnamed_pager="first"
    )
    return any(s.node.get("type") == "textField" for s in shown)
