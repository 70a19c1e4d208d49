"""SSE parsing speed: our Chat Completions client vs the openai SDK reading the same stream.

A local http.server on 127.0.0.1 serves an N-chunk Chat Completions stream (text deltas, a
usage chunk, [DONE]); each reader consumes it fully and joins the text. Prints wall time per run
(best of R), chunks per second, the ratio ours/SDK (target <= 1.0) and linearity over N.

    .venv/bin/python benchmarks/bench_sse.py [--sizes 25000 50000 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from studio.agent.clients import ChatCompletionsClient  # noqa: E402
from studio.agent.events import ModelRequest, TextDelta  # noqa: E402
from studio.agent.profiles import profile_for  # noqa: E402


def build_stream(n: int) -> bytes:
    parts = []
    for i in range(n):
        chunk = {
            "id": "chatcmpl-bench",
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": "bench",
            "system_fingerprint": "fp_bench",
            "choices": [
                {
                    "index": 0,
                    "delta": {"content": f"tok{i % 10} "},
                    "logprobs": None,
                    "finish_reason": None,
                }
            ],
            "usage": None,
        }
        parts.append(b"data: " + json.dumps(chunk).encode() + b"\n\n")
    final = {
        "id": "chatcmpl-bench",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "bench",
        "choices": [{"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}],
        "usage": None,
    }
    usage = {
        "id": "chatcmpl-bench",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "bench",
        "choices": [],
        "usage": {"prompt_tokens": 10, "completion_tokens": n, "total_tokens": n + 10},
    }
    parts.append(b"data: " + json.dumps(final).encode() + b"\n\n")
    parts.append(b"data: " + json.dumps(usage).encode() + b"\n\n")
    parts.append(b"data: [DONE]\n\n")
    return b"".join(parts)


class Server:
    def __init__(self) -> None:
        self.body = b""
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(outer.body)))
                self.end_headers()
                view = memoryview(outer.body)
                for start in range(0, len(view), 65536):  # realistic: many network reads
                    self.wfile.write(view[start : start + 65536])

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


REQUEST = ModelRequest([{"role": "user", "content": "go"}])


async def ours(base_url: str, http: httpx.AsyncClient) -> tuple[int, int]:
    client = ChatCompletionsClient(
        base_url, "bench", api_key="x", profile=profile_for(base_url, "openai"), http=http
    )
    parts: list[str] = []
    async for event in client.stream(REQUEST):
        if isinstance(event, TextDelta):
            parts.append(event.text)
    return len(parts), len("".join(parts))


async def sdk(base_url: str, http: httpx.AsyncClient) -> tuple[int, int]:
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base_url, api_key="x", http_client=http, max_retries=0)
    stream = await client.chat.completions.create(
        model="bench",
        messages=[{"role": "user", "content": "go"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    parts: list[str] = []
    async for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            parts.append(chunk.choices[0].delta.content)
    return len(parts), len("".join(parts))


async def timed(fn, base_url: str, repeat: int) -> tuple[float, tuple[int, int]]:  # type: ignore[no-untyped-def]
    best = float("inf")
    result = (0, 0)
    async with httpx.AsyncClient(timeout=120) as http:
        for _ in range(repeat):
            start = time.perf_counter()
            result = await fn(base_url, http)
            best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[25_000, 50_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    server = Server()
    print(
        f"{'chunks':>8} {'ours s':>8} {'sdk s':>8} {'ours/sdk':>9} {'ours µs/chunk':>14} {'sdk µs/chunk':>13}"
    )
    per_chunk = []
    for n in args.sizes:
        server.body = build_stream(n)
        t_ours, r_ours = asyncio.run(timed(ours, server.base_url, args.repeat))
        t_sdk, r_sdk = asyncio.run(timed(sdk, server.base_url, args.repeat))
        assert r_ours == r_sdk == (n, r_sdk[1]), (r_ours, r_sdk)
        per_chunk.append(t_ours / n * 1e6)
        print(
            f"{n:>8} {t_ours:>8.3f} {t_sdk:>8.3f} {t_ours / t_sdk:>9.2f} {t_ours / n * 1e6:>14.2f} {t_sdk / n * 1e6:>13.2f}"
        )
    if len(per_chunk) > 1:
        print(
            f"linearity: µs/chunk at the largest size / at the smallest = {per_chunk[-1] / per_chunk[0]:.2f} (1.0 = linear)"
        )
    server.httpd.shutdown()


if __name__ == "__main__":
    main()
