"""The installers, as a user gets them: packaging/build.sh deb builds the .deb and the tarball,
the .deb installs on this machine with apt, the installed studio passes its smoke test, runs a
subcommand from /usr/bin, opens a .protobundle through its desktop entry's command line, and is
removed without a trace. Also the build's one-line failures and the trim rules.

The build (~1-3 min here) runs only when PROTO_STUDIO_PACKAGING=1 (scripts/test sets it; =0 opts
out locally); installing needs root and apt (CI runs as root on Debian).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DIST = REPO / "dist"
sys.path.insert(0, str(REPO / "packaging"))
import size  # noqa: E402
import trim  # noqa: E402

VERSION = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
PACKAGING = os.environ.get("PROTO_STUDIO_PACKAGING") == "1"
needs_build = pytest.mark.skipif(
    not PACKAGING, reason="PROTO_STUDIO_PACKAGING is not 1 (scripts/test sets it; ~1-3 min build)"
)
BINUTILS = all(shutil.which(t) for t in ("as", "ld", "readelf", "objcopy", "strip"))
needs_binutils = pytest.mark.skipif(
    not BINUTILS, reason="binutils is not installed (scripts/system-deps --tests)"
)


def run(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 300, **kw: object):  # type: ignore[no-untyped-def]
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})}, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


# ---- bad input: one line saying what and how to fix it ---------------------------------------


def path_without(tmp_path: Path, *hidden: str) -> str:
    """A PATH with every tool of this machine except `hidden` (symlinks in one folder)."""
    farm = tmp_path / "bin"
    farm.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            target = Path(folder) / name
            if name not in hidden and not (farm / name).exists() and os.access(target, os.X_OK):
                (farm / name).symlink_to(target)
    return str(farm)


@pytest.mark.skipif(sys.platform != "linux" or not BINUTILS, reason="the Linux build's tools")
def test_a_missing_build_tool_fails_in_one_line(tmp_path: Path) -> None:
    result = run(
        "bash", REPO / "packaging" / "build.sh", "deb",
        env={"PATH": path_without(tmp_path, "patchelf", "dpkg-deb")}, cwd=REPO, timeout=60,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "build: patchelf is missing (install it as root: apt-get install patchelf, or "
        "scripts/system-deps --tests)"
    ]
    assert not result.stdout  # nothing was built


def test_pyinstaller_missing_fails_in_one_line(tmp_path: Path) -> None:
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    result = run(
        "bash", REPO / "packaging" / "build.sh", env={"PYTHON": str(python)}, cwd=REPO, timeout=60
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"build: PyInstaller is missing (install the 'package' extra: {python} -m pip install -e '.[package]')"
    ]


def fake_bundle(root: Path, mib: dict[str, float]) -> Path:
    folder = root / "proto-studio"
    for rel, amount in mib.items():
        path = folder / "_internal" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\0" * int(amount * size.MIB))
    return folder


def test_a_bundle_over_the_limit_fails_in_one_line(tmp_path: Path) -> None:
    folder = fake_bundle(tmp_path, {"PySide6/libQt6Core.so.6": 3.0})
    over = run(
        sys.executable, REPO / "packaging" / "size.py", folder, env={"PROTO_STUDIO_MAX_MB": "2"}
    )
    assert over.returncode == 1
    assert over.stderr.strip().splitlines() == [
        f"build: {folder} is 3.0 MiB, over the 2 MiB limit; leave out what the studio does not "
        "load (packaging/trim.py) or raise PROTO_STUDIO_MAX_MB"
    ]
    under = run(
        sys.executable, REPO / "packaging" / "size.py", folder, env={"PROTO_STUDIO_MAX_MB": "4"}
    )
    assert under.returncode == 0, under.stderr
    assert under.stdout.strip().splitlines()[-1] == f"build: {folder} is 3.0 MiB; limit 4 MiB"


def test_the_size_report_says_what_each_rule_saved_and_what_optional_packages_did(
    tmp_path: Path,
) -> None:
    folder = fake_bundle(tmp_path, {"PySide6/libQt6Core.so.6": 1.0})
    report = tmp_path / "report.json"
    report.write_text(
        json.dumps({
            "saved": {
                "strip": {"bytes": 3 * size.MIB, "why": "symbol tables"},
                "icu-data": {"bytes": 5 * size.MIB, "why": "locale data"},
            },
            "optional": {"numpy": [], "PIL": ["adbutils"]},
        })
    )  # fmt: skip
    result = run(sys.executable, REPO / "packaging" / "size.py", folder, report)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines() == [
        "build: left out 8.0 MiB:",
        "build:      5.0 MiB  icu-data: locale data",
        "build:      3.0 MiB  strip: symbol tables",
        "build: PIL: bundled, imported by adbutils",
        "build: numpy: left out, nothing the studio loads imports it",
        f"build: {folder} is 1.0 MiB; limit 200 MiB",
    ]


# ---- the trim rules ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dest", "rule"),
    [
        ("PySide6/Qt/qml/Qt/labs/settings/qmldir", "qml-modules"),
        ("PySide6/Qt/qml/QtQuick/Effects/libeffectsplugin.so", "qml-modules"),
        ("PySide6/Qt/qml/QtQuick/Controls/Fusion/Button.qml", "qml-styles"),
        ("PySide6/Qt/qml/QtQuick/Controls/Material/Button.qml", "qml-sources"),
        ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "gtk-theme"),
        ("PySide6/Qt/plugins/platforms/libqwayland.so", "qt-plugins"),
        ("PySide6/Qt/translations/qtbase_de.qm", "qt-translations"),
        # Windows: backslashes, Qt's folders next to the bindings, no "lib" prefix.
        ("PySide6\\qml\\QtQuick\\Controls\\Fusion\\Button.qml", "qml-styles"),
        ("PySide6\\plugins\\platforms\\qvnc.dll", "qt-plugins"),
        ("PySide6\\translations\\qtbase_de.qm", "qt-translations"),
        ("PySide6\\plugins\\platforms\\qwindows.dll", None),
        # What the preview loads stays.
        ("PySide6/Qt/qml/QtQuick/Controls/Material/qmldir", None),
        (
            "PySide6/Qt/qml/QtQuick/Controls/Material/libqtquickcontrols2materialstyleplugin.so",
            None,
        ),
        ("PySide6/Qt/qml/QtQuick/Shapes/qmldir", None),
        ("PySide6/Qt/qml/QtQuick/Layouts/libqquicklayoutsplugin.so", None),
        ("PySide6/Qt/plugins/platforms/libqxcb.so", None),
        ("PySide6/Qt/plugins/platforms/libqoffscreen.so", None),
        ("PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so", None),
        ("PySide6/Qt/plugins/imageformats/libqsvg.so", None),
        ("resources/qml/Preview.qml", None),
    ],
)
def test_trim_rules_drop_only_what_the_studio_never_loads(dest: str, rule: str | None) -> None:
    found = trim.drop_rule(dest)
    assert (found.name if found else None) == rule


def test_every_qml_import_of_the_preview_is_kept() -> None:
    imports = set()
    for qml in (REPO / "resources" / "qml").rglob("*.qml"):
        imports |= set(re.findall(r"^import\s+(Qt[\w.]*)", qml.read_text(), re.MULTILINE))
    assert imports >= {"QtQuick", "QtQuick.Controls", "QtQuick.Controls.Material"}
    for module in imports:
        qmldir = f"PySide6/Qt/qml/{module.replace('.', '/')}/qmldir"
        assert trim.drop_rule(qmldir) is None, f"{module} is imported by resources/qml but dropped"


def test_orphans_are_the_libraries_no_kept_binary_reaches() -> None:
    links = {
        "/w/_qt.abi3.so": ["libQt6Quick.so.6"],
        "/w/libQt6Quick.so.6": ["libQt6Core.so.6"],
        "/w/libQt6Core.so.6": ["libicuuc.so.73"],
        "/w/libicuuc.so.73": [],
        "/w/libQt6QuickEffects.so.6": ["libQt6Quick.so.6"],  # only a dropped plugin used it
        "/w/libgtk-3.so.0": ["libcairo.so.2"],
        "/w/libcairo.so.2": [],
        "/w/libpython3.11.so.1.0": [],  # opened by the bootloader, linked by nothing
    }
    entries = [
        ("PySide6/QtQuick.abi3.so", "/w/_qt.abi3.so"),
        ("PySide6/Qt/lib/libQt6Quick.so.6", "/w/libQt6Quick.so.6"),
        ("PySide6/Qt/lib/libQt6Core.so.6", "/w/libQt6Core.so.6"),
        ("PySide6/Qt/lib/libicuuc.so.73", "/w/libicuuc.so.73"),
        ("PySide6/Qt/lib/libQt6QuickEffects.so.6", "/w/libQt6QuickEffects.so.6"),
        ("libgtk-3.so.0", "/w/libgtk-3.so.0"),
        ("libcairo.so.2", "/w/libcairo.so.2"),
        ("libpython3.11.so.1.0", "/w/libpython3.11.so.1.0"),
    ]
    orphans = trim.orphans(entries, lambda src: links[src])
    assert orphans == {"PySide6/Qt/lib/libQt6QuickEffects.so.6", "libgtk-3.so.0", "libcairo.so.2"}


@pytest.mark.parametrize(
    ("item", "dropped"),
    [
        ("coll/root.res", False), ("coll/ucadata.icu", False), ("coll/en.res", False),
        ("coll/de.res", True), ("coll/de__PHONEBOOK.res", True), ("zone/root.res", False),
        ("zone/fr_CA.res", True), ("brkitr/line.brk", True), ("lang/en.res", True),
        ("ibm-943_P15A-2003.cnv", True), ("cnvalias.icu", False), ("root.res", False),
        ("en_GB.res", False), ("zh_Hant_TW.res", True), ("likelySubtags.res", False),
        ("zoneinfo64.res", False), ("nfc.nrm", False), ("pool.res", False),
    ],
)  # fmt: skip
def test_icu_keeps_what_qt_asks_for(item: str, dropped: bool) -> None:
    assert trim.icu_item_dropped(item) is dropped


def test_system_libraries_are_left_to_the_system_except_xcbs_helpers() -> None:
    assert trim.is_system_library("/lib/x86_64-linux-gnu/libX11.so.6")
    assert trim.is_system_library("/usr/lib/x86_64-linux-gnu/libstdc++.so.6")
    assert not trim.is_system_library("/usr/lib/x86_64-linux-gnu/libxcb-cursor.so.0")
    assert not trim.is_system_library(
        f"{sys.prefix}/lib/python3.11/site-packages/av.libs/libavcodec-1.so"
    )
    assert not trim.is_system_library("/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0")


def test_numpy_users_are_found_in_the_studio_and_its_libraries() -> None:
    users = trim.users_of("numpy", REPO / "studio")
    imports = trim.studio_imports(REPO / "studio")
    direct = sorted(imports.get("numpy", ()))
    assert users[: len(direct)] == direct  # studio modules first, then libraries
    for user in users[len(direct) :]:
        assert user in imports and trim.needs_at_import(user, "numpy")
    assert not trim.needs_at_import("av", "numpy")  # PyAV imports NumPy only when asked


@needs_binutils
def test_a_stub_library_exports_what_its_users_import_and_loads(tmp_path: Path) -> None:
    """An FFmpeg stand-in, built from the real libraries of PyAV's wheel."""
    import ctypes

    import av

    libs = Path(av.__file__).resolve().parent.parent / "av.libs"
    opus = next(libs.glob("libopus-*"))
    avcodec = next(libs.glob("libavcodec-*"))
    stub, count = trim.stub_library(opus, [avcodec], tmp_path)
    wanted = {
        name for name, _k, _s, index, _v in trim._dynamic_symbols(avcodec)
        if index == "UND" and name.startswith("opus_")
    }  # fmt: skip
    exported = {name for name, _k, _s, index, _v in trim._dynamic_symbols(stub) if index != "UND"}
    assert wanted and wanted <= exported and count == len(wanted)
    assert stub.stat().st_size < opus.stat().st_size / 10
    assert "opus_decoder_create" not in exported  # only what libavcodec imports
    loaded = ctypes.CDLL(str(stub))
    loaded.opus_multistream_decoder_create.restype = ctypes.c_void_p
    # Every function answers 0/NULL: FFmpeg reports "cannot open the codec", never crashes here.
    assert loaded.opus_multistream_decoder_create(48000, 2, 1, 1, None, None) is None


