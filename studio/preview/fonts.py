"""Roboto, the phone's sans-serif, as the preview draws and measures text in it (`font-roboto`).

Compose's `FontFamily.Default` and `FontFamily.SansSerif` are the platform's `sans-serif`, Roboto
on AOSP and Pixel phones; AutoMobile's theme maps `typography.fontFamily` "sans" to
`FontFamily.SansSerif` (PrototypeTheme.kt `prototypeTypography`) and Material 3's type scale is
in it by default. The `font-roboto` package ships Google's Roboto 2.138 (Apache-2.0) as one
static file per weight and italic (Thin 100 to Black 900), read in place, never imported; every
face is registered so `font.weight` 500 picks the real Medium face, not a synthesized one.

Android lays lines out with the font's `hhea` ascent and descent (Roboto: 1900 and 500 of 2048
units, 1.172 em), but Qt takes the OS/2 table's Windows ascent and descent (2146 and 555, 1.317
em) unless the font asks for its typographic ones. `phone_line_metrics` copies the `hhea`
values into the OS/2 ones as the faces are loaded, so Qt's line height, and with it every
measured text height and baseline, is the phone's. The theme's "serif" and "mono" stay the
desktop's (Android's are Noto Serif and Droid Sans Mono, not packaged).
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

from studio.preview.packaged import data_package

#: The family the faces register as (what `Scheme.font_family` names for "sans").
FAMILY = "Roboto"
#: The faces, one file each: every weight upright and italic.
FACES = (
    "Roboto-Thin.ttf", "Roboto-ThinItalic.ttf", "Roboto-Light.ttf", "Roboto-LightItalic.ttf",
    "Roboto-Regular.ttf", "Roboto-Italic.ttf", "Roboto-Medium.ttf", "Roboto-MediumItalic.ttf",
    "Roboto-Bold.ttf", "Roboto-BoldItalic.ttf", "Roboto-Black.ttf", "Roboto-BlackItalic.ttf",
)  # fmt: skip
#: The styles Qt's font database lists for the family once every face is loaded.
STYLES = (
    "Thin", "Thin Italic", "Light", "Light Italic", "Regular", "Italic",
    "Medium", "Medium Italic", "Bold", "Bold Italic", "Black", "Black Italic",
)  # fmt: skip
#: Roboto's ascent + descent in em as the phone lays lines out (`hhea`: (1900 + 500) / 2048).
LINE_HEIGHT_EM = 2400 / 2048
_PACKAGE = "font_roboto"


@lru_cache(maxsize=1)
def package_dir() -> Path:
    """The installed `font_roboto` folder (the faces under files/)."""
    return data_package(
        _PACKAGE, "files/Roboto-Regular.ttf", "font-roboto package (the preview's Roboto)"
    )


def face_paths() -> list[Path]:
    """Every face's file, Thin to Black, upright then italic."""
    return [package_dir() / "files" / name for name in FACES]


def _tables(data: bytes) -> dict[bytes, tuple[int, int]]:
    """An sfnt's table directory: tag -> (offset, length)."""
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for i in range(count):
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = (offset, length)
    return tables


def phone_line_metrics(data: bytes) -> bytes:
    """A TrueType font whose OS/2 Windows ascent and descent (what Qt lays lines out with) are
    its `hhea` ascent and descent (what Android lays them out with); the glyphs are untouched.
    Raises ValueError for data that is not a TrueType font with both tables."""
    try:
        tables = _tables(data)
        hhea, os2 = tables[b"hhea"][0], tables[b"OS/2"][0]
        ascent, descent = struct.unpack_from(">hh", data, hhea + 4)
        patched = bytearray(data)
        struct.pack_into(">HH", patched, os2 + 74, ascent, -descent)  # usWinAscent, usWinDescent
    except (KeyError, struct.error) as exc:
        raise ValueError(f"not a TrueType font with hhea and OS/2 tables ({exc})") from exc
    return bytes(patched)
