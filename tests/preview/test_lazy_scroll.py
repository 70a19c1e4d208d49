"""Only what is on screen is instantiated, and that changes no layout result: every delegate a lazy
scene makes sits exactly where a fully instantiated scene (`SceneTree.eager`) puts it, at the top,
after scrolling and at the end (Compose's scroll measures all its content: SC "scroll",
`Box(modifier.verticalScroll(scroll))`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

ROWS = 120


def _list_spec(rows: int = ROWS, *, centered: bool = False) -> dict[str, Any]:
    """A long list in a scroll: rows of icon, weighted label, counter, button and switch (the
    benchmark's shape); `centered`: a wrap-width column centred in the scroll whose widest row is
    the last one (far below the first screen)."""
    items: list[dict[str, Any]] = []
    for i in range(rows):
        items.append(
            {
                "type": "row",
                "id": f"row{i}",
                "style": {"spacing": 8, "padding": {"start": 16, "end": 16}},
                "children": [
                    {"type": "icon", "name": "star"},
                    {"type": "text", "text": f"Item {i}" + (" wide" * 12 if i == rows - 1 else "")},
                    {"type": "text", "text": "{count}"},
                    {"type": "button", "label": "Go", "variant": "tonal",
                     "onTap": [{"type": "increment", "key": "count"}]},
                    {"type": "switch", "stateKey": f"on{i % 4}"},
                ],
            }
        )  # fmt: skip
    column: dict[str, Any] = {"type": "column", "children": items}
    if not centered:
        column["style"] = {"width": "fill"}
    root: dict[str, Any] = {"type": "scroll", "child": column}
    if centered:
        root = {"type": "box", "style": {"width": "fill", "height": "fill"},
                "contentAlignment": "topCenter", "children": [root]}  # fmt: skip
    return {
        "id": "lazy",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"count": 0, **{f"on{i}": False for i in range(4)}},
        "root": root,
    }


@pytest.fixture
def scenes(quick: Any) -> Iterator[tuple[Any, Any]]:
    """A lazy scene and a fully instantiated one, both 412x915 without chrome."""
    from studio.preview.render import HeadlessScene

    lazy = HeadlessScene(412, 915, "light", chrome=False)
    eager = HeadlessScene(412, 915, "light", chrome=False)
    eager.controller.tree.eager = True
    yield lazy, eager
    lazy.close()
    eager.close()


def _bounds(scene: Any) -> dict[str, dict[str, float]]:
    """address -> screen bounds of every node delegate the scene made (on screen or not)."""
    from studio.preview.inspect import visible_nodes

    scene.grab()
    entries = visible_nodes(
        scene.screen_item(), scene.controller.icon_families(), on_screen_only=False
    )
    return {e["address"]: e["bounds"] for e in entries}


def _flickable(scene: Any) -> Any:
    from tests.preview.helpers import find_items

    (flick,) = [i for i in find_items(scene.screen_item(), "") if i.inherits("QQuickFlickable")]
    return flick


def _scroll_to(scene: Any, y: float) -> None:
    _flickable(scene).setProperty("contentY", y)
    scene.grab()


def _same_layout(lazy: Any, eager: Any) -> set[str]:
    """The lazy scene's delegates are a subset of the eager one's, each at the same place; returns
    the addresses of the rows on screen."""
    made, full = _bounds(lazy), _bounds(eager)
    assert set(made) <= set(full)
    assert {a: full[a] for a in made} == made
    screen_h = 915
    return {
        a for a, b in made.items()
        if a.startswith("row") and b["y"] + b["height"] > 0 and b["y"] < screen_h
    }  # fmt: skip


def test_a_long_list_instantiates_what_is_on_screen_at_the_eager_layouts_places(
    scenes: tuple[Any, Any], qtbot: Any
) -> None:
    lazy, eager = scenes
    spec = _list_spec()
    lazy.show(spec)
    eager.show(spec)
    full = _bounds(eager)
    assert sum(1 for a in full if a.startswith("row")) == ROWS
    on_screen = _same_layout(lazy, eager)
    made = _bounds(lazy)
    # The first screen (and half a screen ahead) only: a small share of the 720 nodes.
    assert "row0" in on_screen and len(made) < (ROWS * 6) / 4
    assert not any(a.startswith(f"row{ROWS - 1}") for a in made)
    # The scroll's extent is the whole list's, as Compose measures it (the lazy layout finishes
    # measuring what is below in idle steps without moving anything already placed).
    qtbot.waitUntil(lambda: not lazy.controller.tree.completing)
    assert _flickable(lazy).property("contentHeight") == _flickable(eager).property("contentHeight")
    middle = float(_flickable(eager).property("contentHeight")) / 2
    for scene in (lazy, eager):
        _scroll_to(scene, middle)
    on_screen = _same_layout(lazy, eager)
    assert f"row{ROWS // 2}" in on_screen and "row0" not in on_screen
    end = float(_flickable(eager).property("contentHeight")) - 915
    for scene in (lazy, eager):
        _scroll_to(scene, end)
    on_screen = _same_layout(lazy, eager)
    assert f"row{ROWS - 1}" in on_screen
    # What scrolled away was released: the lazy scene holds about one screen's worth again.
    assert len(_bounds(lazy)) < (ROWS * 6) / 4


def test_a_wide_row_far_below_still_sizes_a_centred_column_on_the_first_screen(
    scenes: tuple[Any, Any],
) -> None:
    """The column wraps its widest row (the last one, not instantiated at first): the rows on the
    first screen are placed by that width, as in the fully instantiated scene."""
    lazy, eager = scenes
    spec = _list_spec(60, centered=True)
    lazy.show(spec)
    eager.show(spec)
    on_screen = _same_layout(lazy, eager)
    assert "row0" in on_screen and "row59" not in _bounds(lazy)
    # The column is as wide as its last row (the screen), so the first row starts at the left.
    assert _bounds(eager)["root.children[0].child"]["width"] == 412
    assert _bounds(lazy)["row0"]["x"] == 0


def test_an_edit_below_the_screen_changes_the_scroll_extent_as_in_the_eager_scene(
    scenes: tuple[Any, Any], qtbot: Any
) -> None:
    """A one-node edit of a row nobody sees (a longer label that wraps) is measured: the scroll's
    extent and what is on screen match the fully instantiated scene after the same edit."""
    from studio.spec.patch import apply_patch

    lazy, eager = scenes
    spec = _list_spec(60)
    lazy.show(spec)
    eager.show(spec)
    before = float(_flickable(eager).property("contentHeight"))
    node = {"type": "text", "text": "Edited " * 40, "style": {"weight": 1}}
    op = {"op": "replaceNode", "address": "root.child.children[50].children[1]", "node": node}
    result = apply_patch(spec, [op])
    for scene in (lazy, eager):
        scene.controller.apply_change(result.spec, list(result.changed))
        scene.grab()
    qtbot.waitUntil(lambda: not lazy.controller.tree.completing)
    lazy.grab()
    assert float(_flickable(eager).property("contentHeight")) > before  # the label wraps
    assert _flickable(lazy).property("contentHeight") == _flickable(eager).property("contentHeight")
    _same_layout(lazy, eager)


def test_a_render_of_the_first_screen_measures_nothing_below_and_matches_the_eager_scene(
    scenes: tuple[Any, Any], tmp_path: Any
) -> None:
    """`proto-studio render` (render_spec) draws the first screen without measuring the rest of
    the list: its PNG is pixel for pixel the fully instantiated scene's frame."""
    from PySide6.QtGui import QImage

    from studio.preview.render import render_spec

    _, eager = scenes
    spec = _list_spec(centered=True)
    out = tmp_path / "first.png"
    render_spec(spec, out, chrome=False)
    eager.show(spec)
    expected = eager.grab().convertToFormat(QImage.Format.Format_ARGB32)
    assert QImage(str(out)).convertToFormat(QImage.Format.Format_ARGB32) == expected


def test_the_first_frame_makes_only_the_rows_on_screen_and_the_rows_ahead_follow(
    scenes: tuple[Any, Any],
) -> None:
    """A new spec's first frame instantiates what can be seen and nothing ahead of it: that frame
    is already the settled one, pixel for pixel; the rows half a screen below it are made in the
    next idle pass, where the next scroll step finds them."""
    from PySide6.QtGui import QImage

    lazy, eager = scenes
    spec = _list_spec()
    eager.show(spec)
    full = _bounds(eager)
    lazy.load(spec)
    first = lazy.grab_now().convertToFormat(QImage.Format.Format_ARGB32)
    visible = {
        a for a, b in full.items()
        if a.startswith("row") and "." not in a and b["y"] < 915
    }  # fmt: skip
    ahead = {
        a for a, b in full.items()
        if a.startswith("row") and "." not in a and 915 <= b["y"] < 915 * 1.5 - 60
    }  # fmt: skip
    assert visible and ahead
    made_first = {a for a in _bounds_now(lazy) if a.startswith("row") and "." not in a}
    assert made_first == visible
    assert lazy.grab().convertToFormat(QImage.Format.Format_ARGB32) == first
    made = set(_bounds(lazy))
    assert ahead <= made
    _same_layout(lazy, eager)


def _bounds_now(scene: Any) -> dict[str, dict[str, float]]:
    """`_bounds` without letting the event loop run first."""
    from studio.preview.inspect import visible_nodes

    entries = visible_nodes(
        scene.screen_item(), scene.controller.icon_families(), on_screen_only=False
    )
    return {e["address"]: e["bounds"] for e in entries}


def _carousel_spec() -> dict[str, Any]:
    """A list whose every tenth row is a horizontal scroll of twelve cards, the rest rows of a
    label and a counter (a catalogue's shape: scrolls in a scroll)."""
    items: list[dict[str, Any]] = []
    for i in range(60):
        if i % 10 == 5:
            cards = [
                {"type": "card", "id": f"card{i}_{j}", "style": {"width": 140, "height": 90},
                 "child": {"type": "text", "text": f"Card {i}.{j}"}}
                for j in range(12)
            ]  # fmt: skip
            items.append(
                {"type": "scroll", "id": f"strip{i}", "axis": "horizontal",
                 "child": {"type": "row", "style": {"spacing": 8}, "children": cards}}
            )  # fmt: skip
        else:
            items.append(
                {"type": "row", "id": f"row{i}",
                 "style": {"padding": {"start": 16, "top": 24, "bottom": 24}},
                 "children": [{"type": "text", "text": f"Item {i}", "style": {"weight": 1}},
                              {"type": "text", "text": "{count}"}]}
            )  # fmt: skip
    return {
        "id": "strips",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"count": 0},
        "root": {"type": "scroll", "child": {"type": "column", "style": {"width": "fill"},
                                             "children": items}},
    }  # fmt: skip


