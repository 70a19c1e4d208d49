"""Small specs shared by the address, outline and patch tests."""

from __future__ import annotations

from typing import Any


def inbox_spec() -> dict[str, Any]:
    """A valid spec with ids, a duplicated id, `child` nodes, a dialog, a repeat and data."""
    return {
        "id": "inbox",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"dark": False, "count": 2, "name": "Ann", "open": False},
        "root": {
            "type": "column",
            "children": [
                {"type": "text", "id": "title", "text": "Inbox ({count})"},
                {"type": "switch", "id": "darkSwitch", "stateKey": "dark", "label": "Dark"},
                {
                    "type": "scroll",
                    "child": {
                        "type": "column",
                        "repeat": {"as": "item", "items": [{"t": "a"}, {"t": "b"}]},
                        "children": [{"type": "text", "text": "{item.t}"}],
                    },
                },
                {"type": "text", "id": "title", "text": "Second title"},
                {
                    "type": "dialog",
                    "openWhen": {"key": "open", "equals": True},
                    "confirm": {"label": "OK"},
                    "child": {"type": "button", "label": "Hello {name}"},
                },
            ],
        },
    }
