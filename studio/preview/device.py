"""The simulated phone around the preview: screen, density, system bars, cutout, keyboard (no Qt).

The preview stands for one phone: its window insets are what `safeAreaPadding` pads by
(SC `prototypeNodeModifier`: `windowInsetsPadding` of `systemBars` (with the navigation-bar floor
of `PrototypeInsetFloor.kt`), `displayCutout` and `ime`), for the window the spec's placement
makes (PL `prototypeLayoutParams`: edge to edge, insets left to the content).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SIDES = ("top", "bottom", "start", "end")

#: The phone's animator duration scales (Settings.Global ANIMATOR_DURATION_SCALE) as Android's
#: Developer options offer them ("Animator duration scale": off, .5x .. 10x), with their labels;
#: 1 is the platform's default (PrototypeMotion.kt `readAnimatorDurationScale`).
ANIMATOR_SCALES: tuple[tuple[str, float], ...] = (
    ("Animation off", 0.0),
    ("Animation scale .5x", 0.5),
    ("Animation scale 1x", 1.0),
    ("Animation scale 1.5x", 1.5),
    ("Animation scale 2x", 2.0),
    ("Animation scale 5x", 5.0),
    ("Animation scale 10x", 10.0),
)


@dataclass(frozen=True)
class DeviceProfile:
    """A phone in dp: screen, density (px per dp) and the bars that overlap the screen."""

    width: float
    height: float
    density: float = 2.625
    #: The status bar (a 24 dp bar, as the Android emulator's).
    status_bar: float = 24.0
    #: The gesture navigation bar at the bottom.
    navigation_bar: float = 24.0
    #: A punch-hole camera in the status bar: its safe inset is the bar's height.
    cutout: float = 24.0
    #: The on-screen keyboard (its inset counts from the screen's bottom edge, nav bar included).
    keyboard: float = 288.0


def profile_for(width: float, height: float) -> DeviceProfile:
    """The profile of a preset screen size: a 1080 px wide phone (3.0 at 360 dp, 2.625 at
    412 dp), a 720 px one at 320 dp, a foldable's inner screen at 2.625."""
    density = {360: 3.0, 320: 2.25}.get(round(width), 2.625)
    return DeviceProfile(float(width), float(height), density)


def _insets(top: float = 0, bottom: float = 0) -> dict[str, float]:
    return {"top": max(0.0, top), "bottom": max(0.0, bottom), "start": 0.0, "end": 0.0}


def window_insets(
    profile: DeviceProfile, placement: Mapping[str, Any], keyboard: bool
) -> dict[str, dict[str, float]]:
    """The insets (dp per side) of each `safeAreaPadding` type for the spec's window: the bars
    the window overlaps. A bottom sheet rises above the keyboard (PL `prototypeImeShiftPx`), so
    only a fullscreen window reports it."""
    kind = placement.get("type", "fullscreen")
    status, nav, cut = profile.status_bar, profile.navigation_bar, profile.cutout
    ime = profile.keyboard if keyboard else 0.0
    if kind == "sheet":
        height = min(float(placement.get("height") or 0), profile.height)
        if placement.get("edge") == "top":
            below = profile.height - height  # how far the sheet's bottom is from the screen's
            return {
                "systemBars": _insets(status, nav - below),
                "cutout": _insets(cut),
                "ime": _insets(),
            }
        above = profile.height - height
        return {
            "systemBars": _insets(status - above, nav),
            "cutout": _insets(cut - above),
            "ime": _insets(),
        }
    if kind == "floating":
        gravity = str(placement.get("gravity") or "center").lower()
        found = placement.get("offset")
        offset: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        dy = float(offset.get("y", 0) or 0)
        top = status - dy if gravity.startswith("top") else 0.0
        # A positive y lifts a bottom-gravity window out of the bar (PrototypeInsetFloor).
        bottom = nav - dy if gravity.startswith("bottom") else 0.0
        return {
            "systemBars": _insets(top, bottom),
            "cutout": _insets(cut - dy if gravity.startswith("top") else 0.0),
            "ime": _insets(),
        }
    return {
        "systemBars": _insets(status, nav),
        "cutout": _insets(cut),
        "ime": _insets(0, ime),
    }
