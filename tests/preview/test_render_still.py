"""A render is a still picture: `HeadlessScene.grab` waits out Material's animations, so a
screenshot taken right after a state change shows where the controls end up, not a frame of
their motion (a switch's thumb sliding, a checkbox's check drawing in)."""

from __future__ import annotations

from typing import Any

import pytest

SPEC: dict[str, Any] = {
    "id": "still",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {"on": False},
    "root": {
        "type": "column",
        "id": "root",
        "children": [
            {"type": "switch", "id": "sw", "label": "Wi-Fi", "stateKey": "on"},
            {"type": "checkbox", "id": "cb", "label": "Remember me", "stateKey": "on"},
        ],
    },
}


def _settled_on() -> dict[str, Any]:
    return dict(SPEC, state={"on": True})


@pytest.mark.parametrize("appearance", ["light", "dark"])
def test_a_grab_right_after_a_toggle_shows_the_toggled_controls(
    quick: Any, appearance: str
) -> None:
    from studio.preview.render import HeadlessScene
    from studio.spec import validate

    assert validate(SPEC).ok

    reference = HeadlessScene(412, 300, appearance, chrome=False)
    try:
        reference.show(_settled_on())
        expected = reference.grab()
    finally:
        reference.close()

    scene = HeadlessScene(412, 300, appearance, chrome=False)
    try:
        scene.show(SPEC)
        before = scene.grab()
        scene.controller.runtime.set_value("on", True)
        after = scene.grab()
    finally:
        scene.close()
    assert before != expected  # the toggle is visible at all
    assert after == expected
