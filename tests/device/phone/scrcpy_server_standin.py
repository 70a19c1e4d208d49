"""Stand-in for scrcpy's device-side server (video only): started through adbd's shell as
`CLASSPATH=<this file> app_process / com.genymobile.scrcpy.Server <version> key=value...`.

Like the real server it refuses a client of another version, listens on (tunnel_forward=true) or
connects to the abstract socket scrcpy_<scid>, sends the dummy byte (forward only), the 64-byte
device name, the codec id, the 3.x size header or a 4.x session packet, then the pushed H.264 file
as framed packets at 30 fps (SPS/PPS first as a config packet, as MediaCodec does), and keeps the
socket open until the client closes it. The test writes VERSION below when it "installs" it.
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
