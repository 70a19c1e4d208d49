"""Real OpenAI-compatible servers nobody here wrote, started by the tests: llama.cpp's
llama-server (built by scripts/llama-server from the llama-cpp-python sdist) running the bigram
model of tests/agent/bigram.py, and LiteLLM's proxy (installed by scripts/litellm into its own
venv) with mocked responses from tests/agent/litellm_hooks.py. Both listen on 127.0.0.1 only.

PROTO_STUDIO_REAL_SERVERS=0 skips these tests (with the reason); otherwise a server that cannot
be built or started fails them. PROTO_STUDIO_RECORD_STREAMS=1 rewrites the recorded streams in
tests/fixtures/agent/streams/ that the fast parsing tests replay.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
STREAMS = REPO / "tests" / "fixtures" / "agent" / "streams"
HOOKS = Path(__file__).resolve().parent / "litellm_hooks.py"


def wanted() -> None:
    if os.environ.get("PROTO_STUDIO_REAL_SERVERS", "1") == "0":
        pytest.skip("PROTO_STUDIO_REAL_SERVERS=0: the real-server tests are off")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_script(name: str, *args: str, seconds: float = 2400) -> str:
    """A scripts/ helper's last stdout line (a path); its stderr goes to the test output."""
    done = subprocess.run(
        [str(REPO / "scripts" / name), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=seconds,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"scripts/{name} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return done.stdout.strip().splitlines()[-1]


def wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path, seconds: float) -> None:
    """Poll `url` until it answers 200 (the server's own readiness), bounded."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"{url}: the server exited ({proc.returncode}): {log.read_text()[-2000:]}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)  # a child process has no event to await; this bounds a readiness poll
    proc.kill()
    pytest.fail(f"{url}: not ready after {seconds:g} s: {log.read_text()[-2000:]}")


@dataclass
class Server:
    base_url: str
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def root(self) -> str:
        return self.base_url.removesuffix("/v1")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    wanted()
    from tests.agent.bigram import build, common_words
    from tests.agent.util_spec import first_request_text

    binary = run_script("llama-server")
    source = Path(run_script("llama-server", "--source"))
    template = (source / "models" / "templates" / "Qwen-Qwen2.5-7B-Instruct.jinja").read_text()
    folder = tmp_path_factory.mktemp("llama")
    model = build(folder / "bigram.gguf", template, words=common_words(first_request_text()))
    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            # -c 8192: the window the tests read back from /props; -n 400 as agent-servers.md
            [binary, "-m", str(model), "--host", "127.0.0.1", "--port", str(port), "--jinja"]
            + ["-c", "8192", "-n", "400", "--seed", "42", "-np", "1", "--no-webui"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_ready(f"http://127.0.0.1:{port}/health", proc, log, 60)
        yield Server(f"http://127.0.0.1:{port}/v1", proc, log)
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def litellm_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    wanted()
    python = run_script("litellm")
    folder = tmp_path_factory.mktemp("litellm")
    config = folder / "config.yaml"
    models = []
    for name in ("scripted", "textcall", "claims", "rate-limited", "plain"):
        models.append(
            {
                "model_name": name,
                "litellm_params": {
                    "model": f"openai/{name}",
                    "api_key": "upstream-not-used",
                    "mock_response": "placeholder",
                },
            }
        )
    # groq/ goes through LiteLLM's Responses -> chat bridge for /v1/responses
    models.append(
        {
            "model_name": "bridged",
            "litellm_params": {
                "model": "groq/bridged",
                "api_key": "upstream-not-used",
                "mock_response": "placeholder",
            },
        }
    )
    config.write_text(
        json.dumps(
            {
                "model_list": models,
                "litellm_settings": {
                    "callbacks": "litellm_hooks.proxy_handler_instance",
                    "num_retries": 0,
                    "telemetry": False,
                },
                "general_settings": {"master_key": "sk-litellm-master-0123456789"},
            }
        )
    )
    port = free_port()
    log = folder / "proxy.log"
    env = {
        **os.environ,
        "PYTHONPATH": str(HOOKS.parent),
        "LITELLM_LOG": "ERROR",
        "LITELLM_TELEMETRY": "False",
        "DISABLE_SCHEMA_UPDATE": "true",
        "NO_DOCS": "True",
    }
    env.pop("DATABASE_URL", None)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [python, "-m", "litellm.proxy.proxy_cli", "--config", str(config)]
            + ["--host", "127.0.0.1", "--port", str(port), "--num_workers", "1"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=folder,
        )
    try:
        wait_ready(f"http://127.0.0.1:{port}/health/liveliness", proc, log, 120)
        yield Server(f"http://127.0.0.1:{port}/v1", proc, log)
    finally:
        stop(proc)


class RecordingTransport(httpx.AsyncBaseTransport):
    """The real transport, keeping each response's raw bytes (and, with
    PROTO_STUDIO_RECORD_STREAMS=1, writing them to tests/fixtures/agent/streams/NAME-N.sse)."""

    def __init__(self, name: str) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.name = name
        self.bodies: list[bytes] = []
        self.requests: list[dict[str, Any]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            self.requests.append(json.loads(request.content or b"{}"))
        response = await self._inner.handle_async_request(request)
        if request.method != "POST":
            return response
        raw = b"".join([part async for part in response.aiter_bytes()])
        await response.aclose()
        self.bodies.append(raw)
        if os.environ.get("PROTO_STUDIO_RECORD_STREAMS") == "1":
            STREAMS.mkdir(parents=True, exist_ok=True)
            stem = STREAMS / f"{self.name}-{len(self.bodies)}"
            stem.with_suffix(".sse").write_bytes(raw)
            meta = {
                "status": response.status_code,
                "content_type": response.headers.get("content-type", ""),
            }
            stem.with_suffix(".json").write_text(json.dumps(meta) + "\n")
        headers = [
            (k, v)
            for k, v in response.headers.multi_items()
            if k.lower() not in ("content-length", "transfer-encoding", "content-encoding")
        ]
        return httpx.Response(response.status_code, headers=headers, content=raw, request=request)

    async def aclose(self) -> None:
        await self._inner.aclose()
