"""Stand-in for AutoMobile's video-server jar (`automobile-video.jar`), started through adbd's shell
as `CLASSPATH=<this file> app_process / dev.jasonpearson.automobile.video.VideoServer ARGS`.

Each rule follows AutoMobile's source (kaeawc/auto-mobile, android/video-server/.../video/):

- arguments: `VideoSessionLease.kt` `VideoSessionArguments.parse` (`--socket-name`, default
  `automobile_video`, `[A-Za-z0-9_.-]{1,100}`; `--session-token` `SAFE_TOKEN`), `VideoServer.kt`
  `main` (`--quality`, `--owner-pid`, `--device-serial`, `--forward-port` accepted);
- start-up: `VideoStreamWriter.kt` `bindServerSocket` binds the abstract socket first, then
  `VideoServer.kt` `run` prints `VIDEO_SESSION_READY token=... pid=... socket=...`, with the
  `proto=1` that `VideoHandshake.kt`'s KDoc says the server advertises;
- each client: `VideoStreamWriter.kt` `acceptClients` (peer uid 0 or 2000, `ALLOWED_PEER_UIDS`),
  `VideoHandshake.kt` `read` when a token was given (MAGIC, VERSION 1, length 8..80, SAFE_TOKEN,
  the same token; anything else closes with nothing written), `writeStreamHeaderLocked`
  (`legacyHeader`), `replayCachedVideoLocked` (the codec config and the latest key frame, flagged
  replayed), then live packets (`VideoStreamProtocol.kt` `packetHeader`, `ptsAndFlags`);
- the client's byte 0x01 asks for a key frame (`COMMAND_REQUEST_KEY_FRAME`);
- a still screen still gets frames (`FrameHeartbeat.kt`: the capture is nudged to re-submit);
- the clip plays (the screen changes) once the first client is attached;
- a rotation recreates the encoder at the rotated size (CHANGELOG v0.0.49, #4785): after the
  clip media/screen.h264, the clip media/rotated.h264 plays when it exists;
- no client for 5 s ends the server (`VideoStreamWriter.kt` `CLIENT_RECONNECT_WINDOW_MS`,
  `VideoServer.kt` `VIDEO_CLIENT_RECONNECT_EXPIRED`).
"""

import os
import re
import socket
import struct
import sys
import threading
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[1:]
with open(os.path.join(root, "video-server.log"), "a") as f:
    f.write(" ".join(args) + "\n")
with open(os.path.join(root, "video-server.pid"), "w") as f:
    f.write(str(os.getpid()))


def value_after(flag):
    return args[args.index(flag) + 1] if flag in args and args.index(flag) + 1 < len(args) else None


socket_name = value_after("--socket-name") or "automobile_video"
token = value_after("--session-token")
if not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", socket_name):
    print("Error: Invalid --socket-name", file=sys.stderr, flush=True)
    sys.exit(1)
if token is not None and not re.fullmatch(r"[A-Za-z0-9-]{8,80}", token):
    print("Error: Invalid --session-token", file=sys.stderr, flush=True)
    sys.exit(1)

CONFIG, KEY, REPLAYED = 1 << 63, 1 << 62, 1 << 61
PTS_MASK = (1 << 61) - 1
ALLOWED_PEER_UIDS = {0, 2000}
RECONNECT_WINDOW_S = 5.0


def nal_units(data):
    """NAL units with their start codes (3 or 4 bytes: an encoder uses both)."""
    starts = []
    i = data.find(b"\x00\x00\x01")
    while i != -1:
        starts.append(i - 1 if i > 0 and data[i - 1] == 0 else i)
        i = data.find(b"\x00\x00\x01", i + 3)
    return [data[a:b] for a, b in zip(starts, [*starts[1:], len(data)], strict=True)]


def nal_type(nal):
    return nal[nal.find(b"\x00\x00\x01") + 3] & 0x1F


def units_of(path):
    """(config, [(unit, key)], (width, height)) of a clip: SPS/PPS as MediaCodec's codec config
    buffer (BUFFER_FLAG_CODEC_CONFIG), then one buffer per frame."""
    with open(path, "rb") as f:
        nals = nal_units(f.read())
    config = b"".join(n for n in nals if nal_type(n) in (7, 8))
    units, current, prev = [], b"", None
    for n in nals:
        kind = nal_type(n)
        if kind in (7, 8):
            continue
        if current and prev in (1, 5) and kind in (1, 5, 6, 9):
            units.append(current)
            current = b""
        current += n
        prev = kind
    if current:
        units.append(current)
    with open(path + ".size") as f:
        width, height = (int(v) for v in f.read().split("x"))
    return (
        config,
        [(u, any(nal_type(n) == 5 for n in nal_units(u))) for u in units],
        (width, height),
    )


