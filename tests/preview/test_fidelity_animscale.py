"""The device's animator duration scale (docs/fidelity.md Runtime row "motion"), as the phone
uses it: AutoMobile observes Settings.Global ANIMATOR_DURATION_SCALE live (PrototypeMotion.kt
`rememberAnimatorDurationScale`) and switches its motion off at 0 (`prototypeMotionEnabled`);
Compose divides every animation's play time by it (animation-core SuspendAnimation.kt
`doAnimationFrameWithScale`, the window's `MotionDurationScale`), and the platform's animators
(the ripple) multiply their durations by it (ValueAnimator `setDuration`)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtCore import QObject, QPoint
from PySide6.QtTest import QTest

from tests.preview.fidelity import bounds, rgb_at, spec_of
from tests.preview.helpers import LEFT, NO_MOD, named
from tests.preview.test_fidelity_layout import _offset_in_padded_column
from tests.preview.test_fidelity_runtime import _toggled_node, delegate_at
from tests.preview.test_interaction import _entry

#: The visibleWhen transitions' spring (EnterExitTransition.kt: StiffnessMediumLow, no bounce).
OMEGA = 20.0


def _hiding(t: float) -> float:
    """A hiding node's reveal t play-seconds into the exit, from rest at 1: (1 + wt) e^-wt."""
    return (1 + OMEGA * t) * math.exp(-OMEGA * t)


def _sample_exit(delegate: Any, qtbot: Any) -> list[tuple[float, float]]:
    """(real ms since the exit began, reveal) at every check until the node has gone, read from
    the transition's own spring (its `elapsedMs` and value are set in the same frame)."""
    spring = delegate.property("revealSpring")
    assert isinstance(spring, QObject)
    seen: list[tuple[float, float]] = []

    def gone() -> bool:
        if spring.property("running"):
            seen.append((float(spring.property("elapsedMs")), float(delegate.property("reveal"))))
        return not delegate.isVisible()

    qtbot.waitUntil(gone, timeout=10000)
    return [(ms, r) for ms, r in seen if ms > 0]


