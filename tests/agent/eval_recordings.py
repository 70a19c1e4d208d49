"""Recorded eval runs for the offline eval tests: scripted model streams for every shipped task,
run through the eval's live path (`run_live`: a real session, tools and guards) and saved as
the eval records them. Six use the standard tool set, one (settings-toggle) the compound set;
sign-in's first patch is rejected (a retry), restyle-button forgets the style (a failed check).

Regenerate tests/fixtures/eval/recorded/ with `python -m tests.agent.eval_recordings` after a
change to the run snapshot format."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

from studio.agent.evaluate import load_tasks, run_live
from studio.agent.guards import Limits
from studio.agent.testing import ScriptedModel, calls, reply
from tests.agent.scenarios import editable_list_steps

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "recorded"

SIGN_IN_BODY = {
    "type": "column",
    "id": "body",
    "children": [
        {"type": "textField", "id": "email", "stateKey": "email", "placeholder": "Email"},
        {"type": "textField", "id": "password", "stateKey": "password", "placeholder": "Password"},
        {"type": "button", "id": "submit", "label": "Sign in"},
    ],
}


def _patch(ops: list[Any], summary: str) -> tuple[str, Any]:
    return ("patch", {"ops": ops, "summary": summary})


def steps() -> dict[str, list[Any]]:
    bad = {"type": "textField", "id": "email", "stateKey": "email", "label": "Email"}
    tabs = {
        "type": "tabBar",
        "id": "tabs",
        "pager": "pages",
        "items": [
            {"label": "Home", "icon": "home"},
            {"label": "Search", "icon": "search"},
            {"label": "Settings", "icon": "settings"},
        ],
    }
    pages = {
        "type": "pager",
        "id": "pages",
        "children": [
            {"type": "text", "id": "homePage", "text": "Home"},
            {"type": "text", "id": "searchPage", "text": "Search"},
            {"type": "text", "id": "settingsPage", "text": "Settings"},
        ],
    }
    split = {
        "type": "column",
        "id": "body",
        "children": [
            {"type": "textField", "id": "amount", "stateKey": "amount", "placeholder": "Amount"},
            {"type": "textField", "id": "people", "stateKey": "people", "placeholder": "People"},
            {
                "type": "button",
                "id": "calculate",
                "label": "Calculate",
                "onTap": [
                    {
                        "type": "platform",
                        "call": "calc.evaluate",
                        "args": {
                            "expression": "a / b",
                            "a": {"state": "amount"},
                            "b": {"state": "people"},
                        },
                        "into": "/data/result",
                    }
                ],
            },
            {"type": "text", "id": "each", "text": "Each pays {/data/result/value}"},
        ],
    }
    return {
        "sign-in": [
            calls(
                _patch(
                    [
                        {
                            "op": "replaceNode",
                            "id": "body",
                            "node": {**SIGN_IN_BODY, "children": [bad]},
                        }
                    ],
                    "Add the form",
                )
            ),
            calls(
                _patch(
                    [
                        {"op": "add", "path": "/state/email", "value": ""},
                        {"op": "add", "path": "/state/password", "value": ""},
                        {"op": "replaceNode", "id": "body", "node": SIGN_IN_BODY},
                    ],
                    "Add the sign-in form",
                )
            ),
            reply("Added email, password and a Sign in button."),
        ],
        "add-tab": [
            calls(("readNode", {"id": "tabs"}), ("readNode", {"id": "pages"})),
            calls(
                _patch(
                    [
                        {"op": "replaceNode", "id": "tabs", "node": tabs},
                        {"op": "replaceNode", "id": "pages", "node": pages},
                    ],
                    "Add a Settings tab",
                )
            ),
            reply("Added a Settings tab."),
        ],
        "editable-list": editable_list_steps(),
        "split-bill": [
            calls(("capabilities", {})),
            calls(
                _patch(
                    [
                        {"op": "add", "path": "/state/amount", "value": "0"},
                        {"op": "add", "path": "/state/people", "value": "1"},
                        {"op": "add", "path": "/requires", "value": {"platform": ["calc"]}},
                        {"op": "replaceNode", "id": "body", "node": split},
                    ],
                    "Add the bill splitter",
                )
            ),
            reply("Added the bill splitter."),
        ],
        "dark-theme": [
            calls(
                (
                    "reviseSpec",
                    {"theme": {"mode": "dark", "colors": {"seed": "#6750A4"}}, "summary": "Dark"},
                )
            ),
            reply("Dark, with a purple seed."),
        ],
        "restyle-button": [
            calls(
                _patch(
                    [
                        {
                            "op": "replaceNode",
                            "id": "submit",
                            "node": {"type": "button", "id": "submit", "label": "Log in"},
                        }
                    ],
                    "Rename the button",
                )
            ),
            reply("Renamed it to Log in."),
        ],
    }


COMPOUND = {
    "settings-toggle": [
        calls(("outline", {})),
        calls(
            (
                "insert",
                {
                    "parent": "body",
                    "node": {
                        "type": "switch",
                        "id": "dark",
                        "label": "Dark mode",
                        "stateKey": "darkMode",
                    },
                },
            )
        ),
        calls(("check", {})),
        reply("Added a Dark mode switch."),
    ]
}


async def record(folder: Path) -> None:
    tasks = {t.id: t for t in load_tasks()}
    for tool_set, scripted in (("standard", steps()), ("compound", COMPOUND)):
        models = [ScriptedModel(s, model="scripted") for s in scripted.values()]
        chosen = [tasks[name] for name in scripted]
        await run_live(
            chosen,
            lambda models=models: models.pop(0),
            repeat=1,
            limits=Limits(8, 100_000),
            tool_set=tool_set,
            guide="short",
            info={"profile": "llamacpp", "api": "chat", "base_url": "http://127.0.0.1:8080/v1"},
            effort="provider-default",
            runs_dir=folder,
            progress=lambda line: print(line, file=sys.stderr),
        )


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else RECORDED
    shutil.rmtree(target, ignore_errors=True)
    asyncio.run(record(target))
