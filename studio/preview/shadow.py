"""Elevation shadows as Android's RenderThread draws them, for both scene graphs.

The phone draws a node's `style.elevation` with `Modifier.shadow(elevation, shape, ambientColor =
shadowColor, spotColor = shadowColor)` (AutoMobile SC `prototypeNodeModifier`; Material's
Surface does the same with its shadow elevation): a RenderNode with that Z, whose shadow hwui
draws through Skia (ReorderBarrierDrawables.cpp `EndReorderBarrierDrawable::drawShadow` ->
`SkShadowUtils::DrawShadow`; a round rect takes Ganesh's analytic path, SurfaceDrawContext
`drawFastShadow` -> ShadowRRectOp). This module holds that model and draws each of its two
shadows into an image, served as `image://shadow/...` and shown by Shadow.qml with a BorderImage.

The model, in dp on a phone of density D px/dp, for a caster of elevation e dp (z = e * D px)
and a rounded rectangle w x h with corner radius r:

- Light: a sphere of radius 800 dp centred at (screen width / 2, 0, Lz) in screen coordinates
  (core/res dimens `light_y` 0dp, `light_z` 600dp, `light_radius` 800dp; ThreadedRenderer
  `setLightCenter`: x = displayWidth / 2 - windowLeft, y = lightY - windowTop, and
  Lz = 600 dp * (min(screen w, h) / 450 dp + 2) / 3).
- Alphas: `ambient_shadow_alpha` 0.039 and `spot_shadow_alpha` 0.19, truncated to bytes
  (android_view_ThreadedRenderer `setLightAlpha`: `(uint8_t) (255 * alpha)`, 9 and 48), each
  multiplied by the shadow colour's alpha (ReorderBarrierDrawables `multiplyAlpha`); Compose's
  default colour is opaque black (DefaultShadowColor).
- Falloff: across a shadow's blur width from its outer edge the alpha is
  F(t) = exp(-4 (1 - t)^2) - 0.018, t = distance inside the outer edge / blur, capped at 1
  (ShadowRRectOp `create_falloff_texture`; its shader samples F at `distanceCorrection * (1 - d)`).
  There are no steps: the alpha rises smoothly from 0 to 0.98 of the shadow's alpha.
- Ambient shadow (SkDrawShadowInfo.h `AmbientBlurRadius`, `AmbientRecipAlpha`, `drawFastShadow`):
  the caster outset on every side by o = min(z / 2, 150 px) / D = about e / 2 dp, corners r + o,
  blur o * (1 + z / 128); no offset. At elevation 6 on a 2.625 phone: 3 dp out, 3.4 dp blur.
- Spot shadow (`GetSpotParams`): the caster projected from the light's centre onto the screen,
  zr = e / (Lz - e) (pinned to 0..0.95): scaled by s = Lz / (Lz - e) about the light, i.e. its
  centre moves by zr * (centre - light): down in proportion to the node's distance below the top
  edge, and away from the vertical mid-line; then outset by b = 800 dp * zr, corners r * s + b,
  blur 2 b (so the edge of the projected shape sits at F(1/2) = 0.35). At elevation 6 on a
  412 x 915 screen: zr = 0.0104, b = 8.3 dp, 0.1 dp down per 10 dp down the screen (a card at
  the top is shadowed about as much above as below, one near the bottom 9 dp further down).
- Inside: an opaque caster's shadows are rings (ShadowRRectOp's stroked round rect); they end at
  the umbra inset from the outer edge, max(outer corner radius, blur) for the ambient shadow and
  max(that, b + b) for the spot one (insetWidth b + max(b, offset), taking the offset as at most
  b, true above 800 dp down the screen). The caster covers the hollow, so only a translucent
  background shows it, as on the phone.

What is not copied: a per-corner shape draws as the uniform radius Shadow.qml is given (the
phone tessellates such a path, SkShadowTessellator); the spot shadow's corner radius keeps r + b
where the phone scales r by s (under 2 % at elevation 12); below 800 dp down the spot ring's inset
does not grow with the offset.
"""

from __future__ import annotations

import json
import math
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import quote, unquote

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QImage
from PySide6.QtQuick import QQuickImageProvider

