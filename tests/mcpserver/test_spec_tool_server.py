"""`proto-studio mcp` as an outside agent uses it: the command in its own process, driven by the
official MCP SDK's client over stdio and streamable HTTP. The tools are the studio's spec tools
(same schemas, same validation); reads see the draft; every patch lands in the prototype's
outside draft in the library (the prototype itself is untouched until the designer applies it),
a rejected patch changes nothing, and a designer's edit in between is rebased under the draft."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from studio.library.store import Library
from studio.mcpserver.drafts import load_outside_draft
from studio.mcpserver.server import SERVED
from tests.helpers.demo import RENAME_GO, SPEC
from tests.mcpserver.client import REPO, env, stdio_params
from tests.service.helpers import make_library

pytestmark = pytest.mark.slow


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 120))


def _text(result: Any) -> str:
    return "".join(c.text for c in result.content if c.type == "text")


def test_an_outside_agent_authors_a_draft_over_stdio(tmp_path: Path) -> None:
    library, entry_id = make_library("Demo")

    async def main() -> None:
        async with (
            stdio_client(stdio_params("Demo")) as (read, write),
            ClientSession(read, write, read_timeout_seconds=timedelta(seconds=60)) as session,
        ):
            init = await session.initialize()
            assert "lands in a draft the designer reviews" in (init.instructions or "")
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert set(tools) == set(SERVED)
            assert tools["patch"].annotations.readOnlyHint is False
            assert all(tools[n].annotations.readOnlyHint for n in SERVED if n != "patch")
            assert tools["readNode"].inputSchema["required"] == ["id"]

            outline = _text(await session.call_tool("outline", {}))
            assert "go" in outline and "title" in outline
            node = await session.call_tool("readNode", {"id": "go"})
            assert node.structuredContent is not None
            assert node.structuredContent["label"] == "Go"

            done = await session.call_tool("patch", RENAME_GO)
            assert not done.isError, _text(done)
            assert done.structuredContent["ok"] is True
            assert done.structuredContent["changed"] == ["go"]
            # The prototype is untouched; the draft holds the change, and reads see it.
            assert Library().load_spec(entry_id) == SPEC
            draft = load_outside_draft(Library(), entry_id)
            assert draft is not None and len(draft.revisions) == 1
            assert draft.revisions[0].summary == "Rename the button to Send"
            assert draft.client.endswith("(MCP)")
            seen = await session.call_tool("preview", {})
            assert "Send" in json.dumps(seen.structuredContent)

            # A patch the validator refuses changes nothing and says which op and why.
            bad = await session.call_tool(
                "patch", {"ops": [{"op": "replaceNode", "id": "nope", "node": {"type": "text"}}]}
            )
            assert bad.isError
            body = json.loads(_text(bad))
            assert body["error"].startswith("patch rejected, nothing changed")
            assert body["opIndex"] == 0 and "nope" in body["message"]
            # Arguments that do not fit the schema are named, not guessed at.
            wrong = await session.call_tool("readNode", {"node": "go"})
            assert wrong.isError and "id" in _text(wrong)
            assert len(load_outside_draft(Library(), entry_id).revisions) == 1  # type: ignore[union-attr]

            # The designer edits the prototype in the studio meanwhile: the draft moves onto it.
            edited = json.loads(json.dumps(SPEC))
            edited["root"]["children"][0]["text"] = "Welcome"
            Library().save_spec(entry_id, edited)
            more = await session.call_tool(
                "patch",
                {
                    "ops": [{"op": "add", "path": "/state/sent", "value": False}],
                    "summary": "Track sent",
                },
            )
            assert not more.isError, _text(more)
            draft = load_outside_draft(Library(), entry_id)
            assert draft is not None and draft.base == edited
            assert [r.summary for r in draft.revisions] == [
                "Rename the button to Send",
                "Track sent",
            ]
            final = draft.spec
            assert final["root"]["children"][0]["text"] == "Welcome"  # the designer's edit kept
            assert final["root"]["children"][1]["label"] == "Send"
            assert final["state"] == {"sent": False}
            checked = await session.call_tool("validate", {"spec": {"id": "x"}})
            assert checked.structuredContent["ok"] is False

            # The designer removes the button the draft renamed: the draft no longer applies, so
            # a patch is refused saying why (reads still answer); nothing is written.
            gone = json.loads(json.dumps(edited))
            gone["root"]["children"] = gone["root"]["children"][:1]
            Library().save_spec(entry_id, gone)
            refused = await session.call_tool("patch", RENAME_GO)
            assert refused.isError
            assert "the draft no longer applies to 'Demo' as the designer changed it" in _text(
                refused
            )
            assert not (await session.call_tool("outline", {})).isError
            assert len(load_outside_draft(Library(), entry_id).revisions) == 2  # type: ignore[union-attr]

    _run(main())


def test_the_http_server_serves_the_same_tools_and_names_a_missing_prototype() -> None:
    _, entry_id = make_library("Demo")
    missing = subprocess.run(
        [sys.executable, "-m", "studio.cli", "mcp", "Nope"],
        env=env(),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert missing.returncode == 2
    assert "no prototype 'Nope' in the library (its prototypes: 'Demo')" in missing.stderr

    proc = subprocess.Popen(
        [sys.executable, "-m", "studio.cli", "mcp", entry_id, "--http", "--port", "0"],
        env=env(),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("proto-studio mcp: 'Demo' at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].strip()

        async def main() -> None:
            async with (
                streamable_http_client(url) as (read, write, _),
                ClientSession(read, write, read_timeout_seconds=timedelta(seconds=60)) as session,
            ):
                await session.initialize()
                assert {t.name for t in (await session.list_tools()).tools} == set(SERVED)
                done = await session.call_tool("patch", RENAME_GO)
                assert not done.isError, _text(done)

        _run(main())
        # A web page reaching it through a name that resolves here (DNS rebinding) is refused.
        rebound = httpx.post(
            url,
            headers={"Host": "attacker.example:80", "Content-Type": "application/json"},
            content=b"{}",
            timeout=10,
        )
        assert rebound.status_code == 421
        draft = load_outside_draft(Library(), entry_id)
        assert draft is not None and draft.spec["root"]["children"][1]["label"] == "Send"
        assert Library().load_spec(entry_id) == SPEC
    finally:
        proc.terminate()
        proc.wait(20)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
