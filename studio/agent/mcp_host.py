"""MCP servers the studio hosts for the agent: their declarations (mcp.json), starting them over
stdio or streamable HTTP with the official SDK's client sessions, and their tools as agent `Tool`s
(namespaced `mcp__SERVER__TOOL`, behind consent unless declared read-only).

The SDK runs on anyio: a session's context managers must be entered and left by one task, and its
stdio transport spawns subprocesses, which the studio's qasync loop does not support. So every
hosted server lives on one event loop of its own, in a thread this module starts (`McpHost`); a
tool call hops there with `run_coroutine_threadsafe` and back with `wrap_future`, so cancelling
the agent's run cancels the call. Every wait is bounded: starting (`start_timeout`), each call
(the server's `timeout`), the user's consent (the broker's), closing (`CLOSE_TIMEOUT`).

What a tool may do is decided here, never by the server's words alone: a tool runs without asking
only when it declares `readOnlyHint: true`; any other goes to the consent broker with its resolved
arguments, where arguments that look like secrets (by name, `format: password`/`writeOnly`, or a
value the masker knows) are shown masked. Denied, failed, timed out, a server that did not start
or died: each is one clear tool error naming the server, never a hung run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import tempfile
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal, TypeVar

import jsonschema

from studio.agent.registry import Tool, ToolError
from studio.agent.trace import GLOBAL_MASKER, Masker

log = logging.getLogger(__name__)
JSON = dict[str, Any]
T = TypeVar("T")

PREFIX = "mcp__"
NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
START_TIMEOUT = 20.0
CALL_TIMEOUT = 60.0
CLOSE_TIMEOUT = 10.0
MAX_RESULT = 64 * 1024
#: Argument names whose values are treated as secrets (masked in the consent dialog and traces).
SECRET_NAME = re.compile(
    r"(pass(word|wd|phrase)?|secret|token|api[_-]?key|apikey|auth|credential|private[_-]?key|cookie|session[_-]?id)",
    re.I,
)
#: The longest tool name the OpenAI function-calling format takes.
MAX_TOOL_NAME = 64


# -- declarations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class McpServerConfig:
    """One declared server. `transport` "stdio" runs `command args` (env added to a minimal
    environment); "http" connects to a streamable HTTP endpoint `url` with `headers`.
    `timeout` bounds each tool call. Header and env values "keychain:ACCOUNT" are read from the
    OS keychain when the server starts (never written to mcp.json)."""

    name: str
    transport: Literal["stdio", "http"]
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    enabled: bool = True
    timeout: float = CALL_TIMEOUT

    def to_json(self) -> JSON:
        out: JSON = {"name": self.name, "transport": self.transport, "enabled": self.enabled}
        if self.transport == "stdio":
            out.update(command=self.command, args=list(self.args))
            if self.env:
                out["env"] = dict(self.env)
            if self.cwd:
                out["cwd"] = self.cwd
        else:
            out["url"] = self.url
            if self.headers:
                out["headers"] = dict(self.headers)
        if self.timeout != CALL_TIMEOUT:
            out["timeout"] = self.timeout
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "mcp.json") -> McpServerConfig:
        """ValueError names the entry and the field."""
        if not isinstance(data, dict):
            raise ValueError(f"{where}: a server must be a JSON object")
        name = data.get("name")
        if not isinstance(name, str) or not NAME.match(name):
            raise ValueError(
                f"{where}: server name {name!r} must be 1-32 letters, digits, '_' or '-'"
            )
        where = f"{where}: server {name!r}"
        transport = data.get("transport", "stdio" if "command" in data else "http")
        if transport not in ("stdio", "http"):
            raise ValueError(f"{where}: transport must be 'stdio' or 'http', not {transport!r}")

        def strings(key: str) -> dict[str, str]:
            value = data.get(key) or {}
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()
            ):
                raise ValueError(f"{where}: {key} must map names to strings")
            return dict(value)

        timeout = data.get("timeout", CALL_TIMEOUT)
        if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout <= 0:
            raise ValueError(f"{where}: timeout must be a positive number of seconds")
        enabled = data.get("enabled", True)
        if not isinstance(enabled, bool):
            raise ValueError(f"{where}: enabled must be true or false")
        if transport == "stdio":
            command = data.get("command")
            args = data.get("args") or []
            if not isinstance(command, str) or not command.strip():
                raise ValueError(f"{where}: a stdio server needs a command")
            if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                raise ValueError(f"{where}: args must be a list of strings")
            cwd = data.get("cwd")
            if cwd is not None and not isinstance(cwd, str):
                raise ValueError(f"{where}: cwd must be a string")
            return cls(
                name,
                "stdio",
                command=command,
                args=tuple(args),
                env=strings("env"),
                cwd=cwd,
                enabled=enabled,
                timeout=float(timeout),
            )
        url = data.get("url")
        if not isinstance(url, str) or not re.match(r"^https?://", url):
            raise ValueError(f"{where}: an http server needs a url starting http:// or https://")
        return cls(
            name,
            "http",
            url=url,
            headers=strings("headers"),
            enabled=enabled,
            timeout=float(timeout),
        )


def mcp_config_path() -> Path:
    from studio.platform.paths import config_dir  # honours PROTO_STUDIO_HOME

    return config_dir() / "mcp.json"


def load_mcp_config(path: Path | None = None) -> tuple[list[McpServerConfig], list[str]]:
    """The declared servers and one line per problem (a bad entry is skipped, the rest kept).
    Blocking: the studio calls it off the GUI thread."""
    path = path or mcp_config_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], []
    except (OSError, ValueError) as exc:
        return [], [f"{path}: cannot read the MCP servers ({exc}); none started"]
    entries = raw.get("servers") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        return [], [f'{path}: expected {{"servers": [...]}}; no MCP server started']
    servers: list[McpServerConfig] = []
    problems: list[str] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries):
        try:
            server = McpServerConfig.from_json(entry, f"{path.name}: servers[{n}]")
        except ValueError as exc:
            problems.append(f"{exc}; skipped")
            continue
        if server.name in seen:
            problems.append(
                f"{path.name}: servers[{n}]: the name {server.name!r} is used twice; skipped"
            )
            continue
        seen.add(server.name)
        servers.append(server)
    return servers, problems


def save_mcp_config(servers: Sequence[McpServerConfig], path: Path | None = None) -> Path:
    """Atomic write of mcp.json (blocking)."""
    from studio.library.atomic import write_json

    path = path or mcp_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, {"servers": [s.to_json() for s in servers]})
    return path


# -- names, schemas, secrets ---------------------------------------------------------------------


def tool_name(server: str, tool: str) -> str:
    """The namespaced name the model sees: mcp__SERVER__TOOL, in the characters and length the
    function-calling formats accept (a long or odd name is cut and given a short hash)."""
    clean = re.sub(r"[^A-Za-z0-9_-]", "_", tool)
    name = f"{PREFIX}{server}__{clean}"
    if len(name) <= MAX_TOOL_NAME and clean == tool:
        return name
    import hashlib

    digest = hashlib.sha256(tool.encode()).hexdigest()[:6]
    return f"{name[: MAX_TOOL_NAME - 7]}_{digest}"


def _schema(raw: Any) -> JSON:
    """The tool's input schema if it is a usable object schema, else one that takes any object."""
    if isinstance(raw, dict) and raw.get("type", "object") == "object":
        schema = dict(raw)
        schema.setdefault("type", "object")
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
            return schema
        except jsonschema.SchemaError:
            pass
    return {"type": "object"}


