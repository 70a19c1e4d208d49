"""Issue 16, points 5-7, 9 and 10: weak models' text tool calls, the nudge and "no changes
made", cheap argument repairs, tool schemas llama.cpp's grammar can close, and arguments that
used to crash the loop or wedge the conversation."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from studio.agent.events import TextDelta, ToolCall
from studio.agent.session import AgentSession, asks_for_change
from studio.agent.testing import ScriptedModel, call, calls, reply
from studio.agent.textcalls import parse_text_calls
from tests.agent.util_spec import load

NODE = {"type": "topAppBar", "id": "bar", "title": "Inbox"}
PATCH = {"ops": [{"op": "replaceNode", "id": "bar", "node": NODE}], "summary": "Title Inbox"}
TOOLS = {"outline", "readNode", "patch", "preview"}


def resolve(name: str) -> str | None:
    return name if name in TOOLS else None


def session(steps: list[Any]) -> tuple[AgentSession, ScriptedModel, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    model = ScriptedModel(steps)
    return (
        AgentSession(model, load("blank-screen"), on_event=lambda e: events.append(e.to_json())),
        model,
        events,
    )


def outputs(s: AgentSession) -> list[dict[str, Any]]:
    return [json.loads(r["output"]) for r in s.loop.record if r.get("kind") == "tool"]


# -- point 5: tool calls written as text -------------------------------------------------------


def test_hermes_tags_and_llama_cpp_python_prefix_are_calls() -> None:
    text = (
        f'Sure.\n<tool_call>\n{{"name": "patch", "arguments": {json.dumps(PATCH)}}}\n</tool_call>'
    )
    rest, [found] = parse_text_calls(text, resolve)
    assert rest == "Sure." and found.name == "patch" and json.loads(found.arguments) == PATCH
    # llama-cpp-python's chatml-function-calling routing prefix, with and without arguments
    rest, found_calls = parse_text_calls(
        'functions.preview:\nfunctions.readNode:{"id": "bar"}', resolve
    )
    assert [(c.name, json.loads(c.arguments)) for c in found_calls] == [
        ("preview", {}),
        ("readNode", {"id": "bar"}),
    ]
    # an unknown tool is not a call; a bare JSON object counts only for a loose profile
    assert (
        parse_text_calls('<tool_call>{"name": "rm", "arguments": {}}</tool_call>', resolve)[1] == []
    )
    bare = '```json\n{"name": "outline", "arguments": {}}\n```'
    assert parse_text_calls(bare, resolve)[1] == []
    assert [c.name for c in parse_text_calls(bare, resolve, loose=True)[1]] == ["outline"]
    assert parse_text_calls("I renamed the title to Inbox.", resolve, loose=True) == (
        "I renamed the title to Inbox.",
        [],
    )


def test_a_tagged_call_in_the_text_is_run_not_taken_as_the_answer() -> None:
    tagged = f'<tool_call>{{"name": "patch", "arguments": {json.dumps(PATCH)}}}</tool_call>'
    s, model, events = session([reply(tagged), reply("Renamed.")])
    result = asyncio.run(s.run("Rename the title to Inbox"))
    model.assert_complete()
    assert result.status == "completed" and result.text == "Renamed."
    assert [r.summary for r in s.draft.revisions] == ["Title Inbox"]
    assert any(e["type"] == "revision" for e in events)
    # the transcript now holds a real call with its answer, so the next request is well formed
    assistant = model.requests[1].messages[-2]
    assert assistant["tool_calls"][0]["name"] == "patch" and not assistant["content"]


def test_a_claim_without_a_change_is_nudged_once_then_no_changes_made() -> None:
    s, model, events = session(
        [reply("I renamed the title to Inbox."), reply("Done, it is renamed.")]
    )
    result = asyncio.run(s.run("Rename the title to Inbox"))
    model.assert_complete()
    assert result.status == "no_changes" and result.error_class is None
    assert result.reason == "No changes made: the draft was not changed: no patch was applied."
    nudge = model.requests[1].messages[-1]
    assert nudge["role"] == "user" and "patch tool" in nudge["content"]
    assert [e["type"] for e in events].count("no_changes") == 1 and events[-1][
        "type"
    ] == "no_changes"
    assert "Done, it is renamed." in events[-1]["text"]  # what the model said stays visible


def test_the_nudge_turn_asks_for_a_tool_where_the_server_honours_required() -> None:
    class Required(ScriptedModel):
        class profile:  # noqa: N801 - the attribute a real client carries
            name = "llamacpp"
            tool_choice_required = True
            text_tool_calls = True
            idle_timeout = 300.0

            @staticmethod
            def window(model: str) -> None:
                return None

    model = Required([reply("Looks fine."), calls(("patch", PATCH)), reply("Renamed.")])
    s = AgentSession(model, load("blank-screen"))
    assert asyncio.run(s.run("Rename the title to Inbox")).status == "completed"
    assert [r.tool_choice for r in model.requests] == ["auto", "required", "auto"]


def test_a_rejected_patch_is_the_reason_given() -> None:
    bad = {"ops": [{"op": "replaceNode", "id": "nope", "node": NODE}], "summary": "x"}
    s, _, _ = session([calls(("patch", bad)), reply("Done."), reply("Done, really.")])
    result = asyncio.run(s.run("Rename the title to Inbox"))
    assert result.status == "no_changes" and "the last patch was rejected (op 0" in result.reason


def test_questions_are_not_nudged() -> None:
    assert not asks_for_change("What does this screen do?")
    assert not asks_for_change("Explain the layout")
    assert asks_for_change("Rename the sign-in button to Log in")
    assert asks_for_change("The title should say Inbox")
    s, model, _ = session([reply("A blank screen with a title bar.")])
    assert asyncio.run(s.run("What does this screen do?")).status == "completed"
    model.assert_complete()


# -- point 6: cheap repairs --------------------------------------------------------------------


def test_cheap_repairs_before_an_error_costs_a_turn() -> None:
    steps = [
        calls(
            call("patch", json.dumps(json.dumps(PATCH))),  # the whole arguments as a JSON string
            call("Patch", {**PATCH, "ops": json.dumps(PATCH["ops"])}),  # wrong case, ops a string
            call("functions.readNode", {"id": "bar"}),  # OpenAI's routing namespace
        ),
        reply("Renamed."),
    ]
    s, model, events = session(steps)
    result = asyncio.run(s.run("Rename the title to Inbox"))
    assert result.status == "completed"
    outs = outputs(s)
    assert outs[0]["ok"] is True and outs[1]["ok"] is True and outs[2]["id"] == "bar"
    repaired = [step["repairs"] for step in s.tracer.steps if step["kind"] == "repaired"]
    assert ["the arguments were a JSON string, not an object"] in repaired
    assert [
        "the tool name 'Patch' means 'patch'",
        "ops was a JSON string, not an array",
    ] in repaired


def test_every_schema_error_of_a_call_is_reported_at_once_without_echoing_it() -> None:
    big = "x" * 5000
    args = {"ops": [{"op": "explode", "id": 7}], "summary": big, "extra": 1}
    s, _, _ = session([calls(("patch", args)), reply("ok"), reply("ok")])
    asyncio.run(s.run("Rename the title"))
    error = outputs(s)[0]["error"]
    assert "/ops/0/op" in error and "/ops/0/id" in error and "/summary" in error
    assert "unknown properties 'extra'" in error
    assert len(error) < 1500 and big not in error


# -- point 7: schemas llama.cpp's grammar can close --------------------------------------------


def test_no_tool_schema_has_a_pattern() -> None:
    def patterns(schema: Any) -> list[str]:
        if isinstance(schema, dict):
            return ([schema["pattern"]] if "pattern" in schema else []) + [
                p for v in schema.values() for p in patterns(v)
            ]
        if isinstance(schema, list):
            return [p for v in schema for p in patterns(v)]
        return []

    s, _, _ = session([])
    assert [p for spec in s.tools.specs() for p in patterns(spec.parameters)] == []
    patch = s.tools.get("patch")
    assert patch is not None and patch.parameters["properties"]["summary"]["maxLength"] == 120


# -- points 9 and 10: every call answered, whatever its arguments ------------------------------


def test_hostile_arguments_are_answered_and_the_session_goes_on() -> None:
    """F2 and F3: 100,000-deep nesting, a 5,000-digit integer, NaN and a lone surrogate each get
    an error answer; the next instruction runs (nothing is left waiting)."""
    hostile = [
        "[" * 100_000 + "]" * 100_000,
        '{"limit": ' + "1" * 5000 + "}",
        '{"ops": [{"op": "add", "path": "/state/x", "value": NaN}], "summary": "nan"}',
        '{"ops": [{"op": "replaceNode", "id": "bar", "node": {"type": "topAppBar", "id": "bar", '
        '"title": "x\\ud800y"}}], "summary": "s"}',
    ]
    names = ["readNode", "events", "patch", "patch"]
    steps: list[Any] = [
        calls(
            *(
                ToolCall(f"c{n}", name, raw)
                for n, (name, raw) in enumerate(zip(names, hostile, strict=True))
            )
        ),
        reply("I could not."),
        reply("Still could not."),
        calls(("patch", PATCH)),
        reply("Renamed."),
    ]
    s, model, events = session(steps)
    first = asyncio.run(s.run("Rename the title"))
    assert first.status == "no_changes" and not s.waiting
    errors = [o["error"] for o in outputs(s)]
    assert "nested too deeply" in errors[0]
    assert "too many digits" in errors[1]
    assert "NaN, which JSON does not allow" in errors[2]
    assert "lone UTF-16 surrogate at /ops/0/node/title" in errors[3]
    assert all(
        r["error_class"] == "bad_arguments" for r in s.loop.record if r.get("kind") == "tool"
    )
    assert asyncio.run(s.follow_up("Try again: rename the title to Inbox")).status == "completed"
    # the snapshot of the whole conversation serialises (no NaN, no surrogate)
    json.dumps(s.snapshot(), allow_nan=False).encode("utf-8")
    assert s.draft.spec["root"]["children"][0]["title"] == "Inbox"


def test_a_surrogate_in_streamed_text_is_replaced_before_anyone_writes_it() -> None:
    s, _, events = session([[TextDelta("ok \ud800 done"), *reply("")[1:]]])
    result = asyncio.run(s.run("look"))
    assert result.text == "ok \ufffd done"
    for e in events:
        json.dumps(e, ensure_ascii=False).encode("utf-8")
