"""Issue 16, point 8: token counts (tiktoken for OpenAI models, a calibrated estimate elsewhere),
the context window (settings, the server, the profile), requests and tool outputs sized to it,
max_tokens sent, the budget checked before each request."""

from __future__ import annotations

import asyncio
import glob
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.agent.draft import Draft
from studio.agent.events import ModelRequest
from studio.agent.guards import Limits
from studio.agent.guide import system_prompt
from studio.agent.loop import AgentLoop
from studio.agent.profiles import PROFILES
from studio.agent.registry import Tool, ToolRegistry
from studio.agent.session import AgentSession
from studio.agent.testing import ScriptedModel, calls, reply
from studio.agent.tokens import (
    ESTIMATE,
    TiktokenCounter,
    load_counter,
    request_tokens,
    window_from_models,
    window_from_props,
)
from studio.agent.tools import ToolContext, build_spec_tools
from studio.spec.outline import outline_text
from tests.agent.real_servers import run_script, wanted
from tests.agent.util_spec import load

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiktoken_files() -> Iterator[Path]:
    """tiktoken's BPE files as LiteLLM's wheel ships them (litellm_core_utils/tokenizers, named
    as tiktoken's cache names them), so the exact counts need no download."""
    wanted()
    python = Path(run_script("litellm"))
    [folder] = glob.glob(
        str(
            python.parent.parent
            / "lib"
            / "python3*"
            / "site-packages"
            / "litellm"
            / "litellm_core_utils"
            / "tokenizers"
        )
    )
    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = folder
    yield Path(folder)
    if previous is None:
        os.environ.pop("TIKTOKEN_CACHE_DIR", None)
    else:
        os.environ["TIKTOKEN_CACHE_DIR"] = previous


def corpus() -> list[str]:
    """What the harness sends: prompts, tool definitions, outlines and subtrees of templates."""
    texts = [system_prompt("full"), system_prompt("short")]
    for spec in build_spec_tools(ToolContext(Draft(load("blank-screen")))).specs():
        texts += [spec.description, json.dumps(spec.parameters)]
    for path in sorted((REPO / "resources" / "templates").glob("*.json")):
        if path.name == "index.json":
            continue
        spec = json.loads(path.read_text())
        texts += [outline_text(spec), json.dumps(spec["root"], ensure_ascii=False)]
    return texts


def test_openai_models_are_counted_by_tiktoken_and_the_estimate_is_calibrated(
    tiktoken_files: Path,
) -> None:
    counter = asyncio.run(load_counter("gpt-4o-mini", openai=True))
    assert isinstance(counter, TiktokenCounter) and counter.exact and counter.name == "o200k_base"
    cl100k = asyncio.run(load_counter("gpt-4", openai=True))
    assert cl100k.name == "cl100k_base"
    ratios = [ESTIMATE.count(t) / cl100k.count(t) for t in corpus()]
    # per text within 0.85-1.35 of cl100k, and a little high overall (never the old 40 % low)
    assert min(ratios) > 0.85 and max(ratios) < 1.35, (min(ratios), max(ratios))
    total = sum(ESTIMATE.count(t) for t in corpus()) / sum(cl100k.count(t) for t in corpus())
    assert 1.0 <= total <= 1.15, total
    # the first request of a session, counted whole (messages and tool definitions)
    session = AgentSession(ScriptedModel(), load("blank-screen"), guide="full")
    request = ModelRequest(
        session.loop.messages + [{"role": "user", "content": "Rename it"}], session.tools.specs()
    )
    exact = request_tokens(request, cl100k)
    assert 1.0 <= request_tokens(request, ESTIMATE) / exact <= 1.2 and exact > 1500


def test_other_models_and_a_missing_tokenizer_fall_back_to_the_estimate(tmp_path: Path) -> None:
    assert asyncio.run(load_counter("llama3.2", openai=False)) is ESTIMATE
    assert asyncio.run(load_counter("not-an-openai-model", openai=True)) is ESTIMATE
    # a fresh process (tiktoken keeps loaded encodings) with an empty cache and no network
    code = (
        "import asyncio; from studio.agent.tokens import load_counter;"
        "c = asyncio.run(load_counter('gpt-4o', openai=True, seconds=5)); print(c.name, c.exact)"
    )
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["estimate", "False"]