@needs_binutils
def test_prepare_binary_strips_and_keeps_segments_aligned(tmp_path: Path) -> None:
    import _decimal

    src = Path(_decimal.__file__)
    out = trim.prepare_binary(src, tmp_path)
    assert trim.elf_loads_aligned(out)
    if out != src:
        assert out.stat().st_size < src.stat().st_size
        assert not re.search(r"RUNPATH.*\[/", run("readelf", "-d", out).stdout)


# ---- the .deb, built once for the module ------------------------------------------------------


@pytest.fixture(scope="module")
def deb_build() -> subprocess.CompletedProcess[str]:
    result = run("bash", REPO / "packaging" / "build.sh", "deb", cwd=REPO, timeout=2400)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result


def deb_path() -> Path:
    arch = run("dpkg", "--print-architecture").stdout.strip()
    return DIST / f"proto-studio_{VERSION}_{arch}.deb"


#: The .deb build takes 1-3 minutes on an idle 2-core machine (pyproject's 300 s is per test).
BUILD_TIMEOUT = pytest.mark.timeout(2700)


@needs_build
@pytest.mark.slow
@BUILD_TIMEOUT
def test_build_writes_a_checked_deb_and_tarball(
    deb_build: subprocess.CompletedProcess[str],
) -> None:
    lines = deb_build.stdout.strip().splitlines()
    assert re.fullmatch(rf"build: ok \(deb, version {re.escape(VERSION)}, \d+ s\)", lines[-1])
    assert any(
        re.fullmatch(r"build: dist/proto-studio is [\d.]+ MiB; limit 200 MiB", line)
        for line in lines
    )
    # Nothing the studio loads imports NumPy any more, so the build leaves it out.
    assert "build: numpy: left out, nothing the studio loads imports it" in lines
    for check in ("preview", "font", "icu", "mirror", "about"):
        assert any(line.startswith(f"build: smoke {check}: ") for line in lines), check
    assert "build: lintian: no errors or warnings beyond packaging/linux/lintian-overrides" in lines
    assert "build: desktop-file-validate: packaging/linux/proto-studio.desktop is valid" in lines
    # Each exclusion is measured.
    assert sum(line.startswith("build:  ") and " MiB  " in line for line in lines) >= 8

    deb = deb_path()
    listing = run("dpkg-deb", "--contents", deb).stdout
    for path in (
        "./opt/proto-studio/proto-studio",
        "./opt/proto-studio/_internal/resources/templates/index.json",
        "./opt/proto-studio/_internal/resources/licenses/LGPL-3.0.txt",
        "./opt/proto-studio/_internal/build-info.json",
        "./opt/proto-studio/_internal/tkinter_icons_gmi/fonts/MaterialIcons-Regular.ttf",
        "./opt/proto-studio/_internal/tkinter_icons_gmi/fonts/MaterialIconsOutlined-Regular.otf",
        "./opt/proto-studio/_internal/font_roboto/files/Roboto-Medium.ttf",
        "./usr/bin/proto-studio -> /opt/proto-studio/proto-studio",
        "./usr/share/applications/proto-studio.desktop",
        "./usr/share/mime/packages/proto-studio.xml",
        "./usr/share/icons/hicolor/scalable/apps/proto-studio.svg",
        "./usr/share/man/man1/proto-studio.1.gz",
        "./usr/share/doc/proto-studio/copyright",
    ):
        assert path in listing, path
    for px in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        assert f"./usr/share/icons/hicolor/{px}x{px}/apps/proto-studio.png" in listing
    fields = run("dpkg-deb", "--field", deb, "Package", "Version", "Depends").stdout
    assert f"Version: {VERSION}" in fields
    depends = fields.split("Depends:", 1)[1]
    for package in ("libc6", "libxcb1", "libfontconfig1", "libssl3", "libstdc++6", "libgl1"):
        assert package in depends, package
    tarball = DIST / f"proto-studio-{VERSION}-linux-{os.uname().machine}.tar.gz"
    members = run("tar", "-tzf", tarball).stdout.splitlines()
    assert "proto-studio/proto-studio" in members
    assert "proto-studio/_internal/resources/templates/index.json" in members