#: core/res dimens `light_z` and `light_radius` (dp) and `light_y` (0dp: the top edge).
LIGHT_Z = 600.0
LIGHT_RADIUS = 800.0
LIGHT_Y = 0.0
#: `ambient_shadow_alpha` 0.039 and `spot_shadow_alpha` 0.19 as the renderer keeps them (bytes).
AMBIENT_ALPHA = int(255 * 0.039) / 255
SPOT_ALPHA = int(255 * 0.19) / 255
#: SkDrawShadowInfo.h: kAmbientHeightFactor, kAmbientGeomFactor, kMaxAmbientRadius (device px).
AMBIENT_HEIGHT_FACTOR = 1.0 / 128.0
AMBIENT_GEOM_FACTOR = 64.0
MAX_AMBIENT_RADIUS = 300 * AMBIENT_HEIGHT_FACTOR * AMBIENT_GEOM_FACTOR


def falloff(t: float) -> float:
    """The shadow's alpha (0..1 of its colour's) at `t` = distance inside its outer edge / blur
    (ShadowRRectOp `create_falloff_texture`)."""
    d = 1.0 - min(1.0, max(0.0, t))
    return max(0.0, math.exp(-4.0 * d * d) - 0.018)


@dataclass(frozen=True)
class Ring:
    """One of the two shadows, in dp: the caster's rounded rectangle (for the spot shadow: as
    projected, `scale` times its size) grown by `outset` on every side with `radius` corners; its
    alpha rises by `falloff` over `blur` from that outer edge and stops `inset` inside it."""

    outset: float
    radius: float
    blur: float
    inset: float
    alpha: float
    scale: float = 1.0


def light_z(screen_w: float, screen_h: float) -> float:
    """The light's height over the screen in dp (ThreadedRenderer `setLightCenter`: `light_z`
    weighted by the smaller screen side against 450 dp)."""
    ratio = min(screen_w, screen_h) / 450.0
    return LIGHT_Z * (ratio + 2.0) / 3.0


def spot_ratio(elevation: float, screen_w: float, screen_h: float) -> float:
    """zr = e / (Lz - e), pinned to 0..0.95 (SkDrawShadowInfo.h `GetSpotParams`): how far the
    spot shadow moves per dp the node's centre is from the light's, and its blur per light dp."""
    lz = light_z(screen_w, screen_h)
    return min(0.95, max(0.0, elevation / (lz - elevation))) if lz > elevation else 0.95


def ambient_ring(elevation: float, radius: float, density: float) -> Ring:
    """The ambient shadow of a caster `elevation` dp up with `radius` corners (drawFastShadow's
    ambient branch; the factors are in device pixels, hence the density)."""
    z = elevation * density
    outset = min(z * AMBIENT_HEIGHT_FACTOR * AMBIENT_GEOM_FACTOR, MAX_AMBIENT_RADIUS) / density
    blur = outset * (1.0 + max(z * AMBIENT_HEIGHT_FACTOR, 0.0))
    outer = radius + outset
    return Ring(outset, outer, blur, max(outer, blur), AMBIENT_ALPHA)


def spot_ring(elevation: float, radius: float, screen_w: float, screen_h: float) -> Ring:
    """The spot shadow of a caster `elevation` dp up with `radius` corners, before its offset
    (drawFastShadow's spot branch with `GetSpotParams`)."""
    zr = spot_ratio(elevation, screen_w, screen_h)
    lz = light_z(screen_w, screen_h)
    scale = min(1.95, max(1.0, lz / (lz - elevation))) if lz > elevation else 1.95
    b = LIGHT_RADIUS * zr
    outer = radius + b
    return Ring(b, outer, 2.0 * b, max(outer, 2.0 * b), SPOT_ALPHA, scale)


