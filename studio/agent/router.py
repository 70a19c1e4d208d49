"""The model router: an edit scoped to one node may go to the local model, a new prototype to
the cloud model, unless the user forces local-only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from studio.agent.clients import ModelClient


class RoutingError(RuntimeError):
    """No configured model can take the task."""


@dataclass(frozen=True)
class Task:
    kind: Literal["create", "edit"]
    selected: str | None = None  # a node id/address: the edit is scoped to it

    @property
    def node_scoped(self) -> bool:
        return self.kind == "edit" and bool(self.selected)


@dataclass(frozen=True)
class Route:
    client: ModelClient
    local: bool
    guide: Literal["full", "short"]
    why: str


class Router:
    def __init__(
        self,
        cloud: ModelClient | None = None,
        local: ModelClient | None = None,
        *,
        local_only: bool = False,
    ) -> None:
        self.cloud = cloud
        self.local = local
        self.local_only = local_only

    def choose(self, task: Task) -> Route:
        if self.local_only:
            if self.local is None:
                raise RoutingError(
                    "Local only is on, but no local model is configured (Settings > Models)"
                )
            return Route(self.local, True, "short", "local only")
        if task.node_scoped and self.local is not None:
            return Route(self.local, True, "short", f"an edit scoped to {task.selected}")
        if self.cloud is not None:
            return Route(
                self.cloud,
                False,
                "full",
                "a new prototype" if task.kind == "create" else "a broad edit",
            )
        if self.local is not None:
            return Route(self.local, True, "short", "no cloud model is configured")
        raise RoutingError("No model is configured: add a cloud key or a local model in Settings")