def secret_arguments(args: Mapping[str, Any], schema: JSON, masker: Masker) -> frozenset[str]:
    """Argument names whose values are secrets: by name, by schema (`format: password`,
    `writeOnly`), or a value holding a secret the masker knows."""
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    found = set()
    for name, value in args.items():
        prop = props.get(name) if isinstance(props, dict) else None
        by_schema = isinstance(prop, dict) and (
            prop.get("format") == "password" or prop.get("writeOnly") is True
        )
        text = value if isinstance(value, str) else json.dumps(value, default=str)
        if by_schema or SECRET_NAME.search(name) or masker.text(text) != text:
            found.add(name)
    return frozenset(found)


def _labels(schema: JSON) -> dict[str, str]:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {}
    out = {}
    for name, prop in props.items():
        if isinstance(prop, dict) and isinstance(prop.get("description"), str):
            out[name] = f"{name} ({prop['description'][:80]})"
    return out


def result_text(result: Any) -> str:
    """A CallToolResult as the tool output: structured content as JSON, else the text parts
    (images and other media named, not inlined), cut to MAX_RESULT characters."""
    structured = getattr(result, "structuredContent", None)
    if structured is not None:
        text = json.dumps(structured, ensure_ascii=False, default=str)
    else:
        parts = []
        for block in getattr(result, "content", None) or []:
            kind = getattr(block, "type", "")
            if kind == "text":
                parts.append(str(getattr(block, "text", "")))
            elif kind == "resource":
                resource = getattr(block, "resource", None)
                parts.append(
                    str(
                        getattr(resource, "text", "")
                        or f"[resource {getattr(resource, 'uri', '')}]"
                    )
                )
            else:
                parts.append(f"[{kind or 'content'} omitted]")
        text = "\n".join(parts)
    if len(text) > MAX_RESULT:
        text = text[:MAX_RESULT] + f"... (cut at {MAX_RESULT} of {len(text)} characters)"
    return text


