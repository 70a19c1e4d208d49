"""Fixtures of the agent tests: a real local model server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.agent.server import ModelServer


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as srv:
        yield srv
