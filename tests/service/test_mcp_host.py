"""MCP servers hosted for the agent, against real servers built with the official SDK (FastMCP,
tests/service/notes_server.py) over stdio and streamable HTTP, started by the tests: their tools
reach the agent namespaced, a read-only one runs without asking, any other asks for consent with
its resolved arguments (a secret masked), a denial or a dead server is one clear tool error and
the run still ends; the trace and a replay keep the calls without calling the server again."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.agent.mcp_host import McpHost, McpServerConfig, load_mcp_config, save_mcp_config
from studio.agent.replay import Replayer
from studio.agent.testing import ScriptedModel, calls, reply
from studio.service.protocol import TERMINAL
from tests.service.helpers import Client, running_server

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def notes_stdio(notes: Path, name: str = "notes") -> McpServerConfig:
    return McpServerConfig(
        name,
        "stdio",
        command=sys.executable,
        args=("-m", "tests.service.notes_server", "stdio"),
        env={"NOTES_FILE": str(notes), "PYTHONPATH": str(REPO)},
        cwd=str(REPO),
        timeout=20,
    )


@pytest.fixture
def http_notes(tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[str]]]:
    """The notes server over streamable HTTP, in its own process (it prints its port)."""
    notes = tmp_path / "http-notes.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.service.notes_server", "http"],
        cwd=REPO,
        env={"NOTES_FILE": str(notes), "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("PORT "), line
    try:
        yield f"http://127.0.0.1:{int(line.split()[1])}/mcp", notes, proc
    finally:
        proc.kill()
        proc.wait(10)
        proc.stdout.close()


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_declared_servers_round_trip_through_mcp_json_and_bad_entries_are_named(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mcp.json"
    servers = [
        notes_stdio(tmp_path / "n.txt"),
        McpServerConfig(
            "web", "http", url="http://127.0.0.1:9/mcp", headers={"Authorization": "keychain:web"}
        ),
    ]
    save_mcp_config(servers, path)
    loaded, problems = load_mcp_config(path)
    assert loaded == servers
    assert problems == []
    path.write_text(
        '{"servers": [{"name": "ok", "command": "x"}, {"name": "bad name!"}, '
        '{"name": "web2", "transport": "http", "url": "ftp://x"}, {"name": "ok", "command": "y"}]}'
    )
    loaded, problems = load_mcp_config(path)
    assert [s.name for s in loaded] == ["ok"]
    assert len(problems) == 3
    assert "servers[1]" in problems[0] and "must be 1-32 letters" in problems[0]
    assert "needs a url starting http://" in problems[1]
    assert "used twice" in problems[2]


def test_the_agent_uses_stdio_and_http_tools_with_consent_through_the_server(
    tmp_path: Path, http_notes: tuple[str, Path, Any]
) -> None:
    url, http_file, _ = http_notes
    stdio_file = tmp_path / "stdio-notes.txt"
    host = McpHost(
        [
            notes_stdio(stdio_file),
            McpServerConfig("web", "http", url=url, timeout=20),
            McpServerConfig("gone", "stdio", command=str(tmp_path / "no-such-server")),
        ]
    )
    secret = "tok-abcdef0123456789"
    model = ScriptedModel(
        [
            calls(
                ("mcp__notes__lookup", {"word": "inbox"}),
                ("mcp__web__lookup", {"word": "sheet"}),
            ),
            calls(
                (
                    "mcp__notes__save_note",
                    {"title": "Inbox", "text": "rename it", "api_token": secret},
                )
            ),
            calls(("mcp__web__save_note", {"title": "Sheet", "text": "no"})),
            calls(("mcp__gone", {})),
            reply("Looked it up and saved a note."),
        ]
    )

    async def main() -> None:
        problems = await host.start()
        assert problems == [
            f"MCP server 'gone' is not running: cannot run {tmp_path / 'no-such-server'} "
            "(No such file or directory)"
        ]
        try:
            async with running_server(model, mcp=host) as (_, ws_url, _):
                client, _ = await Client.open(ws_url)
                await client.send(
                    "start", prototype="Demo", instruction="Look up inbox and note it"
                )
                first = await client.until("approval")
                assert first["tool"] == "mcp.notes.save_note"
                assert "'save_note' on the MCP server 'notes'" in first["what"]
                shown = {a["name"]: a for a in first["arguments"]}
                assert shown["title"]["value"] == "Inbox"
                assert shown["api_token"]["secret"] is True
                assert secret not in str(first)  # masked in the approval the client sees
                await client.send("approve", id=first["id"], approved=True)
                second = await client.until("approval")
                assert second["tool"] == "mcp.web.save_note"
                await client.send("approve", id=second["id"], approved=False)
                end = await client.until(*TERMINAL)
                assert end["type"] == "completed"
                results = {
                    e["name"]: e
                    for e in client.seen
                    if e["type"] == "tool" and e["phase"] == "finished"
                }
                assert results["mcp__notes__lookup"]["ok"]
                assert results["mcp__web__lookup"]["ok"]
                assert results["mcp__notes__save_note"]["ok"]
                assert "denied by the user" in results["mcp__web__save_note"]["error"]
                assert "'gone' is not running" in results["mcp__gone"]["error"]
                assert secret not in str(client.seen)
                await client.close()
        finally:
            await host.aclose()

    run(main())
    # What the model got back: the servers' answers, the denial and the dead server's line.
    outputs = [m["content"] for r in model.requests for m in r.messages if m["role"] == "tool"]
    assert any("where new mail arrives" in o for o in outputs)
    assert any("a panel that slides up" in o for o in outputs)
    offered = [t.name for t in model.requests[0].tools]
    assert "mcp__notes__lookup" in offered and "mcp__web__save_note" in offered
    assert "mcp__gone" in offered
    # Only the approved write happened; the denied one never reached its server.
    assert (
        stdio_file.read_text(encoding="utf-8") == f"Inbox: rename it (token {len(secret)} chars)\n"
    )
    assert not http_file.exists()


def test_a_server_that_dies_mid_call_is_a_tool_error_and_the_run_ends(tmp_path: Path) -> None:
    host = McpHost([notes_stdio(tmp_path / "n.txt")])
    model = ScriptedModel(
        [
            calls(("mcp__notes__die", {})),
            calls(("mcp__notes__lookup", {"word": "inbox"})),
            reply("The notes server is down."),
        ]
    )

    async def main() -> None:
        assert await host.start() == []
        try:
            async with running_server(model, mcp=host) as (_, ws_url, _):
                client, _ = await Client.open(ws_url)
                await client.send("start", prototype="Demo", instruction="Look it up")
                end = await client.until(*TERMINAL, limit=60)
                assert end["type"] == "completed"
                errors = [
                    e["error"]
                    for e in client.seen
                    if e["type"] == "tool" and e["phase"] == "finished"
                ]
                assert "MCP server 'notes' stopped during die" in errors[0]
                assert "dying on purpose" in errors[0]  # the server's last stderr line
                assert "MCP server 'notes' is not running" in errors[1]
                await client.close()
        finally:
            await host.aclose()

    run(main())


def test_an_http_server_that_goes_away_fails_the_call_at_once(
    http_notes: tuple[str, Path, Any],
) -> None:
    url, _, proc = http_notes
    host = McpHost([McpServerConfig("web", "http", url=url, timeout=30)])

    async def main() -> None:
        assert await host.start() == []
        try:
            assert "where new mail" in await host.call("web", "lookup", {"word": "inbox"})
            proc.kill()
            proc.wait(10)
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(Exception) as failed:
                await host.call("web", "lookup", {"word": "inbox"})
            assert "MCP server 'web' stopped during lookup" in str(failed.value)
            assert loop.time() - started < 10  # not the 30 s call timeout
        finally:
            await host.aclose()

    run(main())


def test_a_replay_answers_mcp_calls_from_the_record_without_the_server(tmp_path: Path) -> None:
    from studio.agent.session import AgentSession

    host = McpHost([notes_stdio(tmp_path / "n.txt")])
    model = ScriptedModel([calls(("mcp__notes__lookup", {"word": "inbox"})), reply("Found it.")])

    async def main() -> dict[str, Any]:
        await host.start()
        try:
            session = AgentSession(
                model,
                {
                    "id": "x",
                    "window": {"placement": {"type": "fullscreen"}},
                    "root": {"type": "text", "id": "t", "text": "Hi"},
                },
                extra_tools=host.agent_tools(None),
            )
            result = await session.run("What does inbox mean?")
            assert result.status == "completed"
            return session.snapshot()
        finally:
            await host.aclose()

    snapshot = run(main())
    assert [t["name"] for t in snapshot["external_tools"]][:1] == ["mcp__notes__lookup"]
    steps = [s for s in snapshot["trace"] if s.get("name") == "mcp__notes__lookup"]
    assert steps and "where new mail arrives" in str(steps[0]["result"])
    report = run(Replayer(snapshot).run())  # the server is stopped: the record answers
    assert report.ok, report.problems()
