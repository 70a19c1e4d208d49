"""The time picker's dial as Material 3's (the fidelity row "timePicker · base"): what a tap and a
drag pick, when the state keys are written and onTap runs, how the selector and the faces
animate. Each rule follows TimePicker.kt (androidx compose/material3/material3/src/commonMain:
`AnalogTimePickerState`, `onTap`, `moveSelector`, `ClockDialNode`, `ClockFace`) as AutoMobile's
`RenderPrototypeTimePicker` (PrototypeMaterialComponents.kt) shows it: `TimePicker(state)`, every
distinct (hour, minute) of the state sent as one `SetTime` with the node's onTap.

Tests wait for state (the value written, the selection, the spring's angle), never for time."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtCore import QPoint

from tests.preview import helpers
from tests.preview.helpers import LEFT, find_items
from tests.preview.probe import opengl_probe

TAPPED = [{"type": "emit", "name": "tapped"}]
RPM = 2 * math.pi / 60  # RadiansPerMinute
RPH = 2 * math.pi / 12  # RadiansPerHour


def spec(state: dict[str, Any], is24: bool = True, **top: Any) -> dict[str, Any]:
    picker = {"type": "timePicker", "hourKey": "h", "minuteKey": "m", "is24Hour": is24,
              "onTap": TAPPED}  # fmt: skip
    return {"id": "tp", "window": {"placement": {"type": "fullscreen"}}, "state": state,
            "root": {"type": "column", "style": {"width": "fill"}, "children": [picker]},
            **top}  # fmt: skip


def named(preview: Any, name: str) -> Any:
    """The item of that objectName on the shown screen (AssertionError where there is none)."""
    return helpers.named(preview.screen_item(), name)


class Dial:
    """The shown picker's dial: points by clock value and radius, and what it shows."""

    def __init__(self, preview: Any, qtbot: Any) -> None:
        self.preview, self.qtbot = preview, qtbot
        qtbot.waitUntil(lambda: _has(preview, "dial"))
        preview.grab_image()
        self.picker = named(preview, "timePicker")
        self.item = named(preview, "dial")
        self.spring = named(preview, "selectorSpring")
        self.centre = self.item.mapToScene(self.item.boundingRect().center())

    def point(self, turn: float, radius: float = 101) -> QPoint:
        """The point `turn` of a full turn clockwise from 12 o'clock, `radius` dp out."""
        a = turn * 2 * math.pi
        return QPoint(
            round(self.centre.x() + radius * math.sin(a)),
            round(self.centre.y() - radius * math.cos(a)),
        )

    def tap(self, turn: float, radius: float = 101) -> None:
        self.preview.grab_image()
        self.qtbot.mouseClick(self.preview.quick_widget, LEFT, pos=self.point(turn, radius))

    @property
    def selection(self) -> str:
        return str(self.picker.property("selection"))

    @property
    def angle(self) -> float:
        """The selector's angle (`currentAngle`: screen radians, 0 at 3 o'clock, clockwise)."""
        return float(self.item.property("selectorAngle"))

    def settled(self) -> bool:
        return self.spring.property("running") is False

    def face(self, name: str) -> Any:
        return named(self.preview, name)

    def shown(self, name: str) -> float:
        """The face's opacity, 0 when it is not made (a face is made while it shows)."""
        if not _has(self.preview, name):
            return 0.0
        face = self.face(name)
        return float(face.opacity()) if face.isVisible() else 0.0

    def texts(self, name: str) -> list[str]:
        return [str(t.property("text")) for t in find_items(self.face(name), "RoleText")]


def _has(preview: Any, name: str) -> bool:
    return helpers.find_named(preview.screen_item(), name) is not None


def same_angle(a: float, b: float) -> bool:
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi) < 1e-6


def values(preview: Any) -> tuple[Any, Any]:
    return preview.runtime.value("h"), preview.runtime.value("m")


