"""Reasoning effort: the portable `effort` option and every provider's translation of it, here only.

`effort` is one of `EFFORTS` or the explicit posture `provider-default`, which sends nothing, so a
provider without a translation still runs (the seed's scaffold harness: "reasoning:
provider-default explicitly omits portable effort"). Any other value a provider cannot take is
refused before a request is sent, with a line naming the provider and what it takes.

What each server reads (checked in their source or documentation):

- OpenAI: Chat Completions `reasoning_effort`, Responses `reasoning.effort` (the openai SDK's
  `CompletionCreateParams.reasoning_effort` and `ResponseCreateParams.reasoning`; openai-agents
  sends `ModelSettings.reasoning` the same way, `models/openai_responses.py`).
- LiteLLM's proxy: the same fields; it translates them for the model behind it.
- Groq: `reasoning_effort` (none, low, medium, high).
- OpenRouter: one `reasoning: {"effort"}` object on both APIs.
- Ollama: `reasoning_effort` or `reasoning.effort`, one of high, medium, low, none; anything else
  is an HTTP 400 (ollama `openai/openai.go`: `FromChatRequest`, "invalid reasoning value").
- llama.cpp's llama-server: `reasoning_effort`, "none" turns thinking off, any other value goes
  to the chat template as the `reasoning_effort` kwarg (`tools/server/server-common.cpp`); on
  /v1/responses `reasoning.effort` becomes `reasoning_effort` (`server-chat.cpp`).
- vLLM: `reasoning_effort` (low, medium, high) on chat; `reasoning.effort` on Responses.
- LM Studio and a plain OpenAI-compatible server: no translation (provider-default only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

PROVIDER_DEFAULT = "provider-default"
EFFORTS: tuple[str, ...] = ("none", "minimal", "low", "medium", "high", "xhigh")
"""Portable effort levels, least to most (OpenAI's vocabulary, the widest one)."""
CHOICES: tuple[str, ...] = (PROVIDER_DEFAULT, *EFFORTS)

Shape = Literal["reasoning_effort", "reasoning.effort"]


class EffortError(ValueError):
    """An effort this provider (or API) cannot take: one line saying what it takes instead."""


@dataclass(frozen=True)
class Translation:
    """How one provider takes an effort on each API, and which levels it accepts."""

    chat: Shape | None
    responses: Shape | None
    levels: tuple[str, ...]


_OPENAI = Translation("reasoning_effort", "reasoning.effort", EFFORTS)
TRANSLATIONS: dict[str, Translation] = {
    "openai": _OPENAI,
    "litellm": _OPENAI,
    "groq": Translation("reasoning_effort", "reasoning.effort", ("none", "low", "medium", "high")),
    "openrouter": Translation("reasoning.effort", "reasoning.effort", EFFORTS),
    "ollama": Translation(
        "reasoning_effort", "reasoning.effort", ("none", "low", "medium", "high")
    ),
    "llamacpp": Translation(
        "reasoning_effort", "reasoning.effort", ("none", "low", "medium", "high")
    ),
    "vllm": Translation("reasoning_effort", "reasoning.effort", ("low", "medium", "high")),
}
"""Profile name -> translation. A profile that is not here takes provider-default only."""

_API_NAMES = {"chat": "Chat Completions", "responses": "the Responses API"}


def normalise(effort: str | None) -> str:
    """`None` and "" mean provider-default; case and spaces do not matter."""
    text = (effort or "").strip().lower()
    return text or PROVIDER_DEFAULT


def effort_problem(profile: str, api: str, effort: str | None) -> str | None:
    """Why `effort` cannot be sent to `profile` over `api`, or None when it can (or is omitted)."""
    value = normalise(effort)
    if value == PROVIDER_DEFAULT:
        return None
    if value not in EFFORTS:
        return (
            f"unknown reasoning effort {effort!r}: use one of {', '.join(CHOICES)} "
            f"({PROVIDER_DEFAULT} sends none)"
        )
    found = TRANSLATIONS.get(profile)
    shape = None if found is None else (found.chat if api == "chat" else found.responses)
    if found is None or shape is None:
        where = f"the {profile} profile" + ("" if found is None else f" on {_API_NAMES[api]}")
        return (
            f"{where} has no reasoning-effort setting, so effort {value!r} cannot be sent; "
            f"use {PROVIDER_DEFAULT} (the server's own default)"
        )
    if value not in found.levels:
        return (
            f"the {profile} profile does not take reasoning effort {value!r} (it takes "
            f"{', '.join(found.levels)}); choose one of those or {PROVIDER_DEFAULT}"
        )
    return None


def request_fields(profile: str, api: str, effort: str | None) -> dict[str, Any]:
    """The request body fields that carry `effort` ({} for provider-default); EffortError when
    the provider cannot take it."""
    problem = effort_problem(profile, api, effort)
    if problem is not None:
        raise EffortError(problem)
    value = normalise(effort)
    if value == PROVIDER_DEFAULT:
        return {}
    translation = TRANSLATIONS[profile]
    shape = translation.chat if api == "chat" else translation.responses
    if shape == "reasoning_effort":
        return {"reasoning_effort": value}
    return {"reasoning": {"effort": value}}


def levels_for(profile: str, api: str) -> tuple[str, ...]:
    """The choices a settings field offers for `profile` on `api` (provider-default first)."""
    found = TRANSLATIONS.get(profile)
    shape = None if found is None else (found.chat if api == "chat" else found.responses)
    if found is None or shape is None:
        return (PROVIDER_DEFAULT,)
    return (PROVIDER_DEFAULT, *found.levels)