def _flickables(scene: Any) -> dict[str, Any]:
    """The scene's Flickables by the address of their node: "" for the outer scroll, else the
    horizontal strip's id (the node delegate above each)."""
    from tests.preview.helpers import find_items

    out: dict[str, Any] = {}
    for flick in find_items(scene.screen_item(), ""):
        if not flick.inherits("QQuickFlickable"):
            continue
        item = flick.parentItem()
        while item is not None and not item.property("isNodeDelegate"):
            item = item.parentItem()
        address = str(item.property("address")) if item is not None else ""
        out["" if address == "root" else address] = flick
    return out


def test_small_scroll_steps_make_what_comes_into_view_as_the_eager_scene_places_it(
    scenes: tuple[Any, Any], qtbot: Any
) -> None:
    """A flick moves a tenth of a screen a frame: each step makes the rows coming into view and
    keeps those that stay (a step that moves nothing else visits only those, tree.py `_mount`),
    also inside a horizontal strip that scrolls on its own and after a state change that
    re-measures the rows on screen; every delegate sits where the fully instantiated scene puts
    it (SC "scroll": `verticalScroll`/`horizontalScroll` over all the content)."""
    lazy, eager = scenes
    spec = _carousel_spec()
    lazy.show(spec)
    eager.show(spec)
    qtbot.waitUntil(lambda: not lazy.controller.tree.completing)
    seen: set[str] = set()
    for step in range(1, 31):
        for scene in (lazy, eager):
            _flickables(scene)[""].setProperty("contentY", step * 91.5)
            scene.grab()
        seen |= _same_layout(lazy, eager)
    # rows came into view one after another, from the top and down past a screen
    assert {"row1", "row20", "row40"} <= seen
    made = _bounds(lazy)
    assert "row0" not in made  # scrolled well away: released
    # A strip on screen, scrolled to its end: its last card is made, where the eager one is.
    strip = next(a for a in made if a.startswith("strip") and "." not in a)
    for scene in (lazy, eager):
        flick = _flickables(scene)[strip]
        flick.setProperty("contentX", float(flick.property("contentWidth")) - 412)
        scene.grab()
    _same_layout(lazy, eager)
    card = strip.replace("strip", "card") + "_11"
    assert card in _bounds(lazy) and _bounds(lazy)[card] == _bounds(eager)[card]
    # State every row reads changes: the counters re-measure where they are.
    for scene in (lazy, eager):
        scene.controller.runtime.set_value("count", 123456)
        scene.grab()
    _same_layout(lazy, eager)
    lazy_w = {a: b["width"] for a, b in _bounds(lazy).items() if a.endswith("children[1]")}
    assert lazy_w and all(w > 30 for w in lazy_w.values())  # "123456", not "0"


