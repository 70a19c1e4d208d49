"""Readable node names (the tree, the inspector, the agent's context and summaries use them) and
state keys across a spec (uses, rename with every use updated)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.resources import resource_path
from studio.spec import statekeys, tree, validate
from studio.spec.names import name_at, name_of, phrase, short


def sign_in() -> dict[str, Any]:
    return json.loads(resource_path("templates", "sign-in-form.json").read_text("utf-8"))


def test_a_node_is_named_by_its_id_else_its_type_and_text_with_a_breadcrumb() -> None:
    spec = sign_in()
    name = name_at(spec, "root.children[1].child.children[7]")
    assert name is not None
    assert name.short == "“Sign in”"
    assert name.phrase == "button “Sign in”"
    assert name.breadcrumb == "column › scroll › column › “Sign in”"
    assert short({"type": "button", "id": "submit", "label": "Go"}) == "submit"
    assert phrase({"type": "column", "id": "form"}) == "column 'form'"
    assert phrase({"type": "divider"}) == "divider"
    long = {"type": "text", "text": "x" * 100}
    assert len(short(long)) <= 34 and short(long).endswith("…”")
    assert name_of(spec, "root.children[9]") is None
    spec["root"]["children"][0]["id"] = "bar"
    assert name_of(spec, "bar") == name_at(spec, "root.children[0]")


def test_uses_list_every_field_and_placeholder() -> None:
    uses = statekeys.uses(sign_in(), "email")
    assert [u.where for u in uses] == [
        "stateKey",
        "visibleWhen.all[1].key",
        "visibleWhen.all[0].key",
        "visibleWhen.not.all[0].key",
        "text",
    ]
    assert uses[-1].path == "root.children[4]"  # "Signed in as {email}"


def test_rename_updates_every_use_and_keeps_the_value() -> None:
    spec = sign_in()
    renamed = statekeys.rename_key(spec, "forgotOpen", "resetOpen")
    assert validate(renamed).ok
    assert "forgotOpen" not in renamed["state"] and renamed["state"]["resetOpen"] is False
    assert list(renamed["state"]).index("resetOpen") == list(spec["state"]).index("forgotOpen")
    assert statekeys.uses(renamed, "forgotOpen") == []
    assert len(statekeys.uses(renamed, "resetOpen")) == 4
    text = statekeys.rename_key(spec, "email", "address")
    assert tree.node_at(text, "root.children[4]")["text"] == "Signed in as {address}"
    with pytest.raises(ValueError, match="already declared"):
        statekeys.rename_key(spec, "email", "password")
    with pytest.raises(ValueError, match="is not a state key"):
        statekeys.rename_key(spec, "email", "2fast")


def test_platform_arguments_and_status_keys_are_uses() -> None:
    spec = {
        "id": "p",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": ["clipboard"]},
        "state": {"note": "", "status": ""},
        "root": {
            "type": "button",
            "label": "Copy {note}",
            "onTap": [
                {
                    "type": "platform",
                    "call": "clipboard.copy",
                    "args": {"text": {"state": "note"}},
                    "statusKey": "status",
                },
                {"type": "emit", "name": "x", "payload": {"key": "note"}},
            ],
        },
    }
    assert [u.where for u in statekeys.uses(spec, "note")] == ["label", "onTap[0].args.text.state"]
    renamed = statekeys.rename_key(statekeys.rename_key(spec, "note", "memo"), "status", "result")
    action = renamed["root"]["onTap"][0]
    assert action["args"] == {"text": {"state": "memo"}} and action["statusKey"] == "result"
    assert renamed["root"]["onTap"][1]["payload"] == {"key": "note"}  # free JSON stays
    assert validate(renamed).ok
