"""What the frozen build leaves out and why: the PyInstaller spec's filters, with a size report.

`packaging/proto-studio.spec` applies these to PyInstaller's analysis (every entry is a
destination path in the bundle, e.g. `PySide6/Qt/qml/QtQuick/Effects/qmldir`):

- `RULES`: parts of Qt the studio never loads, each named and explained (the report shows
  what each one saved);
- `orphans`: on Linux, the shared libraries no kept binary links any more (the GTK stack that
  only Qt's GTK platform theme needed, the Qt libraries of dropped QML modules...);
- `users_of`: NumPy and Pillow are bundled only while a studio module or a library the studio
  imports needs them at import time (NumPy no longer: the mirror and the preview's schemes
  need none);
- on Linux also: `is_system_library` (libraries every desktop Linux ships, which the .deb
  depends on instead of copying the build machine's), `stub_library` (FFmpeg's encoders),
  `slim_icu_data` (ICU's locale data for what Qt asks of ICU: collation, case mapping, time
  zone names) and `prepare_binary` (symbol tables and debug sections, verified to leave each
  library loadable; search paths into the build machine).

Keep `RULES` in step with the `import` lines of resources/qml/ and the Qt modules studio/ uses;
the packaged smoke test (`proto-studio --smoke-test`) proves the rest was not needed.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import hashlib
import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

#: Rules match paths relative to Qt's folder in the bundle: PySide6/Qt/ on Linux and macOS,
#: PySide6/ on Windows (where qml/, plugins/ and translations/ sit next to the bindings).
QML = "qml"
PLUGINS = "plugins"


@dataclass(frozen=True)
class Rule:
    """Entries whose bundle path matches one of `patterns` (fnmatch, `/` separators) are dropped."""

    name: str
    why: str
    patterns: tuple[str, ...]

    def matches(self, dest: str) -> bool:
        return any(fnmatch.fnmatchcase(dest, pattern) for pattern in self.patterns)


def _under(*folders: str) -> tuple[str, ...]:
    return tuple(f"{folder}/*" for folder in folders)


RULES: tuple[Rule, ...] = (
    Rule(
        "qml-modules",
        "QML modules resources/qml never imports (it imports QtQuick, QtQuick.Layouts, "
        "QtQuick.Shapes, QtQuick.Controls and QtQuick.Controls.Material)",
        _under(
            *(
                f"{QML}/{name}"
                for name in (
                    "Qt/labs",
                    "QtCore",
                    "QtNetwork",
                    "QtQml/XmlListModel",
                    "QtQuick/Dialogs",
                    "QtQuick/Effects",
                    "QtQuick/LocalStorage",
                    "QtQuick/Particles",
                    "QtQuick/Pdf",
                    "QtQuick/Scene2D",
                    "QtQuick/Scene3D",
                    "QtQuick/Shapes/DesignHelpers",
                    "QtQuick/Timeline",
                    "QtQuick/VectorImage",
                    "QtQuick/VirtualKeyboard",
                    "QtTest",
                    "QtWayland",
                )
            )
        ),
    ),  # fmt: skip
    Rule(
        "qml-styles",
        "Controls styles other than Material (Material builds on Basic and impl)",
        _under(
            *(
                f"{QML}/QtQuick/Controls/{name}"
                for name in ("FluentWinUI3", "Fusion", "Imagine", "Universal", "designer")
            )
        ),
    ),
    Rule(
        "qml-sources",
        "QML sources and type descriptions of Qt's own modules: every qmldir says "
        "'prefer :/qt-project.org/...', so the engine loads the copies compiled into the plugins",
        (f"{QML}/*.qml", f"{QML}/*.qmltypes", f"{QML}/*.js", f"{QML}/*.mjs"),
    ),
    Rule(
        "qt-plugins",
        "Qt plugins for platforms and features a desktop studio does not use: embedded "
        "displays (eglfs, linuxfb, vnc, Vulkan KHR display), evdev/tuio input, Wayland "
        "(Qt runs on XWayland), network reachability, SQL, printing, Designer, QML tooling",
        _under(
            *(
                f"{PLUGINS}/{name}"
                for name in (
                    "designer",
                    "egldeviceintegrations",
                    "generic",
                    "networkinformation",
                    "printsupport",
                    "qmllint",
                    "qmlls",
                    "qmltooling",
                    "sqldrivers",
                    "wayland-decoration-client",
                    "wayland-graphics-integration-client",
                    "wayland-shell-integration",
                )
            )
        )
        + tuple(
            f"{PLUGINS}/platforms/*q{name}.*"
            for name in ("eglfs", "linuxfb", "minimalegl", "vkkhrdisplay", "vnc", "wayland")
        ),
    ),  # fmt: skip
    Rule(
        "gtk-theme",
        "Qt's GTK 3 platform theme: it makes PyInstaller bundle the build machine's GTK, "
        "cairo, pango and their dependencies; the xdg-desktop-portal theme still gives "
        "native file dialogs on GNOME and KDE",
        (f"{PLUGINS}/platformthemes/*qgtk3.*",),
    ),
    Rule(
        "qt-translations",
        "Qt's own translations: the studio's interface is English only",
        ("translations/*",),
    ),
)

#: Python packages that are development, test or benchmark tools, modules only an unused entry
#: point imports (httpx's command line pulls in click, rich and pygments), the interactive
#: console's readline, and Pillow's optional codecs (only adbutils imports Pillow, for
#: screenshots the studio takes with PyAV; each of these is imported under try/except).
PY_EXCLUDES = (
    "tkinter", "_tkinter", "pytest", "_pytest", "pytestqt", "hypothesis", "mypy", "ruff",
    "openai", "IPython", "httpx._main", "pydoc_data", "setuptools", "pkg_resources",
    "PyQt5", "PyQt6", "PySide2", "importlinter", "grimp", "readline",
    "PIL._avif", "PIL._webp", "PIL._imagingcms", "PIL._imagingft", "PIL._imagingmath",
    "PIL._imagingmorph", "PIL._imagingtk",
)  # fmt: skip

#: Qt Python modules the studio never imports.
QT_EXCLUDES = tuple(
    f"PySide6.{name}"
    for name in (
        "QtConcurrent", "QtDBus", "QtDesigner", "QtHelp", "QtOpenGLWidgets", "QtPrintSupport",
        "QtQuickTest", "QtSql", "QtSvgWidgets", "QtTest", "QtUiTools", "QtXml",
    )
)  # fmt: skip

#: Shared libraries loaded with dlopen (not linked), so `orphans` must keep them: the
#: bootloader opens libpython; Qt's TLS plugin opens OpenSSL; glibc opens libgcc_s to unwind.
DLOPENED = ("libpython", "libssl", "libcrypto", "libgcc_s")


def normalized(dest: str) -> str:
    return dest.replace("\\", "/").lstrip("/")


def qt_relative(dest: str) -> str | None:
    """`dest` relative to Qt's folder in the bundle ("qml/QtQuick/...", "plugins/..."), or None
    for a path outside it."""
    path = normalized(dest)
    if path.startswith("PySide6/Qt/"):
        return path[len("PySide6/Qt/") :]
    head, _, rest = path.removeprefix("PySide6/").partition("/")
    if path.startswith("PySide6/") and head in {QML, PLUGINS, "translations"} and rest:
        return f"{head}/{rest}"
    return None


def drop_rule(dest: str) -> Rule | None:
    """The rule that leaves `dest` out, or None when it is kept."""
    path = qt_relative(dest)
    if path is None:
        return None
    return next((rule for rule in RULES if rule.matches(path)), None)


def is_library(dest: str) -> bool:
    """A plain shared library (not a Python extension module, a Qt plugin or the executable)."""
    path = normalized(dest)
    name = path.rsplit("/", 1)[-1]
    if (qt_relative(path) or "").startswith((f"{PLUGINS}/", f"{QML}/")):
        return False
    if ".cpython-" in name or ".abi3." in name or name.endswith(".pyd"):
        return False
    return name.startswith("lib") and (".so" in name or name.endswith(".dylib"))


def orphans(entries: Iterable[tuple[str, str]], needed: Callable[[str], Iterable[str]]) -> set[str]:
    """Destinations of the shared libraries that nothing kept links to.

    `entries` are (destination, source) pairs of every kept binary; `needed(source)` gives the
    file names a binary links (DT_NEEDED). Roots are everything that is not a plain library
    (extension modules, plugins, the executable) plus `DLOPENED`; a library is kept when a root
    reaches it."""
    entries = list(entries)
    by_name: dict[str, list[tuple[str, str]]] = {}
    roots: list[tuple[str, str]] = []
    for dest, src in entries:
        name = normalized(dest).rsplit("/", 1)[-1]
        by_name.setdefault(name, []).append((dest, src))
        if not is_library(dest) or name.startswith(DLOPENED):
            roots.append((dest, src))
    reached: set[str] = set()
    todo = list(roots)
    while todo:
        dest, src = todo.pop()
        if dest in reached:
            continue
        reached.add(dest)
        for name in needed(src):
            todo.extend(e for e in by_name.get(name, ()) if e[0] not in reached)
    return {dest for dest, _ in entries} - reached


def studio_imports(package_dir: Path) -> dict[str, set[str]]:
    """Third-party top-level modules the studio's sources import (anywhere, lazily too),
    each with the studio modules that import it."""
    found: dict[str, set[str]] = {}
    for path in sorted(package_dir.rglob("*.py")):
        module = ".".join(path.relative_to(package_dir.parent).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != package_dir.name and top not in sys.stdlib_module_names:
                    found.setdefault(top, set()).add(module.removesuffix(".__init__"))
    return found


_TRIAL = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] == {blocked!r}:
            raise ImportError('blocked')
sys.meta_path.insert(0, Block())
import {module}
"""


