"""An inspector on a workspace, wired as the window wires it, for the inspector's own tests."""

from __future__ import annotations

import copy
from typing import Any

from studio.document import Document
from studio.ui.inspector import InspectorPanel
from studio.workspace import Workspace


def open_workspace(spec: dict[str, Any], name: str) -> Workspace:
    """A workspace with a copy of `spec` open as the prototype `name`."""
    workspace = Workspace()
    workspace.open(Document(copy.deepcopy(spec), name=name))
    return workspace


def shown_inspector(qtbot: Any, ws: Workspace) -> InspectorPanel:
    """A shown inspector that follows the workspace's primary node (the window's wiring)."""
    panel = InspectorPanel()
    qtbot.addWidget(panel)
    panel.show()
    ws.subscribe(lambda _e: panel.show_node(ws, ws.selection.primary))
    return panel


def node(ws: Workspace, node_id: str) -> dict[str, Any]:
    found = ws.node(node_id)
    assert found is not None
    return found


def revisions(ws: Workspace) -> list[str]:
    """The summaries of the applied revisions, oldest first."""
    assert ws.document is not None
    return [r.summary for r in ws.document.revisions.applied]
