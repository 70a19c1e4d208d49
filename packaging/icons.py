"""Renders the app icon (resources/icons/proto-studio.svg) to every size the installers need.

Usage: python packaging/icons.py OUT_DIR   (the PyInstaller spec runs it into build/icons)

Writes, from the one SVG, with Qt's own SVG renderer (PySide6's QtSvg, already a dependency):
  OUT_DIR/hicolor/<N>x<N>/apps/proto-studio.png  the freedesktop icon theme sizes (Linux .deb)
  OUT_DIR/hicolor/scalable/apps/proto-studio.svg the source itself
  OUT_DIR/proto-studio.ico                       Windows (exe and installer), PNG entries
  OUT_DIR/proto-studio.icns                      macOS (.app bundle), PNG entries
Every size is rendered from the vector source (no downscaling of one bitmap). The ICO and ICNS
containers are written here: each is a short header and a table of PNGs (ICO: Microsoft's
ICONDIR/ICONDIRENTRY layout, PNG payloads since Windows Vista; ICNS: Apple's big-endian
type/length blocks), which Pillow would only build by resampling one large image.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "resources" / "icons" / "proto-studio.svg"
NAME = "proto-studio"

#: The hicolor theme's usual application sizes.
HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
#: Windows: shell small/large icons, Explorer views and the 256 px "jumbo" icon.
ICO_SIZES = (16, 20, 24, 32, 40, 48, 64, 128, 256)
#: macOS: (block type, pixel size); the @2x blocks are what Retina displays use.
ICNS_BLOCKS = (
    (b"icp4", 16), (b"icp5", 32), (b"ic11", 32), (b"ic12", 64), (b"ic07", 128),
    (b"ic13", 256), (b"ic08", 256), (b"ic14", 512), (b"ic09", 512), (b"ic10", 1024),
)  # fmt: skip


def render_png(svg: Path, size: int) -> bytes:
    """The SVG drawn into a transparent size x size PNG."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: not an SVG Qt can render")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError(f"could not encode the {size} px icon as PNG")
    buffer.close()
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding one PNG per size (ICONDIR, then ICONDIRENTRYs, then the PNGs)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, payload = b"", b""
    for size in sizes:
        data = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in the directory
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        payload += data
        offset += len(data)
    return header + entries + payload


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns: the 'icns' header and one type/length/PNG block per entry of ICNS_BLOCKS."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_BLOCKS
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def render_all(out: Path, svg: Path = SOURCE) -> list[Path]:
    """Writes every icon file under `out` and returns their paths."""
    sizes = sorted({*HICOLOR_SIZES, *ICO_SIZES, *(size for _, size in ICNS_BLOCKS)})
    pngs = {size: render_png(svg, size) for size in sizes}
    written: list[Path] = []
    for size in HICOLOR_SIZES:
        path = out / "hicolor" / f"{size}x{size}" / "apps" / f"{NAME}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pngs[size])
        written.append(path)
    scalable = out / "hicolor" / "scalable" / "apps" / f"{NAME}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    written.append(scalable)
    for path, data in (
        (out / f"{NAME}.ico", ico({s: pngs[s] for s in ICO_SIZES})),
        (out / f"{NAME}.icns", icns(pngs)),
    ):
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python packaging/icons.py OUT_DIR", file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    try:
        written = render_all(Path(argv[0]))
    except (OSError, ValueError) as exc:
        print(f"icons: {exc}", file=sys.stderr)
        return 1
    del app
    print(f"icons: {len(written)} files in {argv[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
