"""The licences of what the studio ships: its Python distributions and the native parts they carry.

Python distributions are found from their installed metadata (the frozen build bundles the
`.dist-info` folders, so the same code lists exactly what is in the installer); the native
components (Qt, FFmpeg and the codecs PyAV's wheel links, the icon and text fonts, Python itself)
are described here, with their licence texts under `resources/licenses/`.
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path

from studio.resources import resource_path

ROOT_DISTRIBUTION = "proto-studio"


@dataclass(frozen=True)
class Notice:
    """One bundled component: its licence (SPDX), where its source is, and the licence texts."""

    name: str
    version: str
    licence: str
    source: str
    #: (title, text) pairs: the licence texts that must travel with the binaries.
    texts: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    note: str = ""


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def bundled_distributions(root: str = ROOT_DISTRIBUTION) -> list[metadata.Distribution]:
    """`root` and every distribution it requires, transitively (extras left out), as installed.

    This is what the frozen build bundles (its spec copies their metadata), so in the frozen
    build it lists the installer's contents and in a checkout the same set from the venv."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [root]
    while todo:
        name = _normalize(todo.pop())
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional or platform-specific requirement that is not installed
        seen[name] = dist
        for requirement in dist.requires or ():
            requirement_name, _, marker = requirement.partition(";")
            if "extra" in marker:
                continue
            match = _REQUIREMENT.match(requirement_name)
            if match:
                todo.append(match.group(1))
    return sorted(seen.values(), key=lambda d: _normalize(d.metadata["Name"]))


def _field(dist: metadata.Distribution, name: str) -> str:
    values = dist.metadata.get_all(name) or []
    return str(values[0]) if values else ""


