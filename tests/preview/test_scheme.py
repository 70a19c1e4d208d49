"""Theme resolution: seed -> Material 3 scheme, role overrides per mode, mode order, tokens."""

from __future__ import annotations

from studio.preview.scheme import ROLES, build_scheme, resolve_mode, seed_scheme


def test_seed_gives_all_36_roles_in_both_modes() -> None:
    light, dark = seed_scheme("#6750A4", False), seed_scheme("#6750A4", True)
    assert set(light) == set(ROLES) == set(dark) and len(ROLES) == 36
    assert light["primary"] == "#65558F" and dark["primary"] == "#CFBDFE"  # tonal spot, tone 40/80
    assert seed_scheme("#006E1C", False)["primary"] != light["primary"]


def test_role_overrides_flat_then_per_mode() -> None:
    spec = {"theme": {"colors": {"seed": "#6750A4", "primary": "#B3261E",
                                 "dark": {"primary": "#F2B8B5"}}}}  # fmt: skip
    assert build_scheme(spec, "light").color("primary") == "#B3261E"
    assert build_scheme(spec, "dark").color("primary") == "#F2B8B5"
    scheme = build_scheme(spec, "dark")
    assert scheme.color({"light": "#FFFFFF", "dark": "surface"}) == scheme.colors["surface"]
    assert scheme.color("scrim") == "#66000000"  # the scrim role is drawn at 0.4 alpha


def test_mode_resolution_order() -> None:
    assert resolve_mode({"theme": {"mode": "light"}}, "dark") is False
    assert resolve_mode({"theme": {"colors": {"surface": "#101010"}}}, "light") is True
    assert resolve_mode({"root": {"type": "box", "style": {"background": "#FF121212"}}}, "light")
    assert resolve_mode({"root": {"type": "box"}}, "dark") is True
    assert resolve_mode({"root": {"type": "box"}}, "system") is False


def test_typography_and_shapes() -> None:
    scheme = build_scheme({"theme": {"typography": {"scale": 1.25, "fontFamily": "serif"},
                                     "shapes": {"corner": "large"}}})  # fmt: skip
    assert scheme.type_role("bodyLarge")["size"] == 20 and scheme.font_family == "serif"
    assert scheme.corners == (12, 16, 28)
    assert scheme.corner("extraLarge") == 28 and scheme.corner(6) == 6


def test_stored_schemes_are_what_the_library_computes_today() -> None:
    # The baseline and the templates' schemes ship as a generated table (no NumPy at start-up);
    # a library upgrade or a template with a new seed fails here until the table is regenerated
    # with `python -m studio.preview.scheme`.
    from pathlib import Path

    import studio.preview.scheme as scheme_module
    from studio.preview.stored_schemes import SCHEMES

    stored = Path(scheme_module.__file__).with_name("stored_schemes.py").read_text("utf-8")
    assert stored == scheme_module.stored_source()
    assert "#6750A4" in SCHEMES and len(SCHEMES) == len(scheme_module.stored_seeds()) > 1
    assert seed_scheme("#6750a4", True)["primary"] == "#CFBDFE"  # lower-case seed hits the table


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
