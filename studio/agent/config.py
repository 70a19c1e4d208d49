"""The user's agent settings (`AgentConfig`: provider, model, limits) and their file, agent.json.

The API key is never here: it lives in the OS keychain (`studio.agent.keys`). Reading and writing
the file are blocking: the studio calls them off the GUI thread (`studio.concurrency.off_loop`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from studio.agent.events import Usage
from studio.agent.guards import Limits
from studio.agent.profiles import PROFILES


@dataclass
class AgentConfig:
    """What the user chose in Agent settings (the key is never here: it lives in the keychain)."""

    profile: str = "openai"
    base_url: str = ""  # empty: the profile's default
    model: str = ""
    api: Literal["chat", "responses"] = "chat"
    local_only: bool = False
    max_turns: int = 20
    token_budget: int | None = 200_000
    # Per model: the tool set ("standard", "compound") and the reasoning effort; a model not
    # listed gets its profile's tool set and "provider-default" (studio.agent.reasoning).
    tool_sets: dict[str, str] = field(default_factory=dict)
    efforts: dict[str, str] = field(default_factory=dict)
    # A local model for edits scoped to one node (the router, seed 004 §4.5), beside a cloud
    # `profile`; unused when `profile` is itself local. Empty: none is configured.
    local_profile: str = ""
    local_base_url: str = ""
    local_model: str = ""

    def tool_set(self, model: str | None = None, profile: str | None = None) -> str:
        """The tool set chosen for `model` (default: the configured one), else its profile's."""
        chosen = self.tool_sets.get(model or self.model)
        if chosen in ("standard", "compound"):
            return chosen
        known = PROFILES.get(profile or self.profile)
        return known.tool_set if known else "standard"

    def has_local_model(self) -> bool:
        """Whether a local model is configured beside the main one."""
        known = PROFILES.get(self.local_profile)
        return bool(known and known.local and self.local_model)

    def local_url(self) -> str:
        if self.local_base_url:
            return self.local_base_url.rstrip("/")
        known = PROFILES.get(self.local_profile)
        return known.default_base_url if known else ""

    def effort(self, model: str | None = None) -> str:
        """The reasoning effort chosen for `model`, else "provider-default" (send none)."""
        return self.efforts.get(model or self.model) or "provider-default"

    def resolved_base_url(self) -> str:
        if self.base_url:
            return self.base_url.rstrip("/")
        known = PROFILES.get(self.profile)
        return known.default_base_url if known else ""

    def is_local(self) -> bool:
        known = PROFILES.get(self.profile)
        return bool(known and known.local)

    def limits(self) -> Limits:
        return Limits(self.max_turns, self.token_budget)

    def cost(self, usage: Usage) -> float | None:
        """The run's cost in USD from the profile's list prices: 0 for a local model, None where
        the price is unknown."""
        known = PROFILES.get(self.profile)
        return known.cost(self.model, usage) if known else None

    @classmethod
    def from_json(cls, data: Any) -> AgentConfig:
        if not isinstance(data, dict):
            raise ValueError("the agent settings are not a JSON object")
        out = cls()
        for name in (
            "profile",
            "base_url",
            "model",
            "local_profile",
            "local_base_url",
            "local_model",
        ):
            if isinstance(data.get(name), str):
                setattr(out, name, data[name])
        if data.get("api") in ("chat", "responses"):
            out.api = data["api"]
        out.local_only = bool(data.get("local_only", False))
        if isinstance(data.get("max_turns"), int) and data["max_turns"] > 0:
            out.max_turns = data["max_turns"]
        budget = data.get("token_budget", out.token_budget)
        out.token_budget = budget if isinstance(budget, int) and budget > 0 else None
        for name, allowed in (("tool_sets", ("standard", "compound")), ("efforts", None)):
            found = data.get(name)
            if isinstance(found, dict):
                setattr(
                    out,
                    name,
                    {
                        str(k): v
                        for k, v in found.items()
                        if isinstance(v, str) and (allowed is None or v in allowed)
                    },
                )
        return out


def config_path() -> Path:
    from studio.platform.paths import config_dir  # honours PROTO_STUDIO_HOME

    return config_dir() / "agent.json"


def load_config(path: Path | None = None) -> tuple[AgentConfig, str | None]:
    """The saved settings, or the defaults and a one-line warning naming the file (blocking)."""
    path = path or config_path()
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return AgentConfig(), None
    except OSError as exc:
        return AgentConfig(), f"{path}: cannot read the agent settings ({exc.strerror})"
    try:
        return AgentConfig.from_json(json.loads(raw)), None
    except ValueError as exc:
        return AgentConfig(), f"{path}: the agent settings are unreadable ({exc}); using defaults"


def save_config(config: AgentConfig, path: Path | None = None) -> Path:
    """Atomic write (temp file, fsync, replace); blocking, so the studio calls it off the loop."""
    from studio.library.atomic import write_json

    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, asdict(config))
    return path


def key_account(config: AgentConfig) -> str:
    """The keychain account of a configuration (the agent CLI uses the profile name too)."""
    return config.profile
