"""Theme resolution as AutoMobile's PrototypeTheme.kt (TH) and PrototypeAppearance.kt (AP) do it:
the baseline scheme, the HSL seed scheme, role overrides per mode, the authored screen colour,
the light/dark order, typography and the five corner-shape presets."""

from __future__ import annotations

from typing import Any

import pytest

from studio.preview.scheme import (
    BASELINE,
    ROLES,
    build_scheme,
    content_color_for,
    luminance,
    seed_scheme,
)


def _box(background: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "box", "style": {"background": background}, "children": [], **extra}


def test_no_theme_is_the_stock_baseline_scheme_TH_prototypeBaseColorScheme() -> None:  # noqa: N802
    light, dark = build_scheme({}, "light"), build_scheme({}, "dark")
    assert set(light.colors) == set(ROLES) and len(ROLES) == 36
    # lightColorScheme() / darkColorScheme(): Material 3's baseline tokens, not a tonal spot.
    assert light.colors["primary"] == "#6750A4" and dark.colors["primary"] == "#D0BCFF"
    assert light.colors["surface"] == "#FEF7FF" and dark.colors["surface"] == "#141218"
    assert light.colors["surfaceContainerHighest"] == "#E6E0E9"
    assert light.colors == BASELINE["light"] and dark.colors == BASELINE["dark"]


def test_seed_uses_automobiles_hsl_approximation_TH_prototypeSeedColorScheme() -> None:  # noqa: N802
    # compose-renderer.md section 4 item 5 (phone values for seed #00639B).
    light = seed_scheme("#00639B", False)
    assert light["primary"] == "#0F7EBD" and light["onPrimary"] == "#020D13"
    assert light["surfaceContainerHighest"] == "#E4E6E7" and light["tertiary"] == "#58329A"
    assert light["surface"] == light["background"] == "#FAFAFA"
    dark = seed_scheme("#00639B", True)
    # The accents walk away from the surface until a WCAG contrast of 3.
    surface = luminance(dark["surface"])
    for role in ("primary", "secondary", "tertiary"):
        high, low = max(luminance(dark[role]), surface), min(luminance(dark[role]), surface)
        assert (high + 0.05) / (low + 0.05) >= 3
    # Roles the seed does not set keep the baseline's.
    assert light["error"] == BASELINE["light"]["error"] and light["scrim"] == "#000000"
    # A grey seed stays grey.
    grey = seed_scheme("#808080", False)
    assert len({grey["primary"][1:3], grey["primary"][3:5], grey["primary"][5:7]}) == 1


def test_role_overrides_flat_then_per_mode_TH_withRoleMap() -> None:  # noqa: N802
    spec = {"theme": {"colors": {"seed": "#6750A4", "primary": "#B3261E",
                                 "dark": {"primary": "#F2B8B5"}}}}  # fmt: skip
    assert build_scheme(spec, "light").color("primary") == "#B3261E"
    assert build_scheme(spec, "dark").color("primary") == "#F2B8B5"
    scheme = build_scheme(spec, "dark")
    assert scheme.color({"light": "#FFFFFF", "dark": "surface"}) == scheme.colors["surface"]
    assert scheme.color("scrim") == "#66000000"  # the scrim role is drawn at 0.4 alpha


def test_mode_order_AP_prototypeResolveAppearance() -> None:  # noqa: N802
    dark_root = _box("#101010")
    assert build_scheme({"theme": {"mode": "light"}, "root": dark_root}, "dark").dark is False
    # "system" follows the device with no inference, even on a dark authored background.
    system = build_scheme({"theme": {"mode": "system"}, "root": dark_root}, "light")
    assert system.dark is False and system.source == "system"
    assert build_scheme({"theme": {"mode": "system"}, "root": _box("#FFFFFF")}, "dark").dark
    # No mode: the flat background/surface role first, then the authored background.
    assert build_scheme({"theme": {"colors": {"surface": "#101010"}}}, "light").dark
    inferred = build_scheme({"root": dark_root}, "light")
    assert inferred.dark and inferred.source == "authoredBackground"
    assert build_scheme({"root": {"type": "box", "children": []}}, "dark").dark is True


@pytest.mark.parametrize(
    ("root", "dark"),
    [
        # The leading chain: the root, then its first visible child, and so on.
        ({"type": "column", "children": [_box("#101010")]}, True),
        # A later child is off the chain.
        ({"type": "column", "children": [{"type": "text", "text": "a"}, _box("#101010")]}, False),
        # A hidden first child is skipped.
        (
            {
                "type": "column",
                "children": [
                    _box("#FFFFFF", visibleWhen={"key": "on", "equals": True}),
                    _box("#101010"),
                ],
            },
            True,
        ),
        # Below the 0.99 alpha threshold a background does not paint the screen.
        ({"type": "column", "children": [_box("#F0101010")]}, False),
        # Roles and {light, dark} pairs never decide the mode.
        ({"type": "column", "children": [_box({"light": "#101010", "dark": "#101010"})]}, False),
        # Threshold 0.179: #767676 (luminance 0.181) is light, #747474 (0.175) dark.
        (_box("#767676"), False),
        (_box("#747474"), True),
    ],
)
def test_inference_walks_only_the_leading_chain_TH_prototypeAuthoredTheme(  # noqa: N802
    root: dict[str, Any], dark: bool
) -> None:
    spec = {"id": "p", "state": {"on": False}, "root": root}
    assert build_scheme(spec, "light").dark is dark


