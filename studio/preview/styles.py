"""An effective node style resolved for QML: dimensions, colours, corners and text (no Qt).

Colours come out as `#AARRGGBB` strings ("" for unset), sizes in dp (-1 for unset), so QML
bindings only read plain values. A node's text fields are its own: on the phone a container's
`color`, `textSize` or `fontWeight` never reach the text inside it (SC "text" reads only the text
node's own style; the rest comes from Material's `LocalTextStyle` / `LocalContentColor`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studio.preview import fonts
from studio.preview.scheme import Scheme

#: A text's own `fontFamily` -> the family drawn ("" is the theme's). RM `builtInFontFamily`:
#: `FontFamily.SansSerif` is Roboto on the phone, as `FontFamily.Default` is.
_FONT_FAMILIES = {
    "default": "",
    "sansSerif": fonts.FAMILY,
    "serif": "serif",
    "monospace": "monospace",
}


def _dimension(value: Any) -> tuple[float, bool]:
    """(dp or -1, fill)."""
    if value == "fill":
        return -1.0, True
    if isinstance(value, dict) and isinstance(value.get("dp"), int | float):
        return float(value["dp"]), False
    return -1.0, False


def _num(style: Mapping[str, Any], key: str, default: float = -1.0) -> float:
    value = style.get(key)
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default
    )


def _alignment(value: Any) -> tuple[str, str]:
    """(horizontal, vertical) of one of the 9 alignments, each start|center|end ("" if unset)."""
    if not isinstance(value, str):
        return "", ""
    lower = value.lower()
    vertical = (
        "start" if lower.startswith("top") else "end" if lower.startswith("bottom") else "center"
    )
    horizontal = (
        "start" if lower.endswith("start") else "end" if lower.endswith("end") else "center"
    )
    return horizontal, vertical


def resolve_style(style: Mapping[str, Any], scheme: Scheme) -> dict[str, Any]:
    """The QML-facing dictionary of one node's effective style."""
    width, fill_w = _dimension(style.get("width"))
    height, fill_h = _dimension(style.get("height"))
    padding = style.get("padding") or {}
    border = style.get("border") or {}
    halign, valign = _alignment(style.get("alignment"))
    offset = style.get("offset") or {}
    out: dict[str, Any] = {
        "w": width,
        "fillW": fill_w,
        "wrapW": style.get("width") == "wrap",
        "h": height,
        "fillH": fill_h,
        "wrapH": style.get("height") == "wrap",
        "weight": _num(style, "weight", 0.0),
        "minW": _num(style, "minWidth"),
        "maxW": _num(style, "maxWidth"),
        "minH": _num(style, "minHeight"),
        "maxH": _num(style, "maxHeight"),
        "pt": float(padding.get("top", 0)),
        "pb": float(padding.get("bottom", 0)),
        "ps": float(padding.get("start", 0)),
        "pe": float(padding.get("end", 0)),
        "bg": scheme.color(style["background"]) if "background" in style else "",
        "bw": float(border.get("width", 0)) if border else 0.0,
        "bc": scheme.color(border.get("color"), "#00000000") if border else "",
        "radius": scheme.corner(style.get("cornerRadius"), 0.0),
        "hasRadius": "cornerRadius" in style,
        **_corners(style.get("cornerRadius")),
        "elevation": _num(style, "elevation", 0.0),
        # Compose's DefaultShadowColor (opaque black): the light's alphas make it faint.
        "shadow": scheme.color(style.get("shadowColor"), "#FF000000")
        if "shadowColor" in style
        else "#FF000000",
        "grad": _gradient(style.get("gradient"), scheme),
        "aspect": _num(style, "aspectRatio", 0.0),
        "ox": float(offset.get("x", 0)),
        "oy": float(offset.get("y", 0)),
        "alpha": _num(style, "alpha", 1.0),
        "pressScale": _num(style, "pressScale", 1.0),
        "halign": halign,
        "valign": valign,
        "arrangement": str(style.get("arrangement", "")),
        "spacing": _num(style, "spacing", 0.0),
        "maxLines": int(_num(style, "maxLines", 0)),
        # Unset overflow clips (RM `mapPrototypeStyle`: `else -> TextOverflow.Clip`).
        "overflow": str(style.get("overflow", "clip")),
        "decoration": str(style.get("textDecoration", "none")),
        "text": _text(style, scheme),
    }
    return out


def _corners(value: Any) -> dict[str, float]:
    """Per-corner radii (-1: use the uniform radius)."""
    if not isinstance(value, dict):
        return {"rTL": -1.0, "rTR": -1.0, "rBR": -1.0, "rBL": -1.0}
    return {
        "rTL": float(value.get("topStart", 0)),
        "rTR": float(value.get("topEnd", 0)),
        "rBR": float(value.get("bottomEnd", 0)),
        "rBL": float(value.get("bottomStart", 0)),
    }


def _gradient(value: Any, scheme: Scheme) -> dict[str, Any] | None:
    if not isinstance(value, dict) or not isinstance(value.get("stops"), list):
        return None
    stops = value["stops"]
    count = len(stops)
    positions: list[float] = []
    previous = 0.0
    for i, stop in enumerate(stops):
        position = stop.get("position")
        if not isinstance(position, int | float):
            position = i / (count - 1) if count > 1 else 0.0
        # Qt sorts stops by position and may swap two at the same place; nudging each by a
        # hair keeps the authored order (a hard edge stays red | blue, as on Android).
        previous = max(min(max(float(position), 0.0), 1.0), previous)
        positions.append(previous + i * 1e-5)
    top = max([1.0, *positions])
    out = [
        {"color": scheme.color(stop.get("color")), "position": position / top}
        for stop, position in zip(stops, positions, strict=True)
    ]
    return {
        "type": value.get("type", "linear"),
        "angle": float(value.get("angle", 0)),
        "stops": out,
    }


def _text(style: Mapping[str, Any], scheme: Scheme) -> dict[str, Any]:
    text: dict[str, Any] = {}
    role = style.get("textStyle")
    if isinstance(role, str):
        values = scheme.type_role(role)
        text.update(
            size=values["size"],
            weight=values["weight"],
            lineHeight=values["lineHeight"],
            letterSpacing=values["letterSpacing"],
        )
    if isinstance(role, str):
        text["role"] = role
    if "color" in style:
        text["color"] = scheme.color(style["color"])
    # Explicit sizes are sp as written: `typography.scale` scales the type roles only (TH
    # `prototypeTypography`; SC "text": `source.textSize?.toFloat()?.sp`).
    if isinstance(style.get("textSize"), int | float):
        text["size"] = float(style["textSize"])
    if isinstance(style.get("fontWeight"), int):
        text["weight"] = style["fontWeight"]
    if isinstance(style.get("textAlign"), str):
        text["align"] = style["textAlign"]
    if isinstance(style.get("lineHeight"), int | float):
        text["lineHeight"] = float(style["lineHeight"])
    if isinstance(style.get("letterSpacing"), int | float):
        text["letterSpacing"] = float(style["letterSpacing"])
    if style.get("fontStyle") in ("normal", "italic"):
        text["italic"] = style["fontStyle"] == "italic"
    family = style.get("fontFamily")
    if isinstance(family, str):
        text["family"] = _FONT_FAMILIES.get(family, "")
    elif isinstance(family, dict):
        text["fontAsset"] = str(family.get("asset", ""))
    return text