def needs_at_import(module: str, blocked: str, python: str = sys.executable) -> bool:
    """True when importing `module` fails while `blocked` cannot be imported."""
    code = _TRIAL.format(blocked=blocked, module=module)
    result = subprocess.run([python, "-c", code], capture_output=True, timeout=120)
    return result.returncode != 0


def users_of(package: str, package_dir: Path, python: str = sys.executable) -> list[str]:
    """Who makes `package` necessary: studio modules importing it, and third-party modules the
    studio imports that fail to import without it. Empty: the bundle can leave it out."""
    imports = studio_imports(package_dir)
    users = sorted(imports.get(package, ()))
    for module in sorted(imports):
        if module != package and needs_at_import(module, package, python):
            users.append(module)
    return users


# ---- Linux: system libraries, ICU data, stripping -----------------------------------------

#: Where a Linux build machine keeps its own libraries (as opposed to a wheel's or Python's).
SYSTEM_DIRS = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/")
#: System libraries kept in the bundle anyway: the X11 helpers Qt's xcb plugin needs, which
#: minimal installs lack (Qt's "xcb-cursor0 is needed" start-up failure).
KEEP_SYSTEM = (
    "libxcb-cursor.", "libxcb-icccm.", "libxcb-image.", "libxcb-keysyms.", "libxcb-render-util.",
    "libxcb-util.", "libxkbcommon-x11.",
)  # fmt: skip


