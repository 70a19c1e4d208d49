"""Material icon names -> glyphs of the Material Symbols font shipped by `qtmaterialsymbols`."""

from __future__ import annotations

import difflib
import importlib.util
import sys
from functools import lru_cache
from pathlib import Path

#: Shown when no glyph is close to a requested name: the font's neutral square.
FALLBACK_NAME = "check_box_outline_blank"
# Old Material Icons names that Material Symbols renamed.
_RENAMED = {
    "create": "edit",
    "outline": "check_box_outline_blank",
    "person_outline": "person",
    "favorite_border": "favorite",
    "star_border": "star",
    "delete_outline": "delete",
    "mail_outline": "mail",
    "chat_bubble_outline": "chat_bubble",
    "lock_outline": "lock",
    "help_outline": "help",
    "info_outline": "info",
}


@lru_cache(maxsize=1)
def font_path() -> Path:
    """The installed MaterialSymbolsOutlined.ttf (read in place, never copied).

    Found through the package's import spec, without importing it: `qtmaterialsymbols/__init__`
    imports qtpy and Qt Widgets (~130 ms of the preview's start-up) and we only need its files."""
    spec = importlib.util.find_spec("qtmaterialsymbols")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    frozen = getattr(sys, "_MEIPASS", None)  # a PyInstaller build collects the font as data
    if frozen and (Path(frozen) / "qtmaterialsymbols").is_dir():
        locations.append(str(Path(frozen) / "qtmaterialsymbols"))
    locations = [loc for loc in locations if (Path(loc) / "resources").is_dir()]
    if not locations:
        raise FileNotFoundError("the qtmaterialsymbols package (icon font) is not installed")
    return Path(locations[0]) / "resources" / "MaterialSymbolsOutlined.ttf"


@lru_cache(maxsize=1)
def codepoints() -> dict[str, str]:
    """Icon name -> the glyph's character."""
    path = font_path().with_suffix(".codepoints")
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, _, code = line.partition(" ")
        if name and code:
            table[name] = chr(int(code, 16))
    return table


@lru_cache(maxsize=4096)
def glyph(name: str) -> str:
    """The glyph for a Material icon name; a close name's glyph, else the neutral square."""
    table = codepoints()
    if name in table:
        return table[name]
    candidates = [_RENAMED.get(name, "")]
    for suffix in ("_outline", "_outlined", "_border", "_filled", "_rounded", "_sharp"):
        if name.endswith(suffix):
            candidates.append(name[: -len(suffix)])
    candidates += difflib.get_close_matches(name, table.keys(), n=1, cutoff=0.8)
    for candidate in candidates:
        if candidate in table:
            return table[candidate]
    return table.get(FALLBACK_NAME, "\u25a1")
