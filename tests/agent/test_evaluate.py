"""The authoring eval (studio.agent.evaluate): the shipped tasks and their machine checks, the
scoring of recorded runs replayed offline (no model), the table and the HTML report, and the
live path against a local HTTP server. Model quality is never what these tests judge."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.agent.evaluate import (
    EvalError,
    load_recordings,
    load_tasks,
    replay_recorded,
    run_check,
    score_run,
)
from studio.cli import main
from tests.agent.eval_recordings import RECORDED, record
from tests.agent.server import ModelServer
from tests.agent.test_cli import to_chat_reply
from tests.agent.util_spec import load

SHIPPED = [
    "sign-in",
    "add-tab",
    "editable-list",
    "split-bill",
    "dark-theme",
    "settings-toggle",
    "restyle-button",
]


def test_the_shipped_tasks_load_and_none_passes_on_its_start() -> None:
    tasks = load_tasks()
    assert [t.id for t in tasks] == SHIPPED
    for task in tasks:
        # A run that changes nothing never passes: every task's checks fail on its start.
        score = score_run({"final_spec": task.start, "result": {}}, task, 0.0)
        assert not score.passed, task.id
        assert score.checks[0] == ("the result is a valid spec", True)


def test_the_checks_are_predicates_on_structure_and_values() -> None:
    spec = load("tabs-app")
    node = {"kind": "node", "where": {"type": "pager"}}
    assert run_check(spec, node)
    assert run_check(spec, {**node, "len": {"children": 2}})
    assert not run_check(spec, {**node, "len": {"children": 3}})
    assert not run_check(spec, {**node, "max": 0})
    assert run_check(spec, {"kind": "node", "where": {"id": {"re": "^home"}}})
    assert run_check(spec, {"kind": "node", "where": {"id": {"in": ["x", "tabs"]}}})
    assert run_check(spec, {"kind": "node", "where": {"pager": {"present": True}}})
    assert run_check(
        spec, {"kind": "value", "pointer": "/window/placement/type", "equals": "fullscreen"}
    )
    assert run_check(spec, {"kind": "value", "pointer": "/state", "type": "object"})
    assert not run_check(spec, {"kind": "value", "pointer": "/theme/mode", "re": "dark"})
    assert run_check(spec, {"kind": "text", "re": "(?i)^search$"})
    assert not run_check(spec, {"kind": "platform", "module": "calc"})
    with_calc = copy.deepcopy(spec)
    with_calc["requires"] = {"platform": ["calc"]}
    assert not run_check(with_calc, {"kind": "platform", "module": "calc"})  # required, not called
    with_calc["root"]["children"][0]["onTap"] = [{"type": "platform", "call": "calc.evaluate"}]
    assert run_check(with_calc, {"kind": "platform", "module": "calc"})


def _task_file(tmp_path: Path, task: Any) -> Path:
    path = tmp_path / "tasks.json"
    path.write_text(
        json.dumps({"format": "proto-studio-eval-tasks", "version": 1, "tasks": [task]})
    )
    return path


def test_a_bad_task_file_fails_with_one_line_naming_the_place(tmp_path: Path) -> None:
    good = {
        "id": "t",
        "start": "template:settings",
        "instruction": "Do it",
        "checks": [{"kind": "text", "re": "x"}],
    }
    assert [t.id for t in load_tasks(_task_file(tmp_path, good))] == ["t"]
    cases = [
        ({**good, "id": "Bad Id"}, "tasks[0].id: a lower-case id"),
        ({**good, "instruction": " "}, "tasks[0].instruction: the task says nothing to do"),
        ({**good, "start": "nope.json"}, "tasks[0].start: cannot read"),
        ({**good, "checks": [{"kind": "vibes"}]}, "tasks[0].checks[0]: kind must be one of"),
        ({**good, "checks": [{"kind": "text", "re": "("}]}, "tasks[0].checks[0]:"),
        ({**good, "checks": [{"kind": "value", "pointer": "/x"}]}, "say what the value must be"),
    ]
    for task, message in cases:
        with pytest.raises(EvalError) as caught:
            load_tasks(_task_file(tmp_path, task))
        assert message in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(EvalError, match="not an eval task file"):
        load_tasks(RECORDED / "sign-in-1.json")


def test_the_recorded_runs_replay_offline_into_the_table_and_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["eval", "--replay", str(RECORDED), "--out", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in table[3:]}
    assert table[1].split()[:4] == ["task", "runs", "pass", "1st-try"]
    # The recordings hold both tool sets, so the rows are per task and set.
    assert set(rows) == {
        *(f"{t}/standard" for t in SHIPPED if t != "settings-toggle"),
        "settings-toggle/compound",
        "all/standard",
        "all/compound",
    }
    # task runs pass 1st-try retries patches turns latency tokens cost
    assert rows["sign-in/standard"][1:6] == ["1", "100%", "0%", "1", "1"]  # 1st patch rejected
    assert rows["restyle-button/standard"][2] == "0%"  # renamed, but not outlined
    assert rows["settings-toggle/compound"][2:4] == ["100%", "100%"]
    assert rows["all/standard"][1:3] == ["6", "83%"]
    assert rows["all/compound"][1:3] == ["1", "100%"]
    assert rows["all/standard"][-1] == "0.0000"  # a local server costs nothing
    report = (out / "report.html").read_text()
    assert report.count("<svg") == 2  # inline charts; nothing loaded from anywhere
    assert not any(tag in report for tag in ("<script", "<link", "src=", "href="))
    assert "✘ at least 1 node(s) with type=&quot;button&quot;, label=&quot;Log in&quot;" in report
    scores = json.loads((out / "scores.json").read_text())
    assert [t["task"] for t in scores["tasks"]] == SHIPPED
    assert scores["tasks"][5]["tool_set"] == "compound"
    assert scores["tasks"][0]["runs"][0]["retries"] == 1


def test_recording_and_replaying_score_the_same(tmp_path: Path) -> None:
    asyncio.run(record(tmp_path))
    tasks = load_tasks()
    recordings = load_recordings(tmp_path)
    live = {
        name: score_run(snap, next(t for t in tasks if t.id == snap["eval"]["task"]), 0.0)
        for name, snap in recordings
    }
    replayed = asyncio.run(replay_recorded(tasks, recordings, lambda _: None))
    assert [(s.task, s.passed, s.retries, s.patches, s.turns) for s in replayed] == [
        (s.task, s.passed, s.retries, s.patches, s.turns) for s in live.values()
    ]
    with pytest.raises(EvalError, match="no recorded runs"):
        load_recordings(tmp_path / "empty")


def test_eval_runs_live_against_a_model_server_and_records_what_it_replays(
    server: ModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.agent.eval_recordings import steps

    server.queue(*(to_chat_reply(step) for step in steps()["dark-theme"]))
    out = tmp_path / "out"
    argv = ["eval", "--base-url", server.base_url, "--model", "m", "--profile", "generic"]
    code = main([*argv, "--only", "dark-theme", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "dark-theme" in captured.out and "100%" in captured.out
    assert "model m" in captured.out.splitlines()[0]
    assert len(server.seen) == 2
    assert [p.name for p in (out / "runs").iterdir()] == ["dark-theme-1.json"]
    again = tmp_path / "again"
    assert main(["eval", "--replay", str(out / "runs"), "--out", str(again)]) == 0
    assert "100%" in capsys.readouterr().out
    assert main([*argv, "--only", "nope", "--out", str(out)]) == 2
    assert "--only: unknown task(s) nope" in capsys.readouterr().err
    assert main([*argv, "--tools", "standard,big", "--out", str(out)]) == 2
    assert "--tools: use standard, compound or standard,compound" in capsys.readouterr().err
    assert main(["eval", "--out", str(out)]) == 2
    assert "--base-url and --model are required (or --replay DIR)" in capsys.readouterr().err
