"""The pager moves as the phone's: AutoMobile draws it as `HorizontalPager(pager, modifier)` on
`rememberPagerState` (PrototypeSpecContent.kt `RenderPrototypePager`), so a released swipe settles
as `PagerDefaults.flingBehavior` does (foundation pager/Pager.kt: `PagerSnapDistance.atMost(1)`,
`snapPositionalThreshold = 0.5f`, `snapAnimationSpec = spring(stiffness = StiffnessMediumLow)`;
PagerSnapLayoutInfoProvider.kt `calculateFinalSnappingBound`, SnapFlingBehavior.kt
`MinFlingVelocityDp`, `animateWithTarget`), and a page set from outside animates while motion is
on (`LaunchedEffect(node.page, animate)`: `animateScrollToPage(node.page)`, PagerState.kt's default
`spring()` and `MaxPagesForAnimateScroll` pre-jump), and jumps without (`scrollToPage`). The
runtime hears of a swiped page once the pages settle (SC `PagerMotion` of `settledPage`, RT
`handle`: `if (!interaction.scrolling) setPage`).

The pages' geometry is read from the view as it moves (its contentX at each frame, against the
pager's own spring clock), and the expected curves are computed here from Compose's formulas."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from tests.preview.fidelity import spec_of
from tests.preview.helpers import LEFT, NO_MOD, drag, named
from tests.preview.springs import (
    MIN_FLING_VELOCITY,
    THRESHOLD_PX,
    assert_follows_spring,
    spring_displacement,
    spring_ms,
)

W = 412  # dp, the pager's width (the scene's)
Y = 500  # where the swipes run
STIFFNESS_MEDIUM_LOW = 400.0  # Spring.StiffnessMediumLow, the fling's snapAnimationSpec
STIFFNESS_MEDIUM = 1500.0  # Spring.StiffnessMedium, `spring()`: animateScrollToPage's default


def _pages(count: int) -> list[dict[str, Any]]:
    # text pages: a flat page background would re-theme the screen as it becomes current
    return [{"type": "box", "style": {"width": "fill", "height": "fill"},
             "children": [{"type": "text", "text": f"page {i}"}]} for i in range(count)]  # fmt: skip


def _pager_spec(count: int = 6, **extra: Any) -> dict[str, Any]:
    return spec_of({"type": "pager", "id": "p", "style": {"width": "fill", "height": "fill"},
                    "children": _pages(count)}, **extra)  # fmt: skip


def _tabs_spec(count: int = 6, **extra: Any) -> dict[str, Any]:
    tabs = {"type": "tabBar", "pager": "p", "style": {"width": "fill"},
            "items": [{"label": f"T{i}"} for i in range(count)]}  # fmt: skip
    button = {"type": "button", "id": "last", "text": "Last",
              "onTap": [{"type": "setPage", "pager": "p", "page": count - 1}]}  # fmt: skip
    pager = {"type": "pager", "id": "p", "style": {"width": "fill", "height": "fill"},
             "children": _pages(count)}  # fmt: skip
    root = {"type": "column", "style": {"width": "fill", "height": "fill"},
            "children": [tabs, button, pager]}  # fmt: skip
    return spec_of(root, **extra)


def _pager(scene: Any) -> QQuickItem:
    return named(scene.screen_item(), "pager")


def _x(pager: QQuickItem) -> float:
    return float(pager.property("contentX"))


def _page_x(pager: QQuickItem, page: int) -> float:
    """Page `page`'s contentX: page 0 at the view's origin left to right, the last page there
    right to left."""
    count = int(pager.property("count"))
    origin = float(pager.property("originX"))
    rtl = bool(pager.property("rtl"))
    return origin + (count - 1 - page if rtl else page) * float(pager.property("pageW"))


def _trace(pager: QQuickItem) -> list[tuple[float, float]]:
    """(ms on the pager's spring clock, contentX) at every move of the view from now on."""
    seen: list[tuple[float, float]] = []

    def moved() -> None:
        seen.append((float(pager.property("elapsed")), _x(pager)))

    pager.contentXChanged.connect(moved)  # type: ignore[attr-defined]
    return seen


def _page_events(scene: Any) -> list[Any]:
    return [e for e in scene.controller.runtime.events if e.kind == "page_changed"]


def _release(scene: Any, x: int, ms: int) -> None:
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(x, Y), ms)


@pytest.fixture
def pages(scene: Any) -> Any:
    scene.show(_pager_spec())
    scene.grab()
    return scene


