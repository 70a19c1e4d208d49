"""`SpecToolServer`: the studio's spec tools (outline, readNode, readData, capabilities, validate,
patch, preview) served over MCP with the official SDK's low-level server, on one library
prototype's outside draft (`drafts.py`).

The tools are the agent's own (`studio.agent.tools.build_spec_tools`), with the same JSON schemas
and handlers, so an outside agent gets exactly the validation the studio's agent gets. Each call
starts from the library as it is now: the prototype's saved spec and its outside draft file. A
draft the designer applied or discarded in the studio is gone, so the next patch starts a new one
on the saved prototype; a draft whose prototype the designer edited meanwhile is rebased on it by
the workspace's rule (or, when an op no longer applies, a patch is refused with that reason).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from studio.agent.draft import Draft
from studio.agent.registry import Tool, ToolError
from studio.agent.tools import ToolContext, build_spec_tools
from studio.concurrency import Lane
from studio.library.errors import LibraryError
from studio.library.revisions import Revision, RevisionLog
from studio.library.store import Library
from studio.mcpserver.drafts import OutsideDraft, load_outside_draft, save_outside_draft
from studio.workspace.review import Review, rebase

log = logging.getLogger(__name__)

JSON = dict[str, Any]
SERVED = ("outline", "readNode", "readData", "capabilities", "validate", "patch", "preview")
"""The spec tools an outside agent gets (not askUser: no designer is there to answer; not
inspect/events: they read the runtime the designer is trying in the studio)."""
INSTRUCTIONS = (
    "Proto Studio's spec tools on the prototype {name!r}. Read with outline, readNode and "
    "readData; change it only with patch (every op is validated; all apply or none). Every "
    "patch lands in a draft the designer reviews in Proto Studio: nothing reaches the prototype "
    "until they apply it there."
)


class SpecToolServer:
    """One prototype's spec tools as an MCP server (stdio: `run_stdio`; HTTP: `http_app`)."""

    def __init__(self, library: Library, entry_id: str, name: str) -> None:
        self.library, self.entry_id, self.name = library, entry_id, name
        self.server: Server[Any, Any] = Server(
            "proto-studio", instructions=INSTRUCTIONS.format(name=name)
        )
        self._lane = Lane("mcp-library")
        self._lock = asyncio.Lock()
        self._tools = {
            t.name: t for t in build_spec_tools(ToolContext(Draft(_EMPTY))) if t.name in SERVED
        }
        self.server.list_tools()(self._list_tools)  # type: ignore[no-untyped-call]  # the SDK leaves this decorator untyped
        # Our own tools check their arguments (the same messages the studio's agent gets).
        self.server.call_tool(validate_input=False)(self._call_tool)

    # -- MCP handlers -------------------------------------------------------------------------
    async def _list_tools(self) -> list[types.Tool]:
        return [_mcp_tool(t) for t in self._tools.values()]

    async def _call_tool(self, name: str, arguments: JSON) -> Any:
        tool = self._tools.get(name)
        if tool is None:
            return _error(f"no tool {name!r} (the tools are {', '.join(self._tools)})")
        problem = tool.check_arguments(arguments)
        if problem is not None:
            return _error(f"{name}: {problem}")
        async with self._lock:  # one call at a time: each sees the last one's draft
            try:
                return await self._run(tool, arguments)
            except LibraryError as exc:
                return _error(f"the library: {exc}")

    async def _run(self, tool: Tool, arguments: JSON) -> Any:
        current, stale = await self._draft()
        if tool.name == "patch" and stale is not None:
            return _error(
                f"the draft no longer applies to {self.name!r} as the designer changed it: "
                f"{stale}; ask the designer to discard it in Proto Studio, then patch again"
            )
        written: list[Revision] = []
        ctx = ToolContext(draft=Draft(current.base), on_revision=written.append)
        ctx.draft.log = RevisionLog(current.base, list(current.revisions))
        handler = next(t for t in build_spec_tools(ctx) if t.name == tool.name).handler
        try:
            result = await asyncio.wait_for(handler(arguments), tool.timeout)
        except ToolError as exc:
            return _error(exc.message, **exc.details)
        except TimeoutError:
            return _error(f"{tool.name} took longer than {tool.timeout:g} s")
        if written:
            draft = OutsideDraft(
                self.entry_id,
                current.review_id,
                current.base,
                tuple(ctx.draft.revisions),
                self._client(),
            )
            await self._lane.run(save_outside_draft, self.library, draft)
            log.info("mcp: %s wrote revision %d of the draft", draft.client, len(draft.revisions))
            result = {**result, "draft": "a draft the designer reviews in Proto Studio"}
        if isinstance(result, str):
            return [types.TextContent(type="text", text=result)]
        return result if isinstance(result, dict) else {"result": result}

    async def _draft(self) -> tuple[OutsideDraft, str | None]:
        """The draft to work on, from the library as it is now, and why it is stale (if so)."""

        def read() -> tuple[JSON, OutsideDraft | None]:
            return self.library.load_spec(self.entry_id), load_outside_draft(
                self.library, self.entry_id
            )

        spec, stored = await self._lane.run(read)
        if stored is None:
            return OutsideDraft(self.entry_id, _review_id(), spec, (), self._client()), None
        if stored.base == spec:
            return stored, None
        moved = rebase(Review(stored.review_id, stored.base, stored.revisions), spec)
        if moved.stale:
            return stored, moved.problem
        return (
            OutsideDraft(self.entry_id, stored.review_id, spec, moved.revisions, stored.client),
            None,
        )

    def _client(self) -> str:
        with contextlib.suppress(LookupError, AttributeError):
            params = self.server.request_context.session.client_params
            if params is not None:
                return f"{params.clientInfo.name} (MCP)"
        return "an MCP client"

    # -- transports ---------------------------------------------------------------------------
    async def run_stdio(self) -> None:
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read, write):
            await self.server.run(read, write, self.server.create_initialization_options())

    def http_app(self, *, loopback: bool = True) -> Starlette:
        """The streamable HTTP app, at /mcp (as the SDK's FastMCP serves it). On loopback, the
        SDK's DNS-rebinding guard refuses requests whose Host or Origin is not this machine (a
        web page cannot reach the tools through a name that resolves to 127.0.0.1)."""
        from mcp.server.transport_security import TransportSecuritySettings

        security = None
        if loopback:
            local = ("127.0.0.1", "localhost", "[::1]")
            security = TransportSecuritySettings(
                enable_dns_rebinding_protection=True,
                allowed_hosts=[f"{h}:*" for h in local],
                allowed_origins=[f"http://{h}:*" for h in local],
            )
        manager = StreamableHTTPSessionManager(app=self.server, security_settings=security)

        class Endpoint:  # an ASGI app, so Starlette's Route passes the raw request through
            async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
                await manager.handle_request(scope, receive, send)

        @contextlib.asynccontextmanager
        async def lifespan(_: Starlette) -> AsyncIterator[None]:
            async with manager.run():
                yield

        return Starlette(routes=[Route("/mcp", endpoint=Endpoint())], lifespan=lifespan)

    def close(self) -> None:
        self._lane.close()


_EMPTY: JSON = {"id": "x", "window": {"placement": {"type": "fullscreen"}}, "root": {}}


def _review_id() -> str:
    import uuid

    return f"mcp-{uuid.uuid4().hex[:10]}"


def _mcp_tool(tool: Tool) -> types.Tool:
    read_only = tool.name != "patch"
    return types.Tool(
        name=tool.name,
        description=tool.description,
        inputSchema=tool.parameters,
        annotations=types.ToolAnnotations(
            readOnlyHint=read_only,
            destructiveHint=False,
            idempotentHint=read_only,
            openWorldHint=False,
        ),
    )


def _error(error: str, /, **details: Any) -> types.CallToolResult:
    body = {"error": error, **details}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(body, ensure_ascii=False))],
        isError=True,
    )
