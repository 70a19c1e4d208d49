"""Stand-in for scrcpy's device-side server (video only): started through adbd's shell as
`CLASSPATH=<this file> app_process / com.genymobile.scrcpy.Server <version> key=value...`.

Each rule follows scrcpy's source (Genymobile/scrcpy, tags v3.3.4 and v4.1):

- the version check: `server/src/main/java/com/genymobile/scrcpy/Options.java` `parse` ("The
  server version (X) does not match the client (Y)");
- the socket: `.../device/DesktopConnection.java` `open` (abstract `scrcpy_%08x` from the scid,
  listening with tunnel_forward=true, connecting out otherwise) and `sendDeviceMeta` (the 64-byte
  name, `DEVICE_NAME_FIELD_LENGTH`), with the dummy byte written in forward mode only
  (`sendDummyByte`);
- the header: `.../device/Streamer.java` `writeVideoHeader` (3.x: codec id, width, height;
  4.x: codec id, then a session packet `PACKET_FLAG_SESSION` with the size, as
  `.../video/SurfaceEncoder.java` writes before an encoding run);
- packets: `Streamer.java` `writePacket` (3.x: config 1<<63, key 1<<62; 4.x: config 1<<62, key
  1<<61; a config packet's PTS is 0), SPS/PPS first as MediaCodec's codec-config buffer;
- the socket stays open until the client closes it.

The test writes VERSION below when it "installs" it.
"""

import os
import socket
import struct
import sys
import time

VERSION = "3.3.4"
CODEC_H264 = 0x68323634

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(root, "scrcpy.log"), "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\n")
with open(os.path.join(root, "scrcpy.pid"), "w") as f:
    f.write(str(os.getpid()))

client_version, *pairs = sys.argv[1:] or [""]
if client_version != VERSION:
    print(
        f"ERROR: The server version ({VERSION}) does not match the client ({client_version})",
        flush=True,
    )
    sys.exit(1)
opts = dict(p.split("=", 1) for p in pairs)
if opts.get("video_codec", "h264") != "h264" or opts.get("video") != "true":
    print("ERROR: stand-in only streams h264 video", flush=True)
    sys.exit(2)
protocol = int(VERSION.split(".")[0])
name = f"\0scrcpy_{int(opts['scid'], 16):08x}"
print(f"[server] INFO: Device: [Stand-in] Pixel (Android 14) protocol {protocol}", flush=True)

if opts.get("tunnel_forward") == "true":
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(name)
    server.listen(1)
    video, _ = server.accept()
    server.close()
    video.sendall(b"\0")  # the dummy byte
else:
    video = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    video.connect(name)

with open(os.path.join(root, "media", "screen.h264"), "rb") as f:
    data = f.read()
# access units: a new one starts at a non-slice NAL or a slice that follows a slice
units, start, prev = [], None, None
i = data.find(b"\x00\x00\x00\x01")
while i != -1:
    nal = data[i + 4] & 0x1F
    if start is None:
        start = i
    elif prev in (1, 5) and nal in (1, 5, 6, 7, 8, 9):
        units.append(data[start:i])
        start = i
    prev = nal
    i = data.find(b"\x00\x00\x00\x01", i + 4)
units.append(data[start:])


def frame_header(pts, size, config=False, key=False):
    if protocol >= 4:
        flags = (1 << 62 if config else 0) | (1 << 61 if key else 0)
    else:
        flags = (1 << 63 if config else 0) | (1 << 62 if key else 0)
    return struct.pack(">QI", flags | (0 if config else pts), size)


try:
    head = b"Stand-in Pixel".ljust(64, b"\0") + struct.pack(">I", CODEC_H264)
    if protocol >= 4:
        head += struct.pack(">III", 1 << 31, 360, 800)  # session packet
    else:
        head += struct.pack(">II", 360, 800)
    video.sendall(head)
    for n, unit in enumerate(units):
        if n == 0:  # SPS + PPS as the config packet, the rest as the key frame
            cut = unit.find(b"\x00\x00\x00\x01", unit.find(b"\x00\x00\x00\x01", 4) + 4)
            video.sendall(frame_header(0, cut, config=True) + unit[:cut])
            unit = unit[cut:]
        key = b"\x00\x00\x00\x01\x65" in unit
        video.sendall(frame_header(n * 33333, len(unit), key=key) + unit)
        time.sleep(1 / 30)
    while video.recv(4096):  # the client reads only; an empty read means it closed
        pass
except OSError:
    pass
