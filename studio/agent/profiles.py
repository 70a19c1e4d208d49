"""Provider profiles: each OpenAI-compatible server's defaults and quirks in one place."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import httpx

from studio.agent.events import Usage


@dataclass(frozen=True)
class ModelPrice:
    """A model's list price in USD per million tokens."""

    input_per_million: float
    output_per_million: float

    def cost(self, usage: Usage) -> float:
        """What `usage` costs in USD."""
        return (
            usage.input_tokens * self.input_per_million
            + usage.output_tokens * self.output_per_million
        ) / 1_000_000


FREE = ModelPrice(0.0, 0.0)

# OpenAI list prices (USD per 1M tokens, standard tier, uncached input) as published in 2025.
OPENAI_PRICES: dict[str, ModelPrice] = {
    "gpt-4o": ModelPrice(2.50, 10.00),
    "gpt-4o-mini": ModelPrice(0.15, 0.60),
    "gpt-4.1": ModelPrice(2.00, 8.00),
    "gpt-4.1-mini": ModelPrice(0.40, 1.60),
    "gpt-4.1-nano": ModelPrice(0.10, 0.40),
    "gpt-5": ModelPrice(1.25, 10.00),
    "gpt-5-mini": ModelPrice(0.25, 2.00),
    "gpt-5-nano": ModelPrice(0.05, 0.40),
}
_DATED = re.compile(r"-\d{4}-\d{2}-\d{2}$")  # a pinned snapshot: "gpt-4o-mini-2024-07-18"

# OpenAI context windows (tokens) as published in 2025, by model-name prefix (longest first).
OPENAI_WINDOWS: dict[str, int] = {
    "gpt-4.1": 1_047_576,
    "gpt-4o": 128_000,
    "gpt-4-turbo": 128_000,
    "gpt-4": 8_192,
    "gpt-3.5-turbo": 16_385,
    "gpt-5": 400_000,
    "o1": 200_000,
    "o3": 200_000,
    "o4-mini": 200_000,
}


@dataclass(frozen=True)
class ProviderProfile:
    """What differs between servers that all speak the OpenAI wire formats."""

    name: str
    default_base_url: str
    # The one name the user sees for it, everywhere (settings, the agent sheet, messages).
    label: str = ""
    # Send stream_options.include_usage (some servers reject unknown parameters).
    include_usage: bool = True
    # Send tool_choice (Ollama ignores it; Moonshot rejects "required").
    tool_choice: bool = True
    # Where a chunk carries usage, tried in order (Groq: x_groq.usage on the last chunk).
    usage_paths: tuple[str, ...] = ("usage",)
    # Ask for a whole (non-streamed) reply on tool turns: for servers whose streamed tool calls
    # are dropped or broken (Ollama, LM Studio, old llama.cpp builds).
    buffer_tool_turns: bool = False
    # Whether the server is on this machine (a "local model" for the router).
    local: bool = False
    # Whether a run is refused without a key. A server that needs none (a local one, a proxy
    # or any other compatible server) still gets the key when one is stored.
    needs_key: bool = True
    # The request field that caps the reply (OpenAI's newer models refuse max_tokens).
    max_tokens_field: str = "max_tokens"
    # Look for tool calls written as text (Hermes/Qwen <tool_call>, `functions.NAME:`, a bare
    # {"name", "arguments"} object): weak local models and servers without a tool parser.
    text_tool_calls: bool = False
    # tool_choice "required" is honoured (sent once when the model must be nudged to act).
    tool_choice_required: bool = False
    # Context window when the server does not say: a number, or per model-name prefix.
    context_window: int | None = None
    context_windows: Mapping[str, int] = field(default_factory=dict, compare=False)
    # Seconds without a byte before a request fails: a CPU server may think for minutes
    # before its first byte (llama-server sends headers only with the first token).
    idle_timeout: float = 120.0
    # List prices per model; a local server costs nothing whatever the model.
    prices: Mapping[str, ModelPrice] = field(default_factory=dict, compare=False)
    # The agent's tool set by default (studio.agent.compound): the compound set's fewer,
    # larger actions for the small models local servers run, the standard set elsewhere.
    tool_set: str = "standard"

    def window(self, model: str) -> int | None:
        """The context window this profile knows for `model` (None: ask the server or settings)."""
        bare = _DATED.sub("", model)
        for prefix in sorted(self.context_windows, key=len, reverse=True):
            if bare.startswith(prefix):
                return self.context_windows[prefix]
        return self.context_window

    def price(self, model: str) -> ModelPrice | None:
        """The model's price: 0 on a local server, None where the price is unknown."""
        if self.local:
            return FREE
        return self.prices.get(model) or self.prices.get(_DATED.sub("", model))

    def cost(self, model: str, usage: Usage) -> float | None:
        """What `usage` of `model` costs in USD: 0 on a local server, None if unknown."""
        price = self.price(model)
        return None if price is None else price.cost(usage)

    def with_base_url(self, base_url: str) -> ProviderProfile:
        return replace(self, default_base_url=base_url)


