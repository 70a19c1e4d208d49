"""Where a run's model comes from: the configured OpenAI-compatible server (`ProviderModels`) or a
fixed client (`FixedModel`), the connection test and the local-server probe.

The HTTP client and the key store are passed in (the studio's composition root builds one of
each and closes the client at shutdown); the keychain is read off the event loop (`KeyStore.aget`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import httpx

from studio.agent.clients import ModelClient, check_request_allowed, make_client
from studio.agent.config import AgentConfig, key_account
from studio.agent.errors import ModelError
from studio.agent.keys import ENV, KeyStore
from studio.agent.profiles import PROFILES, profile_for, provider_name
from studio.agent.router import Router, RoutingError, Task

JSON = dict[str, Any]


@dataclass(frozen=True)
class ModelChoice:
    client: ModelClient
    guide: Literal["full", "short"]
    local: bool
    info: JSON = field(default_factory=dict)
    # The tool set and the reasoning effort chosen for this model (AgentConfig, per model).
    tool_set: str = "standard"
    effort: str = "provider-default"


class ModelSource(Protocol):
    """Where a run gets its model: the configured provider, or a fixed (scripted) one."""

    async def problem(self, config: AgentConfig) -> str | None:
        """What to configure before a run can start (None: ready)."""

    async def choose(
        self, config: AgentConfig, selected: str | None, *, kind: str = "edit"
    ) -> ModelChoice:
        """The model for a run: `kind` "create" (a new prototype) or "edit" (scoped to
        `selected` when given). Raises RoutingError, saying what to configure, if none."""


class ProviderModels:
    """The configured OpenAI-compatible server, through the core's router and key store."""

    def __init__(self, keys: KeyStore, http: httpx.AsyncClient) -> None:
        self.keys = keys
        self.http = http

    async def problem(self, config: AgentConfig) -> str | None:
        if config.profile not in PROFILES:
            return f"Unknown provider profile {config.profile!r}: choose one in Agent settings."
        profile = PROFILES[config.profile]
        if config.local_only and not profile.local:
            if config.has_local_model():
                return None if config.local_url() else "Set the local model's base URL."
            return (
                "Local only is on, but the configured model is a cloud model: choose a local "
                "model (Ollama, LM Studio, llama.cpp) in Agent settings."
            )
        if not config.resolved_base_url():
            return "Set the model server's base URL in Agent settings."
        name = provider_name(config.profile)
        if not config.model:
            return f"Choose a model for {name} in Agent settings."
        if profile.needs_key:
            lookup = await self.keys.aget(key_account(config))
            if lookup.key is None and lookup.no_keychain:
                return (
                    f"Add an API key for {name} in Agent settings. There is no OS keychain here: "
                    f"it is kept for this session only, or set {ENV}."
                )
            if lookup.key is None:
                return f"Add an API key for {name} in Agent settings (stored in the OS keychain)."
        return None

    async def choose(
        self, config: AgentConfig, selected: str | None, *, kind: str = "edit"
    ) -> ModelChoice:
        """The router's choice (seed 004 §4.5): an edit scoped to a selected node goes to the
        local model when one is configured, a new prototype or a broad edit to the cloud model,
        everything to the local one when Local only is on."""
        problem = await self.problem(config)
        if problem:
            raise RoutingError(problem)
        main_profile = PROFILES[config.profile]
        main: ModelClient | None = None
        if main_profile.local or not config.local_only:
            base_url = config.resolved_base_url()
            profile = profile_for(base_url, config.profile)
            # A stored key is sent to any server (a compatible one may want it); only a
            # profile that needs one refuses to run without it (`problem`).
            key = (await self.keys.aget(key_account(config))).key
            main = make_client(
                config.api, base_url, config.model, api_key=key, profile=profile, http=self.http
            )
        side: ModelClient | None = None
        if config.has_local_model() and not main_profile.local:
            url = config.local_url()
            side = make_client(
                "chat",
                url,
                config.local_model,
                profile=profile_for(url, config.local_profile),
                http=self.http,
            )
        router = Router(
            cloud=None if main_profile.local else main,
            local=main if main_profile.local else side,
            local_only=config.local_only,
        )
        route = router.choose(Task("create" if kind == "create" else "edit", selected))
        chosen = getattr(route.client, "profile", None)
        name = chosen.name if chosen is not None else config.profile
        info = {
            "profile": name,
            "api": config.api if route.client is main else "chat",
            "base_url": getattr(route.client, "base_url", ""),
            "local": route.local,
            "why": route.why,
        }
        return ModelChoice(
            route.client,
            route.guide,
            route.local,
            info,
            tool_set=config.tool_set(route.client.model, name),
            effort=config.effort(route.client.model),
        )


