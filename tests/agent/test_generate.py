"""New from description, core: the starting spec (template or minimal), the instruction, and a
scripted agent building a two-screen prototype on the draft as validated patches plus a
whole-spec revision of the theme."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.agent.generate import (
    DescriptionError,
    generation_instruction,
    minimal_spec,
    prototype_id,
    starting_spec,
)
from studio.agent.session import AgentSession
from studio.agent.testing import ScriptedModel, calls, reply
from studio.spec import validate
from tests.agent.util_spec import sign_in


def test_the_starting_spec_is_the_template_or_a_minimal_valid_spec() -> None:
    assert prototype_id("Trip Planner (v2)!") == "trip-planner-v2"
    assert prototype_id("???") == "prototype"
    spec = starting_spec("Trip planner")
    assert spec == minimal_spec("Trip planner") and validate(spec).ok
    assert spec["id"] == "trip-planner"
    template = sign_in()
    from_template = starting_spec("My sign in", template)
    assert from_template["id"] == "my-sign-in" and from_template["root"] == template["root"]
    assert template["id"] != "my-sign-in"  # the template itself is not changed
    with pytest.raises(DescriptionError, match="the starting spec is not valid: root"):
        starting_spec("x", {"id": "x", "window": {"placement": {"type": "fullscreen"}}})


def test_the_instruction_says_how_to_build_and_refuses_an_empty_description() -> None:
    text = generation_instruction("A  trip planner\nwith two screens")
    assert text.startswith("Create a new prototype from this description: A trip planner with")
    assert "minimal empty spec" in text and "pager" in text
    assert "template “Sign in”" in generation_instruction("x", template_name="Sign in")
    with pytest.raises(DescriptionError, match="Describe the prototype"):
        generation_instruction("  \n ")
    with pytest.raises(DescriptionError, match="keep it under 4000"):
        generation_instruction("word " * 1000)


TWO_SCREENS: dict[str, Any] = {
    "type": "column",
    "id": "screen",
    "children": [
        {
            "type": "bottomNav",
            "id": "nav",
            "pager": "pages",
            "items": [{"label": "Trips", "icon": "home"}, {"label": "Profile", "icon": "person"}],
        },
        {
            "type": "pager",
            "id": "pages",
            "children": [
                {"type": "text", "id": "tripsPage", "text": "Your trips"},
                {
                    "type": "column",
                    "id": "profilePage",
                    "children": [
                        {"type": "switch", "id": "alerts", "label": "Alerts", "stateKey": "alerts"}
                    ],
                },
            ],
        },
    ],
}


def test_a_two_screen_prototype_is_built_by_patches_and_a_theme_revision() -> None:
    model = ScriptedModel(
        [
            calls(("outline", {})),
            calls(
                (
                    "patch",
                    {
                        "ops": [
                            {"op": "add", "path": "/state/alerts", "value": False},
                            {"op": "replaceNode", "id": "screen", "node": TWO_SCREENS},
                        ],
                        "summary": "Two pages with a bottom navigation",
                    },
                )
            ),
            calls(("reviseSpec", {"theme": {"mode": "dark"}, "summary": "Dark theme"})),
            reply("Created a trip planner with Trips and Profile pages."),
        ]
    )
    spec = starting_spec("Trip planner")
    session = AgentSession(model, spec)
    result = asyncio.run(
        session.run(generation_instruction("A trip planner: trips and a profile with alerts"))
    )
    assert result.status == "completed", result.reason
    model.assert_complete()
    draft = session.draft.spec
    assert validate(draft).ok
    pager = draft["root"]["children"][0]["children"][1]
    assert [p["id"] for p in pager["children"]] == ["tripsPage", "profilePage"]
    assert draft["theme"] == {"mode": "dark"} and draft["state"] == {"alerts": False}
    assert [r.summary for r in session.draft.revisions] == [
        "Two pages with a bottom navigation",
        "Dark theme",
    ]
    assert session.draft.base == spec  # reviewed as a draft over the starting spec