def ring_image(ring: Ring, width: int, height: int, ratio: float, color: QColor) -> QImage:
    """`ring` drawn into a `width` x `height` px image of its outer rounded rectangle at `ratio`
    px per dp, in `color` (its alpha times the ring's). Symmetric: one quadrant is computed."""
    radius, blur, inset = ring.radius * ratio, max(1e-6, ring.blur * ratio), ring.inset * ratio
    radius = min(radius, width / 2, height / 2)
    strength = ring.alpha * color.alphaF()
    r, g, b = color.redF(), color.greenF(), color.blueF()
    lut = []
    for a8 in range(256):
        a = a8 / 255
        lut.append((a8 << 24) | (round(r * a * 255) << 16) | (round(g * a * 255) << 8)
                   | round(b * a * 255))  # fmt: skip
    qw, qh = (width + 1) // 2, (height + 1) // 2
    quadrant = []
    for y in range(qh):
        cy = y + 0.5
        row = []
        for x in range(qw):
            cx = x + 0.5
            if cx < radius and cy < radius:
                s = radius - math.hypot(radius - cx, radius - cy)
            else:
                s = min(cx, cy)
            row.append(0 if s <= 0 or s > inset else round(255 * strength * falloff(s / blur)))
        quadrant.append(row)
    pixels = array("I")
    columns = [min(x, width - 1 - x) for x in range(width)]
    for y in range(height):
        row = quadrant[min(y, height - 1 - y)]
        pixels.extend(lut[row[c]] for c in columns)
    image = QImage(
        pixels.tobytes(), width, height, 4 * width, QImage.Format.Format_ARGB32_Premultiplied
    )
    return image.copy()  # own the pixels: the bytes above are freed on return


def _layer(ring: Ring, w: float, h: float, ratio: float, color: str) -> dict[str, Any]:
    """One BorderImage's source and borders (px) for `ring` around a `w` x `h` dp caster: a
    nine-patch whose 1 px middle stretches over any size when the outer rectangle is at least two
    insets across, else an image of that exact size. The border goes one pixel past the ring's
    inset, so the pixels around the middle are the middle's: a linearly filtered stretch (OpenGL)
    blends the middle with its neighbours over the whole stretched length and would smear the
    ring's inner edge across the caster."""
    border = math.ceil(ring.inset * ratio) + 1
    ow, oh = (w * ring.scale + 2 * ring.outset) * ratio, (h * ring.scale + 2 * ring.outset) * ratio
    if ow >= 2 * border + 1 and oh >= 2 * border + 1:
        size, border_px = (2 * border + 1, 2 * border + 1), border
    else:
        size, border_px = (max(1, math.ceil(ow)), max(1, math.ceil(oh))), 0
    job = {"ring": [ring.outset, ring.radius, ring.blur, ring.inset, ring.alpha, ring.scale],
           "size": list(size), "ratio": ratio, "color": color}  # fmt: skip
    return {
        "source": "image://shadow/" + quote(json.dumps(job, separators=(",", ":")), safe=""),
        "border": border_px,
        "outset": ring.outset,
        "scale": ring.scale,
    }


@lru_cache(maxsize=512)
def shadow_layers(
    elevation: float,
    radius: float,
    width: float,
    height: float,
    color: str,
    ratio: float,
    device: tuple[float, float, float],
) -> dict[str, Any]:
    """What Shadow.qml draws for a `width` x `height` dp caster: the ambient and spot layers, the
    spot shadow's offset factor `zr` and the light's screen position (`lightX`, `lightY`).
    `device`: the phone's (width, height, density). Empty for no elevation."""
    if elevation <= 0 or width <= 0 or height <= 0:
        return {}
    screen_w, screen_h, density = device
    return {
        "ambient": _layer(ambient_ring(elevation, radius, density), width, height, ratio, color),
        "spot": _layer(
            spot_ring(elevation, radius, screen_w, screen_h), width, height, ratio, color
        ),
        "zr": spot_ratio(elevation, screen_w, screen_h),
        "lightX": screen_w / 2,
        "lightY": LIGHT_Y,
    }


@lru_cache(maxsize=64)
def _render(job: str) -> QImage:
    data = json.loads(job)
    ring = Ring(*(float(v) for v in data["ring"]))
    width, height = (int(v) for v in data["size"])
    return ring_image(ring, width, height, float(data["ratio"]), QColor(str(data["color"])))


class ShadowImages(QQuickImageProvider):
    """Serves `image://shadow/<url-encoded JSON {ring, size, ratio, color}>` (from
    `shadow_layers`), each drawn once and kept (a few KiB each)."""

    def __init__(self) -> None:
        super().__init__(QQuickImageProvider.ImageType.Image)

    def requestImage(self, image_id: str, size: QSize, requested: QSize) -> QImage:  # noqa: N802
        try:
            return _render(unquote(image_id))
        except (ValueError, KeyError, TypeError):
            return QImage()