# -- hosting -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class McpTool:
    """One tool a hosted server offers (as it listed it)."""

    server: str
    name: str
    description: str
    schema: JSON
    read_only: bool

    @property
    def agent_name(self) -> str:
        return tool_name(self.server, self.name)


class ServerGone(Exception):
    """The server is not running (did not start, or stopped)."""


class _Hosted:
    """One server's session, owned by one task on the host loop."""

    def __init__(self, config: McpServerConfig, keychain: Callable[[str], str | None]) -> None:
        self.config = config
        self.keychain = keychain
        self.session: Any = None
        self.tools: list[McpTool] = []
        self.error: str | None = None
        self.ready = asyncio.Event()
        self.stop = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.errlog: Any = None
        #: Set when the transport reports a failure (an HTTP server gone: its POST failed).
        self.failed = asyncio.Event()
        self.failure = ""

    async def on_message(self, message: Any) -> None:
        """The session's message handler: a transport failure arrives here as an exception
        (the SDK does not fail the request it belonged to), so the call waiting on it ends."""
        if isinstance(message, Exception):
            self.failure = _describe(message)
            self.failed.set()

    def _resolve(self, values: Mapping[str, str]) -> dict[str, str]:
        out = {}
        for key, value in values.items():
            if value.startswith("keychain:"):
                account = value[len("keychain:") :]
                secret = self.keychain(account)
                if not secret:
                    raise ServerGone(
                        f"no secret {account!r} in the OS keychain (needed for {key}); add it in "
                        "Settings > MCP servers"
                    )
                GLOBAL_MASKER.add(secret)
                value = secret
            out[key] = value
        return out

    def stderr_tail(self) -> str:
        if self.errlog is None:
            return ""
        try:
            self.errlog.flush()
            self.errlog.seek(0)
            lines = [ln.strip() for ln in self.errlog.read().splitlines() if ln.strip()]
        except (OSError, ValueError):
            return ""
        return GLOBAL_MASKER.text(lines[-1][:300]) if lines else ""

    async def run(self) -> None:
        from mcp import ClientSession

        config = self.config
        try:
            async with contextlib.AsyncExitStack() as stack:
                if config.transport == "stdio":
                    from mcp.client.stdio import StdioServerParameters, stdio_client

                    errlog = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
                    self.errlog = stack.enter_context(errlog)  # closed with the session
                    params = StdioServerParameters(
                        command=config.command,
                        args=list(config.args),
                        env=self._resolve(config.env) or None,
                        cwd=config.cwd,
                    )
                    read, write = await stack.enter_async_context(
                        stdio_client(params, errlog=self.errlog)
                    )
                else:
                    import httpx
                    from mcp.client.streamable_http import streamable_http_client

                    http = await stack.enter_async_context(
                        httpx.AsyncClient(
                            headers=self._resolve(config.headers),
                            timeout=httpx.Timeout(config.timeout, read=config.timeout + 5),
                        )
                    )
                    read, write, _ = await stack.enter_async_context(
                        streamable_http_client(config.url, http_client=http)
                    )
                session = await stack.enter_async_context(
                    ClientSession(
                        read,
                        write,
                        read_timeout_seconds=timedelta(seconds=config.timeout),
                        message_handler=self.on_message,
                    )
                )
                await session.initialize()
                listed = await session.list_tools()
                self.tools = [
                    McpTool(
                        config.name,
                        t.name,
                        (t.description or "").strip(),
                        _schema(t.inputSchema),
                        bool(t.annotations and t.annotations.readOnlyHint is True),
                    )
                    for t in listed.tools
                ]
                self.session = session
                self.ready.set()
                await self.stop.wait()
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # anyio wraps failures in exception groups
            self.error = self.error or _describe(exc, self.stderr_tail())
        finally:
            self.session = None
            if self.error is None and not self.stop.is_set():
                self.error = "the server stopped" + (
                    f" ({tail})" if (tail := self.stderr_tail()) else ""
                )
            self.ready.set()