def test_inference_follows_the_current_pager_page_of_the_running_prototype() -> None:
    from studio.runtime import Runtime

    spec = {"id": "p", "window": {"placement": {"type": "fullscreen"}},
            "root": {"type": "pager", "id": "pages", "children": [_box("#FFFFFF"), _box("#101010")]}}  # fmt: skip
    runtime = Runtime(spec)
    assert build_scheme(spec, "light", runtime).dark is False
    runtime.set_page("pages", 1)
    assert build_scheme(spec, "light", runtime).dark is True


def test_authored_background_replaces_the_surfaces_TH_prototypeThemeSpecFor() -> None:  # noqa: N802
    spec = {"root": {"type": "column", "style": {"background": "#FFFFFF"}, "children": []}}
    colors = build_scheme(spec, "light").colors
    for role in ("background", "surface", "surfaceContainer", "surfaceContainerLow",
                 "surfaceContainerHigh", "surfaceContainerHighest"):  # fmt: skip
        assert colors[role] == "#FFFFFF", role
    assert colors["surfaceContainerLowest"] == BASELINE["light"]["surfaceContainerLowest"]
    # Only when the polarity matches the mode, and never over a seed or device colours.
    assert build_scheme({**spec, "theme": {"mode": "dark"}}, "light").colors["surface"] == "#141218"
    seeded = build_scheme({**spec, "theme": {"colors": {"seed": "#00639B"}}}, "light")
    assert seeded.colors["surface"] == "#FAFAFA"
    device = build_scheme({**spec, "theme": {"colors": {"source": "device"}}}, "light")
    assert device.colors["surface"] == BASELINE["light"]["surface"]


def test_typography_scales_the_roles_only_TH_prototypeTypography() -> None:  # noqa: N802
    scheme = build_scheme({"theme": {"typography": {"scale": 1.5, "fontFamily": "serif"}}})
    assert scheme.type_role("bodyLarge")["size"] == 24 and scheme.font_family == "serif"
    assert scheme.type_role("titleLarge")["lineHeight"] == 42
    # Plain text keeps 14 sp; its line height is the (scaled) body line height.
    assert scheme.plain_text()["size"] == 14 and scheme.plain_text()["lineHeight"] == 36
    from studio.preview.styles import resolve_style

    text = resolve_style({"textSize": 20, "lineHeight": 30}, scheme)["text"]
    assert text["size"] == 20 and text["lineHeight"] == 30


@pytest.mark.parametrize(
    ("corner", "steps"),
    [
        ("none", (0, 0, 0, 0, 0)),
        ("small", (2, 4, 6, 8, 12)),
        ("medium", (4, 8, 12, 16, 28)),
        ("large", (8, 12, 20, 28, 40)),
    ],
)
def test_the_corner_presets_set_the_shape_tokens_TH_prototypeShapes(  # noqa: N802
    corner: str, steps: tuple[float, ...]
) -> None:
    scheme = build_scheme({"theme": {"shapes": {"corner": corner}}})
    tokens = ("extraSmall", "small", "medium", "large", "extraLarge")
    assert tuple(scheme.corner(t) for t in tokens) == steps
    assert scheme.shape_tokens["full"] >= 9999 and scheme.corner(6) == 6


def test_full_corners_make_every_token_a_pill() -> None:
    scheme = build_scheme({"theme": {"shapes": {"corner": "full"}}})
    assert {scheme.corner(t) for t in ("extraSmall", "medium", "extraLarge")} == {9999.0}


def test_content_colour_pairs_follow_material_contentColorFor() -> None:  # noqa: N802
    colors = build_scheme({}, "light").colors
    assert content_color_for(colors, colors["primary"]) == colors["onPrimary"]
    assert content_color_for(colors, colors["surfaceContainerHighest"]) == colors["onSurface"]
    assert content_color_for(colors, "#123456") == ""


def test_opening_a_template_imports_no_colour_library_or_widgets() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from studio.preview.scheme import build_scheme\n"
        "from studio.preview.icons import font_path, glyph\n"
        "import json\n"
        "from studio.resources import resource_path\n"
        "for path in resource_path('templates').glob('*.json'):\n"
        "    build_scheme(json.loads(path.read_text()), 'dark')\n"
        "build_scheme({'theme': {'mode': 'dark'}}, 'light')\n"
        "assert font_path().is_file() and glyph('home')\n"
        "print(sorted(m for m in ('numpy', 'PIL', 'material_color_utilities', 'qtpy',"
        " 'tkinter_icons_gmi', 'tkinter', 'PySide6.QtWidgets') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