@needs_build
@pytest.mark.slow
@BUILD_TIMEOUT
def test_the_built_folder_over_the_limit_fails_in_one_line(
    deb_build: subprocess.CompletedProcess[str],
) -> None:
    result = run(
        "bash",
        REPO / "packaging" / "build.sh",
        "check",
        env={"PROTO_STUDIO_MAX_MB": "50"},
        cwd=REPO,
    )
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()
    assert len(last) == 1 and last[0].startswith("build: dist/proto-studio is ")
    assert last[0].endswith(
        "over the 50 MiB limit; leave out what the studio does not load (packaging/trim.py) or "
        "raise PROTO_STUDIO_MAX_MB"
    )


# ---- installing it ----------------------------------------------------------------------------

CAN_INSTALL = (
    sys.platform == "linux"
    and hasattr(os, "geteuid")
    and os.geteuid() == 0
    and bool(shutil.which("apt-get"))
)
APT_ENV = {"DEBIAN_FRONTEND": "noninteractive"}
LOCK = Path("/var/lock/proto-studio-package-test.lock")


@contextlib.contextmanager
def machine_lock() -> Iterator[None]:
    """One install test at a time on this machine (worktrees share /opt and /usr)."""
    with LOCK.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def apt(*args: str) -> subprocess.CompletedProcess[str]:
    return run(
        "apt-get", "-y", "-q", "-o", "DPkg::Lock::Timeout=600", *args, env=APT_ENV, timeout=900
    )