def _describe(exc: BaseException, stderr: str = "") -> str:
    """One line for a failure, unwrapping exception groups to the first real cause."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip() or type(exc).__name__
    if isinstance(exc, FileNotFoundError | PermissionError):
        text = f"cannot run {exc.filename or 'the command'} ({exc.strerror})"
    elif not isinstance(exc, ServerGone):
        text = f"{type(exc).__name__}: {text}"
    text = GLOBAL_MASKER.text(text[:300])
    return f"{text}; stderr: {stderr}" if stderr else text


class McpHost:
    """The hosted MCP servers and their tools. `start()` starts every enabled server (each
    bounded by `start_timeout`; one that fails is reported, the others still start);
    `agent_tools(consent)` are the tools for an agent session; `close()` stops them all.

    `consent(server, tool, args, schema)` is awaited (on the agent's loop) before any tool that is
    not read-only runs; it returns True to run it. Thread-safe to call from any one event loop."""

    def __init__(
        self,
        servers: Sequence[McpServerConfig],
        *,
        start_timeout: float = START_TIMEOUT,
        keychain: Callable[[str], str | None] | None = None,
        masker: Masker = GLOBAL_MASKER,
    ) -> None:
        self.configs = [s for s in servers if s.enabled]
        self.start_timeout = start_timeout
        self.masker = masker
        self._keychain = keychain or _keychain_get
        self._hosted: dict[str, _Hosted] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._started = False
        self._lock = threading.Lock()

    # -- the host loop ---------------------------------------------------------------------------
    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                ready = threading.Event()
                holder: list[asyncio.AbstractEventLoop] = []

                def main() -> None:
                    loop = asyncio.new_event_loop()
                    holder.append(loop)
                    asyncio.set_event_loop(loop)
                    ready.set()
                    try:
                        loop.run_forever()
                    finally:
                        loop.run_until_complete(loop.shutdown_asyncgens())
                        loop.close()

                self._thread = threading.Thread(target=main, name="mcp-host", daemon=True)
                self._thread.start()
                ready.wait(CLOSE_TIMEOUT)
                self._loop = holder[0]
            return self._loop

    async def _on_host(self, coro: Coroutine[Any, Any, T], limit: float) -> T:
        """Run `coro` on the host loop within `limit` s; cancelling the caller cancels it there."""
        future = asyncio.run_coroutine_threadsafe(coro, self._ensure_loop())
        try:
            async with asyncio.timeout(limit):
                return await asyncio.wrap_future(future)
        except BaseException:
            future.cancel()
            raise

    # -- lifecycle -------------------------------------------------------------------------------
    async def start(self) -> list[str]:
        """Start every enabled server; returns one line per server that failed."""
        self._started = True
        if not self.configs:
            return []
        await self._on_host(self._start_all(), self.start_timeout + 5)
        return self.problems()

    async def _start_all(self) -> None:
        await asyncio.gather(*(self._start_one(c) for c in self.configs))

    async def _start_one(self, config: McpServerConfig) -> None:
        hosted = _Hosted(config, self._keychain)
        self._hosted[config.name] = hosted
        hosted.task = asyncio.get_running_loop().create_task(hosted.run())
        try:
            await asyncio.wait_for(hosted.ready.wait(), self.start_timeout)
        except TimeoutError:
            hosted.error = f"did not start within {self.start_timeout:g} s"
            hosted.stop.set()
            hosted.task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(hosted.task), CLOSE_TIMEOUT)

    def problems(self) -> list[str]:
        return [
            f"MCP server {name!r} is not running: {h.error}"
            for name, h in self._hosted.items()
            if h.error is not None
        ]

    def tools(self) -> list[McpTool]:
        return [t for h in self._hosted.values() if h.error is None for t in h.tools]

    def servers(self) -> dict[str, str | None]:
        """Each hosted server and why it is not running (None: running)."""
        return {name: h.error for name, h in self._hosted.items()}

    async def aclose(self) -> None:
        """Stop every server and the host loop (bounded)."""
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(TimeoutError, RuntimeError, asyncio.CancelledError):
            await self._on_host(self._stop_all(), CLOSE_TIMEOUT + 2)
        self._shutdown_loop()

    def close(self) -> None:
        """`aclose` for code without an event loop (the CLI's exit)."""
        loop = self._loop
        if loop is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._stop_all(), loop)
        with contextlib.suppress(Exception):
            future.result(CLOSE_TIMEOUT + 2)
        self._shutdown_loop()

    def _shutdown_loop(self) -> None:
        loop, thread = self._loop, self._thread
        self._loop = self._thread = None
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(CLOSE_TIMEOUT)

    async def _stop_all(self) -> None:
        tasks = []
        for hosted in self._hosted.values():
            hosted.stop.set()
            if hosted.task is not None:
                tasks.append(hosted.task)
        if tasks:
            done, pending = await asyncio.wait(tasks, timeout=CLOSE_TIMEOUT)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=2)

    # -- calls ---------------------------------------------------------------------------------
    async def call(self, server: str, tool: str, args: JSON) -> str:
        """Call a tool; ToolError (one line naming the server) for every failure."""
        hosted = self._hosted.get(server)
        if hosted is None:
            raise ToolError(f"MCP server {server!r} is not declared in Settings > MCP servers")
        timeout = hosted.config.timeout
        try:
            return await self._on_host(self._call(hosted, tool, args), timeout + 5)
        except TimeoutError:
            raise ToolError(
                f"MCP server {server!r}: {tool} did not answer within {timeout:g} s"
            ) from None

    async def _call(self, hosted: _Hosted, tool: str, args: JSON) -> str:
        import anyio
        from mcp.shared.exceptions import McpError
        from mcp.types import CONNECTION_CLOSED

        name = hosted.config.name
        session = hosted.session
        if session is None or hosted.error is not None:
            raise ToolError(f"MCP server {name!r} is not running: {hosted.error or 'stopped'}")
        hosted.failed.clear()
        call = asyncio.ensure_future(session.call_tool(tool, args))
        failed = asyncio.ensure_future(hosted.failed.wait())
        # The session's task ends when its transport fails (anyio cancels its task group):
        # waiting on it too ends the call at once instead of at its timeout.
        waits: set[asyncio.Future[Any]] = {call, failed}
        if hosted.task is not None:
            waits.add(hosted.task)
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            failed.cancel()
            if not call.done():
                call.cancel()
        if not call.done() or call.cancelled():
            why = hosted.error or hosted.failure or "the server stopped"
            hosted.error = why
            raise ToolError(f"MCP server {name!r} stopped during {tool}: {why}")
        try:
            result = call.result()
        except McpError as exc:
            error = getattr(exc, "error", None)
            message = error.message if error is not None else str(exc)
            if error is not None and error.code == CONNECTION_CLOSED:
                hosted.error = "the server stopped" + (
                    f" ({tail})" if (tail := hosted.stderr_tail()) else ""
                )
                raise ToolError(
                    f"MCP server {name!r} stopped during {tool}: {hosted.error}"
                ) from None
            raise ToolError(f"MCP server {name!r}: {tool} failed: {message}") from None
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
            hosted.error = "the server stopped"
            raise ToolError(f"MCP server {name!r} stopped during {tool}") from None
        except Exception as exc:
            raise ToolError(f"MCP server {name!r}: {tool} failed: {_describe(exc)}") from None
        text = result_text(result)
        if result.isError:
            raise ToolError(f"MCP server {name!r}: {tool} reported an error: {text[:2000]}")
        return text

    # -- agent tools -------------------------------------------------------------------------
    def agent_tools(self, consent: Consent | None) -> list[Tool]:
        """The hosted tools as agent tools (read-only ones idempotent, the rest one at a time and
        behind `consent`; without one they are refused). A server that is not running is one
        tool, `mcp__SERVER`, whose every call says why."""
        out: list[Tool] = []
        for name, hosted in self._hosted.items():
            if hosted.error is not None:
                out.append(self._down_tool(name, hosted.error))
                continue
            for tool in hosted.tools:
                out.append(self._agent_tool(tool, consent))
        return out

    def _down_tool(self, server: str, error: str) -> Tool:
        async def handler(args: JSON) -> Any:
            raise ToolError(f"MCP server {server!r} is not running: {error}")

        return Tool(
            f"{PREFIX}{server}",
            f"(MCP server {server!r} is not running: {error}. Its tools are unavailable.)",
            {"type": "object"},
            handler,
            timeout=5,
            external=True,
        )

    def _agent_tool(self, tool: McpTool, consent: Consent | None) -> Tool:
        timeout = self._hosted[tool.server].config.timeout

        async def handler(args: JSON) -> Any:
            for name in secret_arguments(args, tool.schema, self.masker):
                value = args[name]
                self.masker.add(value if isinstance(value, str) else json.dumps(value))
            if not tool.read_only:
                if consent is None:
                    raise ToolError(
                        f"{tool.agent_name} changes things outside the studio and no one can "
                        "approve it here; it was not run"
                    )
                if not await consent(tool, args):
                    raise ToolError("denied by the user; do not retry this call")
            return await self.call(tool.server, tool.name, args)

        what = "read-only" if tool.read_only else "asks the user before it runs"
        description = (f"[MCP server {tool.server}, {what}] {tool.description or tool.name}")[:1024]
        return Tool(
            tool.agent_name,
            description,
            tool.schema,
            handler,
            # The user's consent is part of the call: its wait (the broker's) is bounded too.
            timeout=timeout + (0 if tool.read_only else CONSENT_WAIT) + 10,
            idempotent=tool.read_only,
            external=True,
        )


