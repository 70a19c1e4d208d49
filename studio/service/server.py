"""`HarnessServer`: the agent loop on the studio's library for thin clients over WebSocket, and the
web client page it serves. The protocol is `studio.service.protocol` (docs/service.md).

The server owns the loop: each client session holds what the studio window holds for one open
prototype (a `Workspace`, its `Document` and a `RunDriver`), so runs, drafts, reviews and applied
revisions behave exactly as in the window; clients only see the protocol's events. A session
outlives its connection for `session_ttl` seconds, and a client that reconnects with its session
id and the last `seq` it saw gets the events it missed. Every wait is bounded: the hello
(`hello_timeout`), a slow client's queue (`MAX_QUEUE`, then it is disconnected with the reason),
the library (its lock's wait), the run (the agent's limits), consent (the broker's timeout).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hmac
import ipaddress
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from studio.agent.config import AgentConfig
from studio.agent.describe import tool_action
from studio.agent.driver import RunDriver
from studio.agent.loop import ApprovalAnswer, AskUserRequest, UserAnswer
from studio.agent.mcp_host import McpHost, broker_consent
from studio.agent.providers import ModelChoice, ModelSource
from studio.agent.registry import Tool
from studio.agent.run_events import (
    DraftRevised,
    InputRequired,
    LoopWarning,
    Notice,
    RetryScheduled,
    RunEnded,
    RunEvent,
    TextStreamed,
    ToolCallFinished,
    ToolCallStarted,
    UsageReported,
)
from studio.agent.trace import GLOBAL_MASKER
from studio.concurrency import Lane, TaskOwner
from studio.document import Document
from studio.library.errors import LibraryError
from studio.library.revisions import RevisionLog
from studio.library.store import Library
from studio.platform.consent import ConsentBroker, ConsentDecision, GrantStore, PendingConsent
from studio.service import protocol
from studio.service.protocol import JSON, Message, ProtocolError
from studio.workspace import Workspace

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 10.0
SESSION_TTL = 15 * 60.0
MAX_SESSIONS = 32
MAX_QUEUE = 5000
MAX_KEPT = 20_000
"""Events a session keeps for resuming (the current turn's and after); older ones are dropped."""
CONSENT_TIMEOUT = 300.0
PAGE_PATHS = ("/", "/index.html")
WS_PATH = "/ws"


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind_warning(host: str) -> str | None:
    """The warning for a server reachable from other machines (None on loopback)."""
    if is_loopback(host):
        return None
    return (
        f"WARNING: listening on {host}, not only this machine: anyone on the network who has the "
        "token can run the agent and change your prototypes. The connection is not encrypted "
        "(ws://); use it only on a network you trust, and stop the server after the demo."
    )


_OVERFLOW: JSON = {"type": "overflow"}


class _Client:
    """One WebSocket connection's outgoing queue and writer (events stay in order; a client
    that cannot keep up is disconnected with the reason rather than slowing the agent)."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[JSON | None] = asyncio.Queue()
        self.overflowed = False
        self.task: asyncio.Future[None] | None = None

    def send(self, data: JSON) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.overflowed = True
            self.queue.put_nowait(_OVERFLOW)
            return
        self.queue.put_nowait(data)

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.writer())

    async def drain(self) -> None:
        """Send what is queued, then stop the writer (bounded)."""
        self.queue.put_nowait(None)
        if self.task is None:
            return
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            async with asyncio.timeout(5):
                await self.task
        self.task.cancel()

    async def writer(self) -> None:
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    return
                if data is _OVERFLOW:
                    await self.ws.close(1013, "too many events unread: reconnect to resume")
                    return
                await self.ws.send(protocol.dumps(data))
        except ConnectionClosed:
            return


class Session:
    """One client session: at most one prototype open (a workspace, its document and driver),
    its turns and their events (numbered by `seq`), and its consent questions."""

    def __init__(self, server: HarnessServer, session_id: str) -> None:
        self.server = server
        self.id = session_id
        self.seq = 0
        self.turn = 0
        self.kept: list[JSON] = []
        self.clients: list[_Client] = []
        self.left_at: float | None = None
        self.workspace = Workspace()
        self.document: Document | None = None
        self.entry_id: str | None = None
        self.entry_name = ""
        self.driver: RunDriver | None = None
        self.tasks = TaskOwner(f"session {session_id}")
        self.in_turn = False
        # The designer's "Always allow/deny" answers (the window's) hold here too; answers given
        # over the protocol are once only.
        self.broker = ConsentBroker(GrantStore(), timeout=CONSENT_TIMEOUT)
        self.answerer = self.broker.connect_ui(self._present_consent, self._withdraw_consent)

    # -- events ------------------------------------------------------------------------------
    def emit(self, data: JSON, *, turn: bool = True) -> JSON:
        self.seq += 1
        data = {
            "type": data["type"],
            "seq": self.seq,
            **{k: v for k, v in data.items() if k != "type"},
        }
        if turn and self.turn:
            data.setdefault("turn", self.turn)
        data = GLOBAL_MASKER.obj(data)
        self.kept.append(data)
        if len(self.kept) > MAX_KEPT:
            del self.kept[: len(self.kept) - MAX_KEPT]
        for client in self.clients:
            client.send(data)
        return data

    def since(self, after: int) -> list[JSON]:
        return [e for e in self.kept if e["seq"] > after]

    def state(self) -> JSON:
        driver = self.driver
        phase = "idle"
        if driver is not None:
            phase = driver.state
            if phase == "idle" and driver.draft_open and driver.draft_revisions:
                phase = "review"
        return {
            "prototype": {"id": self.entry_id, "name": self.entry_name} if self.entry_id else None,
            "turn": self.turn,
            "phase": phase,
            "revisions": len(driver.draft_revisions) if driver is not None else 0,
            "last_seq": self.seq,
        }

    # -- messages ----------------------------------------------------------------------------
    async def handle(self, message: Message) -> None:
        kind = message.type
        if kind == "start":
            await self.start(
                message.get("prototype"), message.get("instruction"), message.get("selected")
            )
        elif kind == "cancel":
            self.cancel()
        elif kind == "answer":
            self.answer(message.get("text"), message.get("call_id"))
        elif kind == "approve":
            self.approve(message.get("id"), bool(message.get("approved")))
        elif kind == "apply":
            await self.apply()
        elif kind == "discard":
            self.discard()

    async def start(self, prototype: str, instruction: str, selected: str | None) -> None:
        driver = self.driver
        if driver is not None and driver.state != "idle":
            raise ProtocolError("busy", "a turn is under way: cancel it or wait for its end")
        entry = await self.server.find_entry(prototype)
        if entry is None:
            raise ProtocolError(
                "unknown_prototype",
                f"no prototype {prototype!r} in the library (send 'list' for their ids and names)",
            )
        entry_id, name = entry
        if self.entry_id != entry_id:
            if driver is not None and driver.draft_open and driver.draft_revisions:
                raise ProtocolError(
                    "busy",
                    f"the draft on {self.entry_name!r} is not applied: apply or discard it first",
                )
            await self._open(entry_id, name)
        elif driver is None or not (driver.draft_open and driver.draft_revisions):
            await self._open(entry_id, name)  # the library's latest (the studio may have edited)
        assert self.driver is not None
        self.turn += 1
        self.in_turn = True
        # Resuming starts at this turn: what came before is not replayed.
        self.kept = []
        self.emit(
            protocol.event(
                "turn_started",
                prototype={"id": entry_id, "name": name},
                instruction=instruction,
                selected=selected,
            )
        )
        server = self.server
        config = server.config

        async def choose() -> ModelChoice:
            return await server.models.choose(config, selected)

        self.driver.start(instruction, choose, config.limits(), selected=selected)

    async def _open(self, entry_id: str, name: str) -> None:
        spec, revisions = await self.server.load(entry_id)
        self.document = Document(spec, name=name, entry_id=entry_id, revisions=revisions)
        self.workspace.open(self.document)
        self.entry_id, self.entry_name = entry_id, name
        self.driver = RunDriver(
            self.workspace,
            self.document,
            self._on_run_event,
            self.tasks,
            save_snapshots=self.server.save_snapshots,
            tools=self._extra_tools,
        )

    def _extra_tools(self) -> Sequence[Tool]:
        host = self.server.mcp
        if host is None:
            return ()
        return host.agent_tools(broker_consent(self.broker, lambda: self.entry_id or ""))

    def cancel(self) -> None:
        driver = self.driver
        if driver is None or driver.state == "idle":
            raise ProtocolError("not_waiting", "no turn is under way")
        self.answerer.deny_all()  # a consent question the user never answered
        driver.stop()

    def answer(self, text: str, call_id: str | None) -> None:
        driver = self.driver
        pending = driver.session.loop.pending if driver and driver.session else None
        if driver is None or driver.state != "waiting" or not isinstance(pending, AskUserRequest):
            raise ProtocolError("not_waiting", "the agent is not waiting for an answer")
        if call_id is not None and call_id != pending.call_id:
            raise ProtocolError(
                "not_waiting", f"the question waiting is {pending.call_id!r}, not {call_id!r}"
            )
        driver.answer(UserAnswer(text))

    def approve(self, request_id: str, approved: bool) -> None:
        driver = self.driver
        pending = driver.session.loop.pending if driver and driver.session else None
        if (
            driver is not None
            and driver.state == "waiting"
            and pending is not None
            and pending.kind == "approval"
            and pending.call_id == request_id
        ):
            driver.answer(ApprovalAnswer(approved))
            return
        decision = ConsentDecision.ALLOW_ONCE if approved else ConsentDecision.DENY
        if not self.answerer.answer(request_id, decision):
            raise ProtocolError("not_waiting", f"no approval {request_id!r} is waiting")

    async def apply(self) -> None:
        driver, document = self.driver, self.document
        if (
            driver is None
            or document is None
            or not driver.draft_open
            or not driver.draft_revisions
        ):
            raise ProtocolError("no_draft", "there is no draft to apply")
        if driver.state != "idle":
            raise ProtocolError("busy", "the turn is still under way")
        assert self.entry_id is not None
        # The studio (or another session) may have changed the prototype since it was opened:
        # the document takes the library's version as an edit, and the workspace rebases the
        # draft on it (or marks it stale) by the same rule as in the window.
        latest, _ = await self.server.load(self.entry_id)
        if latest != document.spec:
            document.replace_spec(latest, author="user", summary="Changed outside this session")
        review = self.workspace.review
        if review is not None and review.stale:
            raise ProtocolError(
                "stale",
                f"the draft no longer applies to the prototype as saved: {review.problem}; "
                "discard it and start again",
            )
        try:
            revision = driver.apply()
        except RuntimeError as exc:
            raise ProtocolError("stale", f"the draft could not be applied: {exc}") from None
        await self.server.save(self.entry_id, document)
        self.emit(
            protocol.event(
                "applied",
                prototype={"id": self.entry_id, "name": self.entry_name},
                revision=revision.id,
                summary=revision.summary,
                changed=list(revision.changed),
            )
        )

    def discard(self) -> None:
        driver = self.driver
        if driver is None or not driver.draft_open or not driver.draft_revisions:
            raise ProtocolError("no_draft", "there is no draft to discard")
        if driver.state != "idle":
            raise ProtocolError("busy", "the turn is still under way")
        driver.discard()
        self.emit(
            protocol.event("discarded", prototype={"id": self.entry_id, "name": self.entry_name})
        )

    # -- the run's events as protocol events -------------------------------------------------
    def _on_run_event(self, event: RunEvent) -> None:
        out = self._translate(event)
        if out is not None:
            self.emit(out)

    def _translate(self, event: RunEvent) -> JSON | None:
        driver = self.driver
        match event:
            case TextStreamed(text=text):
                return protocol.event("text", text=text)
            case ToolCallStarted(call_id=call_id, name=name, arguments=arguments):
                return protocol.event(
                    "tool",
                    phase="started",
                    call_id=call_id,
                    name=name,
                    label=_label(name, arguments),
                )
            case ToolCallFinished(
                call_id=call_id, name=name, output=output, error_class=err, duration_ms=ms
            ):
                return protocol.event(
                    "tool",
                    phase="finished",
                    call_id=call_id,
                    name=name,
                    ok=err is None,
                    error=_error_line(output) if err is not None else None,
                    duration_ms=ms,
                )
            case DraftRevised(revision=revision, summary=summary, changed=changed):
                return protocol.event(
                    "draft",
                    revision=revision,
                    summary=summary,
                    changed=list(changed),
                    revisions=len(driver.draft_revisions) if driver else 0,
                )
            case UsageReported(
                turn=turn, input_tokens=i, output_tokens=o, estimated=est, total_tokens=total
            ):
                return protocol.event(
                    "counters",
                    model_turn=turn,
                    input_tokens=i,
                    output_tokens=o,
                    total_tokens=total,
                    estimated=est,
                )
            case InputRequired(kind="ask_user", call_id=call_id, question=q, options=options):
                return protocol.event(
                    "ask_user", call_id=call_id, question=q, options=list(options)
                )
            case InputRequired(call_id=call_id, tool=tool, arguments=arguments):
                return protocol.event(
                    "approval",
                    id=call_id,
                    tool=tool,
                    what=f"The agent wants to run {tool}.",
                    arguments=[
                        {"name": k, "label": k, "value": _shown(v), "secret": False}
                        for k, v in arguments.items()
                    ],
                )
            case RetryScheduled(attempt=attempt, delay=delay, message=message):
                return protocol.event(
                    "notice",
                    message=f"the model server failed ({message}); retry {attempt} in {delay:g} s",
                )
            case LoopWarning(message=message) | Notice(message=message):
                return protocol.event("notice", message=message)
            case RunEnded(
                status=status,
                reason=reason,
                text=text,
                error_class=error_class,
                turns=turns,
                total_tokens=total,
            ):
                self.in_turn = False
                return protocol.event(
                    status,
                    reason=reason,
                    text=text,
                    error_class=error_class,
                    model_turns=turns,
                    total_tokens=total,
                    revisions=len(driver.draft_revisions) if driver else 0,
                )
        return None  # run_started, turn_started (model turns), snapshot_saved: not protocol events

    # -- consent -------------------------------------------------------------------------------
    def _present_consent(self, pending: PendingConsent) -> None:
        request = pending.request
        self.emit(
            protocol.event(
                "approval",
                id=pending.id,
                tool=request.call,
                what=request.sentence(),
                arguments=[
                    {
                        "name": a.name,
                        "label": a.label,
                        "value": a.masked if a.secret else a.text,
                        "secret": a.secret,
                    }
                    for a in pending.shown_args()
                ],
            )
        )

    def _withdraw_consent(self, pending_id: str) -> None:
        self.emit(
            protocol.event("notice", message=f"approval {pending_id} is no longer waiting (denied)")
        )

    async def aclose(self) -> None:
        with contextlib.suppress(PermissionError):
            self.broker.disconnect_ui(self.answerer)
        if self.driver is not None:
            self.driver.stop()
        await self.tasks.aclose()


def _label(name: str, arguments: str) -> str:
    import json

    try:
        args = json.loads(arguments) if arguments else {}
    except ValueError:
        args = {}
    try:
        return tool_action(name, args)
    except Exception:  # a label is cosmetic: never fail a turn over it
        return name


def _error_line(output: str) -> str:
    import json

    try:
        data = json.loads(output)
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            return str(data["error"])[:300]
    except ValueError:
        pass
    return output[:300]


def _shown(value: Any) -> str:
    import json

    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Bound:
    host: str
    port: int

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    @property
    def ws_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}{WS_PATH}"


class HarnessServer:
    """The server: sessions by id, the library (on one ordered thread), the model source and
    agent settings the window uses, the hosted MCP servers. `start()` binds; `aclose()` ends
    every session and connection."""

    def __init__(
        self,
        library: Library,
        models: ModelSource,
        config: AgentConfig,
        token: str,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        mcp: McpHost | None = None,
        save_snapshots: bool = True,
        hello_timeout: float = HELLO_TIMEOUT,
        session_ttl: float = SESSION_TTL,
        page: Callable[[], bytes] | None = None,
    ) -> None:
        if not token:
            raise ValueError("the server needs a token")
        self.library = library
        self.models = models
        self.config = config
        self.mcp = mcp
        self.save_snapshots = save_snapshots
        self.hello_timeout = hello_timeout
        self.session_ttl = session_ttl
        self.sessions: dict[str, Session] = {}
        self._token = token
        self._host, self._port = host, port
        self._lane = Lane("service library")
        self._server: Server | None = None
        self._tasks = TaskOwner("harness server")
        self._page = page or _page

    # -- lifecycle -------------------------------------------------------------------------------
    async def start(self) -> Bound:
        self._server = await serve(
            self._connection,
            self._host,
            self._port,
            process_request=self._http,
            max_size=4 * protocol.MAX_FRAME,
            ping_interval=20,
            ping_timeout=20,
            close_timeout=5,
        )
        sock = next(iter(self._server.sockets))
        host, port = sock.getsockname()[:2]
        self._tasks.spawn(self._reap(), label="session reaper", track=False)
        return Bound(str(host), int(port))

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(10):
                    await self._server.wait_closed()
        for session in list(self.sessions.values()):
            await session.aclose()
        self.sessions.clear()
        await self._tasks.aclose()
        self._lane.close()

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(1.0, self.session_ttl / 4)))
            now = time.monotonic()
            for sid, session in list(self.sessions.items()):
                if session.left_at is not None and now - session.left_at > self.session_ttl:
                    del self.sessions[sid]
                    await session.aclose()

    # -- the library -----------------------------------------------------------------------------
    async def prototypes(self) -> list[JSON]:
        entries = await self._lane.run(self.library.list_entries)
        return [{"id": e.id, "name": e.name} for e in entries]

    async def find_entry(self, key: str) -> tuple[str, str] | None:
        """An entry by id, else by name (case-insensitive, when only one has it)."""
        items = await self.prototypes()
        for item in items:
            if item["id"] == key:
                return item["id"], item["name"]
        named = [i for i in items if i["name"].casefold() == key.strip().casefold()]
        return (named[0]["id"], named[0]["name"]) if len(named) == 1 else None

    async def load(self, entry_id: str) -> tuple[JSON, RevisionLog]:
        def read() -> tuple[JSON, RevisionLog]:
            spec = self.library.load_spec(entry_id)
            revisions = self.library.load_revisions(entry_id)
            if revisions is None or revisions.current != spec:
                revisions = RevisionLog(spec)
            return spec, revisions

        try:
            return await self._lane.run(read)
        except LibraryError as exc:
            raise ProtocolError("library", str(exc)) from None

    async def save(self, entry_id: str, document: Document) -> None:
        """The document's spec and revision log, as the studio window saves them."""
        log_copy = RevisionLog(
            document.revisions.base, document.revisions.revisions, document.revisions.cursor
        )
        spec = copy.deepcopy(document.spec)

        def write() -> None:
            self.library.save_revisions(entry_id, log_copy)
            self.library.save_spec(entry_id, spec)

        try:
            await self._lane.run(write)
        except (LibraryError, OSError) as exc:
            raise ProtocolError("library", f"the applied draft could not be saved: {exc}") from None

    # -- HTTP: the page ------------------------------------------------------------------------
    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            return None  # the WebSocket handshake goes on
        if path in PAGE_PATHS:
            body = self._page()
            headers = Headers(
                [
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Cache-Control", "no-store"),
                    (
                        "Content-Security-Policy",
                        "default-src 'self'; connect-src 'self' ws: wss:; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
                    ),
                    ("Referrer-Policy", "no-referrer"),
                    ("Content-Length", str(len(body))),
                ]
            )
            return Response(HTTPStatus.OK.value, "OK", headers, body)
        return connection.respond(
            HTTPStatus.NOT_FOUND, f"not found: {path} (the client page is /)\n"
        )

    # -- WebSocket: one connection ---------------------------------------------------------------
    async def _connection(self, ws: ServerConnection) -> None:
        client = _Client(ws)
        client.start()
        session: Session | None = None
        try:
            session = await self._hello(ws, client)
            if session is None:
                return
            async for frame in ws:
                await self._frame(session, client, frame)
        except ConnectionClosed:
            pass
        finally:
            if session is not None:
                if client in session.clients:
                    session.clients.remove(client)
                if not session.clients:
                    session.left_at = time.monotonic()
            await client.drain()

    async def _refuse(self, ws: ServerConnection, client: _Client, code: int, data: JSON) -> None:
        """Send the error event, then close with the same reason (bounded)."""
        client.send(data)
        await client.drain()
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            async with asyncio.timeout(5):
                await ws.close(code, data["message"][:120])

    async def _hello(self, ws: ServerConnection, client: _Client) -> Session | None:
        try:
            async with asyncio.timeout(self.hello_timeout):
                while True:
                    frame = await ws.recv()
                    try:
                        message = protocol.parse_message(frame)
                    except ProtocolError as exc:
                        client.send(protocol.error(exc.code, exc.message))
                        continue
                    if message.type == "hello":
                        break
                    client.send(
                        protocol.error(
                            "no_hello",
                            f"send 'hello' with the token before {message.type!r}",
                            message.type,
                        )
                    )
        except TimeoutError:
            await self._refuse(
                ws,
                client,
                4408,
                protocol.error("no_hello", f"no 'hello' within {self.hello_timeout:g} s"),
            )
            return None
        token = str(message.get("token"))
        if not hmac.compare_digest(token.encode(), self._token.encode()):
            log.info("refused a client with a wrong token")
            await self._refuse(
                ws,
                client,
                4401,
                protocol.error(
                    "unauthorized",
                    "wrong token: use the one proto-studio serve showed when it made it",
                    "hello",
                ),
            )
            return None
        wanted = message.get("session")
        session = self.sessions.get(wanted) if wanted else None
        resumed = session is not None
        if wanted and session is None:
            client.send(
                protocol.error(
                    "unknown_session",
                    f"session {wanted!r} is over or unknown; a new one was started",
                    "hello",
                )
            )
        if session is None:
            if len(self.sessions) >= MAX_SESSIONS:
                await self._refuse(
                    ws,
                    client,
                    4429,
                    protocol.error(
                        "busy", f"the server has {MAX_SESSIONS} sessions already", "hello"
                    ),
                )
                return None
            session = Session(self, secrets.token_urlsafe(12))
            self.sessions[session.id] = session
        session.left_at = None
        try:
            items = await self.prototypes()
        except LibraryError as exc:
            items = []
            client.send(protocol.error("library", str(exc), "hello"))
        from studio.version import version

        client.send(
            protocol.event(
                "welcome",
                session=session.id,
                resumed=resumed,
                protocol=protocol.VERSION,
                server=f"proto-studio {version()}",
                prototypes=items,
                state=session.state(),
            )
        )
        for data in session.since(int(message.get("after", 0))) if resumed else []:
            client.send(data)
        session.clients.append(client)
        return session

    async def _frame(self, session: Session, client: _Client, frame: str | bytes) -> None:
        kind = None
        try:
            message = protocol.parse_message(frame)
            kind = message.type
            if kind == "ping":
                client.send(protocol.event("pong"))
            elif kind == "list":
                client.send(protocol.event("prototypes", items=await self.prototypes()))
            elif kind == "hello":
                raise ProtocolError("bad_frame", "already said hello on this connection")
            else:
                await session.handle(message)
        except ProtocolError as exc:
            client.send(protocol.error(exc.code, exc.message, kind))
        except LibraryError as exc:
            client.send(protocol.error("library", str(exc), kind))


def _page() -> bytes:
    from studio.resources import resource_path

    return resource_path("service", "client.html").read_bytes()