def installed() -> bool:
    status = run("dpkg-query", "-W", "-f=${Status}", "proto-studio").stdout
    return "install ok installed" in status


def write_bundle(path: Path) -> str:
    from studio.library.bundle import write_bundle as write

    spec = json.loads((REPO / "resources" / "examples" / "split-bill.json").read_text())
    write(path, spec, "Split the bill (double-clicked)")
    return "Split the bill (double-clicked)"


def desktop_command(desktop: Path, file: Path) -> list[str]:
    """The desktop entry's Exec line with %f replaced, as a launcher runs it."""
    exec_line = next(
        line[5:] for line in desktop.read_text().splitlines() if line.startswith("Exec=")
    )
    argv = shlex.split(exec_line)
    assert "%f" in argv, exec_line
    return [str(file) if arg == "%f" else arg for arg in argv]


@needs_build
@pytest.mark.slow
@pytest.mark.skipif(
    not CAN_INSTALL, reason="installing the .deb needs root and apt (CI runs as root on Debian)"
)
def test_the_deb_installs_runs_opens_a_bundle_and_removes_cleanly(
    deb_build: subprocess.CompletedProcess[str], tmp_path: Path
) -> None:
    deb = deb_path()
    with machine_lock():
        if installed():  # left by an interrupted run
            assert apt("purge", "proto-studio").returncode == 0
        result = apt("install", "--no-install-recommends", str(deb))
        if result.returncode != 0:  # the package lists may be stale on a fresh machine
            apt("update")
            result = apt("install", "--no-install-recommends", str(deb))
        try:
            assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
            files = [
                Path(p) for p in run("dpkg-query", "-L", "proto-studio").stdout.splitlines()
                if p.strip() and not Path(p).is_dir()
            ]  # fmt: skip
            check_installed(tmp_path, files)
        finally:
            removed = apt("purge", "proto-studio")
        assert removed.returncode == 0, removed.stderr[-2000:]
    left = [str(p) for p in files if os.path.lexists(p)]
    assert not left, f"left after removal: {left[:10]}"
    assert not Path("/opt/proto-studio").exists()
    assert "proto-studio" not in read("/usr/share/applications/mimeinfo.cache")
    assert "protobundle" not in read("/usr/share/mime/globs2")


