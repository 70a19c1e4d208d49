"""`proto-studio agent` end to end against the local server: events, --out, snapshot, no key leaks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from studio.agent.events import Finish, ModelEvent, TextDelta, ToolCall, Usage
from studio.cli import main
from studio.spec import validate
from tests.agent.scenarios import sign_in_steps
from tests.agent.server import ModelServer, Reply, chunk, sse, usage_chunk
from tests.agent.util_spec import FIXTURES, load

KEY = "sk-leakcheck-0123456789abcdef"


def to_chat_reply(events: list[ModelEvent]) -> Reply:
    """Recorded-shape Chat Completions chunks for scripted events (arguments split in two)."""
    chunks: list[Any] = []
    index = 0
    for e in events:
        if isinstance(e, TextDelta):
            chunks.append(chunk(e.text))
        elif isinstance(e, ToolCall):
            half = len(e.arguments) // 2
            chunks.append(
                chunk(
                    tool_calls=[
                        {
                            "index": index,
                            "id": e.id,
                            "type": "function",
                            "function": {"name": e.name, "arguments": e.arguments[:half]},
                        }
                    ]
                )
            )
            chunks.append(
                chunk(tool_calls=[{"index": index, "function": {"arguments": e.arguments[half:]}}])
            )
            index += 1
        elif isinstance(e, Finish):
            chunks.append(chunk(finish=e.reason))
        elif isinstance(e, Usage):
            chunks.append(usage_chunk(e.input_tokens, e.output_tokens))
    return Reply(sse(*chunks))


def events_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_cli_creates_a_sign_in_screen(
    server: ModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PROTO_STUDIO_API_KEY", KEY)
    server.queue(*(to_chat_reply(step) for step in sign_in_steps()))
    out, ev, snap = tmp_path / "out.json", tmp_path / "events.jsonl", tmp_path / "run.json"
    code = main(
        [
            "agent",
            "--spec",
            str(FIXTURES / "blank-screen.json"),
            "--instruction",
            "Create a sign-in screen",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--events",
            str(ev),
            "--out",
            str(out),
            "--snapshot",
            str(snap),
            "--max-turns",
            "8",
            "-v",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    spec = json.loads(out.read_text())
    assert validate(spec).ok and spec["root"]["children"][0]["title"] == "Sign in"
    events = events_of(ev)
    types = [e["type"] for e in events]
    assert types[0] == "run_started" and types[-1] == "completed"
    assert sum(t in ("completed", "failed", "cancelled") for t in types) == 1
    assert {"turn_started", "text_delta", "tool_call", "tool_result", "revision", "usage"} <= set(
        types
    )
    assert all(e["trace_id"] == events[0]["trace_id"] for e in events)
    # the key reached the server only in the Authorization header
    assert all(s.headers["Authorization"] == f"Bearer {KEY}" for s in server.seen)
    for text in (
        out.read_text(),
        ev.read_text(),
        snap.read_text(),
        captured.err,
        captured.out,
        json.dumps([s.body for s in server.seen]),
    ):
        assert KEY not in text
    assert "model_response" in captured.err  # -v logged every step


def test_cli_failure_keeps_the_input_and_masks_an_echoed_key(
    server: ModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PROTO_STUDIO_API_KEY", KEY)
    server.queue(
        Reply(
            [json.dumps({"error": {"message": f"Incorrect API key provided: {KEY}"}}).encode()],
            401,
            content_type="application/json",
        )
    )
    out, ev = tmp_path / "out.json", tmp_path / "events.jsonl"
    code = main(
        [
            "agent",
            "--spec",
            str(FIXTURES / "tabs-app.json"),
            "--instruction",
            "add a tab",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--events",
            str(ev),
            "--out",
            str(out),
            "--snapshot",
            str(tmp_path / "s.json"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 1
    assert json.loads(out.read_text()) == load("tabs-app")
    [terminal] = [e for e in events_of(ev) if e["type"] in ("completed", "failed", "cancelled")]
    assert terminal["type"] == "failed" and "Re-authenticate" in terminal["reason"]
    assert KEY not in ev.read_text() + err + (tmp_path / "s.json").read_text()


def test_cli_turn_cap_and_bad_input(
    server: ModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.queue(*(to_chat_reply(step) for step in sign_in_steps()[:2]))
    ev = tmp_path / "e.jsonl"
    code = main(
        [
            "agent",
            "--spec",
            str(FIXTURES / "blank-screen.json"),
            "--instruction",
            "x",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--max-turns",
            "2",
            "--events",
            str(ev),
            "--snapshot",
            str(tmp_path / "s.json"),
        ]
    )
    assert code == 1
    assert "turn cap of 2 turns" in events_of(ev)[-1]["reason"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": 1}')
    assert (
        main(
            [
                "agent",
                "--spec",
                str(bad),
                "--instruction",
                "x",
                "--base-url",
                server.base_url,
                "--model",
                "m",
            ]
        )
        == 1
    )
    assert f"{bad}: not a valid spec" in capsys.readouterr().err


def test_cli_refuses_a_remote_host_in_tests(tmp_path: Path) -> None:
    ev = tmp_path / "e.jsonl"
    env = {**os.environ, "PROTO_STUDIO_ALLOW_MODEL_REQUESTS": "0"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "studio.cli",
            "agent",
            "--spec",
            str(FIXTURES / "blank-screen.json"),
            "--instruction",
            "x",
            "--base-url",
            "https://api.openai.com/v1",
            "--model",
            "gpt",
            "--events",
            str(ev),
            "--snapshot",
            str(tmp_path / "s.json"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 1
    [terminal] = [e for e in events_of(ev) if e["type"] == "failed"]
    assert "PROTO_STUDIO_ALLOW_MODEL_REQUESTS=0" in terminal["reason"]


def test_cli_over_the_responses_api(server: ModelServer, tmp_path: Path) -> None:
    def frames(*events: dict[str, Any]) -> list[bytes]:
        return [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events]

    args = json.dumps(
        {
            "ops": [
                {
                    "op": "replaceNode",
                    "id": "bar",
                    "node": {"type": "topAppBar", "id": "bar", "title": "Hello"},
                }
            ],
            "summary": "Rename the bar",
        }
    )
    server.queue(
        Reply(
            frames(
                {"type": "response.created", "response": {}},
                {
                    "type": "response.output_item.added",
                    "output_index": 0,
                    "item": {
                        "type": "function_call",
                        "call_id": "p1",
                        "name": "patch",
                        "arguments": "",
                    },
                },
                {
                    "type": "response.function_call_arguments.delta",
                    "output_index": 0,
                    "delta": args,
                },
                {
                    "type": "response.completed",
                    "response": {"usage": {"input_tokens": 100, "output_tokens": 20}},
                },
            )
        ),
        Reply(
            frames(
                {"type": "response.output_text.delta", "output_index": 0, "delta": "Renamed."},
                {
                    "type": "response.completed",
                    "response": {"usage": {"input_tokens": 130, "output_tokens": 3}},
                },
            )
        ),
    )
    out, ev = tmp_path / "out.json", tmp_path / "e.jsonl"
    code = main(
        [
            "agent",
            "--spec",
            str(FIXTURES / "blank-screen.json"),
            "--instruction",
            "Say hello",
            "--api",
            "responses",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--events",
            str(ev),
            "--out",
            str(out),
            "--snapshot",
            str(tmp_path / "s.json"),
        ]
    )
    assert code == 0
    assert json.loads(out.read_text())["root"]["children"][0]["title"] == "Hello"
    second = server.seen[1]
    assert second.path == "/v1/responses"
    assert (
        second.body["input"][-1]["type"] == "function_call_output"
        and second.body["input"][-1]["call_id"] == "p1"
    )
    usage = [e for e in events_of(ev) if e["type"] == "usage"]
    assert usage[-1]["total_tokens"] == 253 and usage[-1]["estimated"] is False


def test_cli_starts_from_a_shipped_template(server: ModelServer, tmp_path: Path) -> None:
    from studio.library.templates import templates_dir

    template = templates_dir() / "sign-in-form.json"
    if not template.exists():
        pytest.skip("resources/templates/sign-in-form.json is not shipped yet")
    server.queue(Reply(sse(chunk("Nothing to change."), chunk(finish="stop"))))
    out = tmp_path / "out.json"
    code = main(
        [
            "agent",
            "--template",
            "sign-in-form",
            "--instruction",
            "look",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--out",
            str(out),
            "--snapshot",
            str(tmp_path / "s.json"),
        ]
    )
    assert code == 0 and json.loads(out.read_text()) == json.loads(template.read_text())
    # the model gets the instruction, not the whole template (it reads it through outline)
    assert server.seen[0].body["messages"][1] == {"role": "user", "content": "look"}
    assert '"Sign in"' not in json.dumps(server.seen[0].body["messages"])