def test_scale_0_makes_a_visibleWhen_change_instant_prototypeMotionEnabled_durationScale(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    """`prototypeMotionEnabled(motion, durationScale)` is false at scale 0: no AnimatedVisibility,
    the node is at its final state at once, as with `motion: "none"`; shown again, at once too."""
    preview.controller.set_animator_scale(0)
    assert preview.controller.property("motion") == 0
    delegate = _toggled_node(preview, qtbot)
    assert not delegate.isVisible()  # gone before the next frame
    preview.runtime.set_value("show", True)
    assert delegate.isVisible() and delegate.property("reveal") == 1
    assert delegate.opacity() == 1


def test_scale_0_turns_the_content_box_clip_off_MO_prototypeAnimateSize_disabled(  # noqa: N802
    scene: Any,
) -> None:
    """With motion off (scale 0) `prototypeAnimateSize(enabled = false)` is the bare modifier:
    a column no longer clips its offset child to its content box, set live on a shown scene."""
    image, col = _offset_in_padded_column(scene)
    y = col["y"] + 50
    assert rgb_at(image, col["x"] + 190, y) == (255, 255, 255)  # clipped at 1x
    scene.controller.set_animator_scale(0)
    image = scene.grab()
    assert rgb_at(image, col["x"] + 190, y) == (255, 0, 0)
    assert rgb_at(image, col["x"] + 220, y) == (255, 0, 0)


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_a_transition_s_play_time_is_its_time_over_the_scale_SuspendAnimation_doAnimationFrameWithScale(  # noqa: N802, E501
    preview: Any, qtbot: Any, scale: float
) -> None:
    """`playTimeNanos = (frameTimeNanos - startTimeNanos) / durationScale`: at every frame the
    exit is where the spring is at its real time over the scale, so at 2x it takes twice as long
    (the spring's own length stays 332 ms of play time)."""
    preview.controller.set_animator_scale(scale)
    delegate = _toggled_node(preview, qtbot)
    spring = delegate.property("revealSpring")
    length = float(spring.property("durationMs"))
    assert _hiding(length / 1000) == pytest.approx(0.01, rel=0.05)  # the 0.01 threshold
    seen = _sample_exit(delegate, qtbot)
    assert len(seen) >= 3
    for ms, reveal in seen:
        assert reveal == pytest.approx(_hiding(ms / scale / 1000), abs=1e-6)
    # still moving past its length at 1x only when stretched
    last = max(ms for ms, _ in seen)
    assert last < length * scale
    if scale == 2:
        assert last > length


def test_the_scale_changes_live_mid_prototype_rememberAnimatorDurationScale(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    """The scale is observed while the prototype is up: set to 0 midway through an exit, the
    node is at its end at once (`doAnimationFrameWithScale`: play time = the duration); back at
    1x the next change animates again, and set to 2x midway the next frame reads 2x."""
    delegate = _toggled_node(preview, qtbot)
    qtbot.waitUntil(lambda: 0.2 < float(delegate.property("reveal")) < 0.9)
    preview.controller.set_animator_scale(0)
    assert float(delegate.property("reveal")) == 0 and not delegate.isVisible()
    preview.controller.set_animator_scale(1)
    preview.runtime.set_value("show", True)
    qtbot.waitUntil(lambda: 0 < float(delegate.property("reveal")) < 1)
    qtbot.waitUntil(lambda: float(delegate.property("reveal")) == 1)
    preview.runtime.set_value("show", False)
    spring = delegate.property("revealSpring")
    qtbot.waitUntil(lambda: float(spring.property("elapsedMs")) > 30)
    preview.controller.set_animator_scale(2)
    seen = _sample_exit(delegate, qtbot)
    after = [(ms, r) for ms, r in seen if ms > 60]
    assert after
    for ms, reveal in after[1:]:  # the frames after the change: their time over 2
        assert reveal == pytest.approx(_hiding(ms / 2 / 1000), abs=1e-6)


def test_a_row_s_size_animation_runs_on_the_scale_SuspendAnimation_MotionDurationScale(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    """animateContentSize's Animatable runs on the same scale: at 5x a longer label widens the
    row over five times as long (1x is within half a dp of this 156 dp step in 0.4 s); at 0 the
    row takes a new width at once."""
    import time

    from tests.preview.test_fidelity_runtime import _growing_row

    preview.controller.set_animator_scale(5)
    row = _growing_row(preview)
    before = row.width()
    started = time.monotonic()
    preview.runtime.set_value("label", "Hello there, a longer label")
    target = _entry(preview, "text")["bounds"]["width"] + 8
    widths: list[float] = []

    def grown() -> bool:
        widths.append(row.width())
        return abs(widths[-1] - target) < 0.5

    qtbot.waitUntil(grown, timeout=10000)
    took = time.monotonic() - started
    assert any(before + 1 < w < target - 1 for w in widths) and widths == sorted(widths)
    assert 5 * 0.25 < took < 5 * 0.6
    preview.controller.set_animator_scale(0)
    preview.runtime.set_value("label", "Hi")
    assert row.width() == pytest.approx(_entry(preview, "text")["bounds"]["width"] + 8, abs=0.5)


def test_the_ripple_s_times_are_stretched_at_the_press_ValueAnimator_setDuration(  # noqa: N802
    scene: Any, qtbot: Any
) -> None:
    """The press ripple is the platform's RippleDrawable, whose animators multiply their
    durations by the scale when set (`mDuration = duration * sDurationScale`): the ripple takes
    the scale of its press; at 0 it is grown and opaque at once and gone on release."""
    root = {"type": "column", "style": {"width": "fill"}, "children": [
        {"type": "box", "id": "b", "style": {"width": {"dp": 200}, "height": {"dp": 100}},
         "onTap": [{"type": "emit", "name": "t"}]}]}  # fmt: skip
    b = bounds(scene, spec_of(root))["b"]
    at = QPoint(round(b["x"] + 50), round(b["y"] + 50))

    def ripple() -> Any:
        found = [c for c in delegate_at(scene, "b").childItems() if c.property("grow") is not None]
        return found[0] if found else None

    scene.controller.set_animator_scale(5)
    QTest.mousePress(scene.view, LEFT, NO_MOD, at)
    qtbot.waitUntil(lambda: ripple() is not None)
    assert float(ripple().property("durationScale")) == 5
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, at)
    qtbot.waitUntil(lambda: ripple() is None, timeout=5000)
    scene.controller.set_animator_scale(0)
    QTest.mousePress(scene.view, LEFT, NO_MOD, at)
    qtbot.waitUntil(lambda: ripple() is not None and float(ripple().property("grow")) == 1)
    assert float(ripple().property("fade")) == 1
    QTest.mouseRelease(scene.view, LEFT, NO_MOD, at)
    qtbot.waitUntil(lambda: ripple() is None)


def test_only_the_developer_options_scales_are_taken(quick: Any) -> None:
    """Settings.Global ANIMATOR_DURATION_SCALE is never negative (SuspendAnimation.kt
    `durationScale`: "negative scale factor"); 1 is the default (`readAnimatorDurationScale`)."""
    from studio.preview.controller import PreviewController
    from studio.preview.device import ANIMATOR_SCALES

    controller = PreviewController()
    assert controller.property("animatorScale") == 1
    assert [s for _, s in ANIMATOR_SCALES] == [0, 0.5, 1, 1.5, 2, 5, 10]
    with pytest.raises(ValueError):
        controller.set_animator_scale(-1)


def test_the_components_tweens_take_the_scale_SuspendAnimation_doAnimationFrameWithScale(  # noqa: N802
    scene: Any,
) -> None:
    """The tweens Compose runs in the components are stretched by the scale as every Compose
    animation's play time is: the date picker's month slide (LazyAnimateScroll `animateTo`), the
    switch thumb, the indeterminate indicators (InfiniteTransition.kt `run`: play time over the
    scale); read from the animations' own durations, set live."""
    root = {"type": "column", "style": {"width": "fill"}, "children": [
        {"type": "datePicker", "id": "dp", "stateKey": "d"},
        {"type": "switch", "stateKey": "on", "label": "Wi-Fi"},
        {"type": "progress"}, {"type": "progress", "variant": "circular"}]}  # fmt: skip
    scene.show(spec_of(root, state={"d": "2026-02-10", "on": False}))
    scene.grab()

    def durations() -> dict[str, float]:
        names = ("monthSlide", "indeterminateSlide", "indeterminateTurn")
        found = {n: scene.screen_item().findChild(QObject, n) for n in names}
        assert all(found.values()), found
        out = {n: float(a.property("duration")) for n, a in found.items()}
        # the switch thumb's Behavior runs its animation for the thumb's `slideMs`
        out["thumbSlide"] = float(named(scene.screen_item(), "switchThumb").property("slideMs"))
        return out

    at_1x = durations()
    assert at_1x == {"monthSlide": 171, "thumbSlide": 100, "indeterminateSlide": 1750,
                     "indeterminateTurn": 1400}  # fmt: skip
    scene.controller.set_animator_scale(2)
    assert durations() == {n: 2 * ms for n, ms in at_1x.items()}


def test_the_time_picker_s_selector_runs_on_the_scale_SuspendAnimation_doAnimationFrameWithScale(  # noqa: N802, E501
    preview: Any, qtbot: Any
) -> None:
    """TimePicker.kt `rotateTo`: `anim.animateTo` on the selector's Animatable, whose play time
    is the real time over the scale: at 2x every frame's play time is half its real time."""
    from tests.preview.test_fidelity_timepicker import Dial, spec, to_minutes

    preview.controller.set_animator_scale(2)
    preview.set_spec(spec({"h": 9, "m": 0}))
    dial = Dial(preview, qtbot)
    to_minutes(preview, dial, qtbot)
    dial.tap(50 / 60)
    samples: list[tuple[float, float]] = []

    def sample() -> bool:
        if not dial.settled():
            spring = dial.spring
            samples.append((float(spring.property("elapsedMs")), float(spring.property("elapsed"))))
        return dial.settled()

    qtbot.waitUntil(sample, timeout=5000)
    moving = [(ms, play) for ms, play in samples if ms > 0]
    assert len(moving) >= 3
    for ms, play in moving:
        assert play == pytest.approx(ms / 2 / 1000, abs=1e-9)