def read(path: str) -> str:
    return Path(path).read_text() if Path(path).exists() else ""


def check_installed(tmp_path: Path, files: list[Path]) -> None:
    assert Path("/usr/bin/proto-studio").resolve() == Path("/opt/proto-studio/proto-studio")
    assert Path("/usr/bin/proto-studio") in files
    offscreen = {"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"}

    version = run("proto-studio", "--version", env=offscreen)
    assert version.stdout.strip() == f"proto-studio {VERSION}", version.stderr

    home = tmp_path / "home"
    smoke = run(
        "proto-studio",
        "--smoke-test",
        env={**offscreen, "PROTO_STUDIO_HOME": str(home)},
        timeout=240,
    )
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr[-3000:]
    assert smoke.stdout.strip().splitlines()[-1] == "smoke ok"

    template = Path("/opt/proto-studio/_internal/resources/templates/feed.json")
    valid = run("proto-studio", "validate", template, env=offscreen)
    assert (valid.returncode, valid.stdout.strip()) == (0, f"{template}: valid")
    broken = tmp_path / "broken.json"
    broken.write_text('{"id": 1}')
    invalid = run("proto-studio", "validate", broken, env=offscreen)
    assert invalid.returncode == 1 and invalid.stderr.strip().startswith(f"{broken}: id: ")

    # The desktop knows the file type and which application opens it.
    desktop = Path("/usr/share/applications/proto-studio.desktop")
    assert run("desktop-file-validate", desktop).returncode == 0
    assert "application/x-protobundle:*.protobundle" in read("/usr/share/mime/globs2")
    cache = read("/usr/share/applications/mimeinfo.cache")
    assert re.search(r"^application/x-protobundle=.*proto-studio\.desktop", cache, re.MULTILINE)
    assert re.search(r"^application/json=.*proto-studio\.desktop", cache, re.MULTILINE)

    # A double-click: the launcher runs the entry's Exec line with the file for %f.
    bundle = tmp_path / "Split bill.protobundle"
    name = write_bundle(bundle)
    bundle_home = tmp_path / "bundle-home"
    opened = run(
        *desktop_command(desktop, bundle), "--smoke-test",
        env={**offscreen, "PROTO_STUDIO_HOME": str(bundle_home)}, timeout=240,
    )  # fmt: skip
    assert opened.returncode == 0, opened.stdout + opened.stderr[-3000:]
    assert f"smoke opened: {name}" in opened.stdout.splitlines()
    from studio.library.store import Library

    imported = [e.name for e in Library(bundle_home).list_entries() if e.source != "template"]
    assert imported == [name]

    # A real window on X11 (xcb plugin, the system's X and GL libraries) when Xvfb is here.
    from studio.preview.xvfb import VirtualDisplay, xvfb_available

    if xvfb_available():
        shot = tmp_path / "window.png"
        with VirtualDisplay("1400x900x24") as display:
            window = run(
                "proto-studio", "--screenshot", shot,
                env={"QT_QPA_PLATFORM": "xcb", "DISPLAY": display.display, "PATH": "/usr/bin:/bin",
                     "PROTO_STUDIO_HOME": str(tmp_path / "xcb-home")},
                timeout=240,
            )  # fmt: skip
        assert window.returncode == 0, window.stderr[-3000:]
        data = shot.read_bytes()
        assert data.startswith(b"\x89PNG")
        width, height = struct.unpack(">II", data[16:24])
        assert width >= 1000 and height >= 600
