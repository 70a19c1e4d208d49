"""The router in the configured provider (seed 004 §4.5): a node-scoped edit goes to the local
model when one is configured, a new prototype to the cloud model unless Local only is on; the
choice says which model and why, and carries that model's tool set and effort."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import keyring
import pytest

from studio.agent.config import AgentConfig
from studio.agent.keys import KeyStore
from studio.agent.providers import ProviderModels
from studio.agent.router import RoutingError
from tests.helpers.memory_keyring import MemoryKeyring

CLOUD = AgentConfig(
    profile="openai",
    model="gpt-4.1",
    local_profile="ollama",
    local_model="qwen3:4b",
    efforts={"gpt-4.1": "low"},
)


def choose(config: AgentConfig, selected: str | None, kind: str = "edit") -> Any:
    keyring.set_keyring(MemoryKeyring())
    keys = KeyStore()

    async def go() -> Any:
        await keys.aset("openai", "sk-router-test-0001")
        async with httpx.AsyncClient() as http:
            models = ProviderModels(keys, http)
            return await models.problem(config), await models.choose(config, selected, kind=kind)

    return asyncio.run(go())


def test_a_node_scoped_edit_goes_to_the_local_model_and_says_why() -> None:
    problem, choice = choose(CLOUD, "submit")
    assert problem is None
    assert choice.client.model == "qwen3:4b" and choice.local
    assert choice.info["why"] == "an edit scoped to submit"
    assert choice.info["profile"] == "ollama" and choice.guide == "short"
    assert choice.info["base_url"] == "http://localhost:11434/v1"
    assert choice.tool_set == "compound" and choice.effort == "provider-default"


def test_a_new_prototype_and_a_broad_edit_go_to_the_cloud_model() -> None:
    _, create = choose(CLOUD, "submit", kind="create")
    assert create.client.model == "gpt-4.1" and not create.local
    assert create.info["why"] == "a new prototype"
    assert create.tool_set == "standard" and create.effort == "low"
    _, broad = choose(CLOUD, None)
    assert broad.client.model == "gpt-4.1" and broad.info["why"] == "a broad edit"


def test_local_only_sends_everything_to_the_local_model() -> None:
    config = AgentConfig(**{**CLOUD.__dict__, "local_only": True})
    problem, choice = choose(config, None, kind="create")
    assert problem is None
    assert choice.client.model == "qwen3:4b" and choice.info["why"] == "local only"
    alone = AgentConfig(profile="openai", model="gpt-4.1", local_only=True)
    with pytest.raises(RoutingError, match="Local only is on, but the configured model is a cloud"):
        choose(alone, None)


def test_a_local_main_model_takes_everything() -> None:
    config = AgentConfig(
        profile="llamacpp", model="qwen", local_model="other", local_profile="ollama"
    )
    _, choice = choose(config, None, kind="create")
    assert choice.client.model == "qwen" and choice.local
    assert choice.info["why"] == "no cloud model is configured"
