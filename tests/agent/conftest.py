"""Fixtures of the agent tests: a real local model server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.agent.server import ModelServer


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as srv:
        yield srv


# The real servers (session-scoped: built and started once, only when a test asks for them).
from tests.agent.real_servers import litellm_proxy, llama_server  # noqa: E402, F401