def test_windows_from_servers_and_profiles() -> None:
    assert window_from_props({"default_generation_settings": {"n_ctx": 8192}}) == 8192
    assert (
        window_from_models({"data": [{"id": "m", "meta": {"n_ctx": 4096}}]}, "m") == 4096
    )  # llama-server
    assert window_from_models({"data": [{"id": "m", "max_model_len": 32768}]}, "m") == 32768  # vLLM
    assert window_from_models({"data": [{"id": "a", "max_model_len": 1}, {"id": "b"}]}, "c") is None
    assert PROFILES["openai"].window("gpt-4o-mini-2024-07-18") == 128_000
    assert PROFILES["openai"].window("gpt-4.1-nano") == 1_047_576
    assert PROFILES["ollama"].window("qwen2.5") == 4096  # Ollama's default num_ctx


def big_tool(size: int) -> Tool:
    async def handler(args: dict[str, Any]) -> Any:
        return ('{"k": [1, 2]}, ' * size)[:size]  # JSON-like: about 2 characters a token

    return Tool("big", "a big output", {"type": "object"}, handler)


def test_a_4k_window_sizes_outputs_replies_and_compacts_old_outputs() -> None:
    model = ScriptedModel(
        [calls(("big", {})), calls(("big", {"n": 1})), calls(("big", {"n": 2})), reply("done")]
    )
    loop = AgentLoop(
        model, ToolRegistry([big_tool(16_000)]), system="s", limits=Limits(context_window=4096)
    )
    result = asyncio.run(loop.run("read a lot"))
    assert (
        result.status == "completed"
        and loop.window is not None
        and loop.window.source == "settings"
    )
    outputs = [m["content"] for m in loop.messages if m["role"] == "tool"]
    assert "output cut to fit the model's 4096-token context window" in outputs[-1]
    assert len(outputs[-1]) <= int(4096 * 0.25 * 3.0) + 300
    # old outputs were dropped (saying so) so that every request fit, and each said its reply room
    assert any("dropped to fit the model's context window" in o for o in outputs)
    for request in model.requests:
        assert request.input_tokens is not None and request.max_tokens is not None
        assert request.input_tokens + request.max_tokens <= 4096


def test_a_prompt_that_cannot_fit_is_not_sent() -> None:
    model = ScriptedModel([reply("never")])
    loop = AgentLoop(
        model, ToolRegistry(), system="word " * 3000, limits=Limits(context_window=2048)
    )
    result = asyncio.run(loop.run("hi"))
    assert result.status == "failed" and result.error_class == "context_length"
    assert "context window is 2048 (settings)" in result.reason and model.requests == []


def test_max_tokens_is_sent_and_capped_by_settings() -> None:
    model = ScriptedModel([reply("ok")])
    asyncio.run(AgentLoop(model, ToolRegistry(), limits=Limits(max_output_tokens=500)).run("hi"))
    assert model.requests[0].max_tokens == 500


def test_a_replay_sizes_outputs_to_the_recorded_window() -> None:
    from studio.agent.replay import replay
    from tests.agent.util_spec import sign_in

    model = ScriptedModel([calls(("outline", {"format": "json"})), reply("Read it.")])
    session = AgentSession(model, sign_in(), guide="short", limits=Limits(context_window=3000))
    assert asyncio.run(session.run("look at the outline")).status == "completed"
    [output] = [r["output"] for r in session.loop.record if r.get("kind") == "tool"]
    assert "to fit the model's 3000-token context window" in output  # cut by the window
    snapshot = session.snapshot()
    assert snapshot["limits"]["context_window"] == 3000
    report = asyncio.run(replay(snapshot))
    assert report.ok, report.problems()