def taps(preview: Any) -> int:
    return sum(1 for e in preview.runtime.events if e.name == "tapped")


def to_minutes(preview: Any, dial: Dial, qtbot: Any) -> None:
    """Tap the display's minute box (`TimeSelector`): the dial shows the minutes."""
    numbers = named(preview, "clockDisplayNumbers")
    box = numbers.mapToScene(numbers.boundingRect().center())
    preview.grab_image()
    qtbot.mouseClick(preview.quick_widget, LEFT, pos=QPoint(round(box.x() + 60), round(box.y())))
    qtbot.waitUntil(lambda: dial.selection == "minute" and dial.settled())


def test_a_minute_tap_snaps_to_the_nearest_five_TimePicker_onTap_round(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # `onTap`: `angle = round(angle / RadiansPerMinute / 5f) * 5f * RadiansPerMinute` before
    # `rotateTo`: a tap between the labels picks the nearest five, written once with onTap.
    preview.set_spec(spec({"h": 9, "m": 41}))
    dial = Dial(preview, qtbot)
    to_minutes(preview, dial, qtbot)
    dial.tap(12 / 60)  # 12 minutes' angle
    qtbot.waitUntil(lambda: values(preview) == (9, 10))
    assert taps(preview) == 1
    dial.tap(13 / 60, radius=60)  # anywhere on the dial, nearer 15
    qtbot.waitUntil(lambda: values(preview) == (9, 15))
    assert taps(preview) == 2
    dial.tap(57.9 / 60)
    qtbot.waitUntil(lambda: values(preview) == (9, 0))  # past 57.5 it is 00, not 60
    qtbot.waitUntil(dial.settled)
    assert same_angle(dial.angle, -math.pi / 2)  # the selector on 00, at 12 o'clock
    assert dial.selection == "minute"


def test_an_hour_tap_picks_the_nearest_hour_then_turns_to_minutes_TimePicker_onTap_autoSwitchToMinute(  # noqa: N802, E501
    preview: Any, qtbot: Any
) -> None:
    # `onTap`: the nearest hour, written at once; `rotateTo` animates the selector there, then
    # `delay(100)` and `selection = Minute` (AutoMobile's `TimePicker(state)`: autoSwitchToMinute
    # is `!a11yServicesEnabled && !isKeyboardMode`, true on a touch phone).
    preview.set_spec(spec({"h": 9, "m": 41}, is24=False))
    dial = Dial(preview, qtbot)
    assert dial.selection == "hour"
    dial.tap(3.3 / 12)
    assert values(preview) == (3, 41)  # written on the tap, before the dial turns
    assert dial.selection == "hour" and taps(preview) == 1
    qtbot.waitUntil(lambda: dial.selection == "minute")
    qtbot.waitUntil(dial.settled)
    assert same_angle(dial.angle, 41 * RPM - math.pi / 2)  # `animateToCurrent`: on :41
    dial.tap(20 / 60)
    qtbot.waitUntil(lambda: values(preview) == (3, 20))
    assert taps(preview) == 2


def test_a_12_hour_tap_keeps_the_afternoon_TimePicker_rotateTo_isPm(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(spec({"h": 19, "m": 5}, is24=False))
    dial = Dial(preview, qtbot)
    dial.tap(3 / 12, radius=60)  # a 12-hour dial has no inner ring
    qtbot.waitUntil(lambda: values(preview) == (15, 5))


@pytest.mark.parametrize(
    ("radius", "hour"),
    [(101, 3), (80, 3), (72, 15), (69, 15)],
    ids=["outer", "outside_MaxDistance_74", "inside_MaxDistance_74", "inner"],
)
def test_the_24_hour_inner_ring_is_within_74dp_TimePicker_moveSelector_MaxDistance(  # noqa: N802
    preview: Any, qtbot: Any, radius: float, hour: int
) -> None:
    # `moveSelector`: `currentDist < maxDist` (MaxDistance = 74 dp) is the inner ring, 12..23.
    preview.set_spec(spec({"h": 9, "m": 41}))
    dial = Dial(preview, qtbot)
    dial.tap(3 / 12, radius)
    qtbot.waitUntil(lambda: values(preview) == (hour, 41))


@pytest.mark.parametrize("rtl", [False, True], ids=["ltr", "rtl_unmirrored"])
def test_a_minute_drag_writes_each_minute_and_settles_on_the_last_TimePicker_onGestureEnd(  # noqa: N802
    preview: Any, qtbot: Any, rtl: bool
) -> None:
    # detectDragGestures: `rotateTo(atan(...))` on each move writes the minute under the finger
    # (no snapping: `minuteAngle = angle.toMinute() * RadiansPerMinute`), each new value one
    # SetTime with onTap (the phone's snapshotFlow of hour and minute); `onGestureEnd` then
    # animates the selector onto that minute's own angle. Under Rtl the same: `ClockDialNode`
    # reads screen angles.
    preview.set_rtl(rtl)
    preview.set_spec(spec({"h": 9, "m": 41}))
    dial = Dial(preview, qtbot)
    to_minutes(preview, dial, qtbot)
    widget = preview.quick_widget
    qtbot.mousePress(widget, LEFT, pos=dial.point(5 / 60, 40))
    for r in range(50, 102, 10):  # out along 5 minutes' ray: past the slop, still :05
        qtbot.mouseMove(widget, dial.point(5 / 60, min(r, 101)))
    qtbot.waitUntil(lambda: values(preview) == (9, 5))
    for minute in (6, 7):
        qtbot.mouseMove(widget, dial.point(minute / 60))
        qtbot.waitUntil(lambda minute=minute: values(preview) == (9, minute))
    assert not same_angle(dial.angle, 7 * RPM - math.pi / 2)  # following the (trailing) finger
    qtbot.mouseRelease(widget, LEFT, pos=dial.point(7 / 60))
    qtbot.waitUntil(dial.settled)
    assert same_angle(dial.angle, 7 * RPM - math.pi / 2)
    assert values(preview) == (9, 7)
    changes = [e.payload for e in preview.runtime.events if e.name == "change"]
    assert [c["value"] for c in changes] == [5, 6, 7]  # once per new minute
    assert taps(preview) == 3
    assert dial.selection == "minute"


def test_an_hour_drag_turns_to_minutes_at_its_end_TimePicker_onDragEnd(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # `onDragEnd`: `selection = Minute` at once (no delay), then `onGestureEnd` animates the
    # selector from the finger to the minute's angle.
    preview.set_spec(spec({"h": 9, "m": 41}))
    dial = Dial(preview, qtbot)
    widget = preview.quick_widget
    qtbot.mousePress(widget, LEFT, pos=dial.point(2 / 12, 30))
    for r in range(40, 102, 10):
        qtbot.mouseMove(widget, dial.point(2 / 12, min(r, 101)))
    qtbot.waitUntil(lambda: values(preview) == (2, 41))
    qtbot.mouseMove(widget, dial.point(4 / 12, 60))  # inside 74 dp: the inner ring
    qtbot.waitUntil(lambda: values(preview) == (16, 41))
    assert dial.selection == "hour"
    qtbot.mouseRelease(widget, LEFT, pos=dial.point(4 / 12, 60))
    assert dial.selection == "minute"
    qtbot.waitUntil(dial.settled)
    assert same_angle(dial.angle, 41 * RPM - math.pi / 2)
    assert values(preview) == (16, 41)


def test_the_selector_springs_the_shorter_way_TimePicker_rotateTo_DefaultSpatial(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # `rotateTo(animate = true)`: `anim.animateTo(endValueForAnimation(...), animationSpec)`,
    # the spec `MotionSchemeKeyTokens.DefaultSpatial`, the standard scheme's
    # `spring(dampingRatio = 0.9, stiffness = 700)`; `endValueForAnimation` takes the turn
    # nearest the selector, so from :00 to :50 it goes back a sixth, not on five sixths.
    preview.set_spec(spec({"h": 9, "m": 0}))
    dial = Dial(preview, qtbot)
    assert (dial.spring.property("dampingRatio"), dial.spring.property("stiffness")) == (
        pytest.approx(0.9),
        pytest.approx(700),
    )
    to_minutes(preview, dial, qtbot)
    start = dial.angle
    assert same_angle(start, -math.pi / 2)
    end = start - 10 * RPM
    dial.tap(50 / 60)
    assert values(preview) == (9, 50)  # the value at once, the selector on its way
    samples: list[tuple[float, float]] = []

    def sample() -> bool:
        if not dial.settled():
            samples.append((float(dial.spring.property("elapsed")), dial.angle))
        return dial.settled()

    qtbot.waitUntil(sample)
    assert dial.angle == pytest.approx(end, abs=1e-9)  # ends exactly on :50
    between = [a for _, a in samples if end + 0.1 * (start - end) < a < start - 0.1 * (start - end)]
    assert between, samples  # seen on its way, between start and end
    # from rest, spring(0.9, 700) (SpringSimulation): x(t) = x0 e^-zwt (cos wd t + zw/wd sin wd t)
    z, w = 0.9, math.sqrt(700)
    wd = w * math.sqrt(1 - z * z)
    for t, a in samples:
        x = (
            (start - end)
            * math.exp(-z * w * t)
            * (math.cos(wd * t) + z * w / wd * math.sin(wd * t))
        )
        assert a == pytest.approx(end + x, abs=1e-6), (t, samples)


def test_the_faces_crossfade_TimePicker_ClockFace_Crossfade_DefaultEffects(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # `Crossfade(targetState = clockFaceValues, animationSpec = DefaultEffects)`: for a while
    # both faces show, the hours fading out as the minutes fade in; ClockText is
    # `value.toLocalString()` (no padding): "0", "5" ... "55", a 24-hour "0" .. "11" outside and
    # "12" .. "23" inside.
    preview.set_spec(spec({"h": 9, "m": 41}))
    dial = Dial(preview, qtbot)
    assert sorted(dial.texts("hourFace"), key=int) == [str(v) for v in range(24)]
    assert dial.shown("minuteFace") == 0
    to_minutes_box = named(preview, "clockDisplayNumbers")
    box = to_minutes_box.mapToScene(to_minutes_box.boundingRect().center())
    preview.grab_image()
    qtbot.mouseClick(preview.quick_widget, LEFT, pos=QPoint(round(box.x() + 60), round(box.y())))
    qtbot.waitUntil(
        lambda: 0.2 < dial.shown("minuteFace") < 0.8 and 0.2 < dial.shown("hourFace") < 0.8
    )
    # the hours fading out read the live selection (`outerValue`: `screen[index]` once it is
    # Minute, no inner ring): "12" at the top, not the 24-hour "0"
    assert sorted(dial.texts("hourFace"), key=int) == [str(v) for v in range(1, 13)]
    qtbot.waitUntil(lambda: dial.shown("minuteFace") == 1 and dial.shown("hourFace") == 0)
    assert dial.texts("minuteFace") == [str(v) for v in range(0, 60, 5)]


def test_motion_off_jumps_the_selector_and_the_faces_prototypeMotionEnabled(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(spec({"h": 9, "m": 0}, motion="none"))
    dial = Dial(preview, qtbot)
    dial.tap(4 / 12)
    assert same_angle(dial.angle, 4 * RPH - math.pi / 2) and dial.settled()  # no way between
    qtbot.waitUntil(lambda: dial.selection == "minute")  # still after `delay(100)`
    assert same_angle(dial.angle, -math.pi / 2)
    assert dial.shown("minuteFace") == 1 and dial.shown("hourFace") == 0


def test_a_time_set_from_outside_moves_the_selector_at_once_TimePicker_hour_setter(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # The `hour` / `minute` setters give the selector a new `Animatable` at the value: no
    # animation (MC: a new bound value moves the picker).
    preview.set_spec(spec({"h": 9, "m": 0}))
    dial = Dial(preview, qtbot)
    preview.runtime.set_value("h", 2)
    qtbot.waitUntil(lambda: same_angle(dial.angle, 2 * RPH - math.pi / 2))
    assert dial.settled()


@pytest.mark.xvfb
@pytest.mark.timeout(120)
def test_the_dial_taps_drags_and_springs_alike_on_opengl_TimePicker_ClockDialNode(  # noqa: N802
    tmp_path: Any,
) -> None:
    """The same tap and drag on the OpenGL scene graph (xcb on a private Xvfb, a child process):
    the inner-ring hour, the switch to minutes, the dragged minute the selector settles on, one
    onTap per new value, and Qt logs nothing."""
    seen = opengl_probe("tests.preview.timepicker_probe")  # on OpenGL, and Qt logs nothing
    assert (seen["hour"], seen["switched"], seen["settled"], seen["minute"]) == (15, True, True, 7)
    assert same_angle(seen["angle"], 7 * RPM - math.pi / 2)
    assert seen["tapped"] == 3  # 15:41, 15:05, 15:07


def test_a_number_partly_under_the_handle_is_split_at_its_edge_TimePicker_drawSelector(  # noqa: N802
    preview: Any, qtbot: Any
) -> None:
    # `drawSelector`: the handle clears what is under it (BlendMode.Xor) and draws those pixels
    # of the numbers in clockDialSelectedContentColor (DstOver): at :43 the "45" is onPrimary on
    # the handle and onSurface off it; at :45 it is under the handle whole.
    from PySide6.QtCore import QPointF

    preview.set_spec(spec({"h": 9, "m": 43}))
    dial = Dial(preview, qtbot)
    to_minutes(preview, dial, qtbot)
    colors = preview.controller.scheme.colors
    label = next(
        t for t in find_items(dial.face("minuteFace"), "RoleText") if t.property("text") == "45"
    )
    overlap = named(preview, "selectorOverlap")
    qtbot.waitUntil(lambda: overlap.property("active") is True)
    image = preview.grab_image()
    screen = preview.screen_item()

    def at_screen(item: Any, x: float, y: float) -> QPointF:
        return screen.mapFromItem(item, QPointF(x, y))

    handle = at_screen(dial.item, float(dial.item.property("hx")), float(dial.item.property("hy")))
    top_left = at_screen(label, 0, 0)
    inside, outside = [], []
    for y in range(round(top_left.y()), round(top_left.y() + label.height())):
        for x in range(round(top_left.x()), round(top_left.x() + label.width())):
            d = math.hypot(x - handle.x(), y - handle.y())
            c = image.pixelColor(x, y)
            rgb = (c.red(), c.green(), c.blue())
            (inside if d < 22 else outside if d > 26 else []).append(rgb)

    def near(rgb: tuple[int, int, int], role: str) -> bool:
        want = colors[role].lstrip("#")
        return all(abs(v - int(want[i * 2 : i * 2 + 2], 16)) <= 24 for i, v in enumerate(rgb))

    assert any(near(p, "onPrimary") for p in inside)  # glyph pixels on the handle: onPrimary
    assert not any(near(p, "onSurface") for p in inside)
    assert any(near(p, "onSurface") for p in outside)  # and off it as the other numbers
    assert label.property("color").name().upper() == colors["onSurface"].upper()
    dial.tap(45 / 60)
    qtbot.waitUntil(lambda: values(preview) == (9, 45) and dial.settled())
    qtbot.waitUntil(lambda: overlap.property("active") is False)  # wholly under the handle
    assert label.property("color").name().upper() == colors["onPrimary"].upper()
