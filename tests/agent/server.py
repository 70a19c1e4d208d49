"""A real local HTTP server on 127.0.0.1:0 that replays scripted model responses (a test seam)."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Server(ThreadingHTTPServer):
    """The stand-in's HTTP server. A client that resets a kept-alive connection (the studio
    dropping a stream it bounded) ends that connection; socketserver would print a traceback
    to stderr for it, which is not a failure of anything under test."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


@dataclass
class Reply:
    """One scripted HTTP answer. `cut_after` bytes are sent, then the socket is dropped."""

    chunks: list[bytes] = field(default_factory=list)
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "text/event-stream"
    cut_after: int | None = None
    pause: float = 0.0  # seconds between chunks (the server thread sleeps, the test never does)


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def sse(*events: Any, done: bool = True, prefix: str = "data: ", eol: str = "\n") -> list[bytes]:
    """SSE frames for JSON events (strings are sent as-is), optionally ending with [DONE]."""
    frames = [
        f"{prefix}{e if isinstance(e, str) else json.dumps(e)}{eol}{eol}".encode() for e in events
    ]
    if done:
        frames.append(f"{prefix}[DONE]{eol}{eol}".encode())
    return frames


def chunk(
    content: str | None = None, *, tool_calls: Any = None, finish: str | None = None, **extra: Any
) -> dict[str, Any]:
    """A Chat Completions stream chunk."""
    delta: dict[str, Any] = {}
    if content is not None:
        delta["content"] = content
    if tool_calls is not None:
        delta["tool_calls"] = tool_calls
    out = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    out.update(extra)
    return out


def usage_chunk(prompt: int, completion: int) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "choices": [],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


class ModelServer:
    """Serves the queued replies in order, records every request, answers 500 when the queue is empty."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.seen: list[Seen] = []
        self.disconnects = 0
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with outer._lock:
                    outer.seen.append(Seen(self.path, dict(self.headers), json.loads(raw or b"{}")))
                    reply = (
                        outer.replies.pop(0)
                        if outer.replies
                        else Reply(
                            [b'{"error":"no scripted reply"}'], 500, content_type="application/json"
                        )
                    )
                body = b"".join(reply.chunks)
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(body)))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                if reply.cut_after is not None:
                    self.wfile.write(body[: reply.cut_after])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                try:
                    for part in reply.chunks:
                        self.wfile.write(part)
                        self.wfile.flush()
                        if reply.pause:
                            time.sleep(reply.pause)
                except (BrokenPipeError, ConnectionResetError):
                    outer.disconnects += 1

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.01,), daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def queue(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    def __enter__(self) -> ModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
