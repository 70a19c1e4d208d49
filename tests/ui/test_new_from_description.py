"""Library > New from description in the studio, end to end with a scripted model: the dialog,
the agent building a two-page prototype on a draft from a minimal spec, the review (highlights,
the property diff, Apply), and the new library entry with the source `generated`."""

from __future__ import annotations

from typing import Any

import pytest

from studio.agent.providers import FixedModel
from studio.agent.testing import ScriptedModel, calls, reply
from studio.spec import validate
from studio.ui.new_from_description import DescribeDialog
from tests.agent.test_generate import TWO_SCREENS
from tests.helpers.studio import OFFSCREEN_SIZE_HINTS
from tests.ui.agent_helpers import finish

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)


def _build_steps() -> list[Any]:
    def first(request: Any) -> list[Any]:
        # The run starts from the minimal spec and the description.
        assert (
            "Create a new prototype from this description: A trip planner"
            in (request.messages[1]["content"])
        )
        return calls(("outline", {}))

    return [
        first,
        calls(
            (
                "patch",
                {
                    "ops": [
                        {"op": "add", "path": "/state/alerts", "value": False},
                        {"op": "replaceNode", "id": "screen", "node": TWO_SCREENS},
                    ],
                    "summary": "Trips and Profile pages with a bottom navigation",
                },
            )
        ),
        calls(("reviseSpec", {"theme": {"mode": "dark"}, "summary": "Dark theme"})),
        reply("Created a trip planner."),
    ]


def test_new_from_description_builds_a_draft_and_apply_saves_a_generated_entry(
    make_studio: Any,
) -> None:
    model = ScriptedModel(_build_steps())
    studio = make_studio(models=FixedModel(model))
    window, sheet = studio.window, studio.sheet
    before = {e.id for e in studio.library.list_entries()}
    panel = window.library_panel
    assert panel.new_menu.actions()[0].text() == "New from description…"
    panel.describe_action.trigger()
    dialog = window.findChild(DescribeDialog, "describeDialog")
    assert dialog is not None and dialog.isVisible()
    assert dialog.template.itemText(0) == "None (a blank screen)"
    assert not dialog.create_button.isEnabled()  # nothing described yet
    dialog.name.setText("Trip planner")
    dialog.description.setPlainText("A trip planner: trips, and a profile with an alerts switch")
    dialog.create_button.click()
    assert finish(studio.loop, sheet) == "completed"
    model.assert_complete()
    studio.settle()

    # Under review like any draft: the document is still the minimal spec, nothing saved yet.
    document = studio.controller.document
    assert document is not None and document.entry_id is None and document.name == "Trip planner"
    assert document.spec["root"]["children"][0]["children"] == []
    review = studio.workspace.review
    assert review is not None and not review.stale
    assert [r.summary for r in review.revisions] == [
        "Trips and Profile pages with a bottom navigation",
        "Dark theme",
    ]
    assert {"nav", "pages", "tripsPage", "profilePage"} <= window.spec_tree.highlighted()
    card = sheet.review.text()  # the property diff of the draft
    assert "+ pages (pager): new node" in card and '+ theme: {"mode": "dark"}' in card
    assert "+ state.alerts: false" in card and sheet.apply_button.isEnabled()
    assert {e.id for e in studio.library.list_entries()} == before

    sheet.apply_button.click()
    studio.wait_for(lambda: document.entry_id is not None)
    entry = studio.library.get(document.entry_id)
    assert entry.source == "generated" and entry.name == "Trip planner"
    assert entry.get("template") is None
    assert entry.get("description").startswith("A trip planner")
    saved = studio.library.load_spec(entry.id)
    assert validate(saved).ok and saved["theme"] == {"mode": "dark"}
    pager = saved["root"]["children"][0]["children"][1]
    assert [p["id"] for p in pager["children"]] == ["tripsPage", "profilePage"]
    assert entry.id in panel.entry_ids()
    assert "Saved Trip planner to the library (generated)" in studio.status


def test_a_template_start_and_a_discard_saves_nothing(make_studio: Any) -> None:
    model = ScriptedModel(
        [
            calls(("reviseSpec", {"theme": {"mode": "dark"}, "summary": "Dark"})),
            reply("Made it dark."),
        ]
    )
    studio = make_studio(models=FixedModel(model))
    before = {e.id for e in studio.library.list_entries()}
    studio.controller.new_from_description("sign-in-form", "Dark sign in", "A dark sign-in")
    assert finish(studio.loop, studio.sheet) == "completed"
    studio.settle()
    document = studio.controller.document
    assert document is not None and document.spec["id"] == "dark-sign-in"
    assert document.spec["root"]["type"]  # the template's screen
    studio.sheet.discard_button.click()
    studio.settle()
    assert {e.id for e in studio.library.list_entries()} == before
    assert document.entry_id is None
