"""A real MCP server built with the official SDK's FastMCP, for the studio's MCP host tests.

`python -m tests.service.notes_server stdio` serves over stdio; `... http` binds 127.0.0.1:0,
prints `PORT <n>` on stdout and serves streamable HTTP at /mcp. Tools: `lookup` (read-only),
`save_note` (writes a line to $NOTES_FILE: a side effect, so the studio asks first), `die` (the
process exits in the middle of the call), `slow` (answers after `seconds`).
"""

from __future__ import annotations

import os
import socket
import sys
import time

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("notes", log_level="WARNING")
WORDS = {"inbox": "where new mail arrives", "sheet": "a panel that slides up"}


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def lookup(word: str) -> str:
    """Look a design word up in the glossary."""
    return WORDS.get(word.lower(), f"no entry for {word!r}")


@mcp.tool()
def save_note(title: str, text: str, api_token: str = "") -> str:
    """Save a note to the team's notes file."""
    with open(os.environ["NOTES_FILE"], "a", encoding="utf-8") as fh:
        fh.write(f"{title}: {text} (token {len(api_token)} chars)\n")
    return f"saved {title!r}"


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def die() -> str:
    """Exits the server process while the call is under way."""
    sys.stderr.write("notes server: dying on purpose\n")
    sys.stderr.flush()
    os._exit(3)


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def slow(seconds: float) -> str:
    """Answers after `seconds`."""
    time.sleep(seconds)
    return "done"


def main() -> None:
    if sys.argv[1:] == ["stdio"]:
        mcp.run("stdio")
        return
    import anyio
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)  # connections wait in the backlog until uvicorn accepts them
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    server = uvicorn.Server(
        uvicorn.Config(mcp.streamable_http_app(), log_level="warning", lifespan="on")
    )
    anyio.run(lambda: server.serve(sockets=[sock]))


if __name__ == "__main__":
    main()
