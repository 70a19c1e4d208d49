"""A scrollable tab bar is Material 3's ScrollableTabRow on the phone (PrototypeSpecContent.kt
`RenderPrototypeNavigation`: `ScrollableTabRow(node.selection, modifier)`). Its layout puts the
52 dp edge padding before the first tab and after the last (TabRow.kt: `layoutWidth` folds from
`padding * 2`), and `ScrollableTabData.onLaidOut` scrolls the selected tab to the middle of the
row, or as near as the ends allow (`calculateTabOffset`, in whole pixels), when the row is first
laid out and whenever the selection changes, by `animateScrollTo` in ScrollableTabRowScrollSpec:
`tween(durationMillis = 250, easing = FastOutSlowInEasing)`.

The expected offsets are computed here from the tabs' measured widths with Compose's formula,
and each frame of the move against Compose's CubicBezierEasing(0.4, 0, 0.2, 1)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from tests.preview.fidelity import spec_of
from tests.preview.helpers import LEFT, NO_MOD, find_items, find_named, item_rect

W = 412  # dp, the scene's width
EDGE = 52  # ScrollableTabRowEdgeStartPadding
LABELS = [f"Tab number {i}" for i in range(12)]


def _bezier(p1: float, p2: float, t: float) -> float:
    u = 1 - t
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t**3


def fast_out_slow_in(fraction: float) -> float:
    """CubicBezierEasing(0.4f, 0f, 0.2f, 1f).transform: y where x(t) is the fraction."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _bezier(0.4, 0.2, mid) < fraction else (lo, mid)
    return _bezier(0.0, 1.0, (lo + hi) / 2)


def _spec(selected: int = 0) -> dict[str, Any]:
    tabs = {"type": "tabBar", "id": "tabs", "stateKey": "t", "scrollable": True,
            "items": [{"label": label} for label in LABELS]}  # fmt: skip
    return spec_of({"type": "column", "style": {"width": "fill"}, "children": [tabs]},
                   state={"t": selected})  # fmt: skip


def _strip(scene: Any) -> QQuickItem:
    strip = find_named(scene.screen_item(), "tabStrip")
    assert strip is not None
    return strip


def _bar(scene: Any) -> QQuickItem:
    return _strip(scene).parentItem()


def _tab(scene: Any, index: int) -> QQuickItem:
    """The tab item of `index`: the item holding its label."""
    # (right to left a label carries direction marks around it, studio/preview/bidi.py)
    (label,) = [t for t in find_items(_strip(scene), "RoleText")
                if str(t.property("text")).strip("\u200e\u200f\u202a\u202b\u202c\u2066\u2067\u2068\u2069") == LABELS[index]]  # fmt: skip
    return label.parentItem().parentItem()


