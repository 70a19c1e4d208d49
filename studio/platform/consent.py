"""The consent policy: every sensitive or side-effecting platform call waits for the user's answer.

Approval is data. `ConsentBroker.request` parks a `PendingConsent` and awaits a future; only the
holder of the `ConsentAnswerer` (handed out once, to the host UI, by `connect_ui`) can resolve
it. The agent, the spec and a tool result have no path to the answerer, so nothing they say can
approve a call. The broker reads nothing from a spec but the call and its resolved arguments;
"Always for this prototype" grants live in a JSON file (atomic writes) and are revocable.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import json
import logging
import os
import re
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.concurrency import off_loop
from studio.platform.paths import consent_grants_path

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 300.0
MAX_SHOWN = 240
_SECRET_NAME = re.compile(r"pass(word)?|secret|token|api[_-]?key|pin|otp|credential", re.I)


class ConsentDecision(enum.Enum):
    ALLOW_ONCE = "allow_once"
    ALWAYS = "always"
    DENY = "deny"

    @property
    def allowed(self) -> bool:
        return self is not ConsentDecision.DENY


@dataclass(frozen=True)
class ConsentRequest:
    """What the user is asked about. `prototype_id` is the host's id of the open prototype;
    `sensitive` / `side_effect` come from the registry, never from the spec."""

    prototype_id: str
    module: str
    call: str  # the full name, "share.text"
    resolved_args: Mapping[str, Any]
    sensitive: bool
    side_effect: bool


@dataclass(frozen=True)
class PendingConsent:
    """A question waiting for the user: shown by the UI, answered through the answerer."""

    id: str
    request: ConsentRequest

    def shown_args(self) -> list[tuple[str, str]]:
        return display_args(self.request)


@dataclass(frozen=True)
class Grant:
    prototype_id: str
    call: str
    granted_at: float


def display_args(request: ConsentRequest) -> list[tuple[str, str]]:
    """The resolved arguments as the dialog shows them: secret-looking names, and every text
    of a call marked `sensitive: true`, are masked; long values are shortened."""
    masked_all = request.resolved_args.get("sensitive") is True
    rows: list[tuple[str, str]] = []
    for name, value in request.resolved_args.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if _SECRET_NAME.search(name) or (masked_all and isinstance(value, str)):
            text = f"•••••• (hidden, {len(value) if isinstance(value, str) else '?'} characters)"
        elif len(text) > MAX_SHOWN:
            text = text[: MAX_SHOWN - 1] + f"… ({len(text)} characters)"
        rows.append((name, text))
    return rows


class GrantStore:
    """ "Always for this prototype" answers, in a JSON file. A missing or unreadable file means
    no grants (fail closed)."""

    def __init__(self, path: Path | None = None):
        self.path = path or consent_grants_path()
        self._grants: dict[tuple[str, str], Grant] | None = None
        self._loading: asyncio.Future[dict[tuple[str, str], Grant]] | None = None

    async def load(self) -> None:
        if self._grants is not None:
            return
        if self._loading is None:  # concurrent first requests share one read
            self._loading = asyncio.ensure_future(off_loop(self._read))
        grants = await asyncio.shield(self._loading)
        if self._grants is None:
            self._grants = grants

    def _read(self) -> dict[tuple[str, str], Grant]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            entries = raw["grants"]
            grants = {
                (str(e["prototype"]), str(e["call"])): Grant(
                    str(e["prototype"]), str(e["call"]), float(e["granted"])
                )
                for e in entries
            }
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("%s: unreadable consent grants, treated as none (%s)", self.path, exc)
            return {}
        return grants

    def _write(self, grants: list[Grant]) -> None:
        payload = {
            "version": 1,
            "grants": [
                {"prototype": g.prototype_id, "call": g.call, "granted": g.granted_at}
                for g in grants
            ],
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".consent.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, indent=2)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise

    async def _save(self) -> None:
        assert self._grants is not None
        await off_loop(self._write, list(self._grants.values()))

    async def has(self, prototype_id: str, call: str) -> bool:
        await self.load()
        assert self._grants is not None
        return (prototype_id, call) in self._grants

    async def grant(self, prototype_id: str, call: str) -> None:
        await self.load()
        assert self._grants is not None
        self._grants[(prototype_id, call)] = Grant(prototype_id, call, time.time())
        await self._save()

    async def revoke(self, prototype_id: str, call: str | None = None) -> int:
        """Forget a grant (or every grant of the prototype when `call` is None); how many."""
        await self.load()
        assert self._grants is not None
        gone = [k for k in self._grants if k[0] == prototype_id and call in (None, k[1])]
        for key in gone:
            del self._grants[key]
        if gone:
            await self._save()
        return len(gone)

    async def all(self) -> list[Grant]:
        await self.load()
        assert self._grants is not None
        return sorted(self._grants.values(), key=lambda g: (g.prototype_id, g.call))


Presenter = Callable[[PendingConsent], None]
Withdraw = Callable[[str], None]


class ConsentAnswerer:
    """The capability to answer consent questions. `ConsentBroker.connect_ui` creates exactly one
    per connection and gives it to the UI; nothing else can resolve a pending question."""

    def __init__(self, broker: ConsentBroker):
        self._broker = broker

    def answer(self, pending_id: str, decision: ConsentDecision) -> bool:
        """Resolve a pending question; False if it is no longer pending (timed out, withdrawn)."""
        return self._broker._resolve(self, pending_id, decision)

    def deny_all(self) -> None:
        """Deny everything pending (the UI is closing)."""
        for pending in self._broker.pending():
            self.answer(pending.id, ConsentDecision.DENY)


class ConsentBroker:
    """Asks the connected UI about sensitive and side-effecting calls and remembers "always"."""

    def __init__(self, grants: GrantStore | None = None, *, timeout: float = DEFAULT_TIMEOUT):
        self._store = grants or GrantStore()
        self.timeout = timeout
        self._answerer: ConsentAnswerer | None = None
        self._present: Presenter | None = None
        self._withdraw: Withdraw | None = None
        self._waiting: dict[str, tuple[PendingConsent, asyncio.Future[ConsentDecision]]] = {}
        self._ids = itertools.count(1)

    # -- the UI side ------------------------------------------------------------------------
    def connect_ui(self, present: Presenter, withdraw: Withdraw | None = None) -> ConsentAnswerer:
        """Connect the host UI: `present(pending)` shows a question, `withdraw(id)` removes one
        that is no longer pending. Returns the only answerer; a second connection is refused."""
        if self._answerer is not None:
            raise RuntimeError("a consent UI is already connected")
        self._answerer = ConsentAnswerer(self)
        self._present, self._withdraw = present, withdraw
        return self._answerer

    def disconnect_ui(self, answerer: ConsentAnswerer) -> None:
        """Disconnect (denying whatever is pending)."""
        if answerer is not self._answerer:
            raise PermissionError("not the connected consent UI")
        answerer.deny_all()
        self._answerer = self._present = self._withdraw = None

    def pending(self) -> list[PendingConsent]:
        return [p for p, _ in self._waiting.values()]

    def _resolve(self, answerer: ConsentAnswerer, pending_id: str, decision: Any) -> bool:
        if answerer is not self._answerer:
            raise PermissionError("only the connected consent UI can answer")
        if not isinstance(decision, ConsentDecision):
            raise TypeError("decision must be a ConsentDecision")
        entry = self._waiting.get(pending_id)
        if entry is None or entry[1].done():
            return False
        entry[1].set_result(decision)
        return True

    # -- the host side ----------------------------------------------------------------------
    async def request(self, request: ConsentRequest) -> ConsentDecision:
        """The user's decision for `request`: a stored "always" grant, or the UI's answer.
        No UI connected, a timeout, or a UI closed without answering: DENY."""
        if await self._store.has(request.prototype_id, request.call):
            return ConsentDecision.ALWAYS
        if self._present is None:
            log.info("%s denied: no consent UI connected", request.call)
            return ConsentDecision.DENY
        pending = PendingConsent(f"consent-{next(self._ids)}", request)
        future: asyncio.Future[ConsentDecision] = asyncio.get_running_loop().create_future()
        self._waiting[pending.id] = (pending, future)
        answered = False
        try:
            self._present(pending)
            decision = await asyncio.wait_for(future, self.timeout)
            answered = True
        except TimeoutError:
            decision = ConsentDecision.DENY
        finally:
            self._waiting.pop(pending.id, None)
            if not answered and self._withdraw is not None:
                self._withdraw(pending.id)  # timed out or cancelled: close its dialog
        if decision is ConsentDecision.ALWAYS:
            try:
                await self._store.grant(request.prototype_id, request.call)
            except OSError as exc:  # the call is still allowed this once
                log.warning("%s: cannot remember the grant (%s)", self._store.path, exc)
        return decision

    async def revoke(self, prototype_id: str, call: str | None = None) -> int:
        return await self._store.revoke(prototype_id, call)

    async def grants(self) -> list[Grant]:
        return await self._store.all()
