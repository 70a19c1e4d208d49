"""`proto-studio client`: a thin terminal client of `proto-studio serve` (one turn: stream it,
answer the agent's questions and approvals, then apply, discard or keep the draft).

It speaks only the protocol (docs/service.md); a lost connection is resumed from the last `seq`
it saw (a few tries, each bounded), and Ctrl-C cancels the turn before it exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import IO, Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from studio.service.protocol import TERMINAL

EXIT = {"completed": 0, "failed": 1, "no_changes": 3, "cancelled": 130}
RECONNECTS = 5
CONNECT_TIMEOUT = 10.0
REPLY_TIMEOUT = 30.0
Ask = Callable[[str], Awaitable[str]]


async def _ask_stdin(prompt: str) -> str:
    from studio.concurrency import off_loop

    def read() -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return await off_loop(read)


class ClientError(Exception):
    """The server refused (wrong token, unknown prototype, ...) or could not be reached."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class TurnClient:
    """Runs one turn against a server and prints it to `out`. `draft` decides what happens to
    a draft at the end: "apply", "discard", "keep" or "ask" (asks `ask`)."""

    url: str
    token: str
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    ask: Ask = _ask_stdin
    draft: str = "ask"
    session: str | None = None
    seq: int = 0
    terminal: dict[str, Any] | None = None
    _ws: ClientConnection | None = None
    _text_open: bool = False

    # -- connection ----------------------------------------------------------------------------
    async def _connect(self) -> dict[str, Any]:
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                self._ws = await connect(self.url, max_size=None, open_timeout=CONNECT_TIMEOUT)
                hello: dict[str, Any] = {"type": "hello", "token": self.token, "client": "terminal"}
                if self.session:
                    hello.update(session=self.session, after=self.seq)
                await self._ws.send(json.dumps(hello))
                while True:
                    event = await self._recv()
                    if event["type"] == "welcome":
                        self.session = event["session"]
                        return event
                    if event["type"] == "error" and event.get("code") == "unknown_session":
                        self.seq = 0
                        continue
                    if event["type"] == "error":
                        raise ClientError(f"the server refused: {event.get('message')}")
        except TimeoutError:
            raise ClientError(f"{self.url}: no answer within {CONNECT_TIMEOUT:g} s") from None
        except (OSError, InvalidHandshake, InvalidURI) as exc:
            raise ClientError(f"{self.url}: cannot connect ({exc})") from None
        except ConnectionClosed as exc:
            raise ClientError(
                f"{self.url}: the server closed the connection ({exc.reason or exc.code})"
            ) from None

    async def _recv(self) -> dict[str, Any]:
        assert self._ws is not None
        data = json.loads(await self._ws.recv())
        if not isinstance(data, dict):
            raise ClientError("the server sent something that is not an event")
        seq = data.get("seq")
        if isinstance(seq, int):
            self.seq = max(self.seq, seq)
        return data

    async def send(self, message: dict[str, Any]) -> None:
        assert self._ws is not None
        await self._ws.send(json.dumps(message))

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()

    # -- commands --------------------------------------------------------------------------------
    async def prototypes(self) -> list[dict[str, Any]]:
        welcome = await self._connect()
        await self.close()
        return list(welcome.get("prototypes") or [])

    async def run(self, prototype: str, instruction: str, selected: str | None = None) -> int:
        await self._connect()
        start: dict[str, Any] = {
            "type": "start",
            "prototype": prototype,
            "instruction": instruction,
        }
        if selected:
            start["selected"] = selected
        await self.send(start)
        tries = 0
        while True:
            try:
                result = await self._follow()
                if result is not None:
                    return result
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code in (4401, 4408):
                    raise ClientError(
                        f"the server closed the connection: {exc.rcvd.reason}"
                    ) from None
                tries += 1
                if tries > RECONNECTS:
                    raise ClientError(f"lost the connection {tries} times; giving up") from None
                self._line(f"(connection lost; resuming after event {self.seq})")
                await asyncio.sleep(min(5.0, 0.2 * 2**tries))
                await self._connect()

    async def _follow(self) -> int | None:
        while True:
            event = await self._recv()
            done = await self._show(event)
            if done is not None:
                return done

    # -- output ---------------------------------------------------------------------------------
    def _line(self, text: str) -> None:
        if self._text_open:
            self.out.write("\n")
            self._text_open = False
        self.out.write(text + "\n")
        self.out.flush()

    async def _show(self, event: dict[str, Any]) -> int | None:
        kind = event.get("type")
        if kind == "turn_started":
            self._line(f"▶ {event['prototype']['name']}: {event['instruction']}")
        elif kind == "text":
            self.out.write(str(event.get("text", "")))
            self.out.flush()
            self._text_open = True
        elif kind == "tool":
            if event.get("phase") == "started":
                self._line(f"  · {event.get('label') or event.get('name')}")
            elif not event.get("ok"):
                self._line(f"  ! {event.get('name')}: {event.get('error')}")
        elif kind == "draft":
            self._line(f"  ✎ {event.get('summary')} ({event.get('revisions')} in the draft)")
        elif kind == "counters":
            pass  # shown with the end
        elif kind == "notice":
            self._line(f"  ({event.get('message')})")
        elif kind == "ask_user":
            await self._answer(event)
        elif kind == "approval":
            await self._approve(event)
        elif kind in TERMINAL:
            self.terminal = event
            message = event.get("text") or event.get("reason") or ""
            self._line(f"■ {kind}: {message}".rstrip(": "))
            self._line(
                f"  ({event.get('total_tokens', 0)} tokens, {event.get('model_turns', 0)} model turns)"
            )
            if event.get("revisions"):
                return await self._decide(event)
            return EXIT.get(kind, 1)
        elif kind == "error":
            self._line(f"  error ({event.get('code')}): {event.get('message')}")
            if event.get("in_reply_to") == "start":
                return 2
        return None

    async def _answer(self, event: dict[str, Any]) -> None:
        self._line(f"? {event.get('question')}")
        options = list(event.get("options") or [])
        for n, option in enumerate(options, 1):
            self._line(f"  {n}. {option}")
        text = (await self.ask("answer> ")).strip()
        if text.isdigit() and 1 <= int(text) <= len(options):
            text = options[int(text) - 1]
        await self.send({"type": "answer", "text": text, "call_id": event.get("call_id")})

    async def _approve(self, event: dict[str, Any]) -> None:
        self._line(f"? {event.get('what')} ({event.get('tool')})")
        for arg in event.get("arguments") or []:
            self._line(f"    {arg.get('label')}: {arg.get('value')}")
        text = (await self.ask("allow once? [y/N] ")).strip().lower()
        await self.send(
            {"type": "approve", "id": event.get("id"), "approved": text in ("y", "yes")}
        )

    async def _decide(self, terminal: dict[str, Any]) -> int:
        status = EXIT.get(str(terminal.get("type")), 1)
        choice = self.draft
        if choice == "ask":
            text = (
                (
                    await self.ask(
                        f"the draft has {terminal['revisions']} revision(s): [a]pply, [d]iscard or [k]eep? "
                    )
                )
                .strip()
                .lower()
            )
            choice = {"a": "apply", "d": "discard"}.get(text[:1], "keep")
        if choice == "keep":
            self._line("  the draft is kept on the server for this session")
            return status
        await self.send({"type": choice})
        async with asyncio.timeout(REPLY_TIMEOUT):
            while True:
                event = await self._recv()
                if event.get("type") == "applied":
                    self._line(
                        f"✔ applied: {event.get('summary')} (revision {event.get('revision')})"
                    )
                    return status
                if event.get("type") == "discarded":
                    self._line("✖ discarded the draft")
                    return status
                if event.get("type") == "error":
                    self._line(f"  error ({event.get('code')}): {event.get('message')}")
                    return 1

    async def cancel(self) -> None:
        """Ctrl-C: cancel the turn and wait (bounded) for its end."""
        if self._ws is None or self.terminal is not None:
            return
        with contextlib.suppress(Exception):
            await self.send({"type": "cancel"})
            async with asyncio.timeout(10):
                while self.terminal is None:
                    await self._show(await self._recv())
