"""The small prototype headless agent tests run on (a title and a button), and the patch that
renames its button."""

from __future__ import annotations

from typing import Any

SPEC: dict[str, Any] = {
    "id": "demo",
    "window": {"placement": {"type": "fullscreen"}},
    "state": {},
    "root": {
        "type": "column",
        "children": [
            {"type": "text", "id": "title", "text": "Hello"},
            {"type": "button", "id": "go", "label": "Go"},
        ],
    },
}
RENAME_GO: dict[str, Any] = {
    "ops": [
        {"op": "replaceNode", "id": "go", "node": {"type": "button", "id": "go", "label": "Send"}}
    ],
    "summary": "Rename the button to Send",
}
