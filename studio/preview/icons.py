"""Material icon names and variants -> glyphs of Google's Material Icons fonts (`tkinter-icons-gmi`).

The phone draws `androidx.compose.material:material-icons-extended` (PrototypeIcons.kt
`prototypeIcon`), which is generated from Google's Material Icons in five styles: Filled (the
default), Outlined, Rounded, Sharp and TwoTone (`IconStyle.fromContract`). The same icons ship as
fonts (Apache-2.0): MaterialIcons (Filled), MaterialIconsOutlined, MaterialIconsRound and
MaterialIconsSharp, packaged on PyPI by `tkinter-icons-gmi` (read in place, never imported: its
package imports Tk). TwoTone has no font there; it is drawn as the Outlined glyph over the Filled
one at 30 % (what the TwoTone set is: an outline with a translucent fill), see `two_tone`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from studio.preview.packaged import data_package

#: The contract's `variant` names (IC `IconStyle.contractName`) -> font file and glyph map.
STYLES: dict[str, tuple[str, str]] = {
    "filled": ("MaterialIcons-Regular.ttf", "glyphmap-baseline.json"),
    "outlined": ("MaterialIconsOutlined-Regular.otf", "glyphmap-outlined.json"),
    "rounded": ("MaterialIconsRound-Regular.otf", "glyphmap-round.json"),
    "sharp": ("MaterialIconsSharp-Regular.otf", "glyphmap-sharp.json"),
}
#: The opacity of the TwoTone fill (Material Icons' two-tone layer is drawn at 30 %).
TWO_TONE_FILL_OPACITY = 0.3
_PACKAGE = "tkinter_icons_gmi"


def style_of(variant: str | None) -> str:
    """The style a node's `variant` names; anything else is Filled (IC `IconStyle.fromContract`:
    `entries.firstOrNull { it.contractName == name } ?: FILLED`). "twoTone" is its own style."""
    return variant if variant in STYLES or variant == "twoTone" else "filled"


@lru_cache(maxsize=1)
def package_dir() -> Path:
    """The installed `tkinter_icons_gmi` folder (fonts and glyph maps)."""
    return data_package(_PACKAGE, "fonts", "tkinter-icons-gmi package (Material Icons fonts)")


def font_path(style: str = "filled") -> Path:
    """The font file of one style ("twoTone" is drawn with the Filled and Outlined fonts)."""
    name, _ = STYLES[style if style in STYLES else "filled"]
    return package_dir() / "fonts" / name


@lru_cache(maxsize=8)
def codepoints(style: str = "filled") -> dict[str, str]:
    """Icon name -> the glyph's character in one style's font, under the contract's names too:
    material-icons-extended spells a few names without the underscores the fonts keep before
    digits (`co_2` for the font's `co2`, `crop_169` for `crop_16_9`, `grid_3x_3` for
    `grid_3x3`), so every font name is also reachable with its underscores squashed."""
    _, glyphmap = STYLES[style if style in STYLES else "filled"]
    raw = json.loads((package_dir() / glyphmap).read_text(encoding="utf-8"))
    table = {name: chr(int(code, 16)) for name, code in raw.items()}
    squashed: dict[str, str] = {}
    for name, char in table.items():
        squashed.setdefault(name.replace("_", ""), char)
    return {**{k: v for k, v in squashed.items() if k not in table}, **table}


def _lookup(style: str, name: str) -> str:
    table = codepoints(style)
    return table.get(name) or table.get(name.replace("_", ""), "")


@lru_cache(maxsize=4096)
def glyph(name: str, variant: str | None = None) -> str:
    """The glyph of `name` in the node's style, else its Filled glyph (IC `load`: the style's
    icon, then Filled's), else "" for a name material-icons-extended does not have (the phone
    then draws a placeholder box for an `icon` node and nothing inside a component)."""
    if not name:
        return ""
    style = style_of(variant)
    if style == "twoTone":
        style = "outlined"
    return _lookup(style, name) or _lookup("filled", name)


@lru_cache(maxsize=4096)
def two_tone(name: str) -> tuple[str, str]:
    """The TwoTone glyph as (fill layer, outline layer): the Filled glyph drawn at
    `TWO_TONE_FILL_OPACITY` under the Outlined one; ("", Filled) where Outlined lacks it."""
    outline = _lookup("outlined", name)
    filled = _lookup("filled", name)
    return (filled, outline) if outline else ("", filled)
