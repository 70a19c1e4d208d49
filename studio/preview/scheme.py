"""A spec's `theme` as AutoMobile's renderer resolves it: colour scheme, light/dark, type, shapes (no Qt).

The reference is AutoMobile's `PrototypeTheme.kt` (TH) and `PrototypeAppearance.kt` (AP); the
stock values are Material 3's baseline tokens (`lightColorScheme()` / `darkColorScheme()`).
"""

from __future__ import annotations

import colorsys
import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from studio.preview import fonts

#: The 36 colour roles of AutoMobile's theme (Material 3 names).
ROLES: tuple[str, ...] = (
    "primary", "onPrimary", "primaryContainer", "onPrimaryContainer", "inversePrimary",
    "secondary", "onSecondary", "secondaryContainer", "onSecondaryContainer",
    "tertiary", "onTertiary", "tertiaryContainer", "onTertiaryContainer",
    "background", "onBackground", "surface", "onSurface", "surfaceVariant", "onSurfaceVariant",
    "surfaceTint", "inverseSurface", "inverseOnSurface",
    "error", "onError", "errorContainer", "onErrorContainer",
    "outline", "outlineVariant", "scrim",
    "surfaceBright", "surfaceDim", "surfaceContainer", "surfaceContainerHigh",
    "surfaceContainerHighest", "surfaceContainerLow", "surfaceContainerLowest",
)  # fmt: skip
_ROLE_SET = frozenset(ROLES)
_HEX = re.compile(r"#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")

#: Material 3's baseline schemes (the Compose `lightColorScheme()` / `darkColorScheme()` tokens,
#: ColorLightTokens / ColorDarkTokens v0_210 over the baseline tonal palettes): what the phone
#: draws for a spec without a seed (TH `prototypeBaseColorScheme`).
BASELINE: dict[str, dict[str, str]] = {
    "light": {
        "primary": "#6750A4", "onPrimary": "#FFFFFF", "primaryContainer": "#EADDFF",
        "onPrimaryContainer": "#21005D", "inversePrimary": "#D0BCFF",
        "secondary": "#625B71", "onSecondary": "#FFFFFF", "secondaryContainer": "#E8DEF8",
        "onSecondaryContainer": "#1D192B",
        "tertiary": "#7D5260", "onTertiary": "#FFFFFF", "tertiaryContainer": "#FFD8E4",
        "onTertiaryContainer": "#31111D",
        "background": "#FEF7FF", "onBackground": "#1D1B20", "surface": "#FEF7FF",
        "onSurface": "#1D1B20", "surfaceVariant": "#E7E0EC", "onSurfaceVariant": "#49454F",
        "surfaceTint": "#6750A4", "inverseSurface": "#322F35", "inverseOnSurface": "#F5EFF7",
        "error": "#B3261E", "onError": "#FFFFFF", "errorContainer": "#F9DEDC",
        "onErrorContainer": "#410E0B",
        "outline": "#79747E", "outlineVariant": "#CAC4D0", "scrim": "#000000",
        "surfaceBright": "#FEF7FF", "surfaceDim": "#DED8E1", "surfaceContainer": "#F3EDF7",
        "surfaceContainerHigh": "#ECE6F0", "surfaceContainerHighest": "#E6E0E9",
        "surfaceContainerLow": "#F7F2FA", "surfaceContainerLowest": "#FFFFFF",
    },
    "dark": {
        "primary": "#D0BCFF", "onPrimary": "#381E72", "primaryContainer": "#4F378B",
        "onPrimaryContainer": "#EADDFF", "inversePrimary": "#6750A4",
        "secondary": "#CCC2DC", "onSecondary": "#332D41", "secondaryContainer": "#4A4458",
        "onSecondaryContainer": "#E8DEF8",
        "tertiary": "#EFB8C8", "onTertiary": "#492532", "tertiaryContainer": "#633B48",
        "onTertiaryContainer": "#FFD8E4",
        "background": "#141218", "onBackground": "#E6E0E9", "surface": "#141218",
        "onSurface": "#E6E0E9", "surfaceVariant": "#49454F", "onSurfaceVariant": "#CAC4D0",
        "surfaceTint": "#D0BCFF", "inverseSurface": "#E6E0E9", "inverseOnSurface": "#322F35",
        "error": "#F2B8B5", "onError": "#601410", "errorContainer": "#8C1D18",
        "onErrorContainer": "#F9DEDC",
        "outline": "#938F99", "outlineVariant": "#49454F", "scrim": "#000000",
        "surfaceBright": "#3B383E", "surfaceDim": "#141218", "surfaceContainer": "#211F26",
        "surfaceContainerHigh": "#2B2930", "surfaceContainerHighest": "#36343B",
        "surfaceContainerLow": "#1D1B20", "surfaceContainerLowest": "#0F0D13",
    },
}  # fmt: skip

