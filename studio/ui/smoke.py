"""`proto-studio --smoke-test`: proves an installed build carries everything the studio loads.

Run after the first preview frame. Each check prints one line; a failing one prints
`proto-studio: smoke test: <check>: <why>` on stderr and the run exits 1:
- preview: the opened prototype was drawn (a non-blank screen with nodes on it),
- font: Qt loaded the Material Icons fonts (every style) and Roboto, the preview's text font
  (every weight and italic),
- icu: Qt's collation and case mapping work (ICU's data),
- mirror: a small H.264 clip decodes through the mirror's decoder (PyAV's FFmpeg) into QImages
  with the clip's colours,
- about: the version and the licence texts of the bundled components are readable.
The packaging scripts run it on the frozen build and on the installed package, so a part the
spec leaves out that the studio needs fails the build.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from studio.concurrency import off_loop
from studio.resources import resource_path

if TYPE_CHECKING:
    from PySide6.QtGui import QImage

    from studio.ui.main_window import MainWindow

#: Six H.264 packets (64x96, libx264, SPS/PPS before the keyframe), each a big-endian u32 length
#: and the packet: two frames each of these colours, made with tests/device/media.py
#: (`encode_h264([solid(64, 96, c) for c in CLIP_COLOURS for _ in range(2)])`).
CLIP = ("smoke", "mirror-check.packets")
CLIP_COLOURS = ((220, 30, 30), (30, 200, 40), (40, 50, 210))
#: H.264 shifts solid colours a little.
TOLERANCE = 12


class SmokeFailure(Exception):
    """A smoke check failed; the message says why."""


def _near(rgb: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
    return max(abs(a - b) for a, b in zip(rgb, expected, strict=True)) <= TOLERANCE


def _centre(image: QImage) -> tuple[int, int, int]:
    colour = image.pixelColor(image.width() // 2, image.height() // 2)
    return colour.red(), colour.green(), colour.blue()


def check_preview(window: MainWindow) -> str:
    preview = window.preview_pane.preview
    image = preview.grab_image()
    if image.isNull() or image.width() < 10:
        raise SmokeFailure("the preview grabbed no image")
    step_x, step_y = max(1, image.width() // 24), max(1, image.height() // 40)
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), step_x) for y in range(0, image.height(), step_y)
    }  # fmt: skip
    nodes = preview.visible_summary()
    if len(colours) < 3 or not nodes:
        raise SmokeFailure(f"the preview looks blank ({len(colours)} colours, {len(nodes)} nodes)")
    return f"{image.width()}x{image.height()} px, {len(nodes)} nodes on screen"


def check_font(window: MainWindow) -> str:
    from studio.preview.icons import STYLES

    controller = window.preview_pane.preview.controller
    families = {style: controller.icon_family(style) for style in STYLES}
    missing = sorted(style for style, family in families.items() if not family)
    if missing:
        raise SmokeFailure(f"Qt could not load the Material Icons font of {', '.join(missing)}")
    return ", ".join([*sorted(set(families.values())), check_text_font(controller.text_family)])


def check_text_font(family: str) -> str:
    """Roboto (studio.preview.fonts) registered with every face, so a weight picks its own."""
    from PySide6.QtGui import QFontDatabase

    from studio.preview import fonts

    if family != fonts.FAMILY:
        raise SmokeFailure(f"Qt could not load the {fonts.FAMILY} font ({family or 'no family'})")
    styles = set(QFontDatabase.styles(family))
    missing = [style for style in fonts.STYLES if style not in styles]
    if missing:
        raise SmokeFailure(f"{family} has no {', '.join(missing)} face")
    return f"{family} ({len(fonts.STYLES)} faces)"


def check_icu() -> str:
    """Qt's collation and case mapping, which use ICU's data (the Linux build trims it to what
    Qt asks for): without it QCollator compares code points, and "apple" sorts after "Banana"."""
    from PySide6.QtCore import QCollator, QLocale

    collator = QCollator(QLocale("en_US"))
    if not (collator.compare("apple", "Banana") < 0 and collator.compare("\u00e9clair", "fig") < 0):
        raise SmokeFailure("QCollator compares code points: ICU's collation data is missing")
    if QLocale("tr_TR").toUpper("i") != "\u0130":
        raise SmokeFailure("QLocale cannot upper-case Turkish: ICU's case mapping is missing")
    return "collation and case mapping"


def clip_packets(data: bytes) -> list[bytes]:
    """The packets of a CLIP file (u32 big-endian length, then the bytes; repeated)."""
    packets, offset = [], 0
    while offset < len(data):
        if offset + 4 > len(data):
            raise SmokeFailure("the smoke clip is truncated")
        (size,) = struct.unpack_from(">I", data, offset)
        packets.append(data[offset + 4 : offset + 4 + size])
        offset += 4 + size
    return packets


def check_mirror() -> str:
    """Decode the clip as the mirror does (off the GUI thread) and check its colours."""
    from studio.device.decoder import H264Decoder
    from studio.ui.mirror import frame_to_qimage

    decoder = H264Decoder()
    frames = []
    for packet in clip_packets(resource_path(*CLIP).read_bytes()):
        frames += decoder.feed_packet(packet, 0.0)
    frames += decoder.flush(0.0)
    seen: list[tuple[int, int, int]] = []
    for frame in frames:
        image = frame_to_qimage(frame)
        if image.isNull():
            raise SmokeFailure("a decoded frame did not become a QImage")
        rgb = _centre(image)
        if not seen or not _near(rgb, seen[-1]):
            seen.append(rgb)
    if len(seen) != len(CLIP_COLOURS) or not all(map(_near, seen, CLIP_COLOURS)):
        raise SmokeFailure(f"decoded colours {seen}, expected {list(CLIP_COLOURS)}")
    return f"H.264 {frames[0].width}x{frames[0].height}, {len(frames)} frames decoded"


def check_about() -> str:
    from studio.notices import all_notices
    from studio.version import UNKNOWN, version

    if version() == UNKNOWN:
        raise SmokeFailure("the version is unknown (the build did not bundle its metadata)")
    notices = all_notices()
    names = {notice.name for notice in notices}
    missing = {"proto-studio", "Qt", "FFmpeg", "Material Icons (icon fonts)", "Roboto (text font)"}
    missing -= names
    if missing:
        raise SmokeFailure(f"no licence notice for {', '.join(sorted(missing))}")
    texts = sum(len(notice.texts) for notice in notices)
    if not all(notice.texts for notice in notices if notice.name in {"Qt", "FFmpeg"}):
        raise SmokeFailure("the LGPL texts for Qt and FFmpeg are not bundled")
    return f"version {version()}, {len(notices)} components, {texts} licence texts"


async def run_checks(window: MainWindow, controller: Any) -> int:
    """Every check in order; 0 when all pass. Prints which document was opened first."""
    document = controller.document
    print(f"smoke opened: {document.name if document is not None else '(nothing)'}", flush=True)
    checks: list[tuple[str, Callable[[], Any]]] = [
        ("preview", lambda: check_preview(window)),
        ("font", lambda: check_font(window)),
        ("icu", check_icu),
        ("mirror", lambda: off_loop(check_mirror)),
        ("about", lambda: off_loop(check_about)),
    ]
    for name, check in checks:
        try:
            result = check()
            if hasattr(result, "__await__"):
                result = await result
        except Exception as exc:  # each failure is reported in one line naming the check
            print(f"proto-studio: smoke test: {name}: {exc}", file=sys.stderr, flush=True)
            return 1
        print(f"smoke {name}: {result}", flush=True)
    print("smoke ok", flush=True)
    return 0
