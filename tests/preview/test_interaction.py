"""Using the preview like a user: taps run actions, controls write state, pagers follow tabs,
overlays open and close by state, and edit mode selects instead of running anything."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt

from tests.preview.helpers import LEFT, center_of, named, pixels

BUTTON_SPEC: dict[str, Any] = {
    "id": "t",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"count": 0, "name": "", "wifi": False, "volume": 0, "sound": "chime", "open": False},
    "root": {
        "type": "column",
        "style": {"width": "fill", "padding": {"top": 16, "start": 16, "end": 16}, "spacing": 16},
        "children": [
            {"type": "text", "text": "Count {count}"},
            {
                "type": "button",
                "id": "plus",
                "label": "Add one",
                "onTap": [
                    {"type": "increment", "key": "count"},
                    {"type": "emit", "name": "added", "payload": {"by": 1}},
                ],
            },
            {"type": "textField", "stateKey": "name", "placeholder": "Your name"},
            {"type": "switch", "stateKey": "wifi", "label": "Wi-Fi", "style": {"width": "fill"}},
            {
                "type": "slider",
                "stateKey": "volume",
                "label": "Volume",
                "min": 0,
                "max": 10,
                "step": 1,
            },
            {
                "type": "radioGroup",
                "stateKey": "sound",
                "options": [
                    {"value": "chime", "label": "Chime"},
                    {"value": "beep", "label": "Beep"},
                ],
            },
            {
                "type": "dialog",
                "openWhen": {"key": "open", "equals": True},
                "title": "Delete?",
                "text": "This cannot be undone.",
                "confirm": {"label": "Delete", "onTap": [{"type": "emit", "name": "deleted"}]},
                "dismiss": {"label": "Keep"},
            },
        ],
    },
}


def _find(preview: Any, node_type: str, text: str | None) -> dict[str, Any] | None:
    preview.grab_image()  # what the user sees: a rendered (polished) frame
    for entry in preview.visible_summary():
        if entry["type"] == node_type and (text is None or text in entry["text"]):
            return entry
    return None


def _entry(preview: Any, node_type: str, text: str | None = None) -> dict[str, Any]:
    """The visible node of that type (and text), once the scene has laid it out."""
    from pytestqt.qtbot import QtBot

    QtBot(None).waitUntil(lambda: _find(preview, node_type, text) is not None, timeout=5000)
    found = _find(preview, node_type, text)
    assert found is not None
    return found


def _click(qtbot: Any, preview: Any, point: QPoint) -> None:
    preview.grab_image()  # a rendered frame first: controls place their parts when polished
    qtbot.mouseClick(preview.quick_widget, LEFT, pos=point)


def test_tapping_a_button_runs_its_actions(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    events: list[Any] = []
    preview.runtimeEvent.connect(events.append)
    _click(qtbot, preview, center_of(_entry(preview, "button", "Add one")))
    qtbot.waitUntil(lambda: preview.runtime.value("count") == 1)
    emitted = [e.to_json() for e in events]
    assert [(e["name"], e["payload"]) for e in emitted if e["name"] == "added"] == [
        ("added", {"by": 1})
    ]
    assert emitted[-1]["state"]["count"] == 1
    qtbot.waitUntil(lambda: "Count 1" in _entry(preview, "text")["text"])


def test_typing_in_a_text_field_writes_state(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    _click(qtbot, preview, center_of(_entry(preview, "textField")))
    qtbot.keyClicks(preview.quick_widget, "Ada")
    qtbot.waitUntil(lambda: preview.runtime.value("name") == "Ada")


def test_toggling_a_switch_writes_state(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    entry = _entry(preview, "switch", "Wi-Fi")
    b = entry["bounds"]
    # the switch itself sits at the end of its full-width row
    _click(qtbot, preview, QPoint(round(b["x"] + b["width"] - 20), round(b["y"] + b["height"] / 2)))
    qtbot.waitUntil(lambda: preview.runtime.value("wifi") is True)


def test_sliding_writes_a_stepped_value(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    b = _entry(preview, "slider", "Volume")["bounds"]
    y = round(b["y"] + b["height"] - 20)
    start = QPoint(round(b["x"] + 12), y)
    end = QPoint(round(b["x"] + b["width"] * 0.8), y)
    widget = preview.quick_widget
    qtbot.mousePress(widget, LEFT, pos=start)
    qtbot.mouseMove(widget, end)
    qtbot.mouseRelease(widget, LEFT, pos=end)
    qtbot.waitUntil(lambda: preview.runtime.value("volume") not in (0, None))
    value = preview.runtime.value("volume")
    assert 6 <= value <= 9 and float(value).is_integer()


def test_picking_a_radio_option(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    b = _entry(preview, "radioGroup")["bounds"]
    # two options stacked: click the lower half (Beep)
    _click(qtbot, preview, QPoint(round(b["x"] + 30), round(b["y"] + b["height"] * 0.75)))
    qtbot.waitUntil(lambda: preview.runtime.value("sound") == "beep")


def test_dialog_opens_and_closes_by_state(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    assert not any(e["type"] == "dialog" for e in preview.visible_summary())
    preview.runtime.set_value("open", True)
    qtbot.waitUntil(lambda: any(e["type"] == "dialog" for e in preview.visible_summary()))
    dialog = _entry(preview, "dialog")
    assert "Delete?" in dialog["text"] and "This cannot be undone." in dialog["text"]
    events: list[Any] = []
    preview.runtimeEvent.connect(events.append)
    # the confirm button is the last text button at the dialog's bottom right
    from PySide6.QtQuick import QQuickItem

    from tests.preview.helpers import find_items

    buttons = [
        i for i in find_items(preview.screen_item(), "MButton") if i.property("text") == "Delete"
    ]
    assert buttons, "confirm button not found"
    point = buttons[0].mapToScene(buttons[0].boundingRect().center()).toPoint()
    assert isinstance(buttons[0], QQuickItem)
    _click(qtbot, preview, point)
    qtbot.waitUntil(lambda: preview.runtime.value("open") is False)
    assert any(e.to_json()["name"] == "deleted" for e in events)
    qtbot.waitUntil(lambda: not any(e["type"] == "dialog" for e in preview.visible_summary()))


PAGER_SPEC: dict[str, Any] = {
    "id": "p",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {
        "type": "column",
        "style": {"width": "fill", "height": "fill"},
        "children": [
            {"type": "tabBar", "pager": "pages", "items": [{"label": "Inbox"}, {"label": "Sent"}]},
            {
                "type": "pager",
                "id": "pages",
                "style": {"weight": 1},
                "children": [
                    {"type": "text", "text": "First page {page}/{pageCount}"},
                    {"type": "text", "text": "Second page {page}/{pageCount}"},
                ],
            },
            {"type": "bottomNav", "pager": "pages", "items": [
                {"label": "Home", "icon": "home"}, {"label": "Outbox", "icon": "send"}]},
        ],
    },
}  # fmt: skip


def _texts(preview: Any) -> str:
    return " ".join(e["text"] for e in preview.visible_summary())


def test_tab_bar_switches_the_pager(preview: Any, qtbot: Any) -> None:
    preview.set_spec(PAGER_SPEC)
    assert "First page 1/2" in _texts(preview) and "Second page" not in _texts(preview)
    tabs = _entry(preview, "tabBar")["bounds"]
    _click(qtbot, preview, QPoint(round(tabs["x"] + tabs["width"] * 0.75), round(tabs["y"] + 20)))
    qtbot.waitUntil(lambda: preview.runtime.pages.get("pages") == 1)
    # the pages slide there (`animateScrollToPage`), the first one leaving as they settle
    qtbot.waitUntil(lambda: "Second page 2/2" in _texts(preview))
    qtbot.waitUntil(lambda: "First page" not in _texts(preview))
    # the bottom nav follows the same pager back
    nav = _entry(preview, "bottomNav")["bounds"]
    _click(qtbot, preview, QPoint(round(nav["x"] + nav["width"] * 0.25), round(nav["y"] + 30)))
    qtbot.waitUntil(lambda: "First page 1/2" in _texts(preview))


def test_swiping_the_pager_sets_the_page(preview: Any, qtbot: Any) -> None:
    preview.set_spec(PAGER_SPEC)
    b = _entry(preview, "pager")["bounds"]
    y = round(b["y"] + b["height"] / 2)
    widget = preview.quick_widget
    preview.grab_image()
    qtbot.mousePress(widget, LEFT, pos=QPoint(380, y))
    for x in range(370, 40, -30):
        qtbot.mouseMove(widget, QPoint(x, y))
    qtbot.mouseRelease(widget, LEFT, pos=QPoint(40, y))
    qtbot.waitUntil(lambda: preview.runtime.pages.get("pages") == 1)


def test_only_the_page_on_screen_is_made_until_a_swipe_shows_the_next_HorizontalPager(
    preview: Any, qtbot: Any
) -> None:
    """AutoMobile's pager is `HorizontalPager(pager, modifier)` with Compose's default
    `beyondViewportPageCount` (0): the next page is composed only once a swipe brings it into
    view, not beside the first frame."""
    preview.set_spec(PAGER_SPEC)
    preview.grab_image()
    made = preview.controller.delegates_created
    b = _entry(preview, "pager")["bounds"]
    y = round(b["y"] + b["height"] / 2)
    widget = preview.quick_widget
    qtbot.mousePress(widget, LEFT, pos=QPoint(380, y))
    for x in range(370, 250, -20):
        qtbot.mouseMove(widget, QPoint(x, y))
    qtbot.waitUntil(lambda: preview.controller.delegates_created == made + 1)  # the second page
    qtbot.mouseRelease(widget, LEFT, pos=QPoint(250, y))


def test_edit_mode_click_selects_and_runs_nothing(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    preview.set_edit_mode(True)
    events: list[Any] = []
    preview.runtimeEvent.connect(events.append)
    with qtbot.waitSignal(preview.nodeClicked) as clicked:
        _click(qtbot, preview, center_of(_entry(preview, "button", "Add one")))
    assert clicked.args == ["plus"]
    with qtbot.waitSignal(preview.nodeClicked) as clicked:
        _click(qtbot, preview, center_of(_entry(preview, "text", "Count")))
    assert clicked.args == ["root.children[0]"]
    assert preview.runtime.value("count") == 0 and events == []


def test_selected_and_highlighted_nodes_are_outlined(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    entry = _entry(preview, "textField")
    b = entry["bounds"]
    edge = (round(b["y"] + b["height"] / 2), round(b["x"]))  # left edge, mid height

    def color_at(rc: tuple[int, int]) -> tuple[int, int, int]:
        px = pixels(preview.grab_image())[rc[0], rc[1]]
        return int(px[2]), int(px[1]), int(px[0])

    before = color_at(edge)
    preview.set_selected("root.children[2]")
    qtbot.waitUntil(lambda: color_at(edge) == (0x1A, 0x73, 0xE8))
    preview.set_selected(None)
    preview.set_highlighted(["root.children[2]"])
    qtbot.waitUntil(lambda: color_at(edge) == (0xF2, 0x99, 0x00))
    preview.set_highlighted([])
    qtbot.waitUntil(lambda: color_at(edge) == before)


def test_theme_and_device_size(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    light = pixels(preview.grab_image())[900, 200]
    preview.set_theme("dark")
    qtbot.waitUntil(lambda: pixels(preview.grab_image())[900, 200].sum() < light.sum() - 300)
    preview.set_device_size(360, 800)
    qtbot.waitUntil(lambda: preview.grab_image().width() == 360)
    assert preview.grab_image().height() == 800


def test_reset_state(preview: Any, qtbot: Any) -> None:
    preview.set_spec(BUTTON_SPEC)
    preview.runtime.set_value("count", 5)
    qtbot.waitUntil(lambda: "Count 5" in _texts(preview))
    preview.reset_state()
    qtbot.waitUntil(lambda: "Count 0" in _texts(preview))


_ = Qt


CONTROLS_SPEC: dict[str, Any] = {
    "id": "c2",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"agree": False, "work": False, "repeat": "once", "hour": 7, "minute": 30,
              "date": "2026-10-08", "sheet": False, "toast": False},
    "root": {
        "type": "column",
        "style": {"width": "fill", "spacing": 8},
        "children": [
            {"type": "button", "label": "More", "onTap": [
                {"type": "setState", "key": "sheet", "value": True},
                {"type": "setState", "key": "toast", "value": True}]},
            {"type": "checkbox", "stateKey": "agree", "label": "I agree"},
            {"type": "chip", "variant": "filter", "label": "Work", "stateKey": "work"},
            {"type": "segmentedButton", "stateKey": "repeat", "options": [
                {"value": "once", "label": "Once"}, {"value": "daily", "label": "Daily"}]},
            {"type": "timePicker", "hourKey": "hour", "minuteKey": "minute", "is24Hour": True},
            {"type": "datePicker", "stateKey": "date"},
            {"type": "bottomSheet", "openWhen": {"key": "sheet", "equals": True},
             "detents": ["half"], "child": {"type": "text", "text": "Sheet body"}},
            {"type": "snackbar", "openWhen": {"key": "toast", "equals": True},
             "text": "Saved", "durationMs": 50},
        ],
    },
}  # fmt: skip


def test_checkbox_chip_segmented_and_pickers_write_state(preview: Any, qtbot: Any) -> None:
    preview.set_spec(CONTROLS_SPEC)
    _click(qtbot, preview, center_of(_entry(preview, "checkbox", "I agree")))
    qtbot.waitUntil(lambda: preview.runtime.value("agree") is True)
    _click(qtbot, preview, center_of(_entry(preview, "chip", "Work")))
    qtbot.waitUntil(lambda: preview.runtime.value("work") is True)
    seg = _entry(preview, "segmentedButton")["bounds"]
    _click(qtbot, preview, QPoint(round(seg["x"] + seg["width"] * 0.75), round(seg["y"] + 20)))
    qtbot.waitUntil(lambda: preview.runtime.value("repeat") == "daily")
    # the clock dial (TimePicker.kt: 256 dp dial 36 dp below the 80 dp display, hours on a 101 dp
    # radius): a tap on 8 o'clock picks hour 8, then the dial shows minutes; 3 o'clock is :15
    time = _entry(preview, "timePicker")["bounds"]
    dial_x, dial_y = time["x"] + time["width"] / 2, time["y"] + 80 + 36 + 128
    _click(qtbot, preview, QPoint(round(dial_x - 87.5), round(dial_y + 50.5)))
    qtbot.waitUntil(lambda: preview.runtime.value("hour") == 8)
    assert preview.runtime.value("minute") == 30
    picker = named(preview.screen_item(), "timePicker")
    qtbot.waitUntil(lambda: picker.property("selection") == "minute")  # once the selector settled
    _click(qtbot, preview, QPoint(round(dial_x + 101), round(dial_y)))
    qtbot.waitUntil(lambda: preview.runtime.value("minute") == 15)


def test_picking_a_day_writes_the_date_and_runs_on_tap(preview: Any, qtbot: Any) -> None:
    """MC `RenderPrototypeDatePicker`: a picked day is `Choose(stateKey, date, onTap)`."""
    from tests.preview.helpers import find_items

    spec = {"id": "dates", "window": {"placement": {"type": "fullscreen"}},
            "state": {"date": "2026-10-08"},
            "root": {"type": "datePicker", "stateKey": "date",
                     "onTap": [{"type": "emit", "name": "picked"}]}}  # fmt: skip
    preview.set_spec(spec)
    events: list[Any] = []
    preview.runtimeEvent.connect(events.append)
    _entry(preview, "datePicker")
    days = [i for i in find_items(preview.screen_item(), "RoleText") if i.property("text") == "21"]
    assert len(days) == 1, "one day 21 in October (no neighbouring months' days)"
    _click(qtbot, preview, days[0].mapToScene(days[0].boundingRect().center()).toPoint())
    qtbot.waitUntil(lambda: preview.runtime.value("date") == "2026-10-21")
    qtbot.waitUntil(lambda: [e.name for e in events] == ["change", "picked"])


def test_sheet_and_snackbar_open_by_state_and_close(preview: Any, qtbot: Any) -> None:
    preview.set_spec(CONTROLS_SPEC)
    assert "Sheet body" not in _texts(preview) and "Saved" not in _texts(preview)
    _click(qtbot, preview, center_of(_entry(preview, "button", "More")))
    qtbot.waitUntil(lambda: "Sheet body" in _texts(preview))
    # the snackbar times out by itself (durationMs) and writes its key back
    qtbot.waitUntil(lambda: preview.runtime.value("toast") is False)
    # a tap on the scrim above the sheet dismisses it
    _click(qtbot, preview, QPoint(200, 100))
    qtbot.waitUntil(lambda: preview.runtime.value("sheet") is False)
    qtbot.waitUntil(lambda: "Sheet body" not in _texts(preview))


PLATFORM_SPEC: dict[str, Any] = {
    "id": "plat",
    "window": {"placement": {"type": "fullscreen"}},
    "requires": {"platform": ["camera"]},
    "data": {"photo": None},
    "state": {"status": "idle"},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "text": "Status {status}"},
            {
                "type": "button",
                "label": "Take photo",
                "onTap": [
                    {
                        "type": "platform",
                        "call": "camera.capture",
                        "args": {"quality": "high"},
                        "into": "/data/photo",
                        "statusKey": "status",
                    }
                ],
            },
        ],
    },
}


def test_platform_actions_are_handed_to_the_host(preview: Any, qtbot: Any) -> None:
    preview.set_spec(PLATFORM_SPEC)
    with qtbot.waitSignal(preview.platformRequested) as requested:
        _click(qtbot, preview, center_of(_entry(preview, "button", "Take photo")))
    request = requested.args[0]
    assert request.call == "camera.capture" and dict(request.args) == {"quality": "high"}
    qtbot.waitUntil(lambda: "Status pending" in _texts(preview))
    preview.runtime.resolve_platform(request, "ok", {"uri": "file:///p.jpg"})
    qtbot.waitUntil(lambda: "Status ok" in _texts(preview))
    assert preview.runtime.data["photo"] == {"uri": "file:///p.jpg"}


REFUSING_SPEC: dict[str, Any] = {
    "id": "r",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"level": 2},
    "root": {
        "type": "column",
        "style": {"width": "fill", "padding": {"top": 16, "start": 16, "end": 16}},
        "children": [
            {"type": "slider", "stateKey": "level", "label": "Level", "min": 0, "max": 10,
             "step": 1, "style": {"width": "fill"}},
            {"type": "progress", "stateKey": "level", "max": 5},
        ],
    },
}  # fmt: skip


def test_a_refused_control_write_is_caught_and_the_control_shows_the_stored_value(
    preview: Any, qtbot: Any
) -> None:
    preview.set_spec(REFUSING_SPEC)
    events: list[Any] = []
    refusals: list[Any] = []
    preview.runtimeEvent.connect(events.append)
    preview.controller.runtimeRefused.connect(refusals.append)
    b = _entry(preview, "slider", "Level")["bounds"]
    before = preview.grab_image()
    # the progress bar on the same key accepts at most 5: a click at 80% asks for 8
    _click(
        qtbot, preview, QPoint(round(b["x"] + b["width"] * 0.8), round(b["y"] + b["height"] - 20))
    )
    qtbot.waitUntil(lambda: bool(refusals))
    # No event, as on the phone (RT `plannedWrites` throws, nothing is emitted); a notice instead
    assert events == []
    assert "progress" in refusals[0].message and refusals[0].key == "level"
    assert preview.runtime.value("level") == 2
    # back where the state is: the slider is drawn as before the tap
    qtbot.waitUntil(lambda: pixels(preview.grab_image()).tobytes() == pixels(before).tobytes())
