"""Token counts and the model's context window: tiktoken for OpenAI models, a calibrated estimate
elsewhere; what one request costs; where the window comes from (profile, server, settings).

tiktoken loads its BPE file from its cache or, on first use, from OpenAI's public blob store; that
is blocking I/O, so `load_counter` runs it off the event loop with a time bound, and any failure
(offline, no tiktoken, a frozen build without its plugin) falls back to the estimate, which says
so (`exact` is False).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from studio.agent.events import Message, ModelRequest, ToolSpec

log = logging.getLogger("studio.agent")

# Calibrated on this harness's own traffic (system prompts, tool schemas, outlines, readNode
# outputs, patches, instructions; tests/agent/test_tokens.py recounts the corpus) against
# cl100k_base by least squares on relative error: tokens ~ alphanumeric bytes / 10.6 + other bytes
# (spaces, punctuation, UTF-8) / 1.6, then 10 % more so that it errs high (within 0.93-1.25 of
# cl100k on that corpus; 1.04 overall). The old chars/4 on parameters only was ~40 % low
# (agent-servers.md §4).
ALNUM_PER_TOKEN = 10.6
OTHER_PER_TOKEN = 1.6
SAFETY = 1.1
PER_MESSAGE = 4  # role and framing tokens per message (OpenAI cookbook: 3, plus the name)
PER_TOOL = 8  # the function wrapper of each tool definition
REPLY_PRIMING = 3
_ALNUM = bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123))


class TokenCounter(Protocol):
    """Counts the tokens of a text for one model family."""

    name: str
    exact: bool

    def count(self, text: str) -> int: ...


class EstimateCounter:
    """The calibrated estimate (no tokenizer): fast, and a little high rather than low."""

    name = "estimate"
    exact = False

    def count(self, text: str) -> int:
        if not text:
            return 0
        raw = text.encode("utf-8", "surrogatepass")
        other = len(raw.translate(None, _ALNUM))
        alnum = len(raw) - other
        return math.ceil((alnum / ALNUM_PER_TOKEN + other / OTHER_PER_TOKEN) * SAFETY)


class TiktokenCounter:
    """An exact count with one of tiktoken's encodings."""

    exact = True

    def __init__(self, encoding: Any) -> None:
        self._encoding = encoding
        self.name = str(encoding.name)

    def count(self, text: str) -> int:
        return len(self._encoding.encode(text, disallowed_special=()))


ESTIMATE = EstimateCounter()


def tiktoken_encoding_name(model: str) -> str | None:
    """The tiktoken encoding of an OpenAI model name, None for other models."""
    try:
        import tiktoken.model
    except ImportError:
        return None
    try:
        return str(tiktoken.model.encoding_name_for_model(model))
    except KeyError:
        return None


def _load_tiktoken(name: str) -> TokenCounter:
    import tiktoken

    return TiktokenCounter(tiktoken.get_encoding(name))


async def load_counter(model: str, *, openai: bool, seconds: float = 10.0) -> TokenCounter:
    """tiktoken's encoding for an OpenAI model (loaded off the loop, bounded), else the estimate."""
    if not openai:
        return ESTIMATE
    name = tiktoken_encoding_name(model)
    if name is None:
        return ESTIMATE
    from studio.concurrency import off_loop

    try:
        return await asyncio.wait_for(off_loop(_load_tiktoken, name), seconds)
    except Exception as exc:  # offline, no cache, a frozen build without tiktoken_ext
        log.info("token counts are estimated: tiktoken could not load %s (%s)", name, exc)
        return ESTIMATE


def _message_text(m: Message) -> str:
    parts = [str(m.get("content") or "")]
    for c in m.get("tool_calls") or ():
        parts.append(str(c.get("name") or ""))
        parts.append(str(c.get("arguments") or ""))
    return "".join(parts)


def message_tokens(m: Message, counter: TokenCounter) -> int:
    return PER_MESSAGE + counter.count(_message_text(m))


def tool_tokens(tools: list[ToolSpec], counter: TokenCounter) -> int:
    return sum(
        PER_TOOL
        + counter.count(t.name)
        + counter.count(t.description)
        + counter.count(json.dumps(t.parameters, separators=(",", ":")))
        for t in tools
    )


def request_tokens(request: ModelRequest, counter: TokenCounter) -> int:
    """What a request costs in input tokens: every message, every tool definition, the priming."""
    return (
        sum(message_tokens(m, counter) for m in request.messages)
        + tool_tokens(request.tools, counter)
        + REPLY_PRIMING
    )


@dataclass(frozen=True)
class ContextWindow:
    """The model's context window in tokens and where that number came from."""

    tokens: int
    source: str  # "settings", "the server (/props)", "the profile", ...


def window_from_models(data: Any, model: str) -> int | None:
    """A context length from a `/v1/models` listing: llama-server's `meta.n_ctx`, vLLM's
    `max_model_len`, OpenRouter's `context_length`, LM Studio's `loaded_context_length`."""
    entries = data.get("data") if isinstance(data, Mapping) else None
    if not isinstance(entries, list):
        return None
    chosen = [e for e in entries if isinstance(e, Mapping) and e.get("id") == model]
    if not chosen and len(entries) == 1 and isinstance(entries[0], Mapping):
        chosen = [entries[0]]
    for entry in chosen:
        meta = entry.get("meta")
        for value in (
            meta.get("n_ctx") if isinstance(meta, Mapping) else None,
            entry.get("max_model_len"),
            entry.get("loaded_context_length"),
            entry.get("context_length"),
            entry.get("max_context_length"),
        ):
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
    return None


def window_from_props(data: Any) -> int | None:
    """llama-server's `GET /props`: `default_generation_settings.n_ctx` (the per-slot context)."""
    settings = data.get("default_generation_settings") if isinstance(data, Mapping) else None
    value = settings.get("n_ctx") if isinstance(settings, Mapping) else None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None