#: Material 3 type scale (size sp, line height sp, weight, letter spacing sp).
TYPE_ROLES: dict[str, tuple[float, float, int, float]] = {
    "displayLarge": (57, 64, 400, -0.25),
    "displayMedium": (45, 52, 400, 0),
    "displaySmall": (36, 44, 400, 0),
    "headlineLarge": (32, 40, 400, 0),
    "headlineMedium": (28, 36, 400, 0),
    "headlineSmall": (24, 32, 400, 0),
    "titleLarge": (22, 28, 400, 0),
    "titleMedium": (16, 24, 500, 0.15),
    "titleSmall": (14, 20, 500, 0.1),
    "bodyLarge": (16, 24, 400, 0.5),
    "bodyMedium": (14, 20, 400, 0.25),
    "bodySmall": (12, 16, 400, 0.4),
    "labelLarge": (14, 20, 500, 0.1),
    "labelMedium": (12, 16, 500, 0.5),
    "labelSmall": (11, 16, 500, 0.5),
}
#: Plain text (no `textStyle`): 14 sp over the theme's body style, bodyLarge (SC "text":
#: `?: if (role == null) 14.sp`, `style = role ?: LocalTextStyle.current`).
PLAIN_TEXT_SIZE = 14.0
#: A pill: the radius the QML side clamps to half the shorter side.
FULL = 9999.0
#: The Material shape families, smallest first (`Shapes(extraSmall, small, medium, large,
#: extraLarge)`).
SHAPE_TOKENS: tuple[str, ...] = ("extraSmall", "small", "medium", "large", "extraLarge")
#: `theme.shapes.corner` -> the five families (TH `prototypeShapes`; "medium" is the stock scale).
SHAPE_STEPS: dict[str, tuple[float, float, float, float, float]] = {
    "none": (0, 0, 0, 0, 0),
    "small": (2, 4, 6, 8, 12),
    "medium": (4, 8, 12, 16, 28),
    "large": (8, 12, 20, 28, 40),
    "full": (FULL, FULL, FULL, FULL, FULL),
}
#: `typography.fontFamily` -> the family drawn (TH `prototypeTypography`: "sans" is
#: `FontFamily.SansSerif`, Roboto on the phone; Noto Serif and Droid Sans Mono, the phone's serif
#: and monospace, are not packaged, so those two are the desktop's).
_FAMILIES = {"sans": fonts.FAMILY, "serif": "serif", "mono": "monospace"}
#: Below this luminance a surface is dark (TH `DARK_LUMINANCE_CEILING`).
DARK_LUMINANCE_CEILING = 0.179
#: An authored background at least this opaque paints the screen (TH `OPAQUE_BACKGROUND_ALPHA`).
OPAQUE_BACKGROUND_ALPHA = 0.99
#: Role -> its content colour, in the order of Material's `ColorScheme.contentColorFor`.
_CONTENT_FOR: tuple[tuple[str, str], ...] = (
    ("primary", "onPrimary"), ("secondary", "onSecondary"), ("tertiary", "onTertiary"),
    ("background", "onBackground"), ("error", "onError"),
    ("primaryContainer", "onPrimaryContainer"), ("secondaryContainer", "onSecondaryContainer"),
    ("tertiaryContainer", "onTertiaryContainer"), ("errorContainer", "onErrorContainer"),
    ("inverseSurface", "inverseOnSurface"), ("surface", "onSurface"),
    ("surfaceVariant", "onSurfaceVariant"), ("surfaceBright", "onSurface"),
    ("surfaceContainer", "onSurface"), ("surfaceContainerHigh", "onSurface"),
    ("surfaceContainerHighest", "onSurface"), ("surfaceContainerLow", "onSurface"),
    ("surfaceContainerLowest", "onSurface"), ("surfaceDim", "onSurface"),
)  # fmt: skip


