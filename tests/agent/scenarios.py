"""Scripted authoring runs (the seed's evaluation tasks), used by the scenario, replay and CLI tests."""

from __future__ import annotations

from typing import Any

from studio.agent.testing import call, calls, reply

SIGN_IN_BODY = {
    "type": "column",
    "id": "body",
    "children": [
        {"type": "text", "id": "welcome", "text": "Welcome back"},
        {"type": "textField", "id": "email", "stateKey": "email", "placeholder": "Email"},
        {"type": "textField", "id": "password", "stateKey": "password", "placeholder": "Password"},
        {"type": "checkbox", "id": "remember", "stateKey": "remember", "label": "Remember me"},
        {
            "type": "button",
            "id": "signIn",
            "label": "Sign in",
            "onTap": [{"type": "emit", "name": "signIn"}],
        },
    ],
}


def sign_in_steps() -> list[Any]:
    """From the blank template: outline, a rejected patch (textField has no `label`), the fix, preview."""
    bad_body = {
        **SIGN_IN_BODY,
        "children": [{"type": "textField", "id": "email", "stateKey": "email", "label": "Email"}],
    }
    state_ops = [
        {"op": "add", "path": "/state/email", "value": ""},
        {"op": "add", "path": "/state/password", "value": ""},
        {"op": "add", "path": "/state/remember", "value": True},
    ]
    title = {
        "op": "replaceNode",
        "id": "bar",
        "node": {"type": "topAppBar", "id": "bar", "title": "Sign in"},
    }
    return [
        calls(call("outline", {}, id="s1")),
        calls(
            call(
                "patch",
                {
                    "ops": [*state_ops, {"op": "replaceNode", "id": "body", "node": bad_body}],
                    "summary": "Add the sign-in form",
                },
                id="s2",
            )
        ),
        calls(
            call(
                "patch",
                {
                    "ops": [
                        *state_ops,
                        title,
                        {"op": "replaceNode", "id": "body", "node": SIGN_IN_BODY},
                    ],
                    "summary": "Add the sign-in form",
                },
                id="s3",
            )
        ),
        calls(call("preview", {}, id="s4")),
        reply("Added a sign-in screen with email, password, remember me and a Sign in button."),
    ]


def add_tab_steps() -> list[Any]:
    """Reads the tab bar and pager together, asks which icon, then patches both in one revision."""
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
            {
                "type": "column",
                "id": "settingsPage",
                "children": [{"type": "text", "id": "settingsTitle", "text": "Settings"}],
            },
        ],
    }
    return [
        calls(
            call("readNode", {"id": "tabs"}, id="t1"), call("readNode", {"id": "pages"}, id="t2")
        ),
        calls(
            call(
                "askUser",
                {"question": "Which icon for the new tab?", "options": ["settings", "tune"]},
                id="t3",
            )
        ),
        calls(
            call(
                "patch",
                {
                    "ops": [
                        {"op": "replaceNode", "id": "tabs", "node": tabs},
                        {"op": "replaceNode", "id": "pages", "node": pages},
                    ],
                    "summary": "Add a Settings tab",
                },
                id="t4",
            )
        ),
        reply("Added a Settings tab with its page."),
    ]


def editable_list_steps() -> list[Any]:
    items = [{"id": "milk", "name": "Milk"}, {"id": "eggs", "name": "Eggs"}]
    node = {
        "type": "column",
        "id": "items",
        "repeat": {"as": "item", "items": items},
        "children": [
            {
                "type": "row",
                "children": [
                    {"type": "checkbox", "stateKey": "done_{item.id}"},
                    {"type": "textField", "stateKey": "name_{item.id}", "placeholder": "Item name"},
                ],
            }
        ],
    }
    ops = [
        {"op": "add", "path": "/state/name_milk", "value": "Milk"},
        {"op": "add", "path": "/state/name_eggs", "value": "Eggs"},
        {"op": "add", "path": "/state/done_milk", "value": False},
        {"op": "add", "path": "/state/done_eggs", "value": False},
        {"op": "replaceNode", "id": "items", "node": node},
    ]
    return [
        calls(
            call("outline", {}, id="l1"),
            call("readNode", {"id": "items"}, id="l2"),
            call("readData", {"pointer": "/state"}, id="l3"),
        ),
        calls(
            call(
                "patch",
                {"ops": ops, "summary": "Make each grocery editable with a checkbox"},
                id="l4",
            )
        ),
        calls(call("preview", {}, id="l5")),
        reply("Each row now has a checkbox and an editable name."),
    ]