def test_a_long_columns_children_drawn_away_from_their_slots_are_made_where_they_are_drawn(
    scenes: tuple[Any, Any],
) -> None:
    """In a long column (found by bisection, tree.py `_ColumnIndex`) a child is made when what
    it draws meets the screen, not its slot: a row moved far up by its `offset` (SC
    `Modifier.offset`: drawn elsewhere, its slot unmoved) shows while its slot is a screen
    below, and hidden rows (`visibleWhen`) take no slot; everything sits where the fully
    instantiated scene puts it."""
    lazy, eager = scenes
    spec = _list_spec(100)
    rows = spec["root"]["child"]["children"]
    rows[40]["style"] = {**rows[40]["style"], "offset": {"x": 0, "y": -1600}}
    for i in (3, 4, 50):
        rows[i]["visibleWhen"] = {"key": "on0", "equals": True}
    lazy.show(spec)
    eager.show(spec)
    drawn, below = _bounds(eager)["row40"], _bounds(eager)["row39"]
    assert 0 < drawn["y"] < 915 - 48 and below["y"] > 915 * 1.5  # on screen, its slot far below
    on_screen = _same_layout(lazy, eager)
    assert "row40" in on_screen and "row39" not in _bounds(lazy)
    assert "row3" not in on_screen  # hidden: no slot
    for y in (2000.0, 3500.0):
        for scene in (lazy, eager):
            _scroll_to(scene, y)
        on_screen = _same_layout(lazy, eager)
        assert on_screen and "row40" not in on_screen