def _licence_of(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    expression = _field(dist, "License-Expression")
    if expression:
        return expression
    short = _field(dist, "License").strip()
    if short and "\n" not in short and len(short) < 80:
        return short
    licences = [
        c.rsplit("::", 1)[-1].strip()
        for c in meta.get_all("Classifier") or []
        if c.startswith("License ::") and c.count("::") >= 2
    ]
    return ", ".join(licences) or "see its licence text"


_LICENCE_FILE = re.compile(r"(^|/)(licen[cs]e|copying|notice|authors)[^/]*$", re.IGNORECASE)


def _texts_of(dist: metadata.Distribution) -> tuple[tuple[str, str], ...]:
    texts: list[tuple[str, str]] = []
    for path in dist.files or ():
        name = str(path)
        if ".dist-info/" not in name or not _LICENCE_FILE.search(name) or name.endswith(".pyc"):
            continue
        if name.endswith(".py"):
            continue
        try:
            text = Path(path.locate()).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        texts.append((name.split(".dist-info/", 1)[1], text))
    return tuple(texts)


def _source_of(dist: metadata.Distribution) -> str:
    for entry in dist.metadata.get_all("Project-URL") or []:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() in {"source", "source code", "repository", "code", "homepage"}:
            return url.strip()
    return _field(dist, "Home-page") or f"PyPI, package {_field(dist, 'Name')}"


def python_notices() -> list[Notice]:
    """Every bundled Python distribution (the studio itself first)."""
    notices = []
    for dist in bundled_distributions():
        name = str(dist.metadata["Name"])
        texts = _texts_of(dist)
        licence = _licence_of(dist)
        if not texts and _normalize(name) == ROOT_DISTRIBUTION:
            texts = (("Apache-2.0", licence_text("Apache-2.0.txt")),)
        elif not texts and licence.startswith("LGPL-3.0"):  # PySide6's wheels carry no text
            texts = _lgpl3()
        notices.append(Notice(name, dist.version, licence, _source_of(dist), texts))
    notices.sort(key=lambda n: (_normalize(n.name) != ROOT_DISTRIBUTION, n.name.lower()))
    return notices


def licence_text(file_name: str) -> str:
    """A licence text shipped in resources/licenses/."""
    return resource_path("licenses", file_name).read_text(encoding="utf-8")


def _qt_version() -> str:
    try:
        return metadata.version("PySide6-Essentials")
    except metadata.PackageNotFoundError:
        return "6"


#: Libraries PyAV's wheel bundles next to FFmpeg (file-name prefix -> name, SPDX licence).
FFMPEG_PARTS: dict[str, tuple[str, str]] = {
    "libx264": ("x264 (H.264 encoder)", "GPL-2.0-or-later"),
    "libx265": ("x265 (HEVC encoder)", "GPL-2.0-or-later"),
    "libSvtAv1Enc": ("SVT-AV1 (AV1 encoder)", "BSD-3-Clause-Clear"),
    "libdav1d": ("dav1d (AV1 decoder)", "BSD-2-Clause"),
    "libvpx": ("libvpx (VP8/VP9)", "BSD-3-Clause"),
    "libopus": ("Opus", "BSD-3-Clause"),
    "libmp3lame": ("LAME (MP3 encoder)", "LGPL-2.0-or-later"),
    "libopencore-amr": ("OpenCORE AMR", "Apache-2.0"),
    "libwebp": ("libwebp", "BSD-3-Clause"),
    "libsharpyuv": ("libsharpyuv (libwebp)", "BSD-3-Clause"),
    "libgnutls": ("GnuTLS", "LGPL-2.1-or-later"),
    "libnettle": ("Nettle", "LGPL-3.0-or-later OR GPL-2.0-or-later"),
    "libhogweed": ("Nettle (hogweed)", "LGPL-3.0-or-later OR GPL-2.0-or-later"),
    "libgmp": ("GMP", "LGPL-3.0-or-later OR GPL-2.0-or-later"),
    "libunistring": ("libunistring", "LGPL-3.0-or-later OR GPL-2.0-or-later"),
    "libvpl": ("oneVPL dispatcher", "MIT"),
    "libasound": ("ALSA library", "LGPL-2.1-or-later"),
    "libdrm": ("libdrm", "MIT"),
    "libxcb": ("libxcb", "X11"),
    "libXau": ("libXau", "MIT"),
}


def _ffmpeg_library(av_dir: Path, stem: str) -> Path | None:
    for folder in (av_dir.parent / "av.libs", av_dir.parent / "av" / ".dylibs", av_dir):
        found = sorted(folder.glob(f"*{stem}*")) if folder.is_dir() else []
        found = [p for p in found if p.suffix in {".so", ".dll", ".dylib"} or ".so." in p.name]
        if found:
            return found[0]
    return None


@functools.cache
def ffmpeg_build() -> tuple[str, str, str, list[str]]:
    """(version, licence, configure line, bundled library files) of the FFmpeg in PyAV's wheel,
    asked from the library itself (`avcodec_license`, `avcodec_configuration`)."""
    import ctypes

    import av

    version = str(getattr(av, "ffmpeg_version_info", "") or "")
    av_dir = Path(av.__file__).resolve().parent
    licence, configuration = "LGPL-2.1-or-later (FFmpeg's default)", ""
    library = _ffmpeg_library(av_dir, "avcodec")
    if library is not None:
        try:
            lib = ctypes.CDLL(str(library))
            lib.avcodec_license.restype = ctypes.c_char_p
            lib.avcodec_configuration.restype = ctypes.c_char_p
            licence = lib.avcodec_license().decode()
            configuration = lib.avcodec_configuration().decode()
        except (OSError, AttributeError):
            pass
    files: list[str] = []
    for folder in (av_dir.parent / "av.libs", av_dir / ".dylibs"):
        if folder.is_dir():
            files += sorted(p.name for p in folder.iterdir())
    return version, licence, configuration, files


def _lgpl3() -> tuple[tuple[str, str], ...]:
    return (
        ("LGPL-3.0", licence_text("LGPL-3.0.txt")),
        ("GPL-3.0 (which the LGPL-3.0 builds on)", licence_text("GPL-3.0.txt")),
    )


def build_info() -> dict[str, object]:
    """What the frozen build recorded about itself (packaging/proto-studio.spec writes
    `build-info.json` into the bundle); empty when running from a checkout."""
    import json

    frozen = getattr(sys, "_MEIPASS", None)
    if not frozen:
        return {}
    try:
        data = json.loads((Path(frozen) / "build-info.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _icu_version(files: list[str]) -> str:
    for name in files:
        match = re.match(r"libicuuc\.so\.(\d+)", name)
        if match:
            return match.group(1)
    return ""


def native_notices() -> list[Notice]:
    """Qt, FFmpeg and its codecs, the Material Icons and Roboto fonts, Python, OpenSSL and adb:
    the native parts the Python distributions bring, which carry no licence metadata of their
    own."""
    lgpl3 = _lgpl3()
    qt = _qt_version()
    notices = [
        Notice(
            "Qt",
            qt,
            "LGPL-3.0-only",
            f"https://download.qt.io/official_releases/qt/{'.'.join(qt.split('.')[:2])}/{qt}/"
            " (Qt for Python: https://download.qt.io/official_releases/QtForPython/)",
            lgpl3,
            "Qt is linked dynamically (its libraries sit in the installed folder, replaceable "
            "by your own build of the same version), as the LGPL requires.",
        ),
        Notice(
            "Python",
            ".".join(map(str, sys.version_info[:3])),
            "PSF-2.0",
            "https://www.python.org/downloads/source/",
            (("PSF-2.0", licence_text("Python.txt")),),
        ),
        Notice(
            "Material Icons (icon fonts)",
            "",
            "Apache-2.0",
            "https://github.com/google/material-design-icons",
            (("Apache-2.0", licence_text("Apache-2.0.txt")),),
            "Google's fonts (Filled, Outlined, Round, Sharp), shipped by the tkinter-icons-gmi "
            "package; the icons the phone draws with material-icons-extended.",
        ),
        Notice(
            "Roboto (text font)",
            "2.138",
            "Apache-2.0",
            "https://github.com/google/roboto/releases/tag/v2.138",
            (("Apache-2.0", licence_text("Apache-2.0.txt")),),
            "Google's font, every weight and italic, shipped by the font-roboto package; the "
            "phone's sans-serif, which the preview draws and measures text in.",
        ),
    ]
    icu = _icu_version(_package_files("PySide6", "Qt", "lib"))
    if icu:
        notices.append(
            Notice(
                "ICU",
                icu,
                "Unicode-3.0 (ICU's licence)",
                "https://github.com/unicode-org/icu/releases",
                (("ICU", licence_text("ICU.txt")),),
                "Qt's wheel ships it for collation, case mapping and text codecs.",
            )
        )
    import ssl

    notices.append(
        Notice(
            "OpenSSL",
            ssl.OPENSSL_VERSION.removeprefix("OpenSSL ").split(" ")[0],
            "Apache-2.0",
            "https://www.openssl.org/source/",
            (("Apache-2.0", licence_text("Apache-2.0.txt")),),
            "Python's ssl module links it; cryptography's wheel carries its own copy.",
        )
    )
    adb = _adbutils_adb()
    if adb:
        notices.append(
            Notice(
                "Android Debug Bridge (adb)",
                "",
                "Apache-2.0",
                "https://android.googlesource.com/platform/packages/modules/adb/",
                (("Apache-2.0", licence_text("Apache-2.0.txt")),),
                f"Bundled by adbutils ({adb}); used when no adb is on the PATH.",
            )
        )
    try:
        version, licence, configuration, files = ffmpeg_build()
    except ImportError:
        return notices
    recorded = build_info().get("ffmpeg_stubs")
    stubbed = {str(name) for name in recorded} if isinstance(recorded, list) else set()

    def shipped(prefix: str) -> bool:
        return any(f.startswith(prefix) and f not in stubbed for f in files)

    gpl_parts = sorted(
        name
        for prefix, (name, spdx) in FFMPEG_PARTS.items()
        if spdx == "GPL-2.0-or-later" and shipped(prefix)
    )
    ffmpeg_note = (
        "As built in PyAV's wheel, the library reports: " + licence + "."
        + (f" Configured with: {configuration}" if configuration else "")
    )  # fmt: skip
    if gpl_parts:
        ffmpeg_note += (
            " The wheel links " + ", ".join(gpl_parts) + " (GPL-2.0-or-later) into libavcodec, "
            "so these FFmpeg libraries are distributed under the GPL's terms."
        )
    texts = lgpl3 + (("GPL-2.0", licence_text("GPL-2.0.txt")),)
    if any(f.startswith(("libgnutls", "libasound")) for f in files):
        texts += (("LGPL-2.1", licence_text("LGPL-2.1.txt")),)
    notices.append(
        Notice(
            "FFmpeg",
            version,
            licence,
            f"https://ffmpeg.org/releases/ffmpeg-{version}.tar.xz"
            " (build recipe: https://github.com/PyAV-Org/pyav-ffmpeg)",
            texts,
            ffmpeg_note,
        )
    )
    if stubbed:
        ffmpeg = notices[-1]
        notices[-1] = replace(
            ffmpeg,
            note=f"{ffmpeg.note} This installer replaces the libraries of FFmpeg's encoders and "
            "of the codecs the studio never decodes with stand-ins of its own (none of their "
            f"code is shipped): {', '.join(sorted(stubbed))}.",
        )
    for prefix, (name, spdx) in FFMPEG_PARTS.items():
        if shipped(prefix):
            notices.append(Notice(name, "", spdx, "bundled by PyAV's wheel (av.libs)", (), ""))
    return notices


def _package_files(package: str, *sub: str) -> list[str]:
    """Names of the files in a folder of an installed package, found without importing it
    (the core never imports Qt)."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    names: list[str] = []
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        folder = Path(location).joinpath(*sub)
        if folder.is_dir():
            names += sorted(p.name for p in folder.iterdir())
    return names


def _adbutils_adb() -> str:
    """The adb executable adbutils' wheel ships, relative to its package ("" when absent)."""
    for name in ("adb", "adb.exe"):
        if name in _package_files("adbutils", "binaries"):
            return f"adbutils/binaries/{name}"
    return ""


def all_notices() -> list[Notice]:
    """The studio first, then the native components, then the other Python distributions."""
    python = python_notices()
    return python[:1] + native_notices() + python[1:]
