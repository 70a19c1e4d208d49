"""Helpers of the fidelity tests: a fullscreen spec around a root, rendered node bounds, pixels."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QImage

from tests.preview.helpers import pixels


def spec_of(root: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A fullscreen spec with `root` (and `theme`, `state`, `window` overrides)."""
    return {"id": "fid", "window": {"placement": {"type": "fullscreen"}}, "root": root, **extra}


def box(node_id: str, w: float, h: float, **style: Any) -> dict[str, Any]:
    return {
        "type": "box",
        "id": node_id,
        "style": {"width": {"dp": w}, "height": {"dp": h}, **style},
        "children": [],
    }


def bounds(scene: Any, spec: dict[str, Any] | None = None) -> dict[str, dict[str, float]]:
    """address -> bounds (screen dp) of every node on screen, after showing `spec`."""
    if spec is not None:
        scene.show(spec)
    scene.grab()
    return {e["address"]: dict(e["bounds"]) for e in scene.visible_summary(on_screen_only=False)}


def rgb_at(image: QImage, x: float, y: float) -> tuple[int, int, int]:
    b, g, r = pixels(image)[round(y), round(x)][:3]
    return int(r), int(g), int(b)


def hex_rgb(value: str) -> tuple[int, int, int]:
    digits = value[-6:]
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def close(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 3) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def over(color: tuple[int, int, int], alpha: float, below: tuple[int, int, int]) -> tuple[int, ...]:
    """`color` at `alpha` composited over `below`."""
    return tuple(round(c * alpha + b * (1 - alpha)) for c, b in zip(color, below, strict=True))
