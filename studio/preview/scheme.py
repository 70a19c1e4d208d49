"""Material 3 colour schemes, colour values, typography and shapes of a spec's `theme` (no Qt)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

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
#: The Material baseline seed, used when a spec sets none (or asks for the device's colours).
DEFAULT_SEED = "#6750A4"
_HEX = re.compile(r"#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")
_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")

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
#: Corner tokens (dp) and the theme's `shapes.corner` presets (small, medium, large components).
CORNER_TOKENS: dict[str, float] = {
    "none": 0, "extraSmall": 4, "small": 8, "medium": 12, "large": 16, "extraLarge": 28, "full": 9999,
}  # fmt: skip
_SHAPE_PRESETS: dict[str, tuple[float, float, float]] = {
    "none": (0, 0, 0),
    "small": (4, 8, 12),
    "medium": (8, 12, 16),
    "large": (12, 16, 28),
    "full": (9999, 9999, 9999),
}
_FAMILIES = {"sans": "sans-serif", "serif": "serif", "mono": "monospace"}


def seed_scheme(seed: str, dark: bool) -> dict[str, str]:
    """The 36 roles of the Material 3 tonal-spot scheme of `seed` (what Android's dynamic colour uses)."""
    key = seed[-7:].upper()
    # The baseline seed and the shipped templates' seeds come from a table generated from the
    # library (see `stored_source`), so opening such a spec never imports it (with NumPy and PIL,
    # ~100 ms of start-up); any other seed is computed once per process.
    from studio.preview.stored_schemes import SCHEMES

    stored = SCHEMES.get(key)
    if stored is not None:
        return dict(stored["dark" if dark else "light"])
    return dict(_computed_scheme(key, dark))


@lru_cache(maxsize=32)
def _computed_scheme(seed: str, dark: bool) -> dict[str, str]:
    """`seed_scheme` computed by material_color_utilities (imported on the first seeded spec)."""
    import material_color_utilities as mcu

    theme = mcu.theme_from_color(seed, contrast_level=0.0, variant=mcu.Variant.TONALSPOT)
    scheme = theme.schemes.dark if dark else theme.schemes.light
    # The library has no onBackground role (Material 3 made it an alias of onSurface).
    aliases = {"onBackground": "on_surface"}
    return {
        role: str(getattr(scheme, aliases.get(role) or _SNAKE.sub("_", role).lower())).upper()
        for role in ROLES
    }


def _is_hex(value: object) -> bool:
    return isinstance(value, str) and _HEX.fullmatch(value) is not None


def _argb(hex_color: str) -> tuple[int, int, int, int]:
    digits = hex_color[1:]
    if len(digits) == 6:
        digits = "FF" + digits
    return tuple(int(digits[i : i + 2], 16) for i in (0, 2, 4, 6))  # type: ignore[return-value]


def luminance(hex_color: str) -> float:
    """Relative luminance (WCAG) of an opaque-or-not hex colour, ignoring alpha."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    _, r, g, b = _argb(hex_color)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def with_alpha(hex_color: str, alpha: float) -> str:
    """`hex_color` with its alpha multiplied by `alpha` (0..1), as #AARRGGBB."""
    a, r, g, b = _argb(hex_color)
    return f"#{round(a * max(0.0, min(1.0, alpha))):02X}{r:02X}{g:02X}{b:02X}"


@dataclass(frozen=True)
class Scheme:
    """A resolved theme for one mode: colours, typography and shapes."""

    dark: bool
    colors: Mapping[str, str]
    scale: float = 1.0
    font_family: str = "sans-serif"
    corners: tuple[float, float, float] = (8, 12, 16)
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
        """Size, line height, weight and letter spacing (sp) of a type role, scaled."""
        size, line, weight, spacing = TYPE_ROLES.get(role, TYPE_ROLES["bodyLarge"])
        return {
            "size": size * self.scale,
            "lineHeight": line * self.scale,
            "weight": weight,
            "letterSpacing": spacing,
        }

    def corner(self, value: object, default: float = 0) -> float:
        """A `cornerRadius` token or dp as a uniform radius (per-corner objects: the largest)."""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            return CORNER_TOKENS.get(value, default)
        if isinstance(value, dict):
            values = [float(v) for v in value.values() if isinstance(v, int | float)]
            return max(values) if values else default
        return default


def resolve_mode(spec: Mapping[str, Any], appearance: str) -> bool:
    """True for dark, in AutoMobile's order: theme.mode, then the luminance of an authored
    flat background/surface role, then the first opaque authored hex background, then the
    device appearance (`light`, `dark` or `system`, where system means light here)."""
    theme = spec.get("theme") or {}
    mode = theme.get("mode")
    if mode in ("light", "dark"):
        return bool(mode == "dark")
    colors = theme.get("colors") or {}
    for role in ("background", "surface"):
        value = colors.get(role)
        if isinstance(value, str) and _is_hex(value) and _argb(value)[0] == 255:
            return luminance(value) < 0.18
    authored = _first_opaque_background(spec.get("root"))
    if authored is not None:
        return luminance(authored) < 0.18
    return appearance == "dark"


def _first_opaque_background(node: object) -> str | None:
    stack = [node]
    while stack:
        current = stack.pop(0)
        if not isinstance(current, dict):
            continue
        background = (current.get("style") or {}).get("background")
        if isinstance(background, str) and _is_hex(background) and _argb(background)[0] == 255:
            return str(background)
        stack[:0] = [*current.get("children", []), current.get("child")]
    return None


def build_scheme(spec: Mapping[str, Any], appearance: str = "system") -> Scheme:
    """The scheme a spec asks for under a device appearance (`light`, `dark`, `system`)."""
    dark = resolve_mode(spec, appearance)
    theme = spec.get("theme") or {}
    colors_spec = theme.get("colors") or {}
    seed = colors_spec.get("seed") if _is_hex(colors_spec.get("seed")) else DEFAULT_SEED
    colors = dict(seed_scheme(str(seed), dark))
    colors.update(
        {k: str(v).upper() for k, v in colors_spec.items() if k in _ROLE_SET and _is_hex(v)}
    )
    per_mode = colors_spec.get("dark" if dark else "light") or {}
    colors.update({k: str(v).upper() for k, v in per_mode.items() if k in _ROLE_SET and _is_hex(v)})
    typography = theme.get("typography") or {}
    scale = float(typography.get("scale", 1.0))
    family = _FAMILIES.get(str(typography.get("fontFamily", "sans")), "sans-serif")
    corners = _SHAPE_PRESETS.get(
        str((theme.get("shapes") or {}).get("corner", "medium")), (8, 12, 16)
    )
    return Scheme(dark=dark, colors=colors, scale=scale, font_family=family, corners=corners)


def stored_seeds() -> list[str]:
    """The seeds whose schemes ship precomputed: the baseline and every template's seed."""
    import json

    from studio.resources import resource_path

    seeds = {DEFAULT_SEED}
    for path in sorted(resource_path("templates").glob("*.json")):
        seed = (
            (json.loads(path.read_text(encoding="utf-8")).get("theme") or {}).get("colors") or {}
        ).get("seed")
        if _is_hex(seed):
            seeds.add(str(seed)[-7:].upper())
    return sorted(seeds)


def stored_source() -> str:
    """The text of `studio/preview/stored_schemes.py`: the schemes of `stored_seeds()` in both
    modes, computed by material_color_utilities (written by `python -m studio.preview.scheme`)."""
    lines = [
        '"""Generated by `python -m studio.preview.scheme`: Material 3 schemes of the shipped seeds."""',
        "",
        "# Do not edit: tests/preview/test_scheme.py checks it against material_color_utilities.",
        "SCHEMES: dict[str, dict[str, dict[str, str]]] = {",
    ]
    for seed in stored_seeds():
        lines.append(f'    "{seed}": {{')
        for mode in ("light", "dark"):
            lines.append(f'        "{mode}": {{')
            colors = _computed_scheme(seed, mode == "dark")
            lines += [f'            "{role}": "{value}",' for role, value in colors.items()]
            lines.append("        },")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys
    from pathlib import Path

    target = Path(__file__).with_name("stored_schemes.py")
    target.write_text(stored_source(), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
