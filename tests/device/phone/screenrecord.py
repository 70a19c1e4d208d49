"""Stand-in for Android's `screenrecord --output-format=h264 -`, following what the real one does
(AOSP frameworks/av/cmds/screenrecord/screenrecord.cpp):

- each encoder output buffer (one access unit) is written with one write and flushed
  (`runEncoder`, raw H.264 output), at most one per frame of screen change;
- a still screen produces no output at all (AutoMobile's `src/daemon/videoStreamFraming.ts`
  `PACKET_FLAG_HEARTBEAT` KDoc: "a source with no idle output of its own (screenrecord, iOS)"):
  the stand-in plays the pushed clip media/screen.h264, then the screen stays still;
- it exits when its time limit is reached (`--time-limit`, default and maximum 180 s,
  `kMaxTimeLimitSec`); props/screenrecord.limit shortens that limit for a test;
- it fails at once when the encoder cannot start (media/screenrecord.broken).
"""

import os
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[1:]
with open(os.path.join(root, "screenrecord.log"), "a") as f:
    f.write(" ".join(args) + "\n")
if os.path.exists(os.path.join(root, "media", "screenrecord.broken")):
    sys.stderr.write("ERROR: unable to create video encoder\n")
    sys.exit(1)
if "--output-format=h264" not in args:
    sys.stderr.write("stand-in only does --output-format=h264\n")
    sys.exit(2)
limit = 180.0
if "--time-limit" in args:
    limit = min(float(args[args.index("--time-limit") + 1]), 180.0)
override = os.path.join(root, "props", "screenrecord.limit")
if os.path.exists(override):
    with open(override) as f:
        limit = min(limit, float(f.read().strip()))
with open(os.path.join(root, "media", "screen.h264"), "rb") as f:
    data = f.read()
# the clip's access units (one slice per frame): a unit starts at an AUD, SPS, PPS or SEI, or at a
# slice, whenever the NAL unit before it was a slice
starts, prev = [], None
i = data.find(b"\x00\x00\x00\x01")
while i != -1:
    nal_type = data[i + 4] & 0x1F
    if prev is None or (prev in (1, 5) and nal_type in (1, 5, 6, 7, 8, 9)):
        starts.append(i)
    prev = nal_type
    i = data.find(b"\x00\x00\x00\x01", i + 4)
starts.append(len(data))
started = time.monotonic()
out = sys.stdout.buffer
for a, b in zip(starts, starts[1:], strict=False):
    if time.monotonic() - started >= limit:
        break
    out.write(data[a:b])
    out.flush()
    time.sleep(1 / 30)
# the screen is still now: nothing more is written until the time limit ends the recording
remaining = limit - (time.monotonic() - started)
if remaining > 0:
    time.sleep(remaining)