def expected_offset(scene: Any, index: int) -> float:
    """`calculateTabOffset` in px at the scene's density, back in dp: the scroll value, from the
    row's start edge (the left, or right to left the right)."""
    density = scene.controller.density
    widths = [_tab(scene, i).width() for i in range(len(LABELS))]

    def px(v: float) -> int:
        return round(v * density)

    left = EDGE + sum(widths[:index])
    total = px(EDGE + sum(widths)) + px(EDGE)
    visible = px(W)
    centred = px(left) - (visible // 2 - px(widths[index]) // 2)
    return max(0, min(centred, total - visible)) / density


def _trace(bar: QQuickItem, strip: QQuickItem) -> list[tuple[float, float]]:
    seen: list[tuple[float, float]] = []
    strip.contentXChanged.connect(  # type: ignore[attr-defined]
        lambda: seen.append(
            (float(bar.property("centreElapsed")), float(strip.property("contentX")))
        )
    )
    return seen


def _settle(scene: Any, qtbot: Any) -> None:
    bar = _bar(scene)
    qtbot.waitUntil(lambda: not bar.property("centring"), timeout=3000)
    scene.grab()


def test_the_row_ends_52dp_after_the_last_tab_ScrollableTabRow_layoutWidth(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(_spec())
    scene.grab()
    strip = _strip(scene)
    assert float(strip.property("contentWidth")) == pytest.approx(
        2 * EDGE + sum(_tab(scene, i).width() for i in range(len(LABELS)))
    )
    strip.setProperty("contentX", float(strip.property("contentWidth")) - W)  # scrolled to the end
    scene.grab()
    assert item_rect(_tab(scene, len(LABELS) - 1)).right() == pytest.approx(W - EDGE)
    strip.setProperty("contentX", 0.0)
    scene.grab()
    assert item_rect(_tab(scene, 0)).left() == pytest.approx(EDGE)


def test_a_tapped_tab_scrolls_to_the_middle_on_the_tween_ScrollableTabData_calculateTabOffset(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(_spec())
    scene.grab()
    strip, bar = _strip(scene), _bar(scene)
    assert float(strip.property("contentX")) == 0  # tab 0 is as near the middle as it gets
    third = item_rect(_tab(scene, 2))
    assert third.right() <= W  # on screen, right of the middle
    trace = _trace(bar, strip)
    QTest.mouseClick(scene.view, LEFT, NO_MOD, QPoint(round(third.center().x()), 24))
    assert scene.controller.runtime.value("t") == 2
    _settle(scene, qtbot)
    to = expected_offset(scene, 2)
    assert to > 0
    assert len(trace) > 5
    for ms, x in trace[:-1]:
        assert x == pytest.approx(to * fast_out_slow_in(ms / 250), abs=1e-3)
    assert trace[-1][1] == pytest.approx(to)
    # the tab's middle is the row's middle, to a pixel
    assert item_rect(_tab(scene, 2)).center().x() == pytest.approx(W / 2, abs=1)


def test_a_selection_from_elsewhere_scrolls_as_far_as_the_end_allows_calculateTabOffset(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(_spec())
    scene.grab()
    scene.controller.runtime.set_value("t", len(LABELS) - 1)
    _settle(scene, qtbot)
    strip = _strip(scene)
    end = float(strip.property("contentWidth")) - W
    assert expected_offset(scene, len(LABELS) - 1) == pytest.approx(end, abs=0.5)
    assert float(strip.property("contentX")) == pytest.approx(end, abs=0.5)
    assert item_rect(_tab(scene, len(LABELS) - 1)).right() == pytest.approx(W - EDGE, abs=0.5)


def test_the_first_layout_scrolls_to_the_selected_tab_ScrollableTabData_onLaidOut(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """`selectedTab` is null at the first `onLaidOut`, so the row scrolls there once shown."""
    scene.show(_spec(selected=6))
    _settle(scene, qtbot)
    assert float(_strip(scene).property("contentX")) == pytest.approx(expected_offset(scene, 6))
    assert item_rect(_tab(scene, 6)).center().x() == pytest.approx(W / 2, abs=1)


def test_with_animators_off_the_row_jumps_doAnimationFrameWithScale(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.controller.set_animator_scale(0)
    scene.show(_spec())
    scene.grab()
    scene.controller.runtime.set_value("t", 5)
    assert not _bar(scene).property("centring")
    assert float(_strip(scene).property("contentX")) == pytest.approx(expected_offset(scene, 5))


def test_a_press_stops_the_move_and_selects_nothing_Scrollable_startDragImmediately(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    scene.show(_spec())
    scene.grab()
    scene.controller.runtime.set_value("t", 5)
    bar, strip = _bar(scene), _strip(scene)
    qtbot.waitUntil(lambda: float(bar.property("centreElapsed")) > 60, timeout=3000)
    under = item_rect(_tab(scene, 3)).center()
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(round(under.x()), 24))
    stopped = float(strip.property("contentX"))
    assert not bar.property("centring")
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(round(under.x()), 24))
    scene.grab()
    # (Qt's Flickable rounds a resting position to the pixel once released: `fixup`)
    assert float(strip.property("contentX")) == pytest.approx(stopped, abs=0.5)
    assert float(strip.property("contentX")) < expected_offset(scene, 5) - 20
    assert scene.controller.runtime.value("t") == 5  # the press was the scroll's


def test_a_re_theme_mid_move_goes_on_where_it_was(scene: Any, qtbot: Any) -> None:
    """The device's light/dark switch remakes the row; its move goes on to the same end."""
    scene.show(_spec())
    scene.grab()
    scene.controller.runtime.set_value("t", 5)
    bar = _bar(scene)
    qtbot.waitUntil(lambda: float(bar.property("centreElapsed")) > 60, timeout=3000)
    scene.controller.set_appearance("dark")
    remade = _bar(scene)
    assert remade is not bar
    assert remade.property("centring")
    assert float(remade.property("centreElapsed")) > 60
    _settle(scene, qtbot)
    assert float(_strip(scene).property("contentX")) == pytest.approx(expected_offset(scene, 5))


def test_right_to_left_the_row_starts_at_its_right_end_and_centres_there_horizontalScroll_reverse(  # noqa: N802
    rtl: Any, qtbot: Any
) -> None:
    """Under Rtl the first tab sits 52 dp from the right edge at scroll value 0, with no move on
    the first layout; a tapped tab comes to the middle from the right."""
    rtl.show(_spec())
    rtl.grab()
    bar, strip = _bar(rtl), _strip(rtl)
    assert not bar.property("centring")
    end = float(strip.property("contentWidth")) - W
    assert float(strip.property("contentX")) == pytest.approx(end)
    assert item_rect(_tab(rtl, 0)).right() == pytest.approx(W - EDGE)
    third = item_rect(_tab(rtl, 2))
    assert third.left() >= 0
    QTest.mouseClick(rtl.view, LEFT, NO_MOD, QPoint(round(third.center().x()), 24))
    assert rtl.controller.runtime.value("t") == 2
    _settle(rtl, qtbot)
    assert float(strip.property("contentX")) == pytest.approx(end - expected_offset(rtl, 2))
    assert item_rect(_tab(rtl, 2)).center().x() == pytest.approx(W / 2, abs=1)


def test_a_row_scrolled_out_of_view_and_back_keeps_its_offset_verticalScroll(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """AutoMobile's scroll composes all of its content (PrototypeSpecContent.kt "scroll":
    `Box(verticalScroll)`), so a tab row scrolled off screen keeps its remembered ScrollState:
    back in view it is where the designer dragged it, not centred on its tab again."""
    tabs = {"type": "tabBar", "id": "tabs", "stateKey": "t", "scrollable": True,
            "items": [{"label": label} for label in LABELS]}  # fmt: skip
    rows = [{"type": "box", "id": f"r{i}", "style": {"width": "fill", "height": {"dp": 100}},
             "children": []} for i in range(30)]  # fmt: skip
    column = {"type": "column", "style": {"width": "fill"}, "children": [tabs, *rows]}
    scene.show(spec_of({"type": "scroll", "child": column}, state={"t": 0}))
    scene.grab()
    strip = _strip(scene)
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(300, 24))
    for step in range(1, 16):
        QTest.mouseMove(scene.view, QPoint(300 - 16 * step, 24), 16)
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(60, 24), 100)  # held still: no fling
    qtbot.waitUntil(lambda: not strip.property("moving"), timeout=3000)
    dragged = float(strip.property("contentX"))
    assert dragged > 150
    (view,) = [
        i
        for i in find_items(scene.screen_item(), "")
        if i.inherits("QQuickFlickable") and i.objectName() == ""
    ]
    view.setProperty("contentY", 2000)
    qtbot.waitUntil(lambda: find_named(scene.screen_item(), "tabStrip") is None)  # dropped
    view.setProperty("contentY", 0)
    qtbot.waitUntil(lambda: find_named(scene.screen_item(), "tabStrip") is not None)
    scene.grab()
    back = _strip(scene)
    assert back is not strip
    assert float(back.property("contentX")) == dragged
    assert scene.controller.runtime.value("t") == 0
