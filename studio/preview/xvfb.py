"""A private virtual X display (Xvfb) for OpenGL renders where no display exists."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from types import TracebackType


class XvfbError(RuntimeError):
    """Xvfb is missing or did not start."""


def xvfb_available() -> bool:
    return shutil.which("Xvfb") is not None


class VirtualDisplay:
    """`with VirtualDisplay() as display:` starts `Xvfb -displayfd` on a free display number
    (Xvfb picks it, so parallel runs never collide) and stops it on exit."""

    def __init__(self, size: str = "1280x1024x24", timeout: float = 10.0) -> None:
        self.size = size
        self.timeout = timeout
        self.display = ""
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> VirtualDisplay:
        exe = shutil.which("Xvfb")
        if exe is None:
            raise XvfbError("Xvfb not found (install the xvfb package, see scripts/system-deps)")
        read_fd, write_fd = os.pipe()
        try:
            self._process = subprocess.Popen(
                [exe, "-displayfd", str(write_fd), "-screen", "0", self.size, "-nolisten", "tcp"],
                pass_fds=(write_fd,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        finally:
            os.close(write_fd)
        try:
            number = self._read_display(read_fd)
        finally:
            os.close(read_fd)
        self.display = f":{number}"
        return self

    def _read_display(self, fd: int) -> str:
        deadline = time.monotonic() + self.timeout
        data = b""
        while not data.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (self._process is not None and self._process.poll() is not None):
                self.__exit__(None, None, None)
                raise XvfbError("Xvfb did not start")
            ready, _, _ = select.select([fd], [], [], remaining)
            if ready:
                chunk = os.read(fd, 64)
                if not chunk:
                    self.__exit__(None, None, None)
                    raise XvfbError("Xvfb exited before reporting its display")
                data += chunk
        return data.decode().strip()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
