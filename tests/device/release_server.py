"""A local stand-in for AutoMobile's GitHub releases: `/<version>/<file>` answered with the file's
length on HEAD and its bytes on GET, after a redirect to another path (GitHub sends asset
downloads to objects.githubusercontent.com); every request is counted. And fake CtrlProxy APKs
that the stand-in `pm` installs."""

from __future__ import annotations

import io
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from studio.device.adb import CTRLPROXY_PACKAGE


def fake_apk(signer: str = "AutoMobile release key", package: str = CTRLPROXY_PACKAGE) -> bytes:
    """A zip with an AndroidManifest.xml naming the package and a signer, padded past 10 kB (the
    size AutoMobile's host requires of an APK)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as apk:
        apk.writestr("AndroidManifest.xml", f'<manifest package="{package}" />')
        apk.writestr("META-INF/CERT.RSA", signer)
        apk.writestr("classes.dex", bytes(range(256)) * 1200)  # ~300 kB: several chunks
    return out.getvalue()


@dataclass
class ReleaseServer:
    files: dict[str, bytes]  # "/0.0.99/control-proxy-debug.apk" -> bytes
    requests: list[tuple[str, str]] = field(default_factory=list)  # (method, path)
    chunk_pause: threading.Event | None = None  # GETs wait for it after the first 64 KiB
    port: int = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def gets(self, path: str) -> int:
        return sum(1 for method, p in self.requests if method == "GET" and p == path)


@contextmanager
def release_server(files: dict[str, bytes]) -> Iterator[ReleaseServer]:
    state = ReleaseServer(files)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # quiet
            pass

        def _serve(self, body: bool) -> None:
            state.requests.append((self.command, self.path))
            if self.path.startswith("/objects"):
                name = self.path[len("/objects") :]
                data = state.files.get(name)
                if data is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if body:  # the first 64 KiB (one read of the studio's), then maybe a pause
                    self.wfile.write(data[:65536])
                    self.wfile.flush()
                    if state.chunk_pause is not None:
                        state.chunk_pause.wait(10)
                    self.wfile.write(data[65536:])
                return
            if self.path not in state.files:
                self.send_error(404)
                return
            self.send_response(302)
            self.send_header("Location", "/objects" + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_HEAD(self) -> None:  # noqa: N802 (http.server's name)
            self._serve(body=False)

        def do_GET(self) -> None:  # noqa: N802
            self._serve(body=True)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = int(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
