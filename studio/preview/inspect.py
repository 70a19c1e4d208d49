"""Reading the rendered item tree: what is on screen (address, type, text, bounds)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtQuick import QQuickItem

from studio.preview.bidi import unmarked


def _prop(item: QQuickItem, name: str) -> Any:
    """A property's value, or None when the item has no such property (PySide6 6.12.0 on
    Python 3.11 crashed after thousands of `property()` calls for missing names)."""
    if item.metaObject().indexOfProperty(name) < 0:
        return None
    return item.property(name)


def _is_delegate(item: QQuickItem) -> bool:
    return _prop(item, "isNodeDelegate") is True


def children_in_order(item: QQuickItem) -> list[QQuickItem]:
    """An item's children in stacking order (node delegates are made as they come into view and
    carry their node's index as `z`)."""
    kids = item.childItems()
    return sorted(kids, key=lambda c: c.z()) if len(kids) > 1 else kids


def _texts(item: QQuickItem, icon_font: Collection[str], out: list[str]) -> None:
    for child in children_in_order(item):
        if _is_delegate(child) or not child.isVisible():
            continue
        name = child.metaObject().className()
        # QQuickText, QQuickTextInput, QQuickTextField and QML types built on them
        if "Text" in name or child.inherits("QQuickText") or child.inherits("QQuickTextInput"):
            text = _prop(child, "text")
            font = _prop(child, "font")
            if isinstance(text, str) and text and (font is None or font.family() not in icon_font):
                out.append(unmarked(text))  # without the layout direction's marks (bidi.py)
            placeholder = _prop(child, "placeholderText")
            if isinstance(placeholder, str) and placeholder and not text:
                out.append(placeholder)
        _texts(child, icon_font, out)


def visible_nodes(
    screen: QQuickItem, icon_font: str | Collection[str], *, on_screen_only: bool = True
) -> list[dict[str, Any]]:
    """Every visible node delegate inside the screen (window and overlay layers), in tree order,
    with its own visible text (not its child nodes') and its bounds in screen dp; with
    `on_screen_only=False` also the ones scrolled out of view."""
    icon_fonts = {icon_font} if isinstance(icon_font, str) else set(icon_font)
    bounds_of_screen = QRectF(0, 0, screen.width(), screen.height())
    out: list[dict[str, Any]] = []

    def visit(item: QQuickItem) -> None:
        for child in children_in_order(item):
            if not child.isVisible() or child.opacity() <= 0:
                continue
            owner = _prop(child, "ownerDelegate")
            node_item = (
                child if _is_delegate(child) else owner if isinstance(owner, QQuickItem) else None
            )
            if node_item is not None:
                rect = child.mapRectToItem(screen, QRectF(0, 0, child.width(), child.height()))
                on_screen = (
                    rect.intersects(bounds_of_screen) and rect.width() > 0 and rect.height() > 0
                )
                if on_screen or not on_screen_only:
                    texts: list[str] = []
                    _texts(child, icon_fonts, texts)
                    out.append(
                        {
                            "address": node_item.property("address"),
                            "type": node_item.property("nodeType"),
                            "text": " ".join(texts),
                            "bounds": {
                                "x": round(rect.x(), 1),
                                "y": round(rect.y(), 1),
                                "width": round(rect.width(), 1),
                                "height": round(rect.height(), 1),
                            },
                        }
                    )
            visit(child)

    visit(screen)
    return out
