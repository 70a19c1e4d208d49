"""Scripted end-to-end authoring runs ending in valid specs, then saved and replayed without a model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from studio.agent.loop import UserAnswer
from studio.agent.replay import replay_sync
from studio.agent.session import AgentSession
from studio.agent.snapshot import load_snapshot, save_snapshot
from studio.agent.testing import ScriptedModel
from studio.runtime import Runtime
from studio.spec import expand, validate
from tests.agent.scenarios import add_tab_steps, editable_list_steps, sign_in_steps
from tests.agent.util_spec import load


def session_for(
    steps: list[Any], spec: str
) -> tuple[AgentSession, ScriptedModel, list[dict[str, Any]]]:
    model = ScriptedModel(steps)
    events: list[dict[str, Any]] = []
    session = AgentSession(model, load(spec), on_event=lambda e: events.append(e.to_json()))
    return session, model, events


def test_create_a_sign_in_screen_from_a_template(tmp_path: Path) -> None:
    session, model, events = session_for(sign_in_steps(), "blank-screen")
    result = asyncio.run(session.run("Create a sign-in screen with email and password"))
    model.assert_complete()
    assert result.status == "completed"
    spec = session.draft.spec
    assert validate(spec).ok
    # the rejected patch went back to the model with op index, path and message, and changed nothing
    rejection = json.loads(model.requests[2].messages[-1]["content"])
    assert (
        rejection["opIndex"] == 3
        and "label" in rejection["path"]
        and rejection["message"] == "Unknown property"
    )
    [revision] = session.draft.revisions
    assert revision.summary == "Add the sign-in form" and revision.author == "agent"
    assert revision.instruction == "Create a sign-in screen with email and password"
    on_screen = json.loads(model.requests[4].messages[-1]["content"])["onScreen"]
    assert {"Sign in", "Welcome back"} <= {e["text"] for e in on_screen}
    assert [e["summary"] for e in events if e["type"] == "revision"] == ["Add the sign-in form"]
    # the model saw the outline, not the whole spec
    assert "body: column" in model.requests[1].messages[-1]["content"]
    assert_replays(session, tmp_path)


def test_add_a_tab_with_an_ask_user_pause(tmp_path: Path) -> None:
    session, model, events = session_for(add_tab_steps(), "tabs-app")

    async def go() -> Any:
        paused = await session.run("Add a settings tab")
        assert paused.status == "needs_input" and paused.request is not None
        assert paused.request.question == "Which icon for the new tab?"
        return await session.resume(UserAnswer("settings"))

    result = asyncio.run(go())
    model.assert_complete()
    assert result.status == "completed"
    spec = session.draft.spec
    assert validate(spec).ok
    assert [i["label"] for i in spec["root"]["children"][0]["items"]] == [
        "Home",
        "Search",
        "Settings",
    ]
    assert len(spec["root"]["children"][1]["children"]) == 3
    rt = Runtime(expand(spec))
    rt.set_page("pages", 2)
    assert "Settings" in [e["text"] for e in rt.visible_summary()]
    assert_replays(session, tmp_path)


def test_make_a_list_editable(tmp_path: Path) -> None:
    session, model, _ = session_for(editable_list_steps(), "grocery-list")
    result = asyncio.run(session.run("Make the list editable"))
    model.assert_complete()
    assert result.status == "completed"
    spec = session.draft.spec
    assert validate(spec).ok
    rt = Runtime(expand(spec))
    rt.set_value("name_milk", "Oat milk")
    rt.set_value("done_eggs", True)
    assert rt.state["name_milk"] == "Oat milk" and rt.state["done_eggs"] is True
    # readNode, outline and readData ran in one batch; one follow-up request
    assert [m["role"] for m in model.requests[1].messages[-3:]] == ["tool", "tool", "tool"]
    assert_replays(session, tmp_path)


def assert_replays(session: AgentSession, tmp_path: Path) -> None:
    path = save_snapshot(session.snapshot(), tmp_path / "run.json")
    snapshot = load_snapshot(path)
    assert snapshot["version"] == 2 and snapshot["tools"] == session.tools.fingerprints()
    report = replay_sync(snapshot)
    assert report.ok, report.differences
    assert report.drift == []
    assert report.final_spec == session.draft.spec
    assert [r["summary"] for r in report.revisions] == [r.summary for r in session.draft.revisions]


def test_replay_reports_tool_drift_and_changed_results(tmp_path: Path) -> None:
    session, _, _ = session_for(editable_list_steps(), "grocery-list")
    asyncio.run(session.run("Make the list editable"))
    snapshot = session.snapshot()
    snapshot["tools"]["patch"] = "0000000000000000"
    del snapshot["tools"]["events"]
    # a different recorded patch result would make the revisions differ
    snapshot["revisions"][0]["summary"] = "something else"
    report = replay_sync(json.loads(json.dumps(snapshot)))
    assert "patch: schema changed (0000000000000000 -> " in " ".join(report.drift)
    assert "events: new since the recording" in report.drift
    assert not report.same_revisions and not report.ok


def test_selected_node_is_context_and_the_trace_has_every_step() -> None:
    from studio.agent.testing import call, calls, reply

    node = {"type": "topAppBar", "id": "bar", "title": "Inbox"}
    steps = [
        calls(
            call(
                "patch",
                {
                    "ops": [{"op": "replaceNode", "id": "bar", "node": node}],
                    "summary": "Rename to Inbox",
                },
            )
        ),
        reply("Renamed."),
    ]
    session, model, _ = session_for(steps, "blank-screen")
    result = asyncio.run(session.run("Rename this to Inbox", selected="bar"))
    assert result.status == "completed"
    first_user = model.requests[0].messages[1]["content"]
    assert "(Selected node: bar)" in first_user and '"title": "Untitled"' in first_user
    kinds = [s["kind"] for s in session.tracer.steps]
    assert kinds == [
        "context",
        "model_request",
        "model_response",
        "tool_call",
        "model_request",
        "model_response",
        "run_end",
    ]
    assert all(s["trace_id"] == session.trace_id for s in session.tracer.steps)
    response = session.tracer.steps[2]
    assert response["first_event_ms"] >= 0 and response["duration_ms"] >= response["first_event_ms"]
    tool = session.tracer.steps[3]
    assert tool["name"] == "patch" and tool["arguments"]["summary"] == "Rename to Inbox"
    assert (
        json.loads(tool["result"])["ok"] is True
        and tool["error_class"] is None
        and tool["duration_ms"] >= 0
    )
    snapshot = session.snapshot()
    model_records = [r for r in snapshot["record"] if r["kind"] == "model"]
    assert model_records[1]["events"][0] == {"type": "text", "text": "Renamed."}