def _obj(value: object) -> Mapping[str, Any]:
    """`value` when it is an object (a JSON mapping), else an empty one."""
    return value if isinstance(value, Mapping) else {}


def _opaque(value: str) -> str:
    """A hex colour in one spelling for comparisons: #RRGGBB when fully opaque."""
    text = value.upper()
    return "#" + text[3:] if len(text) == 9 and text.startswith("#FF") else text


def _is_hex(value: object) -> bool:
    return isinstance(value, str) and _HEX.fullmatch(value) is not None


def _argb(hex_color: str) -> tuple[int, int, int, int]:
    digits = hex_color[1:]
    if len(digits) == 6:
        digits = "FF" + digits
    return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4, 6))  # type: ignore[return-value]


def _hex(rgb: tuple[float, float, float]) -> str:
    """Floats 0..1 as #RRGGBB, rounded as Compose's `Color.toArgb` (x * 255 + 0.5)."""
    r, g, b = (min(255, max(0, int(c * 255.0 + 0.5))) for c in rgb)
    return f"#{r:02X}{g:02X}{b:02X}"


def _channel(c: float) -> float:
    # The sRGB transfer function Compose's `Color.luminance()` applies (ColorSpaces.Srgb).
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance_rgb(rgb: tuple[float, float, float]) -> float:
    r, g, b = rgb
    return min(1.0, max(0.0, 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)))


def luminance(hex_color: str) -> float:
    """Relative luminance of a hex colour (alpha ignored), as Compose's `Color.luminance()`."""
    _, r, g, b = _argb(hex_color)
    return _luminance_rgb((r / 255, g / 255, b / 255))


def with_alpha(hex_color: str, alpha: float) -> str:
    """`hex_color` with its alpha multiplied by `alpha` (0..1), as #AARRGGBB."""
    a, r, g, b = _argb(hex_color)
    return f"#{round(a * max(0.0, min(1.0, alpha))):02X}{r:02X}{g:02X}{b:02X}"


def _hsl(h: float, s: float, lightness: float) -> tuple[float, float, float]:
    """Compose's `Color.hsl(h, s, l)` as float RGB."""
    s = min(1.0, max(0.0, s))

    def part(n: int) -> float:
        k = (n + h / 30.0) % 12.0
        a = s * min(lightness, 1.0 - lightness)
        return lightness - a * max(-1.0, min(k - 3.0, 9.0 - k, 1.0))

    return part(0), part(8), part(4)