def is_system_library(src: str) -> bool:
    """A shared library PyInstaller copied from the build machine's system folders (X11, glib,
    fontconfig, OpenSSL, libstdc++...): every desktop Linux ships it, the .deb depends on its
    package (dpkg-shlibdeps), and a bundled copy older than the system's is a known cause of
    crashes (an old libstdc++ next to new Mesa drivers)."""
    name = src.rsplit("/", 1)[-1]
    return (
        src.startswith(SYSTEM_DIRS) and name.startswith("lib") and not name.startswith(KEEP_SYSTEM)
    )


def elf_loads_aligned(path: Path) -> bool:
    """True when every PT_LOAD segment's file offset and address agree modulo the page size
    (what the dynamic loader requires: "ELF load command address/offset not page-aligned")."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2:  # only 64-bit ELF is built here
        return True
    order = "<" if data[5] == 1 else ">"
    phoff = struct.unpack_from(order + "Q", data, 0x20)[0]
    phentsize, phnum = struct.unpack_from(order + "HH", data, 0x36)
    for index in range(phnum):
        base = phoff + index * phentsize
        p_type = struct.unpack_from(order + "I", data, base)[0]
        offset, vaddr = struct.unpack_from(order + "QQ", data, base + 8)
        if p_type == 1 and offset % 4096 != vaddr % 4096:
            return False
    return True


def _runpath(path: Path) -> str | None:
    result = subprocess.run(["readelf", "-W", "-d", str(path)], capture_output=True, text=True)
    match = re.search(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]", result.stdout)
    return match.group(1) if match else None


#: Part of the cache key of `prepare_binary`: change it when what it does changes.
PREPARE_RECIPE = "strip-unneeded+aligned, runpath-outside-origin-removed"


def prepare_binary(src: Path, cache: Path, strip: str = "strip") -> Path:
    """`src` ready to ship, as a copy in `cache` (or `src` itself when nothing changes):
    without its symbol table and debug sections (`strip --strip-unneeded`, kept only when it
    gains something and leaves every segment page-aligned: binutils misaligns libraries that
    auditwheel rewrote, e.g. NumPy's OpenBLAS), and without search paths into the build machine
    (a RUNPATH such as pyenv's `/root/.pyenv/.../lib` in Python's own modules; `$ORIGIN` paths
    stay), removed with patchelf."""
    stat = src.stat()
    recipe = f"{PREPARE_RECIPE}|{src}|{stat.st_size}|{stat.st_mtime_ns}"
    out = cache / f"{hashlib.sha1(recipe.encode()).hexdigest()[:16]}-{src.name}"
    if not out.exists():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        changed = False
        result = subprocess.run(
            [strip, "--strip-unneeded", "-o", str(tmp), str(src)], capture_output=True
        )
        if result.returncode == 0 and tmp.stat().st_size < stat.st_size and elf_loads_aligned(tmp):
            changed = True
        else:
            shutil.copy2(src, tmp)
        runpath = _runpath(tmp)
        if runpath is not None:
            kept = [entry for entry in runpath.split(":") if entry.startswith("$ORIGIN")]
            if kept != runpath.split(":"):
                command = (
                    ["patchelf", "--set-rpath", ":".join(kept)]
                    if kept
                    else ["patchelf", "--remove-rpath"]
                )
                subprocess.run([*command, str(tmp)], capture_output=True, text=True, check=True)
                changed = True
        if changed:
            tmp.replace(out)
        else:
            tmp.unlink()
            out.symlink_to(src)  # remembered: this one ships as it is
    return src if out.is_symlink() else out


#: ICU data trees and files nothing in Qt reads: Qt calls ICU only for collation (ucol_*),
#: case mapping (u_strTo*), legacy text codecs (ucnv_*) and time zone names (ucal_*), and has
#: its own CLDR tables for everything else (checked against libQt6Core's imported symbols).
ICU_DROP_TREES = ("brkitr", "curr", "lang", "rbnf", "region", "translit", "unit")
ICU_DROP_FILES = (".cnv", ".dict")
ICU_DROP_NAMES = ("confusables.cfu", "unames.icu")
#: A locale's own resource (af.res, zh_Hant_TW.res, de__PHONEBOOK.res): the studio's interface
#: is English, so only root (the fallback for every locale) and English are kept.
_ICU_LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]*)*\.res$")


def icu_item_dropped(item: str) -> bool:
    """Whether an ICU data item ("coll/de.res", "af.res", "ibm-943_P15A-2003.cnv") goes."""
    tree, _, name = item.rpartition("/")
    if tree.split("/")[0] in ICU_DROP_TREES:
        return True
    if name.endswith(ICU_DROP_FILES) or name in ICU_DROP_NAMES:
        return True
    return bool(_ICU_LOCALE.match(name)) and name != "en.res" and not name.startswith("en_")


def _symbol(lib: Path, prefix: str) -> tuple[str, int, int]:
    """(name, file offset, size) of the exported data symbol starting with `prefix`."""
    syms = subprocess.run(
        ["readelf", "-W", "--dyn-syms", str(lib)], capture_output=True, text=True, check=True
    ).stdout
    sections = subprocess.run(
        ["readelf", "-W", "-S", str(lib)], capture_output=True, text=True, check=True
    ).stdout
    for line in syms.splitlines():
        parts = line.split()
        if len(parts) >= 8 and parts[7].startswith(prefix) and parts[6] != "UND":
            name, value, size, index = parts[7], int(parts[1], 16), int(parts[2], 0), int(parts[6])
            for sline in sections.splitlines():
                match = re.match(
                    r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", sline
                )
                if match and int(match.group(1)) == index:
                    return name, value - int(match.group(3), 16) + int(match.group(4), 16), size
    raise ValueError(f"{lib}: no exported {prefix}* data symbol")


def slim_icu_data(lib: Path, out_dir: Path) -> tuple[Path, int]:
    """A smaller copy of ICU's data library (libicudata.so.NN) without `icu_item_dropped` items.

    The data is one exported blob (`icudtNN_dat`, ICU's common-data package): it is cut out,
    filtered with ICU's own `icupkg` (Debian: icu-devtools) and linked back into a library of
    the same soname with binutils (objcopy, ld), exporting the same symbol. Returns the new
    library and the number of items removed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    symbol, offset, size = _symbol(lib, "icudt")
    package = symbol.removesuffix("_dat")  # icudt73
    full = out_dir / f"{package}l.dat"
    with lib.open("rb") as handle:
        handle.seek(offset)
        full.write_bytes(handle.read(size))
    items = subprocess.run(
        ["icupkg", "-l", str(full)], capture_output=True, text=True, check=True
    ).stdout.split()
    dropped = [item for item in items if icu_item_dropped(item)]
    drop_list = out_dir / "drop.txt"
    drop_list.write_text("\n".join(dropped) + "\n")
    slim_dir = out_dir / "slim"
    slim_dir.mkdir(exist_ok=True)
    slim = slim_dir / full.name
    slim.unlink(missing_ok=True)
    subprocess.run(
        ["icupkg", "-r", str(drop_list), str(full), str(slim)],
        capture_output=True,
        text=True,
        check=True,
    )
    obj = out_dir / "data.o"
    stem = re.sub(r"[^A-Za-z0-9]", "_", str(slim))
    subprocess.run(
        ["objcopy", "-I", "binary", "-O", "elf64-x86-64", "-B", "i386:x86-64",
         "--rename-section", ".data=.rodata,alloc,load,readonly,data,contents",
         "--set-section-alignment", ".rodata=16",
         "--redefine-sym", f"_binary_{stem}_start={symbol}",
         "--strip-symbol", f"_binary_{stem}_end", "--strip-symbol", f"_binary_{stem}_size",
         str(slim), str(obj)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    new_lib = out_dir / lib.name
    subprocess.run(
        ["ld", "-shared", "-z", "noexecstack", "-soname", lib.name, "-o", str(new_lib), str(obj)],
        capture_output=True,
        text=True,
        check=True,
    )
    _symbol(new_lib, symbol)  # exported as before
    return new_lib, len(dropped)


#: Libraries PyAV's wheel links into FFmpeg for what the studio never does: encoding (x264,
#: x265, SVT-AV1, LAME, libwebp), decoding codecs other than H.264 and PNG (dav1d, libvpx, Opus,
#: OpenCORE AMR) and TLS for network streams (GnuTLS; the studio feeds FFmpeg bytes it read
#: itself). libavcodec links them, so they cannot just be left out: `stub_library` replaces each
#: with a stand-in exporting the same symbols, each function returning 0 (NULL).
FFMPEG_STUBS = (
    "libx264-", "libx265-", "libSvtAv1Enc-", "libmp3lame-", "libwebp-", "libwebpmux-",
    "libdav1d-", "libvpx-", "libopus-", "libopencore-amrnb-", "libopencore-amrwb-", "libgnutls-",
)  # fmt: skip


@functools.cache
def elf_needed(path: Path) -> tuple[str, ...]:
    """The libraries an ELF file links directly (DT_NEEDED), from readelf; () for non-ELF."""
    result = subprocess.run(["readelf", "-W", "-d", str(path)], capture_output=True, text=True)
    return tuple(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", result.stdout))


@functools.cache
def _dynamic_symbols(path: Path) -> list[tuple[str, str, int, str, str]]:
    """(name, type, size, section index, version) of each dynamic symbol, from readelf."""
    out = subprocess.run(
        ["readelf", "-W", "--dyn-syms", str(path)], capture_output=True, text=True, check=True
    ).stdout
    symbols = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 8 or not parts[0].rstrip(":").isdigit():
            continue
        name, _, version = parts[7].partition("@")
        symbols.append((name, parts[3], int(parts[2], 0), parts[6], version.lstrip("@")))
    return symbols


def stub_library(lib: Path, users: Iterable[Path], out_dir: Path) -> tuple[Path, int]:
    """A stand-in for the shared library `lib`: the same soname, exporting every symbol that
    `users` import from it (with the symbol versions they ask for). Every function returns 0:
    FFmpeg asks some of them about their capabilities while it lists its codecs (x265's
    `x265_api_get`, libvpx's `vpx_codec_vp9_cx`), and NULL or 0 there means "nothing offered";
    opening one of these encoders or codecs fails (or, for a few, crashes), which nothing in the
    studio does. Data objects are zero-filled at their real size. Built with binutils (as, ld);
    returns the stand-in and how many symbols it exports."""
    exported = {name: (kind, size) for name, kind, size, index, _ in _dynamic_symbols(lib)
                if index != "UND"}  # fmt: skip
    wanted: dict[str, str] = {}
    for user in users:
        for name, _kind, _size, index, version in _dynamic_symbols(user):
            if index == "UND" and name in exported:
                wanted[name] = version
    out_dir.mkdir(parents=True, exist_ok=True)
    lines = [".text"]
    data = [".data"]
    for name in sorted(wanted):
        kind, size = exported[name]
        if kind == "OBJECT":
            data += [f".globl {name}", f".type {name}, @object", f".size {name}, {max(size, 8)}",
                     ".balign 16", f"{name}:", f".zero {max(size, 8)}"]  # fmt: skip
        else:
            lines += [f".globl {name}", f".type {name}, @function", f"{name}:",
                      "xor %eax, %eax", "ret"]  # fmt: skip
    source = out_dir / f"{lib.name}.s"
    source.write_text("\n".join(lines + data) + "\n")
    obj = out_dir / f"{lib.name}.o"
    subprocess.run(["as", "-o", str(obj), str(source)], capture_output=True, text=True, check=True)
    command = [
        "ld",
        "-shared",
        "-z",
        "noexecstack",
        "-soname",
        lib.name,
        "-o",
        str(out_dir / lib.name),
        str(obj),
    ]
    versions: dict[str, list[str]] = {}
    for name, version in wanted.items():
        if version:
            versions.setdefault(version, []).append(name)
    if versions:
        script = out_dir / f"{lib.name}.map"
        script.write_text(
            "".join(
                f"{v} {{ global: {'; '.join(sorted(n))}; }};\n" for v, n in sorted(versions.items())
            )
        )
        command[1:1] = ["--version-script", str(script)]
    subprocess.run(command, capture_output=True, text=True, check=True)
    return out_dir / lib.name, len(wanted)
