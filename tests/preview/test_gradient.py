"""Style gradients as the phone draws them, read back from a rendered frame: `linear` at any angle
(PrototypeRenderModel.kt `prototypeLinearGradientLine`: degrees clockwise, 0° left to right, 90°
top to bottom) with its end colours on the corners, and `radial` from the centre with radius
`hypot(w, h) / 2` (PrototypeSpecContent.kt `prototypeGradientBrush`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.preview.helpers import pixels

RED, BLUE = (255, 0, 0), (0, 0, 255)
PURPLE = (128, 0, 128)
SIZE = 200


def _show(scene: Any, gradient: dict[str, Any], **style: Any) -> np.ndarray:
    box = {"type": "box", "style": {"width": {"dp": SIZE}, "height": {"dp": SIZE},
                                    "gradient": gradient, **style}}  # fmt: skip
    spec = {"id": "g", "window": {"placement": {"type": "fullscreen"}},
            "root": {"type": "column", "children": [box]}}  # fmt: skip
    scene.show(spec)
    rgb = pixels(scene.grab())[:, :, :3]  # ARGB32 in memory: B, G, R
    return rgb[:, :, ::-1].astype(int)


def _near(actual: np.ndarray, expected: tuple[int, int, int], tolerance: int = 12) -> bool:
    return bool(np.abs(actual - np.array(expected)).max() <= tolerance)


def _linear(angle: float, stops: list[str] | None = None) -> dict[str, Any]:
    colours = stops or ["#FF0000", "#0000FF"]
    return {"type": "linear", "angle": angle, "stops": [{"color": c} for c in colours]}


def test_prototypeLinearGradientLine_45_degrees_runs_corner_to_corner(scene: Any) -> None:
    rgb = _show(scene, _linear(45))
    last = SIZE - 2
    assert _near(rgb[1, 1], RED)  # top-left: the first stop (clockwise from left-to-right)
    assert _near(rgb[last, last], BLUE)  # bottom-right: the last stop
    assert _near(rgb[last, 1], PURPLE)  # the other diagonal is halfway
    assert _near(rgb[1, last], PURPLE)
    assert _near(rgb[SIZE // 2, SIZE // 2], PURPLE)


@pytest.mark.parametrize(
    ("angle", "first", "last"),
    [
        (0, (100, 1), (100, SIZE - 2)),  # left to right
        (90, (1, 100), (SIZE - 2, 100)),  # top to bottom (clockwise, `dy = sin(radians)`)
        (180, (100, SIZE - 2), (100, 1)),  # right to left
        (135, (1, SIZE - 2), (SIZE - 2, 1)),  # top-right to bottom-left
        (-45, (SIZE - 2, 1), (1, SIZE - 2)),  # bottom-left to top-right
    ],
)
def test_prototypeLinearGradientLine_every_angle_puts_the_end_colours_where_it_points(
    scene: Any, angle: float, first: tuple[int, int], last: tuple[int, int]
) -> None:
    rgb = _show(scene, _linear(angle))
    assert _near(rgb[first], RED, 16), rgb[first]
    assert _near(rgb[last], BLUE, 16), rgb[last]


def test_stop_positions_are_honoured(scene: Any) -> None:
    gradient = {"type": "linear", "angle": 0, "stops": [
        {"color": "#FF0000", "position": 0}, {"color": "#FF0000", "position": 0.5},
        {"color": "#0000FF", "position": 0.5}, {"color": "#0000FF", "position": 1}]}  # fmt: skip
    rgb = _show(scene, gradient)
    assert _near(rgb[100, 80], RED) and _near(rgb[100, 120], BLUE)


def test_prototypeGradientBrush_radial_is_round_with_the_hypot_radius(scene: Any) -> None:
    gradient = {"type": "radial", "stops": [{"color": "#FFFFFF"}, {"color": "#000000"}]}
    rgb = _show(scene, gradient)
    centre = rgb[SIZE // 2, SIZE // 2]
    assert _near(centre, (255, 255, 255), 16)
    # RadialGradientShader(center, hypot(w, h) / 2): the corners are (almost) the last colour,
    # the middle of an edge is 1/sqrt(2) of the way out, not yet black
    assert int(rgb[1, 1].max()) <= 12
    edge = rgb[1, SIZE // 2]
    assert 255 * (1 - 0.71) - 16 <= int(edge[0]) <= 255 * (1 - 0.71) + 24, edge
    # the same distance from the centre in four directions: the same colour (not vertical)
    ring = [rgb[100, 150], rgb[100, 50], rgb[50, 100], rgb[150, 100]]
    assert max(int(np.abs(a - b).max()) for a in ring for b in ring) <= 6
    assert 150 < ring[0][0] < 210  # 50 of 141 px out: light grey


def test_a_gradient_keeps_rounded_corners_and_the_border_on_top(scene: Any) -> None:
    rgb = _show(scene, _linear(0), cornerRadius=40,
                border={"width": 4, "color": "#00FF00"})  # fmt: skip
    background = rgb[SIZE + 20, 5]  # below the box: the screen
    assert _near(rgb[2, 2], tuple(int(v) for v in background))  # cut corner shows the screen
    assert _near(rgb[100, 1], (0, 255, 0), 40)  # the border over the gradient's red end
