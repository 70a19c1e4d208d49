"""Material icon names -> glyphs of the Material Symbols font shipped by `qtmaterialsymbols`."""

from __future__ import annotations

import difflib
from functools import lru_cache
from importlib import resources
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


def font_path() -> Path:
    """The installed MaterialSymbolsOutlined.ttf (read in place, never copied)."""
    return Path(
        str(resources.files("qtmaterialsymbols") / "resources" / "MaterialSymbolsOutlined.ttf")
    )


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
