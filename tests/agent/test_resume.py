"""Resuming a persisted run (studio.agent.resume, `agent --resume`): the record is checked whole
before any model call, the run carries on with its transcript, draft and trace id, a malformed or
unsupported record fails with one line, and a changed tool set is refused or stated."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.agent.errors import ModelError
from studio.agent.loop import UserAnswer
from studio.agent.resume import ResumeError, decode_run, load_run, resume_session, unfinished_runs
from studio.agent.run_events import LoopWarning, RunEvent
from studio.agent.session import AgentSession
from studio.agent.snapshot import save_snapshot
from studio.agent.testing import ScriptedModel, calls, reply
from studio.cli import main
from tests.agent.scenarios import add_tab_steps
from tests.agent.util_spec import FIXTURES, load


def _title(title: str) -> dict[str, Any]:
    return {
        "ops": [
            {
                "op": "replaceNode",
                "id": "bar",
                "node": {"type": "topAppBar", "id": "bar", "title": title},
            }
        ],
        "summary": f"Title {title}",
    }


def _paused(tmp_path: Path) -> tuple[Path, AgentSession]:
    """The add-tab run saved while it waits for the user's answer."""
    steps = add_tab_steps()
    session = AgentSession(ScriptedModel(steps[:2]), load("tabs-app"))
    result = asyncio.run(session.run("Add a settings tab"))
    assert result.status == "needs_input"
    return save_snapshot(session.snapshot(), tmp_path / "run.json"), session


def test_a_run_paused_on_a_question_resumes_after_a_restart_with_its_whole_transcript(
    tmp_path: Path,
) -> None:
    path, before = _paused(tmp_path)
    record = load_run(path)
    assert record.status == "needs_input" and record.trace_id == before.trace_id
    assert record.pending is not None and record.pending.kind == "ask_user"
    model = ScriptedModel(add_tab_steps()[2:])
    events: list[RunEvent] = []
    resumed = resume_session(record, model, on_event=events.append)
    assert model.requests == []  # decoding and restoring call no model
    result = asyncio.run(resumed.run(UserAnswer("settings")))
    assert result.status == "completed", result.reason
    model.assert_complete()
    sent = model.requests[0].messages
    # The whole neutral transcript went back: system, instruction, both turns, the answer.
    assert sent[: len(before.loop.messages)] == before.loop.messages
    assert sent[-1] == {
        "role": "tool",
        "tool_call_id": "t3",
        "content": json.dumps({"answer": "settings"}),
    }
    session = resumed.session
    assert session.trace_id == before.trace_id
    assert [r.summary for r in session.draft.revisions] == ["Add a Settings tab"]
    assert events[0].TYPE == "run_started" and events[-1].TYPE == "completed"
    # Saved again in place (atomic replace): now a finished run, which does not resume.
    save_snapshot(session.snapshot(), path)
    with pytest.raises(ResumeError, match="the run completed; there is nothing to continue"):
        load_run(path)


def test_a_run_stopped_by_a_model_error_continues_with_its_draft_and_a_note(
    tmp_path: Path,
) -> None:
    model = ScriptedModel(
        [calls(("patch", _title("Inbox"))), ModelError("fatal", "HTTP 500 from the server")]
    )
    session = AgentSession(model, load("blank-screen"))
    result = asyncio.run(session.run("Call it Inbox, then add a list"))
    assert result.status == "failed"
    path = save_snapshot(session.snapshot(), tmp_path / "run.json")

    again = ScriptedModel([calls(("patch", _title("Inbox 2"))), reply("Done.")])
    resumed = resume_session(load_run(path), again)
    assert resumed.session.draft.spec == session.draft.spec  # the draft rebuilt, validated
    result = asyncio.run(resumed.run())
    assert result.status == "completed", result.reason
    note = again.requests[0].messages[-1]
    assert note["role"] == "user" and "resumed" in note["content"]
    assert "HTTP 500" in note["content"]
    assert [r.summary for r in resumed.session.draft.revisions] == ["Title Inbox", "Title Inbox 2"]


def _record(tmp_path: Path) -> dict[str, Any]:
    path, _ = _paused(tmp_path)
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _broken(data: dict[str, Any], change: Any) -> str:
    data = copy.deepcopy(data)
    change(data)
    with pytest.raises(ResumeError) as caught:
        decode_run(data, "run.json")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("run.json: ")
    return message


def test_a_malformed_or_unsupported_record_fails_with_one_line_naming_the_place(
    tmp_path: Path,
) -> None:
    data = _record(tmp_path)
    decode_run(data, "run.json")  # the untouched record decodes

    def set_(key: str, value: Any) -> Any:
        return lambda d: d.__setitem__(key, value)

    assert "version 99 is not supported" in _broken(data, set_("version", 99))
    assert "version 1 run record has no transcript" in _broken(data, set_("version", 1))
    assert "not a Proto Studio agent run" in _broken(data, set_("format", "x"))
    assert "no 'loop'" in _broken(data, lambda d: d.pop("loop"))

    def bad_role(d: dict[str, Any]) -> None:
        d["loop"]["transcript"][1]["role"] = "robot"

    assert "loop.transcript[1]: unknown role 'robot'" in _broken(data, bad_role)

    def orphan(d: dict[str, Any]) -> None:
        d["loop"]["transcript"].insert(2, {"role": "tool", "tool_call_id": "zz", "content": "x"})

    assert "loop.transcript[2]: answers no open call ('zz')" in _broken(data, orphan)

    def tampered(d: dict[str, Any]) -> None:
        d["tool_declarations"][0]["parameters"]["properties"] = {}

    assert "the fingerprint does not match" in _broken(data, tampered)

    def no_batch(d: dict[str, Any]) -> None:
        d["loop"]["batch"] = None

    assert "waits for an answer but has no batch" in _broken(data, no_batch)

    def bad_revision(d: dict[str, Any]) -> None:
        d["revisions"] = [{"ops": [{"op": "replaceNode", "id": "gone", "node": {}}]}]

    assert "revisions[0] does not apply: op 0" in _broken(data, bad_revision)

    def other_final(d: dict[str, Any]) -> None:
        d["final_spec"] = {**d["final_spec"], "id": "other"}

    assert "final_spec: not what the revisions make" in _broken(data, other_final)
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(ResumeError, match="junk.json: cannot read the run record"):
        load_run(tmp_path / "junk.json")


