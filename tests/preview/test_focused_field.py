"""A focused text field keeps the focus, the caret and the keyboard while the preview moves or
remakes it. On the phone AutoMobile's scroll is `Box(verticalScroll)` (PrototypeSpecContent.kt
"scroll"), which composes all of its content, so a field scrolled out of view stays composed and
focused, and the keyboard stays up (Compose's `CoreTextField` shows it while focused); a
recomposition keeps the focus too. The preview makes only what is on screen and remakes controls
on a re-theme: it used to drop the field's delegate, and the focus and the keyboard with it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from studio.preview.inspect import visible_nodes
from tests.preview.fidelity import spec_of
from tests.preview.helpers import find_items


def _form(rows: int = 40) -> dict[str, Any]:
    fields = [
        {"type": "textField", "id": "first", "stateKey": "first", "placeholder": "First"},
        *({"type": "box", "id": f"gap{i}", "style": {"width": "fill", "height": {"dp": 80}},
           "children": [{"type": "text", "text": f"Row {i}"}]} for i in range(rows)),
        {"type": "textField", "id": "last", "stateKey": "last", "placeholder": "Last"},
    ]  # fmt: skip
    scroll = {"type": "scroll", "id": "form", "style": {"width": "fill", "height": "fill"},
              "child": {"type": "column", "style": {"width": "fill"}, "children": fields}}  # fmt: skip
    return spec_of(scroll, state={"first": "", "last": ""})


def _entries(preview: Any) -> dict[str, dict[str, float]]:
    """Every node made, on screen or not."""
    preview.grab_image()
    made = visible_nodes(
        preview.screen_item(), preview.controller.icon_families(), on_screen_only=False
    )
    return {e["address"]: e["bounds"] for e in made}


def _click(preview: Any, qtbot: Any, address: str) -> None:
    b = next(e for e in preview.visible_summary() if e["address"] == address)["bounds"]
    point = QPoint(round(b["x"] + 20), round(b["y"] + b["height"] / 2))
    qtbot.mouseClick(preview.quick_widget, Qt.MouseButton.LeftButton, pos=point)


def _focused_input(preview: Any) -> QQuickItem | None:
    item = preview.quick_widget.quickWindow().activeFocusItem()
    return item if item is not None and item.objectName() == "input" else None


def _flickable(preview: Any) -> QQuickItem:
    for item in find_items(preview.screen_item(), ""):
        if item.inherits("QQuickFlickable") and item.objectName() == "":
            return item
    raise AssertionError("no scroll on screen")


def _scroll_to(preview: Any, qtbot: Any, y: float) -> None:
    """The scroll's view moved to `y` (the tree makes and drops rows as the move reaches it)."""
    qtbot.waitUntil(lambda: not preview.controller.tree.completing)  # the whole form measured
    flick = _flickable(preview)
    flick.setProperty("contentY", y)
    assert flick.property("contentY") == y


def test_a_focused_field_scrolled_out_of_view_keeps_the_focus_and_the_keyboard_verticalScroll(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(_form())
    _click(preview, qtbot, "first")
    qtbot.waitUntil(lambda: preview.controller.keyboard_up)
    QTest.keyClicks(preview.quick_widget, "An")
    qtbot.waitUntil(lambda: preview.runtime.state["first"] == "An")
    field = _focused_input(preview)
    assert field is not None
    _scroll_to(preview, qtbot, 2000)  # 25 rows down: the field is far above the screen
    qtbot.waitUntil(lambda: "gap0" not in _entries(preview))  # the rows above it went
    assert "first" in _entries(preview)
    assert preview.controller.keyboard_up  # the keyboard stays up
    assert _focused_input(preview) is field  # the same field, still focused
    QTest.keyClicks(preview.quick_widget, "na")  # typing goes on into it
    qtbot.waitUntil(lambda: preview.runtime.state["first"] == "Anna")
    _scroll_to(preview, qtbot, 0)
    assert _focused_input(preview) is field and field.property("text") == "Anna"


def test_a_field_that_lost_the_focus_goes_when_scrolled_away(preview: Any, qtbot: Any) -> None:
    """Only the focused field is kept: once another one has the focus, the first is made only
    while it is on screen again."""
    preview.set_spec(_form(rows=6))
    _click(preview, qtbot, "first")
    qtbot.waitUntil(lambda: _focused_input(preview) is not None)
    first = _focused_input(preview)
    _click(preview, qtbot, "last")  # on the first screen too: 6 rows of 80 dp
    qtbot.waitUntil(lambda: _focused_input(preview) not in (None, first))
    preview.set_spec(_form(rows=40))  # a longer form: a fresh show, nothing focused
    _click(preview, qtbot, "first")
    qtbot.waitUntil(lambda: _focused_input(preview) is not None)
    _scroll_to(preview, qtbot, 2000)
    qtbot.waitUntil(lambda: "gap0" not in _entries(preview))
    assert "first" in _entries(preview)  # kept while focused
    # The focus moves to the last field, brought into view.
    flick = _flickable(preview)
    _scroll_to(preview, qtbot, flick.property("contentHeight") - flick.height())
    _click(preview, qtbot, "last")
    qtbot.waitUntil(lambda: preview.controller.tree.focused is not None
                    and preview.controller.tree.focused.node.get("id") == "last")  # fmt: skip
    _scroll_to(preview, qtbot, 1200)
    qtbot.waitUntil(lambda: "first" not in _entries(preview))
    assert preview.controller.keyboard_up  # the last field is focused (kept), off screen


def test_a_dark_switch_while_typing_keeps_the_focus_the_caret_and_the_keyboard(
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(_form(rows=4))
    _click(preview, qtbot, "first")
    qtbot.waitUntil(lambda: preview.controller.keyboard_up)
    QTest.keyClicks(preview.quick_widget, "hello")
    qtbot.waitUntil(lambda: preview.runtime.state["first"] == "hello")
    QTest.keyClick(preview.quick_widget, Qt.Key.Key_Left)
    QTest.keyClick(preview.quick_widget, Qt.Key.Key_Left)
    before = _focused_input(preview)
    assert before is not None and before.property("cursorPosition") == 3
    keyboard_moves: list[int] = []
    preview.controller.insetsChanged.connect(lambda: keyboard_moves.append(1))
    preview.set_theme("dark")
    qtbot.waitUntil(lambda: preview.controller.scheme.dark)
    preview.grab_image()
    after = _focused_input(preview)
    assert after is not None and after is not before  # remade for the new theme
    assert after.property("cursorPosition") == 3
    assert preview.controller.keyboard_up and not keyboard_moves  # never went down
    QTest.keyClicks(preview.quick_widget, "X")
    qtbot.waitUntil(lambda: preview.runtime.state["first"] == "helXlo")
