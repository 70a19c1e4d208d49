"""A fake adb *server* speaking the host protocol on 127.0.0.1 (a seam for adbutils, as its own tests do).

Requests are 4 hex digits of length + a command; replies are `OKAY` (+ a length-prefixed payload)
or `FAIL` + a length-prefixed message. Devices and their shell outputs are scripted per test.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class FakeDevice:
    serial: str
    state: str = "device"
    shell: Callable[[str], str] = lambda cmd: ""


@dataclass
class FakeAdbServer:
    devices: list[FakeDevice] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    forwards: list[str] = field(default_factory=list)  # "forward:tcp:P;tcp:8765", "killforward:..."

    def __post_init__(self) -> None:
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.port = int(self._sock.getsockname()[1])
        self._trackers: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # --- scripting -------------------------------------------------------------------------
    def set_devices(self, devices: list[FakeDevice]) -> None:
        """Change the device list and notify every `host:track-devices` client."""
        with self._lock:
            self.devices = devices
            for conn in list(self._trackers):
                try:
                    conn.sendall(_block(self._device_lines()))
                except OSError:
                    self._trackers.remove(conn)

    def close(self) -> None:
        self._closed = True
        self._sock.close()
        with self._lock:
            for conn in self._trackers:
                conn.close()

    # --- protocol --------------------------------------------------------------------------
    def _device_lines(self) -> str:
        return "".join(f"{d.serial}\t{d.state}\n" for d in self.devices)

    def _serve(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        keep_open = False
        try:
            device: FakeDevice | None = None
            while True:
                cmd = _read_request(conn)
                if cmd is None:
                    return
                self.commands.append(cmd)
                if cmd == "host:version":
                    conn.sendall(b"OKAY" + _block("0029"))
                    return
                if cmd in {"host:devices", "host:devices-l"}:
                    conn.sendall(b"OKAY" + _block(self._device_lines()))
                    return
                if cmd == "host:track-devices":
                    with self._lock:
                        conn.sendall(b"OKAY" + _block(self._device_lines()))
                        self._trackers.append(conn)
                    keep_open = True
                    return
                if cmd.startswith("host-serial:") and (
                    ":forward:" in cmd or ":killforward:" in cmd
                ):
                    # accepted, but nothing is forwarded: like a phone whose CtrlProxy is not bound
                    self.forwards.append(cmd.split(":", 2)[2])
                    conn.sendall(b"OKAYOKAY")
                    return
                if cmd.startswith(("host:tport:serial:", "host:transport:")):
                    serial = cmd.rsplit(":", 1)[1]
                    device = next((d for d in self.devices if d.serial == serial), None)
                    if device is None:
                        conn.sendall(b"FAIL" + _block(f"device '{serial}' not found"))
                        return
                    conn.sendall(b"OKAY" + (b"\x01" + b"\0" * 7 if "tport" in cmd else b""))
                    continue
                if device is not None and cmd.startswith(("shell:", "exec:")):  # exec: = exec-out
                    conn.sendall(b"OKAY" + device.shell(cmd.split(":", 1)[1]).encode())
                    return
                conn.sendall(b"FAIL" + _block(f"unknown command {cmd}"))
                return
        except OSError:
            return
        finally:
            if not keep_open:
                conn.close()


def _block(text: str) -> bytes:
    data = text.encode()
    return f"{len(data):04x}".encode() + data


def _read_request(conn: socket.socket) -> str | None:
    head = _read_exact(conn, 4)
    if head is None:
        return None
    body = _read_exact(conn, int(head, 16))
    return None if body is None else body.decode()


def _read_exact(conn: socket.socket, n: int) -> bytes | None:
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf
