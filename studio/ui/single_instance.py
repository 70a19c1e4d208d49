"""One studio window per library: a second `proto-studio [FILE]` hands FILE to the running studio.

The Qt convention (QLockFile plus a QLocalServer message, as Qt Creator and qutebrowser do): the
first studio on a library takes `<library>/studio.lock` for its lifetime and listens on a local
socket named after the library (readable by this user only). A second launch finds the lock
held, connects, sends `{"open": "/abs/FILE"}` (or `{"open": null}` to just raise the window),
waits for the answer (retrying while the studio starts: it listens once its window painted,
since QtNetwork costs ~40 ms to load) and exits 0; the running studio opens or imports the file and raises its
window. A studio that crashed leaves a lock naming a dead process: QLockFile sees that it is
stale, the new studio takes it over and replaces the stale socket.

`claim(library_folder, file)` returns the `StudioInstance` to serve from (this process is the
studio), or None after handing `file` over (this process should exit 0); `InstanceError` when a
studio holds the library but does not answer. `Launch` is the composition root's hook.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QDeadlineTimer, QLockFile, QObject, Signal
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:  # QtNetwork costs ~40 ms to import: loaded after the first paint
    from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

LOCK_NAME = "studio.lock"
#: How long a second launch tries to reach the running studio (it may still be starting up).
CONNECT_WAIT = 15.0
#: How long it waits for the running studio to answer.
ANSWER_WAIT = 10.0
MAX_MESSAGE = 64 * 1024


class InstanceError(Exception):
    """The library is held by a studio that cannot be reached; one line for the terminal."""


def server_name(library_folder: Path) -> str:
    """The local socket's name for this library and user (a short hash: the full path could
    exceed a Unix socket's path limit)."""
    key = f"{getpass.getuser()}\0{Path(library_folder).resolve()}"
    return "proto-studio-" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:20]


class StudioInstance(QObject):
    """The running studio's end (it holds the library's lock): `serve(handler)` listens for
    later launches and calls `handler(path)` for each. Until then a later launch keeps trying
    to connect, so none is lost while the studio starts."""

    #: A later launch asked to open this file ("" when it had none: just raise the window).
    fileRequested = Signal(str)

    def __init__(self, lock: QLockFile, name: str, parent: QObject | None = None):
        super().__init__(parent)
        self._lock = lock
        self.name = name
        self._handler: Callable[[str], None] | None = None
        self.server: QLocalServer | None = None

    def serve(self, handler: Callable[[str], None]) -> None:
        """Listen (replacing a dead studio's socket) and hand each request to `handler`."""
        from PySide6.QtNetwork import QLocalServer

        self._handler = handler
        if self.server is not None:
            return
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        server.newConnection.connect(self._accept)
        # The lock is ours, so a socket under this name is a dead studio's: replace it.
        QLocalServer.removeServer(self.name)
        if not server.listen(self.name):
            raise InstanceError(
                f"cannot listen for other launches on {self.name}: {server.errorString()}"
            )
        self.server = server

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        self._lock.unlock()

    def _accept(self) -> None:
        assert self.server is not None
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            if socket.bytesAvailable() > MAX_MESSAGE:
                socket.abort()
            return
        line = bytes(socket.readLine(MAX_MESSAGE).data())
        try:
            message = json.loads(line)
            path = message.get("open") if isinstance(message, dict) else None
            if path is not None and not isinstance(path, str):
                raise ValueError("open must be a path")
        except ValueError as exc:
            log.warning("a second launch sent an unreadable request (%s)", exc)
            socket.write(QByteArray(b'{"ok": false}\n'))
            socket.disconnectFromServer()
            return
        socket.write(QByteArray(json.dumps({"ok": True, "pid": os.getpid()}).encode() + b"\n"))
        socket.flush()
        socket.disconnectFromServer()
        if self._handler is not None:
            self._handler(path or "")
        self.fileRequested.emit(path or "")


def _hand_over(name: str, file: str | None) -> int:
    """Send `file` to the studio listening on `name`; its pid. InstanceError when none answers
    within the waits."""
    from PySide6.QtNetwork import QLocalSocket

    message = json.dumps({"open": os.path.abspath(file) if file else None}).encode() + b"\n"
    deadline = QDeadlineTimer(int(CONNECT_WAIT * 1000))
    last = ""
    while not deadline.hasExpired():
        socket = QLocalSocket()
        socket.connectToServer(name)
        if socket.waitForConnected(min(1000, max(1, deadline.remainingTime()))):
            socket.write(QByteArray(message))
            socket.waitForBytesWritten(int(ANSWER_WAIT * 1000))
            answer = b""
            while not answer.endswith(b"\n") and socket.waitForReadyRead(int(ANSWER_WAIT * 1000)):
                answer += bytes(socket.readAll().data())
            socket.abort()
            try:
                reply = json.loads(answer)
            except ValueError:
                reply = None
            if isinstance(reply, dict) and reply.get("ok") is True:
                return int(reply.get("pid") or 0)
            raise InstanceError(f"the running studio refused the request ({answer[:80]!r})")
        last = socket.errorString()
        socket.abort()
        time.sleep(0.1)  # not listening yet (it is starting up): try again shortly
    raise InstanceError(f"a studio holds this library but does not answer ({last})")


def claim(library_folder: Path, file: str | None) -> StudioInstance | None:
    """Become the library's studio (the returned instance listens), or hand `file` to the one
    that runs and return None."""
    folder = Path(library_folder)
    folder.mkdir(parents=True, exist_ok=True)
    name = server_name(folder)
    lock = QLockFile(str(folder / LOCK_NAME))
    lock.setStaleLockTime(0)  # held for the studio's whole life: stale only if its process died
    for _attempt in range(3):
        if lock.tryLock(0):
            return StudioInstance(lock, name)
        if lock.error() != QLockFile.LockError.LockFailedError:
            raise InstanceError(f"{folder / LOCK_NAME}: cannot take the lock ({lock.error().name})")
        try:
            pid = _hand_over(name, file)
        except InstanceError:
            # The holder may have died just now: take a stale lock over, else report.
            if lock.removeStaleLockFile():
                continue
            raise
        done = f"opened {os.path.abspath(file)} in" if file else "raised"
        print(f"proto-studio: {done} the running studio (pid {pid})", flush=True)
        return None
    raise InstanceError(f"{folder / LOCK_NAME}: cannot take over the lock")


class Launch:
    """What `proto-studio [FILE]` does about other studios on its library (the root's hook):
    `exit_code` is set when this process should not open a window (FILE was handed to the
    running studio: 0; that studio does not answer: 1). One-shot runs (`--smoke-test`,
    `--screenshot`) take no part: they never hand over and never receive."""

    def __init__(self, file: str | None, *, one_shot: bool = False):
        from studio.library.paths import library_dir

        self.instance: StudioInstance | None = None
        self.exit_code: int | None = None
        if one_shot:
            return
        try:
            self.instance = claim(library_dir(), file)
        except (InstanceError, OSError) as exc:
            print(f"proto-studio: {exc}", file=sys.stderr)
            self.exit_code = 1
            return
        if self.instance is None:
            self.exit_code = 0

    def serve(self, window: QWidget, open_files: Callable[[list[str]], None]) -> None:
        """Open what later launches hand over (`open_files`) and bring `window` to the front
        (call it once the window has painted: listening loads QtNetwork)."""

        def handle(path: str) -> None:
            if path:
                open_files([path])
            if window.isMinimized():
                window.showNormal()
            window.raise_()
            window.activateWindow()

        if self.instance is not None:
            try:
                self.instance.serve(handle)
            except InstanceError as exc:  # the studio works; later launches cannot reach it
                log.warning("%s", exc)

    def close(self) -> None:
        if self.instance is not None:
            self.instance.close()
            self.instance = None
