"""Stand-in for Android's screenrecord --output-format=h264 -: plays a pushed H.264 file at 30 fps.

Writes one access unit per frame interval, then keeps stdout open (adb streams have no
half-close), as the real program does until its time limit. `media/screenrecord.broken` makes it
fail like a device whose encoder cannot start.
"""

import os
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(root, "screenrecord.log"), "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")
if os.path.exists(os.path.join(root, "media", "screenrecord.broken")):
    sys.stderr.write("ERROR: unable to create video encoder\n")
    sys.exit(1)
if "--output-format=h264" not in sys.argv:
    sys.stderr.write("stand-in only does --output-format=h264\n")
    sys.exit(2)
with open(os.path.join(root, "media", "screen.h264"), "rb") as f:
    data = f.read()
# split into access units (one slice per frame): a unit starts at an AUD, SPS, PPS or SEI, or at
# a slice, whenever the NAL unit before it was a slice
starts = []
prev = None
i = data.find(b"\x00\x00\x00\x01")
while i != -1:
    nal_type = data[i + 4] & 0x1F
    if prev is None or (prev in (1, 5) and nal_type in (1, 5, 6, 7, 8, 9)):
        starts.append(i)
    prev = nal_type
    i = data.find(b"\x00\x00\x00\x01", i + 4)
starts.append(len(data))
out = sys.stdout.buffer
for a, b in zip(starts, starts[1:], strict=False):
    out.write(data[a:b])
    out.flush()
    time.sleep(1 / 30)
time.sleep(3600)
