"""A platform call's literal text is bound like display text before the host sees it (the
walkthrough's step 8: `Each person pays {/data/split/value}` reached the clipboard as written)."""

from __future__ import annotations

from studio.runtime import Runtime
from studio.runtime.platform_calls import resolve_args

SPEC = {
    "id": "split",
    "window": {"placement": {"type": "fullscreen"}},
    "requires": {"platform": ["clipboard"]},
    "state": {"people": 4, "name": "Ana", "status": "idle"},
    "data": {"split": {"value": 34.5}},
    "root": {
        "type": "button",
        "id": "copy",
        "label": "Copy",
        "onTap": [
            {"type": "setState", "key": "people", "value": 5},
            {
                "type": "platform",
                "call": "clipboard.copy",
                "args": {"text": "Each person pays {/data/split/value} ({people} people)"},
                "statusKey": "status",
            },
        ],
    },
}


def test_the_request_carries_the_resolved_text() -> None:
    runtime = Runtime(SPEC)
    (request,) = runtime.run_actions(SPEC["root"]["onTap"])
    # state as the list left it at that point (people was set to 5 just before)
    assert request.args == {"text": "Each person pays 34.5 (5 people)"}


def test_nested_literals_are_bound_and_unknown_placeholders_stay() -> None:
    state = {"name": "Ana"}
    data = {"n": {"v": 2}}
    args = {
        "title": "{name} {unknown} {/data/missing}",
        "lines": ["Hi {name}", {"deep": "{/data/n/v} items"}],
        "count": 3,
        "ref": {"state": "name"},
    }
    assert resolve_args(args, state, data) == {
        "title": "Ana {unknown} {/data/missing}",
        "lines": ["Hi Ana", {"deep": "2 items"}],
        "count": 3,
        "ref": "Ana",
    }
