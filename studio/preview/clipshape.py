"""The rounded clips a node is drawn inside, as corner radii of its own.

On the phone a node with a `cornerRadius` clips its content to its shape (SC
`prototypeNodeModifier`: `if (style.cornerRadius != null) modifier = modifier.clip(shape)`, before
the padding, so the shape is the node's outer box), and a card clips its content to the card's
shape (CO `RenderPrototypeCard` draws a Material `Card`, whose `Surface` applies
`Modifier.clip(shape)` inside the modifier it is given, so at the card's content box). A child
whose background reaches such a corner (a card's header, a box's top stripe) is cut round there.

The software scene graph clips to rectangles only, so the preview cannot clip content to a
rounded shape. Instead, a node lying in an ancestor's rounded corner draws its own background,
border, gradient and image with that corner rounded (`geo.clip`, read by StyleBox.qml, card.qml
and image.qml): exact when the node's corner is the ancestor's (a child flush with the corner),
and close when it is inset by a little: the radius is chosen so that the node's corner point is
cut as deep as the ancestor's circle cuts it. What lies farther in is not cut, as on the phone.

Not followed: content that moves under the clip (a scroll's or pager's content, an anchored
node drawn in its own layer, a dialog's or sheet's content), a node whose corner lies outside
the ancestor (its rectangle is cut by the ancestor's bounds first; the rounding would belong at
the ancestor's corner, not its own), and text or component surfaces (a button in a card's
corner), which rarely reach a corner.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.preview.layout import LNode

#: Where the walk up stops: content that scrolls or pages moves under the clip, and floating
#: windows draw in their own layer.
_STOP = frozenset({"scroll", "pager", "dialog", "bottomSheet", "snackbar"})
_ROOT2_1 = math.sqrt(2.0) - 1.0

Corners = tuple[float, float, float, float]  # top-left, top-right, bottom-right, bottom-left


def inset_corner(radius: float, dx: float, dy: float) -> float:
    """The radius of a node's corner that lies `dx`, `dy` dp inside an ancestor's corner of
    `radius`: the ancestor's radius when the corners meet; for one farther in, the radius whose
    arc cuts the node's corner point as deep as the ancestor's circle does (0 once the point is
    inside the circle)."""
    if radius <= 0 or dx < 0 or dy < 0 or dx >= radius or dy >= radius:
        return 0.0
    outside = math.hypot(radius - dx, radius - dy) - radius
    return max(0.0, outside / _ROOT2_1)


def _screen_corners(ln: LNode, radius: float, rtl: bool) -> Corners:
    """The node's own corner radii by screen side (per-corner values are start/end)."""
    st = ln.st or {}
    per = (st.get("rTL", -1.0), st.get("rTR", -1.0), st.get("rBR", -1.0), st.get("rBL", -1.0))
    if rtl:
        per = (per[1], per[0], per[3], per[2])
    return tuple(r if r >= 0 else radius for r in per)  # type: ignore[return-value]


def _shapes(
    ln: LNode, card_radius: Callable[[], float], rtl: bool
) -> list[tuple[float, float, float, float, Corners]]:
    """The rounded clips `ln` applies to its content: (left, top, right, bottom, radii) in its
    own outer box."""
    st = ln.st or {}
    out = []
    limit = min(ln.w, ln.h) / 2
    if st.get("hasRadius"):
        radii = _screen_corners(ln, float(st.get("radius", 0.0)), rtl)
        radii = tuple(min(r, limit) for r in radii)  # type: ignore[assignment]
        if any(r > 0 for r in radii):
            out.append((0.0, 0.0, ln.w, ln.h, radii))
    if ln.type == "card":
        pl, pr, pt, pb = ln.pads
        w, h = ln.w - pl - pr, ln.h - pt - pb
        radius = float(st.get("radius", 0.0)) if st.get("hasRadius") else card_radius()
        radii = tuple(min(r, min(w, h) / 2) for r in _screen_corners(ln, radius, rtl))
        if w > 0 and h > 0 and any(r > 0 for r in radii):
            out.append((pl, pt, pl + w, pt + h, radii))  # type: ignore[arg-type]
    return out


def clip_corners(
    ln: LNode, rtl: bool, card_radius: Callable[[], float], layered: bool = False
) -> Corners | None:
    """The corner radii (screen top-left, top-right, bottom-right, bottom-left) that the rounded
    clips of `ln`'s ancestors give its drawing, or None when none reaches it. `layered`: the node
    is drawn in an anchor layer (no ancestor clips it); `card_radius`: the theme's medium
    corner (a card's shape)."""
    if layered or ln.type in _STOP:
        return None
    st = ln.st or {}
    sign = -1.0 if rtl else 1.0  # `Modifier.offset` x is mirrored right to left
    left = ln.x + sign * float(st.get("ox", 0.0))
    top = ln.y + float(st.get("oy", 0.0))
    right, bottom = left + ln.w, top + ln.h
    out: list[float] | None = None
    node = ln
    while True:
        parent = node.parent
        if parent is None or parent.type in _STOP:
            break
        # into the parent's outer box: its children sit in its content box
        pl, _pr, pt, _pb = parent.pads
        left, right, top, bottom = left + pl, right + pl, top + pt, bottom + pt
        for cl, ct, cr, cb, (r_tl, r_tr, r_br, r_bl) in _shapes(parent, card_radius, rtl):
            found = (
                inset_corner(r_tl, left - cl, top - ct),
                inset_corner(r_tr, cr - right, top - ct),
                inset_corner(r_br, cr - right, cb - bottom),
                inset_corner(r_bl, left - cl, cb - bottom),
            )
            if any(found):
                out = [max(a, b) for a, b in zip(out or (0.0,) * 4, found, strict=True)]
        pst = parent.st or {}
        dx = parent.x + sign * float(pst.get("ox", 0.0))
        dy = parent.y + float(pst.get("oy", 0.0))
        left, right, top, bottom = left + dx, right + dx, top + dy, bottom + dy
        node = parent
    if out is None:
        return None
    limit = min(ln.w, ln.h) / 2
    radii = tuple(min(r, limit) for r in out)
    return radii if any(r > 0 for r in radii) else None  # type: ignore[return-value]