class FixedModel:
    """Always the same model client (a ScriptedModel in tests and benchmarks)."""

    def __init__(self, client: ModelClient, *, local: bool = False, problem: str | None = None):
        self.client = client
        self.local = local
        self._problem = problem

    async def problem(self, config: AgentConfig) -> str | None:
        return self._problem

    async def choose(
        self, config: AgentConfig, selected: str | None, *, kind: str = "edit"
    ) -> ModelChoice:
        if self._problem:
            raise RoutingError(self._problem)
        return ModelChoice(self.client, "short" if self.local else "full", self.local, {})


# -- connection test and local model probe ----------------------------------------------------


@dataclass(frozen=True)
class ConnectionResult:
    ok: bool
    message: str
    models: tuple[str, ...] = ()


async def check_connection(
    http: httpx.AsyncClient, base_url: str, api_key: str | None, *, seconds: float = 5.0
) -> ConnectionResult:
    """GET {base_url}/models: a real request that says whether the server and the key work."""
    url = base_url.rstrip("/") + "/models"
    try:
        check_request_allowed(url)
    except ModelError as exc:
        return ConnectionResult(False, str(exc))
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    started = time.monotonic()
    try:
        response = await http.get(url, headers=headers, timeout=seconds)
    except httpx.TimeoutException:
        return ConnectionResult(False, f"{url}: no answer within {seconds:g} s")
    except httpx.HTTPError as exc:
        return ConnectionResult(False, f"{url}: cannot connect ({exc or type(exc).__name__})")
    ms = (time.monotonic() - started) * 1000
    if response.status_code in (401, 403):
        return ConnectionResult(
            False, f"{url}: HTTP {response.status_code}, the server rejected the API key"
        )
    if response.status_code >= 400:
        return ConnectionResult(False, f"{url}: HTTP {response.status_code}")
    try:
        payload = response.json()
        models = tuple(
            str(m["id"]) for m in payload.get("data", []) if isinstance(m, dict) and "id" in m
        )
    except (ValueError, AttributeError):
        return ConnectionResult(False, f"{url}: the answer is not a model list (not JSON)")
    shown = ", ".join(models[:5]) + (" ..." if len(models) > 5 else "")
    return ConnectionResult(
        True,
        f"Connected in {ms:.0f} ms: {len(models)} model(s){': ' + shown if shown else ''}",
        models,
    )


LOCAL_SERVERS: tuple[tuple[str, str], ...] = (
    ("ollama", "http://127.0.0.1:11434/v1"),
    ("lmstudio", "http://127.0.0.1:1234/v1"),
    ("llamacpp", "http://127.0.0.1:8080/v1"),
)
LOCAL_NAMES = {"ollama": "Ollama", "lmstudio": "LM Studio", "llamacpp": "llama.cpp"}


@dataclass(frozen=True)
class LocalServer:
    profile: str
    base_url: str
    models: tuple[str, ...]

    @property
    def label(self) -> str:
        port = httpx.URL(self.base_url).port
        name = LOCAL_NAMES.get(self.profile, self.profile)
        model = f" ({self.models[0]})" if self.models else ""
        return f"{name} on port {port}{model}"


async def probe_local_servers(
    http: httpx.AsyncClient,
    candidates: Iterable[tuple[str, str]] = LOCAL_SERVERS,
    *,
    seconds: float = 0.5,
) -> list[LocalServer]:
    """The local model servers answering on their default ports (loopback only, all at once)."""

    async def probe(profile: str, base_url: str) -> LocalServer | None:
        host = httpx.URL(base_url).host
        if host not in ("127.0.0.1", "localhost", "::1"):
            return None  # never probe beyond this machine
        result = await check_connection(http, base_url, None, seconds=seconds)
        return LocalServer(profile, base_url, result.models) if result.ok else None

    found = await asyncio.gather(*(probe(p, u) for p, u in candidates))
    return [f for f in found if f is not None]