def _contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = _luminance_rgb(a), _luminance_rgb(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _hue_saturation(hex_color: str) -> tuple[float, float]:
    _, r, g, b = _argb(hex_color)
    hue, lightness, saturation = colorsys.rgb_to_hls(r / 255, g / 255, b / 255)
    if max(r, g, b) == min(r, g, b):
        return 0.0, 0.0
    return hue * 360.0, saturation


@lru_cache(maxsize=64)
def _seed_scheme(seed: str, dark: bool) -> tuple[tuple[str, str], ...]:
    hue, seed_saturation = _hue_saturation(seed)
    # A grey seed stays grey; a coloured one is clamped into 0.25..0.85.
    chroma = 0.0 if seed_saturation == 0 else min(0.85, max(0.25, seed_saturation))
    neutral = 0.06

    def tone(h: float, s: float, light: float, dark_tone: float) -> tuple[float, float, float]:
        return _hsl(h % 360.0, s, dark_tone if dark else light)

    surface = tone(hue, neutral, 0.98, 0.07)

    def accent(h: float, s: float) -> tuple[float, float, float]:
        # Walk the lightness away from the surface until the WCAG contrast reaches 3.
        step = 0.02 if dark else -0.02
        lightness = 0.80 if dark else 0.40
        color = _hsl(h % 360.0, s, lightness)
        while _contrast(color, surface) < 3.0 and 0.05 <= lightness + step <= 0.95:
            lightness += step
            color = _hsl(h % 360.0, s, lightness)
        return color

    def on_role(role: tuple[float, float, float], h: float, s: float) -> tuple[float, float, float]:
        light_on, dark_on = _hsl(h % 360.0, s, 0.98), _hsl(h % 360.0, s, 0.04)
        return light_on if _contrast(role, light_on) >= _contrast(role, dark_on) else dark_on

    secondary_chroma, tertiary_hue, tertiary_chroma = chroma * 0.35, hue + 60.0, chroma * 0.6
    primary = accent(hue, chroma)
    secondary = accent(hue, secondary_chroma)
    tertiary = accent(tertiary_hue, tertiary_chroma)
    primary_container = tone(hue, chroma, 0.90, 0.30)
    secondary_container = tone(hue, secondary_chroma, 0.90, 0.30)
    tertiary_container = tone(tertiary_hue, tertiary_chroma, 0.90, 0.30)
    roles = {
        "primary": primary,
        "onPrimary": on_role(primary, hue, chroma),
        "primaryContainer": primary_container,
        "onPrimaryContainer": on_role(primary_container, hue, chroma),
        "secondary": secondary,
        "onSecondary": on_role(secondary, hue, secondary_chroma),
        "secondaryContainer": secondary_container,
        "onSecondaryContainer": on_role(secondary_container, hue, secondary_chroma),
        "tertiary": tertiary,
        "onTertiary": on_role(tertiary, tertiary_hue, tertiary_chroma),
        "tertiaryContainer": tertiary_container,
        "onTertiaryContainer": on_role(tertiary_container, tertiary_hue, tertiary_chroma),
        "background": surface,
        "onBackground": tone(hue, neutral, 0.10, 0.90),
        "surface": surface,
        "onSurface": tone(hue, neutral, 0.10, 0.90),
        "surfaceVariant": tone(hue, neutral * 2, 0.90, 0.25),
        "onSurfaceVariant": tone(hue, neutral * 2, 0.30, 0.80),
        "surfaceContainerLowest": tone(hue, neutral, 1.00, 0.04),
        "surfaceContainerLow": tone(hue, neutral, 0.96, 0.10),
        "surfaceContainer": tone(hue, neutral, 0.94, 0.12),
        "surfaceContainerHigh": tone(hue, neutral, 0.92, 0.17),
        "surfaceContainerHighest": tone(hue, neutral, 0.90, 0.22),
        "outline": tone(hue, neutral * 2, 0.46, 0.60),
        "outlineVariant": tone(hue, neutral * 2, 0.80, 0.30),
    }
    return tuple((role, _hex(rgb)) for role, rgb in roles.items())


def seed_scheme(seed: str, dark: bool) -> dict[str, str]:
    """The 36 roles AutoMobile derives from a seed: its HSL approximation of tonal palettes, "no
    HCT dependency" (TH `prototypeSeedColorScheme`), over the baseline for the other roles."""
    colors = dict(BASELINE["dark" if dark else "light"])
    colors.update(_seed_scheme(seed[-7:].upper() if len(seed) == 9 else seed.upper(), dark))
    return colors


def content_color_for(colors: Mapping[str, str], background: str) -> str:
    """The role colour drawn on `background` (Material's `ColorScheme.contentColorFor`, which
    matches by colour value), or "" when it names no scheme colour."""
    value = _opaque(background)
    for role, on in _CONTENT_FOR:
        if _opaque(colors.get(role, "")) == value:
            return colors[on]
    return ""


@dataclass(frozen=True)
class Scheme:
    """A resolved theme for one mode: colours, typography and shapes."""

    dark: bool
    colors: Mapping[str, str]
    scale: float = 1.0
    font_family: str = fonts.FAMILY
    #: extraSmall .. extraLarge corner radii (dp) of the theme's `shapes.corner`.
    shapes: tuple[float, float, float, float, float] = SHAPE_STEPS["medium"]
    #: How light/dark was decided, in the wire names of AP `PrototypeAppearanceSource`:
    #: explicit, system, roleLuminance or authoredBackground.
    source: str = "system"
    extras: Mapping[str, Any] = field(default_factory=dict)

    def color(self, value: object, default: str = "#00000000") -> str:
        """A `colorValue` (hex, role, or `{light, dark}`) as #AARRGGBB; scrim role at 0.4 alpha."""
        if isinstance(value, dict):
            value = value.get("dark" if self.dark else "light")
        if _is_hex(value):
            return str(value).upper()
        if isinstance(value, str) and value in _ROLE_SET:
            hex_color = self.colors[value]
            return with_alpha(hex_color, 0.4) if value == "scrim" else hex_color
        return default

    def type_role(self, role: str) -> dict[str, float]:
        """Size, line height, weight and letter spacing (sp) of a type role, scaled by
        `typography.scale` (TH `prototypeTypography`: size and line height of every role)."""
        size, line, weight, spacing = TYPE_ROLES.get(role, TYPE_ROLES["bodyLarge"])
        return {
            "size": size * self.scale,
            "lineHeight": line * self.scale,
            "weight": weight,
            "letterSpacing": spacing,
        }

    def plain_text(self) -> dict[str, float]:
        """Text without a `textStyle`: 14 sp (never scaled) on bodyLarge's scaled line height."""
        body = self.type_role("bodyLarge")
        return {**body, "size": PLAIN_TEXT_SIZE}

    @property
    def shape_tokens(self) -> dict[str, float]:
        """Corner token -> radius (dp) under this theme's shapes (`full` is a pill)."""
        return {"none": 0.0, **dict(zip(SHAPE_TOKENS, self.shapes, strict=True)), "full": FULL}

    def corner(self, value: object, default: float = 0) -> float:
        """A `cornerRadius` as a uniform radius: dp, or a token through the theme's shapes (TH
        `prototypeCornerShape`); per-corner objects give their largest corner."""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            return self.shape_tokens.get(value, default)
        if isinstance(value, dict):
            values = [float(v) for v in value.values() if isinstance(v, int | float)]
            return max(values) if values else default
        return default

    def content_color(self, background: str) -> str:
        return content_color_for(self.colors, background)


# -- light/dark and the authored screen colour --------------------------------------------------


class Chain:
    """How the leading chain is read: visibility, effective style and current page of a node.
    From a Runtime (the live tree, as AP's `PrototypeShownTheme.root` is), else from the spec's
    initial state (no pages turned)."""

    def __init__(self, runtime: Any = None, state: Mapping[str, Any] | None = None) -> None:
        self._runtime = runtime
        self._state = dict(state or {})

    def visible(self, node: Mapping[str, Any], scope: Mapping[str, Any]) -> bool:
        if "visibleWhen" not in node:
            return True
        if self._runtime is not None:
            return bool(self._runtime.is_visible(node, dict(scope) or None))
        from studio.runtime.bindings import bind_condition
        from studio.runtime.conditions import holds

        condition = node["visibleWhen"]
        return not isinstance(condition, Mapping) or holds(
            bind_condition(condition, dict(scope) or None), self._state
        )

    def style(self, node: Mapping[str, Any], scope: Mapping[str, Any]) -> Mapping[str, Any]:
        style = node.get("style")
        if "styleWhen" not in node:
            return style if isinstance(style, Mapping) else {}
        if self._runtime is not None:
            return dict(self._runtime.effective_style(node, dict(scope) or None))
        from studio.runtime.bindings import bind_condition
        from studio.runtime.conditions import resolve_style

        entries = [
            {**e, "when": bind_condition(e["when"], dict(scope) or None)}
            for e in node.get("styleWhen") or []
            if isinstance(e, Mapping) and isinstance(e.get("when"), Mapping)
        ]
        return dict(
            resolve_style(style if isinstance(style, Mapping) else None, entries, self._state)
        )

    def page(self, pager: str) -> int:
        return int(self._runtime.pages.get(pager, 0)) if self._runtime is not None else 0

    def children(
        self, node: Mapping[str, Any], scope: Mapping[str, Any]
    ) -> Iterator[tuple[Mapping[str, Any], Mapping[str, Any]]]:
        if isinstance(node.get("child"), Mapping):
            yield node["child"], scope
            return
        if not isinstance(node.get("children"), list):
            return
        if isinstance(node.get("repeat"), Mapping):
            from studio.runtime.tree import instances

            for container, inner in instances(node):
                for child in container.get("children") or []:
                    yield child, {**scope, **inner}
            return
        for child in node["children"]:
            if isinstance(child, Mapping):
                yield child, scope


def leading_background(root: Mapping[str, Any], chain: Chain) -> str | None:
    """The first opaque single-hex background on the leading chain: the root, then its first
    visible child, a pager's current page, and so on (TH `prototypeAuthoredTheme`). Roles and
    `{light, dark}` pairs never take part: they depend on the mode being decided."""
    node: Mapping[str, Any] | None = root
    scope: Mapping[str, Any] = {}
    depth = 0
    while node is not None and depth < 64:
        depth += 1
        background = chain.style(node, scope).get("background")
        opaque = _is_hex(background) and _argb(str(background))[0] / 255 >= OPAQUE_BACKGROUND_ALPHA
        if opaque and chain.visible(node, scope):
            return str(background)
        kids = chain.children(node, scope)
        following: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None
        if node.get("type") == "pager":
            page = chain.page(str(node.get("id", "")))
            following = next(itertools.islice(kids, page, None), None) if page >= 0 else None
        else:
            following = next((k for k in kids if chain.visible(*k)), None)
        node, scope = following if following is not None else (None, {})
    return None


def resolve_appearance(
    theme: Mapping[str, Any], device_dark: bool, authored: str | None
) -> tuple[bool, str]:
    """(dark, source) in AutoMobile's one order (AP `prototypeResolveAppearance`): `mode` light or
    dark; `system` is the device with no inference; with no mode, the luminance of the flat
    `background` (else `surface`) role, then the authored screen colour, then the device."""
    mode = theme.get("mode")
    if mode in ("light", "dark"):
        return mode == "dark", "explicit"
    if mode == "system":
        return device_dark, "system"
    colors = _obj(theme.get("colors"))
    role = colors.get("background") or colors.get("surface")
    if _is_hex(role):
        return luminance(str(role)) < DARK_LUMINANCE_CEILING, "roleLuminance"
    if authored is not None:
        return luminance(authored) < DARK_LUMINANCE_CEILING, "authoredBackground"
    return device_dark, "system"


def _needs_chain(theme: Mapping[str, Any]) -> bool:
    colors = _obj(theme.get("colors"))
    overridable = not _is_hex(colors.get("seed")) and colors.get("source") != "device"
    inferred = theme.get("mode") not in ("light", "dark", "system") and not (
        _is_hex(colors.get("background")) or _is_hex(colors.get("surface"))
    )
    return overridable or inferred


def same_sizes(a: Scheme, b: Scheme) -> bool:
    """Whether nothing measured differs between the two schemes: the same type scale, font and
    corner shapes, whatever their colours, light/dark and how it was decided (the layout reads
    no colour)."""
    return replace(a, dark=b.dark, colors=b.colors, source=b.source) == b


def build_scheme(spec: Mapping[str, Any], appearance: str = "light", runtime: Any = None) -> Scheme:
    """The scheme a spec is drawn with on a device in `appearance` ("light", "dark"; "system"
    reads as light). `runtime` is the running prototype whose leading chain (visibility, styles,
    pages) decides an inferred mode and the authored surface; without one, the initial state."""
    theme = _obj(spec.get("theme"))
    colors_spec = _obj(theme.get("colors"))
    authored: str | None = None
    if _needs_chain(theme) and isinstance(spec.get("root"), Mapping):
        state = _obj(spec.get("state"))
        authored = leading_background(spec["root"], Chain(runtime, state))
    dark, source = resolve_appearance(theme, appearance == "dark", authored)
    seed = colors_spec.get("seed")
    device_colour = colors_spec.get("source") == "device"
    if _is_hex(seed):
        colors = seed_scheme(str(seed), dark)
    else:
        # `source: "device"` asks for wallpaper colours (API 31+), which a desktop has none of:
        # the baseline stands in, and (as on the phone) no authored surface replaces it.
        colors = dict(BASELINE["dark" if dark else "light"])
        if (
            authored is not None
            and not device_colour
            and (luminance(authored) < DARK_LUMINANCE_CEILING) == dark
        ):
            surface = authored.upper()
            for role in (
                "background", "surface", "surfaceContainer", "surfaceContainerLow",
                "surfaceContainerHigh", "surfaceContainerHighest",
            ):  # fmt: skip
                colors[role] = surface
    for roles in (colors_spec, _obj(colors_spec.get("dark" if dark else "light"))):
        for role, value in roles.items():
            if role in _ROLE_SET and _is_hex(value):
                colors[role] = str(value).upper()
    typography = _obj(theme.get("typography"))
    scale = typography.get("scale", 1.0)
    family = _FAMILIES.get(str(typography.get("fontFamily", "sans")), fonts.FAMILY)
    corner = _obj(theme.get("shapes")).get("corner", "medium")
    return Scheme(
        dark=dark,
        colors=colors,
        scale=float(scale) if isinstance(scale, int | float) else 1.0,
        font_family=family,
        shapes=SHAPE_STEPS.get(str(corner), SHAPE_STEPS["medium"]),
        source=source,
    )