PROFILES: dict[str, ProviderProfile] = {
    p.name: p
    for p in (
        ProviderProfile(
            "openai",
            "https://api.openai.com/v1",
            "OpenAI",
            prices=OPENAI_PRICES,
            max_tokens_field="max_completion_tokens",
            tool_choice_required=True,
            context_windows=OPENAI_WINDOWS,
        ),
        ProviderProfile(
            "ollama",
            "http://localhost:11434/v1",
            "Ollama (local)",
            tool_choice=False,
            buffer_tool_turns=True,
            local=True,
            needs_key=False,
            text_tool_calls=True,
            # Ollama's default num_ctx (it cuts longer prompts silently); raise it and say so
            # in Settings when the model was loaded with more.
            context_window=4096,
            idle_timeout=300.0,
            tool_set="compound",
        ),
        ProviderProfile(
            "lmstudio",
            "http://localhost:1234/v1",
            "LM Studio (local)",
            buffer_tool_turns=True,
            local=True,
            needs_key=False,
            text_tool_calls=True,
            idle_timeout=300.0,
            tool_set="compound",
        ),
        ProviderProfile(
            "llamacpp",
            "http://localhost:8080/v1",
            "llama.cpp server (local)",
            local=True,
            needs_key=False,
            text_tool_calls=True,
            tool_choice_required=True,
            idle_timeout=300.0,
            tool_set="compound",
        ),
        # vLLM, and llama-cpp-python's server, which also listens on 8000 by default.
        ProviderProfile(
            "vllm",
            "http://localhost:8000/v1",
            "vLLM (local)",
            local=True,
            needs_key=False,
            text_tool_calls=True,
            idle_timeout=300.0,
            tool_set="compound",
        ),
        ProviderProfile(
            "groq",
            "https://api.groq.com/openai/v1",
            "Groq",
            usage_paths=("usage", "x_groq.usage"),
        ),
        ProviderProfile("openrouter", "https://openrouter.ai/api/v1", "OpenRouter"),
        # LiteLLM's proxy (port 4000): it sends usage only when stream_options asks for it, and
        # passes the other OpenAI parameters on to the model behind it.
        ProviderProfile("litellm", "http://localhost:4000/v1", "LiteLLM proxy", needs_key=False),
        # A plain base URL: send nothing optional that a strict server could reject.
        ProviderProfile(
            "generic",
            "",
            "Other OpenAI-compatible server",
            include_usage=False,
            tool_choice=False,
            text_tool_calls=True,
            needs_key=False,
        ),
    )
}


def provider_name(profile: str) -> str:
    """The name the user sees for a provider profile ("generic" -> "Other OpenAI-compatible
    server"); an unknown profile is shown as it is spelled."""
    known = PROFILES.get(profile)
    return known.label if known is not None and known.label else profile


_PORTS = {11434: "ollama", 1234: "lmstudio", 8080: "llamacpp", 8000: "vllm", 4000: "litellm"}
_HOSTS = {"api.openai.com": "openai", "api.groq.com": "groq", "openrouter.ai": "openrouter"}


def profile_for(base_url: str, name: str | None = None) -> ProviderProfile:
    """The named profile, or the one a base URL implies (host, then default port), else generic."""
    if name:
        if name not in PROFILES:
            raise ValueError(f"unknown provider profile {name!r} (known: {', '.join(PROFILES)})")
        return PROFILES[name].with_base_url(base_url or PROFILES[name].default_base_url)
    url = httpx.URL(base_url)
    guess = _HOSTS.get(url.host) or _PORTS.get(url.port or 0) or "generic"
    return PROFILES[guess].with_base_url(base_url)
