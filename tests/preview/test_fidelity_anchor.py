"""The `anchor` row of docs/fidelity.md: where the preview draws anchored nodes, against AutoMobile's
Compose renderer (SC PrototypeSpecContent.kt `PrototypeAnchorLayer`, `layeredPrototypeAnchors`,
`layeredPrototypeAnchorsIn`, `CaptureAnchorLocals`; PrototypeAnchorLayout.kt
`Modifier.prototypeAnchor`, `prototypeAnchorRect`; PrototypeAnchorFade.kt; HO PrototypeHost.kt
`moveAnchored`). The numbers are those of AutoMobile's PrototypeAnchorLayerTest (a 100 dp box
anchored at (100, 300) and a 300 dp box at (100, 100) under a wrap-content root box) and
PrototypeAnchorLayerLocalsTest. Bounds are screen dp, as the phone reads them (the host converts
an element's px to dp before sending)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.preview.fidelity import bounds, box, close, hex_rgb, rgb_at, spec_of

RED = (255, 0, 0)
TAP = [{"type": "emit", "name": "small"}]


def anchored(node_id: str, x: float, y: float, size: float, **extra: Any) -> dict[str, Any]:
    """A red box covering its bounds anchor (PrototypeAnchorLayerTest `anchored`)."""
    return {"type": "box", "id": node_id, "style": {"background": "#FF0000"}, "children": [],
            "anchor": {"type": "bounds", "alignment": "cover",
                       "bounds": {"x": x, "y": y, "width": size, "height": size}}, **extra}  # fmt: skip


def rect(b: dict[str, float]) -> tuple[float, float, float, float]:
    return b["x"], b["y"], b["width"], b["height"]


def wrap_root(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": "box", "id": "root", "children": list(children)}


def test_anchors_under_a_wrap_root_are_drawn_where_anchored_PrototypeAnchorLayer(  # noqa: N802
    scene: Any,
) -> None:
    b = bounds(scene, spec_of(wrap_root(anchored("small", 100, 300, 100),
                                        anchored("large", 100, 100, 300))))  # fmt: skip
    assert rect(b["small"]) == (100, 300, 100, 100)
    assert rect(b["large"]) == (100, 100, 300, 300)
    image = scene.grab()
    # Not clipped to the wrap root's 0 x 0 slot: drawn in full, the later one on top.
    assert rgb_at(image, 390, 390) == RED and rgb_at(image, 150, 350) == RED


def test_the_parent_reserves_no_slot_for_anchored_children_isLayeredPrototypeAnchor(  # noqa: N802
    scene: Any,
) -> None:
    b = bounds(scene, spec_of(wrap_root(anchored("small", 100, 300, 100),
                                        anchored("large", 100, 100, 300))))  # fmt: skip
    assert (b["root"]["width"], b["root"]["height"]) == (0, 0)
    column = {"type": "column", "id": "column", "children": [
        anchored("large", 100, 100, 300), {"type": "text", "id": "below", "text": "below"}]}  # fmt: skip
    b = bounds(scene, spec_of(column))
    assert b["below"]["y"] == b["column"]["y"]  # the anchored node above it took no slot


def test_a_fill_root_places_the_anchors_exactly_as_before_prototypeAnchor(scene: Any) -> None:  # noqa: N802
    root = {"type": "box", "id": "root", "style": {"width": "fill", "height": "fill"},
            "children": [anchored("small", 100, 300, 100), anchored("large", 100, 100, 300)]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert rect(b["small"]) == (100, 300, 100, 100) and rect(b["large"]) == (100, 100, 300, 300)


def test_a_wrap_parent_never_clips_its_anchored_child_PrototypeAnchorLayer(scene: Any) -> None:  # noqa: N802
    # A 20 dp parent with rounded corners clips its content (SC `modifier.clip`): not the layer.
    parent = box("parent", 20, 20, cornerRadius=4, background="#0000FF")
    parent["children"] = [anchored("child", 200, 400, 80)]
    scene.show(spec_of({"type": "column", "children": [parent]}))
    image = scene.grab()
    assert rgb_at(image, 240, 440) == RED and rgb_at(image, 10, 10) == (0, 0, 255)


@pytest.mark.parametrize(
    ("alignment", "x", "y"),
    [("top", 180, 200), ("bottom", 180, 280), ("start", 100, 240), ("end", 260, 240)],
)
def test_an_edge_alignment_keeps_the_measured_size_prototypeAnchorRect(  # noqa: N802
    scene: Any, alignment: str, x: float, y: float
) -> None:
    # A 40 x 20 node on (100, 200, 200 x 100): its matching edge on the bounds' edge, centred
    # along the other axis, then the offset in screen axes.
    node = box("n", 40, 20, background="#FF0000")
    node["anchor"] = {"type": "bounds", "alignment": alignment, "offset": {"x": 5, "y": -3},
                      "bounds": {"x": 100, "y": 200, "width": 200, "height": 100}}  # fmt: skip
    b = bounds(scene, spec_of(wrap_root(node)))
    assert rect(b["n"]) == (x + 5, y - 3, 40, 20)


def test_a_cover_anchor_sizes_the_node_to_its_bounds_prototypeAnchorCovers(scene: Any) -> None:  # noqa: N802
    # Authored sizes play no part under a cover anchor (SC `prototypeNodeModifier`).
    node = anchored("n", 30, 60, 120)
    node["style"].update({"width": {"dp": 50}, "height": {"dp": 10}, "maxWidth": 40})
    b = bounds(scene, spec_of(wrap_root(node)))
    assert rect(b["n"]) == (30, 60, 120, 120)


def test_anchors_are_screen_coordinates_below_the_dismiss_bar_Modifier_prototypeAnchor(  # noqa: N802
    quick: Any,
) -> None:
    from studio.preview.render import HeadlessScene

    phone = HeadlessScene(412, 915, "light", chrome=True)
    try:
        # Fullscreen: the content starts below the status bar and the 32 dp dismiss bar, and
        # the anchor is still at screen (100, 300); the content area clips what is above it.
        b = bounds(phone, spec_of(wrap_root(anchored("small", 100, 300, 100),
                                            anchored("high", 300, 0, 40))))  # fmt: skip
        assert rect(b["small"]) == (100, 300, 100, 100)
        image = phone.grab()
        assert rgb_at(image, 320, 20) != RED and rgb_at(image, 320, 60) != RED
        # A bottom sheet's window starts 300 dp above the bottom: the anchor does not move.
        sheet = {"placement": {"type": "sheet", "edge": "bottom", "height": 300}}
        b = bounds(phone, spec_of(wrap_root(anchored("small", 100, 700, 100)), window=sheet))
        assert rect(b["small"]) == (100, 700, 100, 100)
    finally:
        phone.close()


def test_anchors_draw_above_the_tree_and_below_a_dialog_PrototypeSpecContent(scene: Any) -> None:  # noqa: N802
    cover = box("cover", 412, 600, background="#0000FF")  # later in the tree, under the anchor
    dialog = {
        "type": "dialog",
        "id": "dlg",
        "title": "Hi",
        "openWhen": {"key": "open", "equals": True},
    }
    root = {"type": "column", "children": [anchored("a", 0, 0, 100), cover, dialog]}
    scene.show(spec_of(root, state={"open": False}))
    assert rgb_at(scene.grab(), 50, 50) == RED
    scene.controller.runtime.set_value("open", True)
    # The dialog's scrim (0.32) covers the anchored node.
    assert not close(rgb_at(scene.grab(), 50, 50), RED, 30)


def test_an_anchored_node_inside_a_dialog_is_drawn_above_it_layeredPrototypeAnchorsIn(  # noqa: N802
    scene: Any,
) -> None:
    dialog = {"type": "dialog", "id": "dlg", "title": "Hi", "openWhen": {"key": "open", "equals": True},
              "child": anchored("inside", 20, 40, 50)}  # fmt: skip
    b = bounds(scene, spec_of({"type": "column", "children": [dialog]}, state={"open": True}))
    assert rect(b["inside"]) == (20, 40, 50, 50)
    assert rgb_at(scene.grab(), 45, 65) == RED  # over the scrim, not inside the dialog's card


def test_anchored_text_in_a_card_takes_the_cards_content_colour_CaptureAnchorLocals(  # noqa: N802
    scene: Any,
) -> None:
    text = {"type": "text", "id": "t", "text": "MMMMMM", "style": {"textSize": 30},
            "anchor": {"type": "bounds", "bounds": {"x": 10, "y": 400, "width": 200, "height": 60}}}  # fmt: skip
    card = {"type": "card", "style": {"background": "primary", "padding": {"top": 8}},
            "children": [{"type": "text", "text": "plain"}, text]}  # fmt: skip
    b = bounds(scene, spec_of({"type": "column", "children": [card]}))
    assert rect(b["t"]) == (10, 400, 200, 60)
    from tests.preview.helpers import pixels

    px = pixels(scene.grab())
    region = px[400:460, 10:210]
    found = {(int(p[2]), int(p[1]), int(p[0])) for row in region for p in row}
    on_primary = hex_rgb(scene.controller.scheme.colors["onPrimary"])
    assert any(close(c, on_primary, 12) for c in found)


def _hideable(transition: str) -> dict[str, Any]:
    # A transparent child: a coloured one would take part in the theme's leading-chain inference.
    child = {**anchored("child", 10, 20, 60), "style": {}}
    return {"type": "column", "children": [
        {"type": "box", "id": "parent", "transition": transition,
         "visibleWhen": {"key": "show", "equals": True}, "children": [child]}]}  # fmt: skip


def _shown(scene: Any) -> set[str]:
    return {e["address"] for e in scene.visible_summary(on_screen_only=False)}


def test_an_anchored_child_goes_with_its_hidden_parent_LayeredPrototypeAnchor_ancestorsShown(  # noqa: N802
    scene: Any,
) -> None:
    scene.show(spec_of(_hideable("none"), state={"show": True}))
    scene.grab()
    assert "child" in _shown(scene)
    scene.controller.runtime.set_value("show", False)
    scene.grab()
    assert "child" not in _shown(scene)
    scene.controller.runtime.set_value("show", True)
    scene.grab()
    assert "child" in _shown(scene)


def test_an_anchored_child_fades_out_with_its_parent_PrototypeAnchorFade(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(spec_of(_hideable("default"), state={"show": True}))
    scene.grab()
    from PySide6.QtQuick import QQuickItem

    layer = scene.screen_item().findChild(QQuickItem, "anchorLayer")
    assert [kid.opacity() for kid in layer.childItems()] == [1]
    scene.controller.runtime.set_value("show", False)
    seen: list[float] = []

    def gone() -> bool:
        kids = layer.childItems()
        seen.extend(kid.opacity() for kid in kids)
        return not kids

    # Its alpha is the parent's exit progress; it goes when the parent has gone.
    qtbot.waitUntil(gone, timeout=3000)
    assert any(0 < value < 1 for value in seen)


def test_a_floating_window_moves_onto_its_anchored_root_HO_moveAnchored(scene: Any) -> None:  # noqa: N802
    from PySide6.QtQuick import QQuickItem

    root = anchored("root", 100, 300, 100)
    window = {
        "placement": {"type": "floating", "gravity": "topStart", "offset": {"x": 24, "y": 120}}
    }
    b = bounds(scene, spec_of(root, window=window))
    assert rect(b["root"]) == (100, 300, 100, 100)
    item = scene.screen_item().findChild(QQuickItem, "window")
    assert (item.x(), item.y(), item.width(), item.height()) == (100, 300, 100, 100)


def test_an_element_anchor_is_laid_out_in_place_requireResolvedPrototypeAnchors(  # noqa: N802
    scene: Any,
) -> None:
    # The phone resolves it against the app behind (none here) and shows nothing without a
    # match: the preview keeps the node where it is authored (docs/fidelity.md, `anchor`).
    node = box("n", 40, 20)
    node["anchor"] = {"type": "element", "selector": {"testTag": "buy"}, "alignment": "cover"}
    column = {"type": "column", "id": "col", "children": [box("above", 10, 30), node]}
    b = bounds(scene, spec_of(column))
    assert rect(b["n"]) == (0, 30, 40, 20)


def test_a_tap_lands_on_the_anchored_node_where_it_is_drawn_PrototypeAnchorLayer(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    from PySide6.QtCore import QPoint, Qt

    preview.set_spec(spec_of(wrap_root(anchored("small", 100, 300, 100, onTap=TAP),
                                       anchored("large", 100, 100, 300))))  # fmt: skip
    events: list[Any] = []
    preview.runtimeEvent.connect(events.append)
    qtbot.waitUntil(lambda: any(e["address"] == "small" for e in preview.visible_summary()))
    preview.grab_image()
    # The small one's centre, under the large one too, which takes no taps (Compose: a box
    # without onTap consumes no pointer input), as PrototypeAnchorLayerTest taps it.
    qtbot.mouseClick(preview.quick_widget, Qt.MouseButton.LeftButton, pos=QPoint(150, 350))
    qtbot.waitUntil(lambda: len(events) > 0)
    assert [e.to_json()["name"] for e in events] == ["small"]


# -- anchors below the root of a floating window (AutoMobile's host: prototypeAnchors.ts) -------

FLOATING_WINDOW = {
    "placement": {"type": "floating", "gravity": "topStart", "offset": {"x": 0, "y": 0}}
}
REFUSED = (
    "root.children[1].anchor: a floating window can anchor only its root (the window moves onto "
    "it), so the phone shows nothing; anchor the root, or use a fullscreen or sheet placement"
)


def _nested_in_floating() -> dict[str, Any]:
    column = {"type": "column", "id": "col", "children": [
        box("plain", 80, 40, background="#0000FF"), anchored("badge", 100, 300, 100)]}  # fmt: skip
    return spec_of(column, window=FLOATING_WINDOW)


def test_a_floating_window_with_an_anchor_below_its_root_shows_nothing_prototypeAnchorPlacementError(  # noqa: N802, E501
    scene: Any,
) -> None:
    from PySide6.QtQuick import QQuickItem

    # The host refuses the show before anything reaches the phone ("Nothing was shown"): no
    # window, neither the anchored node nor the rest of the tree, and the line says where.
    scene.show(_nested_in_floating())
    assert scene.controller.show_refusal == REFUSED
    image = scene.grab()
    assert rgb_at(image, 150, 350) != RED and rgb_at(image, 40, 20) != (0, 0, 255)
    assert not scene.screen_item().findChild(QQuickItem, "window").isVisible()
    # Fixed by an edit (anchored root, as the host asks): shown in place, the refusal gone.
    fixed = _nested_in_floating()
    fixed["root"]["children"][1].pop("anchor")
    scene.controller.apply_change(fixed, ["root.children[1]"])
    image = scene.grab()
    assert scene.controller.show_refusal == "" and rgb_at(image, 40, 20) == (0, 0, 255)


def test_an_anchor_inside_a_component_used_below_a_floating_root_is_refused_assertAnchorsShowable(  # noqa: N802, E501
    scene: Any,
) -> None:
    # The host checks the component-expanded spec: a `use` below the root whose component
    # anchors a node is refused as the same node written in place would be.
    spec = _nested_in_floating()
    spec["components"] = {"badge": {"root": spec["root"]["children"].pop(1)}}
    spec["root"]["children"].append({"type": "use", "component": "badge"})
    scene.show(spec)
    assert scene.controller.show_refusal == REFUSED


def test_the_first_nested_anchor_is_named_breadth_first_as_the_host_reports_it_anchoredNodes(  # noqa: N802
) -> None:
    from studio.spec import validate
    from studio.spec.anchors import anchor_placement_error

    spec = _nested_in_floating()
    deep = {"type": "box", "children": [anchored("deeper", 0, 0, 10)]}
    spec["root"]["children"].insert(0, deep)  # depth 2, first in document order
    assert anchor_placement_error(spec) == REFUSED.replace("children[1]", "children[2]")
    # AutoMobile's validator accepts the spec (only the host refuses it), so ours does too.
    assert validate(spec).ok
    # An element anchor counts too; the root's own anchor, sheets and fullscreen are shown.
    element = {"type": "text", "text": "x", "anchor": {
        "type": "element", "selector": {"testTag": "buy"}, "alignment": "cover"}}  # fmt: skip
    assert anchor_placement_error(spec_of({"type": "column", "children": [element]},
                                          window=FLOATING_WINDOW)) is not None  # fmt: skip
    assert (
        anchor_placement_error(spec_of(anchored("root", 1, 2, 3), window=FLOATING_WINDOW)) is None
    )
    sheet = {"placement": {"type": "sheet", "edge": "bottom", "height": 300}}
    assert anchor_placement_error(spec_of(spec["root"], window=sheet)) is None
    assert anchor_placement_error(spec_of(spec["root"])) is None


def test_proto_studio_render_refuses_it_in_one_line_prototypeAnchorPlacementError(  # noqa: N802
    quick: Any, tmp_path: Any, capsys: Any
) -> None:
    import json

    from studio.cli import main

    path = tmp_path / "floating.json"
    path.write_text(json.dumps(_nested_in_floating()), encoding="utf-8")
    out = tmp_path / "x.png"
    assert main(["render", str(path), "--out", str(out), "--backend", "software"]) == 1
    err = capsys.readouterr().err
    assert err == f"render: {path}: {REFUSED}\n" and not out.exists()


# -- anchored nodes inside a scroll: the phone composes all of it (SC "scroll", `PrototypeAnchorLayer`)


def _long_scroll(anchored_row: int, rows: int = 40) -> dict[str, Any]:
    """A scroll of 100 dp green rows, the row `anchored_row` holding a red box anchored at
    (100, 300): on the phone the scroll is `Box(verticalScroll)`, not lazy, so every row is
    composed and the anchor layer draws the box at its screen place wherever its row is."""
    items = [box(f"row{i}", 412, 100, background="#00FF00") for i in range(rows)]
    items[anchored_row]["children"] = [anchored("deep", 100, 300, 100)]
    column = {"type": "column", "id": "col", "children": items}
    return spec_of({"type": "scroll", "id": "list", "child": column})


def test_a_one_shot_render_draws_an_anchor_from_a_row_far_below_the_first_screen_PrototypeAnchorLayer(  # noqa: N802, E501
    quick: Any, tmp_path: Any
) -> None:
    import json

    from PySide6.QtGui import QImage

    from studio.cli import main

    path = tmp_path / "long.json"
    path.write_text(json.dumps(_long_scroll(30)), encoding="utf-8")  # row 30: 3,000 dp down
    out = tmp_path / "long.png"
    code = main(["render", str(path), "--out", str(out), "--backend", "software", "--no-chrome"])
    assert code == 0
    image = QImage(str(out))
    assert rgb_at(image, 150, 350) == RED and rgb_at(image, 50, 350) == (0, 255, 0)


def test_an_anchored_node_stays_where_anchored_as_its_row_scrolls_in_and_out_PrototypeAnchorLayer(  # noqa: N802, E501
    scene: Any,
) -> None:
    from tests.preview.helpers import find_items

    # Its row is 3,000 dp down, unmeasured by the first frame's lazy scroll; the phone draws it
    # from the start all the same.
    scene.load(_long_scroll(30))
    assert rgb_at(scene.grab_now(), 150, 350) == RED
    (flick,) = [i for i in find_items(scene.screen_item(), "") if i.inherits("QQuickFlickable")]
    # Its row scrolled into view (at 400 dp on screen), then out above and below it again.
    for y in (2600.0, 0.0, 1200.0, 3085.0):
        flick.setProperty("contentY", y)
        assert rgb_at(scene.grab(), 150, 350) == RED  # the layer's place, whatever is scrolled


def test_an_edit_that_adds_or_removes_the_only_anchor_draws_it_or_not_PrototypeAnchorLayer(  # noqa: N802, E501
    scene: Any,
) -> None:
    from studio.spec.patch import apply_patch

    # Edits share every subtree they do not change, and the scene remembers which subtrees
    # hold an anchor: an anchor added 3,000 dp down, then taken away again, must still count.
    plain = _long_scroll(30)
    plain["root"]["child"]["children"][30]["children"] = []
    scene.show(plain)
    assert rgb_at(scene.grab(), 150, 350) == (0, 255, 0)
    add = {"op": "replaceNode", "address": "row30", "node": _long_scroll(30)["root"]["child"]
           ["children"][30]}  # fmt: skip
    added = apply_patch(plain, [add])
    scene.controller.apply_change(added.spec, list(added.changed))
    assert rgb_at(scene.grab(), 150, 350) == RED
    gone = apply_patch(added.spec, [{**add, "node": plain["root"]["child"]["children"][30]}])
    scene.controller.apply_change(gone.spec, list(gone.changed))
    assert rgb_at(scene.grab(), 150, 350) == (0, 255, 0)