def test_a_changed_tool_set_is_refused_or_stated(tmp_path: Path) -> None:
    data = _record(tmp_path)
    for item in data["tool_declarations"]:
        if item["name"] == "inspect":  # as if saved by a build whose inspect took other args
            item["parameters"] = {"type": "object", "properties": {"x": {"type": "string"}}}
            item["fingerprint"] = _fingerprint(item)
            data["tools"]["inspect"] = item["fingerprint"]
    record = decode_run(data, "run.json")
    model = ScriptedModel(add_tab_steps()[2:])
    with pytest.raises(ResumeError, match=r"the tools changed since .*inspect changed its schema"):
        resume_session(record, model)
    events: list[RunEvent] = []
    resumed = resume_session(record, model, allow_tool_changes=True, on_event=events.append)
    assert resumed.changed_tools == ["inspect changed its schema"]
    assert any(isinstance(e, LoopWarning) and "inspect" in e.message for e in events)
    assert asyncio.run(resumed.run(UserAnswer("settings"))).status == "completed"


def _fingerprint(item: dict[str, Any]) -> str:
    import hashlib

    from studio.agent.registry import canonical_json

    return hashlib.sha256((item["name"] + canonical_json(item["parameters"])).encode()).hexdigest()[
        :16
    ]


def test_unfinished_runs_lists_resumable_records_only(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    paused, _ = _paused(tmp_path)
    runs.mkdir()
    (runs / "paused.json").write_bytes(paused.read_bytes())
    done = AgentSession(ScriptedModel([reply("Nothing to do.")]), load("blank-screen"))
    asyncio.run(done.run("Look only"))
    save_snapshot(done.snapshot(), runs / "done.json")
    (runs / "junk.json").write_text("[]")
    found = unfinished_runs(runs)
    assert [p.name for p, _ in found] == ["paused.json"]
    assert found[0][1].instruction == "Add a settings tab"


def test_cli_resume_refuses_a_bad_record_before_any_request_and_asks_for_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.json").write_text(json.dumps({"format": "proto-studio-agent-run"}))
    base = ["agent", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    assert main([*base, "--resume", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"proto-studio agent: {tmp_path / 'bad.json'}: snapshot version None is not supported "
        "(this build reads 1, 2)"
    ]
    path, _ = _paused(tmp_path)
    assert main([*base, "--resume", str(path)]) == 2
    assert "waits for an answer to “Which icon for the new tab?”: give it with --answer" in (
        capsys.readouterr().err
    )
    assert main([*base, "--resume", str(path), "--instruction", "x"]) == 2
    assert main(["agent", "--spec", str(FIXTURES / "blank-screen.json"), *base[1:]]) == 2
    assert "--instruction is required" in capsys.readouterr().err


def test_cli_a_paused_headless_run_is_answered_later_with_resume(
    server: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.agent.test_cli import events_of, to_chat_reply

    steps = add_tab_steps()
    server.queue(*(to_chat_reply(step) for step in steps[:2]))
    snap, out, ev = tmp_path / "run.json", tmp_path / "out.json", tmp_path / "events.jsonl"
    spec = tmp_path / "tabs.json"
    spec.write_text(json.dumps(load("tabs-app")))
    first = [
        "agent",
        "--spec",
        str(spec),
        "--instruction",
        "Add a settings tab",
        "--base-url",
        server.base_url,
        "--model",
        "m",
        "--profile",
        "generic",
        "--snapshot",
        str(snap),
    ]
    assert main(first) == 1
    err = capsys.readouterr().err
    assert f"answer it: proto-studio agent --resume {snap} --answer TEXT" in err
    assert load_run(snap).pending is not None  # saved paused, not cancelled
    server.queue(*(to_chat_reply(step) for step in steps[2:]))
    seen = len(server.seen)
    code = main(
        [
            "agent",
            "--resume",
            str(snap),
            "--answer",
            "settings",
            "--out",
            str(out),
            "--events",
            str(ev),
        ]
    )
    assert code == 0, capsys.readouterr().err
    sent = server.seen[seen].body["messages"]
    assert sent[-1]["role"] == "tool" and json.loads(sent[-1]["content"]) == {"answer": "settings"}
    assert [e["type"] for e in events_of(ev)][0] == "run_started"
    tabs = json.loads(out.read_text())["root"]["children"][0]
    assert [i["label"] for i in tabs["items"]] == ["Home", "Search", "Settings"]
    # The record was replaced in place and now says the run completed.
    assert json.loads(snap.read_text())["loop"]["status"] == "completed"
