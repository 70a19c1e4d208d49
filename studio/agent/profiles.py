"""Provider profiles: each OpenAI-compatible server's defaults and quirks in one place."""

from __future__ import annotations

from dataclasses import dataclass, replace

import httpx


@dataclass(frozen=True)
class ProviderProfile:
    """What differs between servers that all speak the OpenAI wire formats."""

    name: str
    default_base_url: str
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
    needs_key: bool = True

    def with_base_url(self, base_url: str) -> ProviderProfile:
        return replace(self, default_base_url=base_url)


PROFILES: dict[str, ProviderProfile] = {
    p.name: p
    for p in (
        ProviderProfile("openai", "https://api.openai.com/v1"),
        ProviderProfile(
            "ollama",
            "http://localhost:11434/v1",
            tool_choice=False,
            buffer_tool_turns=True,
            local=True,
            needs_key=False,
        ),
        ProviderProfile(
            "lmstudio",
            "http://localhost:1234/v1",
            buffer_tool_turns=True,
            local=True,
            needs_key=False,
        ),
        ProviderProfile("llamacpp", "http://localhost:8080/v1", local=True, needs_key=False),
        ProviderProfile("vllm", "http://localhost:8000/v1", local=True, needs_key=False),
        ProviderProfile(
            "groq", "https://api.groq.com/openai/v1", usage_paths=("usage", "x_groq.usage")
        ),
        ProviderProfile("openrouter", "https://openrouter.ai/api/v1"),
        # A plain base URL: send nothing optional that a strict server could reject.
        ProviderProfile("generic", "", include_usage=False, tool_choice=False),
    )
}

_PORTS = {11434: "ollama", 1234: "lmstudio", 8080: "llamacpp", 8000: "vllm"}
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