def test_a_slow_release_short_of_half_a_page_springs_back_calculateFinalSnappingBound_ClosestItem(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """Dragged 40 % of a page and held still: below `MinFlingVelocityDp` the positional threshold
    decides (`snapPositionalThreshold` 0.5 not crossed, the drag longer than
    `positionThresholdFraction`: back to the page it left), and the pages spring back on
    `spring(StiffnessMediumLow)` from rest, the curve of SpringSimulation to 0.001 dp, without
    Qt's snap. The page did not change: no page_changed."""
    scene, pager = pages, _pager(pages)
    drag(scene, QPoint(300, Y), -175, 0, steps=10, ms=40)
    start = _x(pager)
    assert 0.3 < start / W < 0.5
    trace = _trace(pager)
    _release(scene, 125, ms=300)  # held still first: no velocity left
    assert pager.property("settling") and float(pager.property("v0")) == 0
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert_follows_spring(
        trace, start, _page_x(pager, 0), 0, STIFFNESS_MEDIUM_LOW, scene.controller.density
    )
    assert scene.controller.runtime.pages.get("p", 0) == 0 and _page_events(scene) == []


def test_a_slow_release_past_half_a_page_goes_on_and_then_sends_page_changed_PagerMotion_settledPage(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """Dragged 60 % and held still: past `snapPositionalThreshold` the pages go on to the next
    page on the spring. The runtime hears of it only once they have settled (SC sends
    `PagerMotion(settledPage)` when `isScrollInProgress` ends): one page_changed then."""
    scene, pager = pages, _pager(pages)
    drag(scene, QPoint(350, Y), -275, 0, steps=10, ms=40)
    start = _x(pager)
    assert 0.5 < start / W < 0.7
    trace = _trace(pager)
    _release(scene, 75, ms=300)
    assert float(pager.property("v0")) == 0
    assert scene.controller.runtime.pages.get("p", 0) == 0 and _page_events(scene) == []
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert_follows_spring(
        trace, start, _page_x(pager, 1), 0, STIFFNESS_MEDIUM_LOW, scene.controller.density
    )
    assert scene.controller.runtime.pages["p"] == 1
    (event,) = _page_events(scene)
    assert event.pages == {"p": 1}


def test_the_finger_not_the_pages_measures_the_drag_PagerState_upDownDifference(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """Dragged 215 dp and held still: the pages moved less, by the drag threshold Qt waits for
    before they follow, short of half a page; the finger went past half a page. Compose measures
    the drag from the press to the lift (`dragGestureDelta` is `upDownDifference`, the pointer's
    up position less its down position), so the pages go on to the next page."""
    scene, pager = pages, _pager(pages)
    drag(scene, QPoint(300, Y), -215, 0, steps=43, ms=40)
    moved = _x(pager) / W
    assert moved < 0.5 < 215 / W  # the pages alone would go back
    _release(scene, 85, ms=300)
    assert float(pager.property("v0")) == 0 and pager.property("targetPage") == 1
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert _x(pager) == _page_x(pager, 1) and scene.controller.runtime.pages["p"] == 1


def test_a_quick_short_flick_goes_one_page_its_way_MinFlingVelocityDp(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """A flick of a fifth of a page at about 2000 dp/s: at or above `MinFlingVelocityDp` (400
    dp/s) the velocity picks the next page (`FinalSnappingItem.NextItem`), though the drag is
    short of half a page; the spring starts with the release velocity."""
    scene, pager = pages, _pager(pages)
    pager.setProperty("contentX", _page_x(pager, 2))
    scene.grab()
    drag(scene, QPoint(300, Y), -110, 0, steps=11, ms=5)
    start = _x(pager)
    assert 0.1 < (start - _page_x(pager, 2)) / W < 0.3
    trace = _trace(pager)
    _release(scene, 190, ms=5)
    velocity = float(pager.property("v0"))
    # The finger's velocity as VelocityTracker.kt's Lsq2 has it: 10 dp every 5 ms, exactly.
    assert velocity == pytest.approx(2000, rel=1e-6)
    assert velocity >= MIN_FLING_VELOCITY and pager.property("targetPage") == 3
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert_follows_spring(
        trace, start, _page_x(pager, 3), velocity, STIFFNESS_MEDIUM_LOW, scene.controller.density
    )
    assert scene.controller.runtime.pages["p"] == 3


def test_a_quick_flick_held_45_ms_before_the_lift_has_no_velocity_AssumePointerMoveStoppedMilliseconds(  # noqa: N802, E501
    pages: Any, qtbot: Any
) -> None:
    """The same quick flick, but the finger rests 45 ms before it lifts: Compose's tracker
    drops a release more than 40 ms after the last move (VelocityTracker.kt
    `addPointerInputChangeWithFix`), so the release has no velocity and the positional
    threshold sends the pages back to the page they left."""
    scene, pager = pages, _pager(pages)
    pager.setProperty("contentX", _page_x(pager, 2))
    scene.grab()
    drag(scene, QPoint(300, Y), -110, 0, steps=11, ms=5)
    _release(scene, 190, ms=45)
    assert float(pager.property("v0")) == 0 and pager.property("targetPage") == 2
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert _x(pager) == _page_x(pager, 2) and scene.controller.runtime.pages["p"] == 2


def test_a_quick_flick_back_goes_one_page_back_MinFlingVelocityDp(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """The same flick the other way (`FinalSnappingItem.PreviousItem`): one page back."""
    scene, pager = pages, _pager(pages)
    pager.setProperty("contentX", _page_x(pager, 2))
    scene.grab()
    drag(scene, QPoint(100, Y), 110, 0, steps=11, ms=5)
    assert 0.1 < (_page_x(pager, 2) - _x(pager)) / W < 0.3
    _release(scene, 210, ms=5)
    assert float(pager.property("v0")) <= -MIN_FLING_VELOCITY
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert _x(pager) == _page_x(pager, 1) and scene.controller.runtime.pages["p"] == 1


def test_a_fling_of_huge_velocity_goes_exactly_one_page_PagerSnapDistance_atMost_coerceToTarget(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """A flick far above 8000 dp/s (the velocity is capped there, ViewConfiguration's maximum
    fling velocity): its decay would carry the pages many pages on, but `PagerSnapDistance.atMost(1)`
    keeps the target one page away (the approach offset is 0), and the spring, which this fast
    would overshoot, stops on the page (SnapFlingBehavior `animateWithTarget`,
    `coerceToTarget`): never past it, and before its own time is up."""
    scene, pager = pages, _pager(pages)
    drag(scene, QPoint(380, Y), -240, 0, steps=12, ms=2)  # 10,000 dp/s
    start = _x(pager)
    trace = _trace(pager)
    _release(scene, 140, ms=2)
    velocity = float(pager.property("v0"))
    assert velocity == 8000
    target = _page_x(pager, 1)
    x0 = start - target
    assert velocity > math.sqrt(STIFFNESS_MEDIUM_LOW) * -x0  # a spring that would cross the page
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert max(x for _, x in trace) == target and trace[-1][1] == target
    for ms, x in trace[:-1]:
        assert x == pytest.approx(
            target + spring_displacement(x0, velocity, STIFFNESS_MEDIUM_LOW, ms / 1000), abs=1e-3
        )
    assert trace[-1][0] < spring_ms(x0, velocity, STIFFNESS_MEDIUM_LOW, THRESHOLD_PX)
    assert scene.controller.runtime.pages["p"] == 1 and len(_page_events(scene)) == 1


def test_right_to_left_a_drag_right_past_half_goes_to_the_next_page_HorizontalPager_reverseDirection(  # noqa: N802
    rtl: Any, qtbot: Any
) -> None:
    """Right to left the next page lies to the left: a slow drag to the right past half a page
    settles on page 1 (`calculateFinalSnappingBound` reads the drag against the layout
    direction)."""
    scene = rtl
    scene.show(_pager_spec())
    scene.grab()
    pager = _pager(scene)
    assert _x(pager) == _page_x(pager, 0)
    drag(scene, QPoint(60, Y), 275, 0, steps=10, ms=40)
    assert 0.5 < (_page_x(pager, 0) - _x(pager)) / W < 0.7
    _release(scene, 335, ms=300)
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert _x(pager) == _page_x(pager, 1) and scene.controller.runtime.pages["p"] == 1


def test_a_touch_stops_the_settle_and_a_lift_settles_from_there(pages: Any, qtbot: Any) -> None:
    """A press stops the pages where they are (a new touch cancels the running scroll); lifted
    without a drag they settle from there, to the nearer page."""
    scene, pager = pages, _pager(pages)
    drag(scene, QPoint(350, Y), -275, 0, steps=10, ms=40)
    _release(scene, 75, ms=300)
    qtbot.waitUntil(lambda: _x(pager) > 0.8 * W, timeout=3000)
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(200, Y))
    assert not pager.property("settling")
    held = _x(pager)
    assert held < W
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, QPoint(200, Y), 50)
    qtbot.waitUntil(
        lambda: not pager.property("settling") and _x(pager) == _page_x(pager, 1), timeout=3000
    )
    assert scene.controller.runtime.pages["p"] == 1


def test_the_press_that_stops_the_pages_taps_nothing_Scrollable_startDragImmediately(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """Pages of full-page buttons: the press that stops the settling pages is the scroll's
    (consumed at once, `startDragImmediately`), so the button under it does not click; the same
    click on pages at rest runs the button's onTap."""
    pages = [
        {"type": "button", "label": f"Page {i}", "onTap": [{"type": "increment", "key": "taps"}],
         "style": {"width": "fill", "height": "fill"}}
        for i in range(3)
    ]  # fmt: skip
    scene.show(spec_of({"type": "pager", "id": "p", "style": {"width": "fill", "height": "fill"},
                        "children": pages}, state={"taps": 0}))  # fmt: skip
    scene.grab()
    pager = _pager(scene)
    drag(scene, QPoint(350, Y), -275, 0, steps=10, ms=40)
    _release(scene, 75, ms=300)
    qtbot.waitUntil(lambda: _x(pager) > 0.8 * W, timeout=3000)
    QTest.mouseClick(scene.view, LEFT, NO_MOD, QPoint(200, Y))
    assert scene.controller.runtime.value("taps") == 0
    qtbot.waitUntil(
        lambda: not pager.property("settling") and _x(pager) == _page_x(pager, 1), timeout=3000
    )
    QTest.mouseClick(scene.view, LEFT, NO_MOD, QPoint(200, Y))
    qtbot.waitUntil(lambda: scene.controller.runtime.value("taps") == 1, timeout=2000)


def test_a_page_set_during_a_drag_is_dropped_and_the_drag_settles_MutatorMutex(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """A `setPage` while the finger holds the pages: SC's `animateScrollToPage` runs at
    `MutatePriority.Default`, below the drag's `UserInput`, so MutatorMutex `tryMutateOrCancel`
    cancels it ("Current mutation had a higher priority"). The drag settles as it would have,
    and the settled page goes back to the runtime (`PagerMotion(settledPage)`)."""
    scene, pager = pages, _pager(pages)
    drag(scene, QPoint(350, Y), -275, 0, steps=10, ms=40)
    held = _x(pager)
    scene.controller.runtime.run_actions([{"type": "setPage", "pager": "p", "page": 4}])
    assert scene.controller.runtime.pages["p"] == 4
    assert _x(pager) == held  # the finger keeps the pages
    trace = _trace(pager)
    _release(scene, 75, ms=300)
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert _x(pager) == _page_x(pager, 1)
    assert max(x for _, x in trace) <= _page_x(pager, 1)  # never on its way to page 4
    qtbot.waitUntil(lambda: scene.controller.runtime.pages["p"] == 1, timeout=2000)
    scene.grab()
    assert _x(pager) == _page_x(pager, 1)


def _tab_point(scene: Any, index: int, count: int = 6) -> QPoint:
    (bar,) = [e for e in scene.visible_summary() if e["type"] == "tabBar"]
    b = bar["bounds"]
    return QPoint(
        round(b["x"] + b["width"] * (index + 0.5) / count), round(b["y"] + b["height"] / 2)
    )


def test_a_tab_Select_animates_on_animateScrollToPage_spring(scene: Any, qtbot: Any) -> None:  # noqa: N802
    """A tab tap (RT `Select`) sets the page at once (the tab indicator follows it, one
    page_changed) and the pages slide there as SC's `animateScrollToPage(node.page)` moves them:
    `spring()` (StiffnessMedium, dampingRatio 1) from rest, to 0.001 dp at every frame."""
    scene.show(_tabs_spec())
    scene.grab()
    pager = _pager(scene)
    start = _x(pager)
    trace = _trace(pager)
    QTest.mouseClick(scene.view, LEFT, NO_MOD, _tab_point(scene, 1))
    assert scene.controller.runtime.pages["p"] == 1 and len(_page_events(scene)) == 1
    assert pager.property("settling") and pager.property("moveKind") == "scroll"
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert_follows_spring(
        trace, start, _page_x(pager, 1), 0, STIFFNESS_MEDIUM, scene.controller.density
    )
    assert len(_page_events(scene)) == 1  # the settle on the page Select chose sends nothing more


def test_a_far_setPage_jumps_near_first_then_animates_MaxPagesForAnimateScroll(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """A `setPage` action five pages on: animateScrollToPage first jumps to one viewport from
    the target (`MaxPagesForAnimateScroll` 3, `snapToItem(targetPage - visiblePages)`), then
    springs the last page; the pages between are never shown."""
    scene.show(_tabs_spec())
    scene.grab()
    pager = _pager(scene)
    trace = _trace(pager)
    (button,) = [e for e in scene.visible_summary() if e["type"] == "button"]
    b = button["bounds"]
    QTest.mouseClick(
        scene.view,
        LEFT,
        NO_MOD,
        QPoint(round(b["x"] + b["width"] / 2), round(b["y"] + b["height"] / 2)),
    )
    assert scene.controller.runtime.pages["p"] == 5
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    near = _page_x(pager, 4)
    assert trace[0][1] == near  # the jump
    assert_follows_spring(
        trace[1:], near, _page_x(pager, 5), 0, STIFFNESS_MEDIUM, scene.controller.density
    )


def test_without_motion_a_Select_jumps_scrollToPage(scene: Any, qtbot: Any) -> None:  # noqa: N802
    """With `motion: "none"` SC calls `scrollToPage`: the pages are on the tab's page at once."""
    scene.show(_tabs_spec(motion="none"))
    scene.grab()
    pager = _pager(scene)
    QTest.mouseClick(scene.view, LEFT, NO_MOD, _tab_point(scene, 3))
    assert scene.controller.runtime.pages["p"] == 3
    assert not pager.property("settling") and _x(pager) == _page_x(pager, 3)


def test_in_edit_mode_a_drag_moves_no_page(pages: Any) -> None:
    """Edit mode selects nodes: the pager takes no swipe."""
    scene, pager = pages, _pager(pages)
    scene.controller.set_edit_mode(True)
    scene.grab()
    drag(scene, QPoint(350, Y), -275, 0, steps=10, ms=20)
    _release(scene, 75, ms=20)
    assert _x(pager) == _page_x(pager, 0) and not pager.property("settling")


def test_without_motion_a_released_swipe_still_springs_SnapFlingBehavior_motionScaleDuration(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """`motion: "none"` reaches SC's `LocalPrototypeMotion` only (the page moves from outside);
    the pager's fling behaviour is Compose's default whatever it says (SnapFlingBehavior runs on
    `DefaultScrollMotionDurationScale`): a released swipe still springs to its page."""
    scene.show(_pager_spec(motion="none"))
    scene.grab()
    pager = _pager(scene)
    drag(scene, QPoint(350, Y), -275, 0, steps=10, ms=40)
    start = _x(pager)
    trace = _trace(pager)
    _release(scene, 75, ms=300)
    assert pager.property("settling")
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert_follows_spring(
        trace, start, _page_x(pager, 1), 0, STIFFNESS_MEDIUM_LOW, scene.controller.density
    )
    assert scene.controller.runtime.pages["p"] == 1


def test_a_resize_keeps_the_page_on_screen(scene: Any, qtbot: Any) -> None:
    """A rotation or another device: the pager keeps showing its page at the new width (as
    PagerState keeps `currentPage` through a new measure), and only that page."""
    scene.show(_pager_spec())
    scene.grab()
    pager = _pager(scene)
    scene.controller.runtime.set_page("p", 2)
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    scene.controller.set_device_size(673, 841)
    scene.grab()
    assert float(pager.property("pageW")) == 673 and _x(pager) == _page_x(pager, 2)
    shown = {e["text"] for e in scene.visible_summary() if e["type"] == "text"}
    assert shown == {"page 2"}


def test_a_flick_released_on_its_page_leaves_it_there_coerceToTarget(  # noqa: N802
    pages: Any, qtbot: Any
) -> None:
    """Pulled past the first page (the stretch holds the pages there) and flicked back: the
    release is on a page, the snap's target (`coerceToTarget` of a 0 offset is 0), so the pages
    do not move, whatever the velocity."""
    scene, pager = pages, _pager(pages)
    QTest.mousePress(scene.view, LEFT, NO_MOD, QPoint(60, Y))
    for i in range(1, 16):
        QTest.mouseMove(scene.view, QPoint(60 + 10 * i, Y), 16)
    for i in range(1, 6):
        QTest.mouseMove(scene.view, QPoint(210 - 10 * i, Y), 5)
    assert _x(pager) == _page_x(pager, 0)
    trace = _trace(pager)
    _release(scene, 160, ms=5)
    assert float(pager.property("v0")) > 0  # released moving towards the next page
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert all(x == _page_x(pager, 0) for _, x in trace)
    assert scene.controller.runtime.pages.get("p", 0) == 0


def test_a_Select_takes_the_animator_scale_a_swipe_does_not_doAnimationFrameWithScale(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """At the device's animator duration scale 2 a tab's `animateScrollToPage` plays at half
    speed (animation-core `doAnimationFrameWithScale`: play time = real time / scale), still on
    `spring()`; a released swipe's settle runs under Scrollable's
    `DefaultScrollMotionDurationScale` (1) in real time."""
    scene.controller.set_animator_scale(2.0)
    scene.show(_tabs_spec())
    scene.grab()
    pager = _pager(scene)
    start = _x(pager)
    clocks: list[tuple[float, float]] = []
    trace = _trace(pager)
    pager.contentXChanged.connect(  # type: ignore[attr-defined]
        lambda: clocks.append(
            (float(pager.property("realElapsed")), float(pager.property("elapsed")))
        )
    )
    QTest.mouseClick(scene.view, LEFT, NO_MOD, _tab_point(scene, 1))
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=5000)
    assert_follows_spring(
        trace, start, _page_x(pager, 1), 0, STIFFNESS_MEDIUM, scene.controller.density
    )
    assert len(clocks) > 5
    for real, play in clocks[:-1]:
        assert play == pytest.approx(real / 2, abs=1e-6)
    # a swipe back: its settle is not stretched
    drag(scene, QPoint(75, Y), 275, 0, steps=10, ms=40)
    clocks.clear()  # from the release on
    _release(scene, 350, ms=300)
    assert pager.property("moveKind") == "settle"
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=5000)
    moving = clocks[1:]  # after the release's own frame
    assert len(moving) > 5
    for real, play in moving[:-1]:
        assert play == pytest.approx(real, abs=1e-6)
    assert scene.controller.runtime.pages["p"] == 0


def _theming_pages_spec() -> dict[str, Any]:
    """A pager at the root whose pages paint the screen: page 0 light with a "Next" button,
    page 1 dark. The current page's flat background is the authored screen colour (TH
    `prototypeAuthoredTheme` reads the pager's current page), so a page move re-themes."""

    def page(background: str, *kids: dict[str, Any]) -> dict[str, Any]:
        return {"type": "box", "style": {"width": "fill", "height": "fill",
                                         "background": background}, "children": list(kids)}  # fmt: skip

    next_button = {"type": "button", "id": "next", "text": "Next",
                   "onTap": [{"type": "setPage", "pager": "p", "page": 1}]}  # fmt: skip
    pager = {"type": "pager", "id": "p", "style": {"width": "fill", "height": "fill"},
             "children": [page("#FAFAFA", next_button), page("#121212"), page("#FAFAFA")]}  # fmt: skip
    return spec_of(pager)


def test_a_page_move_that_re_themes_the_screen_still_slides_animateScrollToPage(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """The phone recomposes its MaterialTheme with the new page's colours while
    `animateScrollToPage` goes on moving the pages (SC `LaunchedEffect(node.page, animate)`; a
    theme change does not restart it). The preview remakes its controls for a new theme; the
    pages' spring carries over to the new pager, frame by frame on the same curve."""
    scene.show(_theming_pages_spec())
    scene.grab()
    light = scene.controller.scheme
    before = _pager(scene)
    away = _x(before) - _page_x(before, 1)  # where the move starts, from page 1
    (button,) = [e for e in scene.visible_summary() if e["type"] == "button"]
    b = button["bounds"]
    QTest.mouseClick(
        scene.view, LEFT, NO_MOD, QPoint(round(b["x"] + b["width"] / 2), round(b["y"] + 20))
    )
    assert scene.controller.runtime.pages["p"] == 1
    assert scene.controller.scheme.dark and not light.dark  # re-themed at the page's set
    pager = _pager(scene)
    assert pager.property("settling") and pager.property("moveKind") == "scroll"
    trace = _trace(pager)
    qtbot.waitUntil(lambda: not pager.property("settling"), timeout=3000)
    assert trace[0][0] > 0  # the spring's clock went on from the move's start
    target = _page_x(pager, 1)  # the new pager's origin is its own (it made page 1 first)
    assert_follows_spring(
        trace, target + away, target, 0, STIFFNESS_MEDIUM, scene.controller.density
    )
    assert len(_page_events(scene)) == 1
