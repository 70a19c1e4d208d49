"""Mirror frames reach Qt without NumPy (the packaged studio leaves NumPy out): with NumPy's
import blocked, the device package and the mirror view import, and a decoded frame becomes a
QImage with the right pixels."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import importlib, importlib.abc, pkgutil, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] == 'numpy':
            raise ImportError('NumPy is blocked: ' + name)
        return None
sys.meta_path.insert(0, Block())
import studio.device
for info in pkgutil.walk_packages(studio.device.__path__, 'studio.device.'):
    importlib.import_module(info.name)
import av
from fractions import Fraction
from PySide6.QtGui import QGuiApplication
from studio.device.decoder import decode_png
from studio.ui.mirror import frame_to_qimage
app = QGuiApplication([])
rgb = bytes([200, 40, 20]) * (64 * 48)  # a solid PNG made without NumPy
cc = av.CodecContext.create('png', 'w')
cc.width, cc.height, cc.pix_fmt, cc.time_base = 64, 48, 'rgb24', Fraction(1, 1)
vf = av.VideoFrame(64, 48, 'rgb24')
vf.planes[0].update(rgb)  # rows of 192 bytes: no padding at this width
png = b''.join(bytes(p) for p in cc.encode(vf))
frame = decode_png(png, 0.0)
image = frame_to_qimage(frame)
colour = image.pixelColor(10, 10)
print(frame.width, frame.height, colour.red(), colour.green(), colour.blue(), frame.pixel(3, 3))
assert 'numpy' not in sys.modules
"""


def test_frames_reach_qt_without_numpy() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, env=env
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["64", "48", "200", "40", "20", "(200,", "40,", "20)"]