Consent = Callable[[McpTool, JSON], Coroutine[Any, Any, bool]]
CONSENT_WAIT = 300.0
"""The longest a tool waits for the user's answer (the consent broker's timeout)."""


def broker_consent(
    broker: Any, prototype_id: Callable[[], str], masker: Masker = GLOBAL_MASKER
) -> Consent:
    """Consent through the studio's consent broker (the dialog in the window; the thin client's
    approval in `proto-studio serve`): the tool, its resolved arguments, secrets masked."""
    from studio.platform.consent import ConsentRequest

    async def consent(tool: McpTool, args: JSON) -> bool:
        request = ConsentRequest(
            prototype_id=prototype_id(),
            module=f"mcp:{tool.server}",
            call=f"mcp.{tool.server}.{tool.name}",
            resolved_args=dict(args),
            sensitive=False,
            side_effect=True,
            what=f"will let the agent run {tool.name!r} on the MCP server {tool.server!r}",
            secret_args=secret_arguments(args, tool.schema, masker),
            labels=_labels(tool.schema),
        )
        decision = await broker.request(request)
        return bool(decision.allowed)

    return consent


def _keychain_get(account: str) -> str | None:
    import keyring
    import keyring.errors

    try:
        return keyring.get_password("proto-studio", f"mcp:{account}")
    except keyring.errors.KeyringError:
        return None


def split_name(name: str) -> tuple[str, str] | None:
    """(server, tool) of a namespaced tool name, or None."""
    if not name.startswith(PREFIX):
        return None
    rest = name[len(PREFIX) :]
    server, sep, tool = rest.partition("__")
    return (server, tool) if sep else (rest, "")
