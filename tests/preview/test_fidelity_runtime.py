"""The Runtime rows of docs/fidelity.md, tapped in the preview: what a control does, in which
order, and which events it sends, as AutoMobile's runtime (PrototypeRuntime.kt `handle`) and its
components (PrototypeComponents.kt, PrototypeSelectionComponents.kt,
PrototypeMaterialComponents.kt, PrototypeSpecContent.kt) do; and visibleWhen transitions
(PrototypeMotion.kt)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PySide6.QtCore import QPoint

from tests.preview.helpers import swipe
from tests.preview.test_interaction import _click, _entry

MARK = [{"type": "emit", "name": "tapped"}]


def screen(state: dict[str, Any], *children: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"id": "rt", "window": {"placement": {"type": "fullscreen"}}, "state": state,
            "root": {"type": "column", "style": {"width": "fill"}, "children": list(children)},
            **top}  # fmt: skip


def delegate_at(preview: Any, address: str) -> Any:
    """The node delegate drawing `address` (visible or not)."""
    found: list[Any] = []

    def visit(item: Any) -> None:
        for child in item.childItems():
            if child.property("isNodeDelegate") is True and child.property("address") == address:
                found.append(child)
            visit(child)

    visit(preview.screen_item())
    assert len(found) == 1, found
    return found[0]


def named(preview: Any, name: str) -> Any:
    found: list[Any] = []

    def visit(item: Any) -> None:
        for child in item.childItems():
            if child.objectName() == name:
                found.append(child)
            visit(child)

    visit(preview.screen_item())
    return found[0]


def recorded(preview: Any) -> list[tuple[str, str | None, Any]]:
    runtime = preview.runtime
    return [(e.kind, e.name, e.payload) for e in runtime.events]


def at(bounds: dict[str, float], fx: float, fy: float = 0.5) -> QPoint:
    return QPoint(
        round(bounds["x"] + bounds["width"] * fx), round(bounds["y"] + bounds["height"] * fy)
    )


def test_RenderPrototypeToggle_a_tap_on_the_label_flips_then_runs_onTap(
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(screen({"on": False}, {"type": "switch", "stateKey": "on", "label": "Wi-Fi",
                                            "onTap": MARK}))  # fmt: skip
    _click(qtbot, preview, at(_entry(preview, "switch")["bounds"], 0.1))  # on the label
    qtbot.waitUntil(lambda: len(recorded(preview)) == 2)
    assert recorded(preview) == [
        ("emit", "change", {"key": "on", "value": True}),
        ("emit", "tapped", None),
    ]


def test_RenderPrototypeToggle_checkbox_row_toggles_as_a_whole(preview: Any, qtbot: Any) -> None:
    preview.set_spec(screen({"on": False}, {"type": "checkbox", "stateKey": "on", "label": "I agree",
                                            "onTap": MARK}))  # fmt: skip
    _click(qtbot, preview, at(_entry(preview, "checkbox")["bounds"], 0.8))
    qtbot.waitUntil(lambda: preview.runtime.value("on") is True)
    qtbot.waitUntil(lambda: [e.name for e in preview.runtime.events] == ["change", "tapped"])


def test_RenderPrototypeListItem_toggle_row_flips_its_trailing_key_then_runs_onTap(
    preview: Any, qtbot: Any
) -> None:
    item = {"type": "listItem", "headline": "Sync", "trailing": {"type": "switch", "stateKey": "s"},
            "onTap": MARK}  # fmt: skip
    preview.set_spec(screen({"s": False}, item))
    _click(qtbot, preview, at(_entry(preview, "listItem")["bounds"], 0.2))
    qtbot.waitUntil(lambda: [e.name for e in preview.runtime.events] == ["change", "tapped"])
    assert preview.runtime.value("s") is True


def test_RenderPrototypeSlider_Slide_then_onTap(preview: Any, qtbot: Any) -> None:
    slider = {"type": "slider", "stateKey": "v", "min": 0, "max": 10, "step": 1, "onTap": MARK,
              "style": {"width": "fill"}}  # fmt: skip
    preview.set_spec(screen({"v": 0}, slider))
    b = _entry(preview, "slider")["bounds"]
    _click(qtbot, preview, QPoint(round(b["x"] + 8 + (b["width"] - 16) * 0.7), round(b["y"] + 24)))
    qtbot.waitUntil(lambda: preview.runtime.value("v") == 7)
    assert recorded(preview) == [
        ("emit", "change", {"key": "v", "value": 7}),
        ("emit", "tapped", None),
    ]


def test_RenderPrototypeRadioGroup_Choose_runs_onTap_even_when_unchanged(
    preview: Any, qtbot: Any
) -> None:
    options = [{"value": "a", "label": "Alpha"}, {"value": "b", "label": "Beta"}]
    group = {"type": "radioGroup", "stateKey": "r", "options": options, "onTap": MARK}
    preview.set_spec(screen({"r": "a"}, group))
    _click(qtbot, preview, at(_entry(preview, "radioGroup")["bounds"], 0.1, 0.25))  # "Alpha" again
    qtbot.waitUntil(lambda: recorded(preview) == [("emit", "tapped", None)])


def test_RenderPrototypeTextField_a_tap_runs_onTap_and_typing_writes(
    preview: Any, qtbot: Any
) -> None:
    field = {"type": "textField", "stateKey": "t", "placeholder": "Name", "onTap": MARK}
    preview.set_spec(screen({"t": ""}, field))
    _click(qtbot, preview, at(_entry(preview, "textField")["bounds"], 0.5))
    qtbot.waitUntil(lambda: recorded(preview) == [("emit", "tapped", None)])
    qtbot.keyClicks(preview.quick_widget, "Ada")
    qtbot.waitUntil(lambda: preview.runtime.value("t") == "Ada")


DIALOG = {"type": "dialog", "openWhen": {"key": "open", "equals": True}, "title": "Delete?",
          "confirm": {"label": "Delete", "onTap": [{"type": "emit", "name": "deleted"}]},
          "dismiss": {"label": "Keep", "onTap": [{"type": "emit", "name": "kept"}]}}  # fmt: skip


def test_SheetDismiss_a_dialog_scrim_tap_only_closes_it(preview: Any, qtbot: Any) -> None:
    preview.set_spec(screen({"open": True}, DIALOG))
    _entry(preview, "dialog", "Delete?")
    _click(qtbot, preview, QPoint(20, 20))
    qtbot.waitUntil(lambda: preview.runtime.value("open") is False)
    assert recorded(preview) == [("emit", "change", {"key": "open", "value": False})]  # no "kept"


def test_CloseModal_a_dialog_button_closes_before_its_actions_run(preview: Any, qtbot: Any) -> None:
    from tests.preview.helpers import find_items

    preview.set_spec(screen({"open": True}, DIALOG))
    _entry(preview, "dialog", "Delete?")
    (label,) = [i for i in find_items(preview.screen_item(), "") if i.property("text") == "Delete"
                and i.inherits("QQuickText")]  # fmt: skip
    _click(qtbot, preview, label.mapToScene(label.boundingRect().center()).toPoint())
    qtbot.waitUntil(lambda: len(recorded(preview)) == 2)
    assert recorded(preview) == [("emit", "change", {"key": "open", "value": False}),
                                 ("emit", "deleted", None)]  # fmt: skip
    assert preview.runtime.events[1].state["open"] is False


SHEET = {"type": "bottomSheet", "openWhen": {"key": "open", "equals": True}, "detents": ["half", "full"],
         "dismissOnSwipe": False, "child": {"type": "text", "text": "Sheet body"}}  # fmt: skip


def test_RenderPrototypeSheet_scrim_closes_even_without_dismissOnSwipe(
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(screen({"open": True}, SHEET))
    _entry(preview, "text", "Sheet body")
    _click(qtbot, preview, QPoint(200, 100))
    qtbot.waitUntil(lambda: preview.runtime.value("open") is False)


def _sheet_top(preview: Any) -> float:
    preview.grab_image()
    return float(named(preview, "sheet").mapToItem(preview.screen_item(), 0, 0).y())


def test_settlePrototypeSheet_the_whole_sheet_drags_to_the_nearest_detent(
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(screen({"open": True}, SHEET))
    _entry(preview, "text", "Sheet body")
    preview.grab_image()
    height = preview.screen_item().height()
    assert _sheet_top(preview) == height / 2  # opens at its first detent
    # dragged up from the middle of the sheet's body (not a handle): nearer full than half
    swipe(qtbot, preview.quick_widget, QPoint(200, round(height * 0.75)), 0, -round(height * 0.4))
    qtbot.waitUntil(lambda: _sheet_top(preview) == 0)  # `full` is the whole window
    # dropped far below the smallest detent: dismissOnSwipe false keeps it, at half
    swipe(qtbot, preview.quick_widget, QPoint(200, round(height * 0.5)), 0, round(height * 0.8))
    qtbot.waitUntil(lambda: _sheet_top(preview) == height / 2)
    assert preview.runtime.value("open") is True


def test_RenderPrototypeNavigation_Select_sends_page_changed_as_the_phone(
    preview: Any, qtbot: Any
) -> None:
    tabs = {"type": "tabBar", "pager": "p", "items": [{"label": "One"}, {"label": "Two"}],
            "style": {"width": "fill"}, "onTap": MARK}  # fmt: skip
    pager = {"type": "pager", "id": "p", "children": [{"type": "text", "text": "first"},
                                                     {"type": "text", "text": "second"}]}  # fmt: skip
    preview.set_spec(screen({}, tabs, pager))
    _click(qtbot, preview, at(_entry(preview, "tabBar")["bounds"], 0.75))
    qtbot.waitUntil(lambda: len(recorded(preview)) == 2)
    assert recorded(preview) == [("page_changed", None, None), ("emit", "tapped", None)]
    assert preview.runtime.events[0].pages == {"p": 1}


# --- transitions (PrototypeMotion.kt) ------------------------------------------------------------


def _toggled_node(preview: Any, qtbot: Any, **top: Any) -> Any:
    node = {
        "type": "text",
        "id": "hint",
        "text": "Hint",
        "visibleWhen": {"key": "show", "equals": True},
    }
    preview.set_spec(screen({"show": True}, node, {"type": "text", "text": "below"}, **top))
    _entry(preview, "text", "Hint")
    delegate = delegate_at(preview, "hint")
    preview.runtime.set_value("show", False)
    return delegate


def test_prototypeExitTransition_unset_still_fades_and_shrinks_out(
    preview: Any, qtbot: Any
) -> None:
    delegate = _toggled_node(preview, qtbot)
    # right after the change the node is still drawn, partly faded and shorter
    assert delegate.isVisible() and 0 < float(delegate.property("reveal")) <= 1
    qtbot.waitUntil(lambda: 0 < float(delegate.property("reveal")) < 1)
    assert delegate.opacity() < 1 and delegate.implicitHeight() < 24  # shrinkOut: its layout size
    qtbot.waitUntil(lambda: not delegate.isVisible())
    preview.runtime.set_value("show", True)
    qtbot.waitUntil(lambda: delegate.isVisible() and 0 < float(delegate.property("reveal")) < 1)
    qtbot.waitUntil(
        lambda: float(delegate.property("reveal")) == 1 and delegate.implicitHeight() == 24
    )


def test_prototypeMotionEnabled_motion_none_switches_transitions_off(
    preview: Any, qtbot: Any
) -> None:
    delegate = _toggled_node(preview, qtbot, motion="none")
    assert not delegate.isVisible()


def test_prototypeEnterTransition_slide_is_vertical(preview: Any, qtbot: Any) -> None:
    node = {"type": "text", "id": "hint", "text": "Hint", "transition": "slide",
            "visibleWhen": {"key": "show", "equals": True}}  # fmt: skip
    preview.set_spec(screen({"show": False}, {"type": "text", "text": "above"}, node))
    _entry(preview, "text", "above")
    delegate = delegate_at(preview, "hint")
    preview.runtime.set_value("show", True)
    qtbot.waitUntil(lambda: 0 < float(delegate.property("reveal")) < 1)
    lift = float(delegate.property("lift"))
    assert lift < 0  # slideInVertically: from above (minus half its height), never sideways
    qtbot.waitUntil(lambda: float(delegate.property("lift")) == 0)


def test_prototypeEnterTransition_a_visibleWhen_added_by_an_edit_animates(
    preview: Any, qtbot: Any
) -> None:
    # Only nodes with a visibleWhen animate (Kids.qml gives them a MotionDelegate): an edit that
    # adds one makes the node animate as a node shown with it would, and removing it stops that.
    plain = {"type": "text", "id": "hint", "text": "Hint"}
    spec = screen({"show": True}, plain, {"type": "text", "text": "below"})
    preview.set_spec(spec)
    _entry(preview, "text", "Hint")
    assert delegate_at(preview, "hint").property("reveal") is None  # nothing to animate
    edited = copy.deepcopy(spec)
    edited["root"]["children"][0]["visibleWhen"] = {"key": "show", "equals": True}
    preview.apply_change(edited, ["hint"])
    delegate = delegate_at(preview, "hint")
    preview.runtime.set_value("show", False)
    qtbot.waitUntil(lambda: 0 < float(delegate.property("reveal")) < 1)
    qtbot.waitUntil(lambda: not delegate.isVisible())
    preview.apply_change(copy.deepcopy(spec), ["hint"])
    qtbot.waitUntil(lambda: delegate_at(preview, "hint").isVisible())
    assert delegate_at(preview, "hint").property("reveal") is None


def test_prototypeResolveAppearance_sources_in_the_phones_wire_names(quick: Any) -> None:
    """PrototypeAppearance.kt `prototypeResolveAppearance`: explicit mode, `system` straight to the
    device, a flat background/surface role, an authored background, else the device."""
    from studio.preview.controller import appearance_source

    root = {"type": "column", "children": []}
    painted = {"type": "column", "style": {"background": "#101010"}, "children": []}
    assert appearance_source({"theme": {"mode": "dark"}, "root": root}) == "explicit"
    assert appearance_source({"theme": {"mode": "system"}, "root": painted}) == "system"
    assert (
        appearance_source({"theme": {"colors": {"surface": "#FFFFFF"}}, "root": root})
        == "roleLuminance"
    )
    assert appearance_source({"root": painted}) == "authoredBackground"
    assert appearance_source({"root": root}) == "system"


def test_transitions_run_compose_s_default_spring_EnterExitTransition_spring_StiffnessMediumLow(  # noqa: N802, E501
    preview: Any, qtbot: Any
) -> None:
    import math

    from PySide6.QtCore import Q_ARG, Q_RETURN_ARG, QMetaObject, QObject

    # fadeIn / expandIn / slideInVertically and their exits default to
    # `spring(stiffness = Spring.StiffnessMediumLow)` (400, dampingRatio 1: w = 20 rad/s); from
    # rest the value follows 1 - (1 + wt)e^-wt and settles at the 0.01 visibility threshold.
    delegate = _toggled_node(preview, qtbot)
    spring = delegate.property("revealSpring")
    assert isinstance(spring, QObject)
    w, settle = 20.0, 0.01
    assert float(spring.property("omega")) == pytest.approx(w)
    duration = float(spring.property("durationMs")) / 1000
    assert (1 + w * duration) * math.exp(-w * duration) == pytest.approx(settle, rel=0.03)
    for ms in (16, 33, 50, 100, 150, 200, 250, 300):
        t = ms / 1000
        # the hiding node's displacement from its target, 0: from 1 at rest
        shown = QMetaObject.invokeMethod(spring, "displacement", Q_RETURN_ARG("QVariant"),
                                         Q_ARG("QVariant", t))  # fmt: skip
        assert float(shown) == pytest.approx((1 + w * t) * math.exp(-w * t))
    qtbot.waitUntil(lambda: not delegate.isVisible())  # and it runs: the node goes


def test_a_transition_reversed_midway_turns_back_with_its_velocity_Transition_animateTo(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # AnimatedVisibility's Transition retargets its running animations from their current value
    # and velocity: a node shown again while it fades out turns back without restarting from rest
    # (it had restarted from 0 at rest, so it first jumped or lingered).
    delegate = _toggled_node(preview, qtbot)
    qtbot.waitUntil(lambda: 0.3 < float(delegate.property("reveal")) < 0.8)
    spring = delegate.property("revealSpring")
    preview.runtime.set_value("show", True)
    assert float(spring.property("_v0")) < -1  # still moving out when it turned
    assert 0.2 < float(delegate.property("reveal")) < 0.8  # no jump
    qtbot.waitUntil(lambda: float(delegate.property("reveal")) == 1)


def test_expand_clips_the_full_size_content_from_its_bottom_end_EnterExitTransition_expandIn(  # noqa: N802, E501
    preview: Any, qtbot: Any
) -> None:
    from PySide6.QtCore import QPointF

    # `expandIn(expandFrom = Alignment.BottomEnd, clip = true)`: the node's size grows from 0 x 0
    # while its content keeps its full measured size, aligned to the growing bounds' bottom end
    # and clipped by them (nothing re-wraps as it grows).
    text = "Several words that wrap onto more than one line in a narrow box " * 2
    node = {"type": "column", "id": "panel", "style": {"width": {"dp": 200}},
            "visibleWhen": {"key": "show", "equals": True},
            "children": [{"type": "text", "id": "body", "text": text}]}  # fmt: skip
    preview.set_spec(screen({"show": True}, {"type": "text", "text": "above"}, node))
    _entry(preview, "text", "above")
    panel, body = delegate_at(preview, "panel"), delegate_at(preview, "body")
    full = (body.width(), body.height())
    assert full[0] == 200 and full[1] > 40  # it wraps
    preview.runtime.set_value("show", False)
    qtbot.waitUntil(lambda: float(panel.property("reveal")) == 0)
    preview.runtime.set_value("show", True)
    qtbot.waitUntil(lambda: 0.2 < float(panel.property("reveal")) < 0.8)
    assert panel.width() < 200 and panel.height() < full[1] and panel.clip()
    body = delegate_at(preview, "body")  # the hidden node's children were released
    assert (body.width(), body.height()) == full
    corner = body.mapToItem(panel, QPointF(body.width(), body.height()))
    assert (corner.x(), corner.y()) == pytest.approx((panel.width(), panel.height()), abs=0.5)


def _growing_row(preview: Any, **top: Any) -> Any:
    row = {"type": "row", "id": "r", "style": {"background": "#FFCC00", "padding": {"start": 8}},
           "children": [{"type": "text", "text": "{label}"}]}  # fmt: skip
    preview.set_spec(screen({"label": "Hi"}, row, **top))
    _entry(preview, "row")
    return delegate_at(preview, "r")


def test_a_row_s_size_follows_its_content_on_a_spring_MO_prototypeAnimateSize_animateContentSize(  # noqa: N802, E501
    preview: Any, qtbot: Any
) -> None:
    # SC `RenderPrototypeNodeContent` gives box, row and column `prototypeAnimateSize`: with motion
    # on, `animateContentSize()` reports its content size through a spring (StiffnessMediumLow,
    # no bounce) from the size it had, so a longer label widens the row over about 300 ms and its
    # siblings follow; the text is laid out at once at its new width (clipped meanwhile).
    row = _growing_row(preview)
    before = row.width()
    preview.runtime.set_value("label", "Hello there, a longer label")
    # the label is laid out at once at its new width; the row wraps it plus its padding
    target = _entry(preview, "text")["bounds"]["width"] + 8
    assert target > before + 50
    widths: list[float] = []

    def grown() -> bool:
        widths.append(row.width())
        return abs(widths[-1] - target) < 0.5

    qtbot.waitUntil(grown, timeout=3000)
    assert any(before + 1 < w < target - 1 for w in widths)  # it moved through the sizes between
    assert widths == sorted(widths)  # no bounce: dampingRatio 1


def test_without_motion_a_row_takes_its_new_size_at_once_MO_prototypeAnimateSize_disabled(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    row = _growing_row(preview, motion="none")
    before = row.width()
    preview.runtime.set_value("label", "Hello there, a longer label")
    qtbot.waitUntil(lambda: row.width() > before + 50, timeout=3000)
    # the first new width is the final one: the row wraps its laid-out label plus its padding
    assert row.width() == pytest.approx(_entry(preview, "text")["bounds"]["width"] + 8, abs=0.5)