clips = [units_of(os.path.join(root, "media", "screen.h264"))]
rotated = os.path.join(root, "media", "rotated.h264")
if os.path.exists(rotated):
    clips.append(units_of(rotated))

print("AutoMobile Video Server", flush=True)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind("\0" + socket_name)
server.listen(2)
print(f"Waiting for client connection on localabstract:{socket_name}", flush=True)
if token is not None:
    print(
        f"VIDEO_SESSION_READY token={token} pid={os.getpid()} socket={socket_name} proto=1",
        flush=True,
    )
print("Streaming started", flush=True)

lock = threading.Lock()
client = None
key_requested = threading.Event()
cache = {"config": None, "key": None}  # VideoPacketCache: codec config and the latest key frame
clientless_since = time.monotonic()


def packet(data, pts, flags=0):
    return struct.pack(">QI", (pts & PTS_MASK) | flags, len(data)) + data


def send(data):
    global client, clientless_since
    with lock:
        if client is None:
            return
        try:
            client.sendall(data)
        except OSError:
            client.close()
            client = None
            clientless_since = time.monotonic()


def read_handshake(conn):
    conn.settimeout(2.0)
    try:
        prefix = conn.recv(6, socket.MSG_WAITALL)
        if len(prefix) < 6:
            return "timeout-or-eof"
        if prefix[:4] != b"AVMH":
            return "bad-magic"
        if prefix[4] != 1:
            return f"unsupported-version={prefix[4]}"
        if not 8 <= prefix[5] <= 80:
            return f"bad-token-length={prefix[5]}"
        presented = conn.recv(prefix[5], socket.MSG_WAITALL).decode("ascii", "replace")
    except OSError:
        return "timeout-or-eof"
    if not re.fullmatch(r"[A-Za-z0-9-]{8,80}", presented):
        return "unsafe-token"
    return None if presented == token else "token-mismatch"


def accept_clients(size):
    global client
    while True:
        conn, _ = server.accept()
        uid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[1]
        if uid not in ALLOWED_PEER_UIDS:
            print(f"VIDEO_CLIENT_REJECTED socket={socket_name} uid={uid}", flush=True)
            conn.close()
            continue
        if token is not None:
            reason = read_handshake(conn)
            if reason is not None:
                print(f"VIDEO_CLIENT_REJECTED socket={socket_name} reason={reason}", flush=True)
                conn.close()
                continue
        conn.settimeout(None)
        with lock:
            if client is not None:
                client.close()
            client = conn
            head = struct.pack(">III", 0x68323634, *size[0])
            replay = b""
            if cache["config"] is not None:
                replay += packet(cache["config"], 0, CONFIG | REPLAYED)
            if cache["key"] is not None:
                replay += packet(cache["key"], 0, KEY | REPLAYED)
            try:
                conn.sendall(head + replay)
            except OSError:
                client = None
                continue
        print("VIDEO_SESSION_CLIENT_ATTACH socket=" + socket_name, flush=True)
        attached.set()
        key_requested.set()  # VideoServer.kt: an IDR at attach
        threading.Thread(target=read_commands, args=(conn,), daemon=True).start()


def read_commands(conn):
    global client, clientless_since
    try:
        while True:
            command = conn.recv(1)
            if not command:
                break
            if command == b"\x01":
                key_requested.set()
    except OSError:
        pass
    with lock:
        if client is conn:
            client = None
            clientless_since = time.monotonic()


size = [clips[0][2]]
attached = threading.Event()
threading.Thread(target=accept_clients, args=(size,), daemon=True).start()
# the screen is still until a client watches (the clip then plays as the screen changing)
while not attached.wait(0.1):
    if time.monotonic() - clientless_since >= RECONNECT_WINDOW_S:
        print(f"VIDEO_CLIENT_RECONNECT_EXPIRED socket={socket_name}", flush=True)
        sys.exit(0)
pts = 0
for config, units, (width, height) in clips:
    size[0] = (width, height)
    cache["config"], cache["key"] = config, None
    send(packet(config, 0, CONFIG))
    for unit, key in units:
        if key:
            cache["key"] = unit
        send(packet(unit, pts, KEY if key else 0))
        pts += 33_333
        time.sleep(1 / 30)
# a still screen: the capture is nudged every second and re-encodes as a key frame
while True:
    if client is None and time.monotonic() - clientless_since >= RECONNECT_WINDOW_S:
        print(f"VIDEO_CLIENT_RECONNECT_EXPIRED socket={socket_name}", flush=True)
        break
    if key_requested.wait(1.0):
        key_requested.clear()
    if cache["key"] is not None:
        send(packet(cache["config"], 0, CONFIG) + packet(cache["key"], pts, KEY))
        pts += 33_333
print("Shutdown complete", flush=True)
