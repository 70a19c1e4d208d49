"""The consent policy: every sensitive or side-effecting platform call waits for the user's answer.

Approval is data. `ConsentBroker.request` parks a `PendingConsent` and awaits a future; only the
holder of the `ConsentAnswerer` (handed out once, to the host UI, by `connect_ui`) can resolve
it. The agent, the spec and a tool result have no path to the answerer, so nothing they say can
approve a call. The broker reads nothing from a spec but the call and its resolved arguments.

What the question shows comes from the registry, never from the spec: the plain sentence of
what the call will do (`PlatformCall.consent`), the argument labels, and which arguments are
secrets (masked until revealed). Every value is shown whole (the dialog scrolls), with invisible
and direction-changing characters escaped (`\\u202e`), so what is approved is what runs.

"Always allow" and "Always deny" answers for a prototype live in a JSON file (atomic writes)
and are revocable; denials are kept apart from grants, so an older build that reads the file
never takes a denial for a grant.
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
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.concurrency import off_loop
from studio.platform.paths import consent_grants_path

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 300.0
#: Characters shown as an escape rather than drawn: controls, format characters (bidi
#: overrides and isolates, zero-width joiners, BOM), line/paragraph separators, unassigned,
#: private-use and surrogate code points. Newline and tab stay what they are.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_KEPT = frozenset("\n\t")
#: A fast pre-check: text of printable ASCII and Latin letters needs no escaping.
_MAY_HIDE = re.compile(r"[^\x20-\x7e\u00a0-\u02ff\n]")


class ConsentDecision(enum.Enum):
    ALLOW_ONCE = "allow_once"
    ALWAYS = "always"
    DENY = "deny"
    ALWAYS_DENY = "always_deny"

    @property
    def allowed(self) -> bool:
        return self in (ConsentDecision.ALLOW_ONCE, ConsentDecision.ALWAYS)

    @property
    def remembered(self) -> bool:
        """An answer kept for the prototype (until revoked in the permissions window)."""
        return self in (ConsentDecision.ALWAYS, ConsentDecision.ALWAYS_DENY)


@dataclass(frozen=True)
class ConsentRequest:
    """What the user is asked about. `prototype_id` is the host's id of the open prototype;
    `sensitive` / `side_effect`, `what` (the plain sentence), `secret_args` and `labels` (the
    arguments' descriptions) come from the registry, never from the spec."""

    prototype_id: str
    module: str
    call: str  # the full name, "share.text"
    resolved_args: Mapping[str, Any]
    sensitive: bool
    side_effect: bool
    what: str = ""
    secret_args: frozenset[str] = frozenset()
    labels: Mapping[str, str] = field(default_factory=dict)

    def sentence(self) -> str:
        """What will happen, in plain words: "This prototype will put this text on your
        clipboard." (from the registry; a generic line for a call that says nothing)."""
        what = self.what.strip().rstrip(".") or f"wants to run {self.call}"
        return f"This prototype {what}."


@dataclass(frozen=True)
class ShownArg:
    """One argument as the consent dialog shows it: `text` is the whole value (JSON for what is
    not a string) with hidden characters escaped; `secret` ones start masked (`masked`)."""

    name: str
    label: str
    text: str
    secret: bool
    length: int
    escaped: int

    @property
    def masked(self) -> str:
        return f"•••••• (hidden, {self.length} characters)"


@dataclass(frozen=True)
class PendingConsent:
    """A question waiting for the user: shown by the UI, answered through the answerer."""

    id: str
    request: ConsentRequest

    def shown_args(self) -> list[ShownArg]:
        return display_args(self.request)


@dataclass(frozen=True)
class Grant:
    """A remembered answer for one call of one prototype: "Always allow" (`allowed`) or
    "Always deny"."""

    prototype_id: str
    call: str
    granted_at: float
    allowed: bool = True


def visible_text(text: str) -> tuple[str, int]:
    """`text` with every character that draws as nothing or turns what follows around (U+202E)
    shown as its escape (`\\u202e`), and how many were escaped."""
    if not _MAY_HIDE.search(text):
        return text, 0
    out: list[str] = []
    escaped = 0
    for char in text:
        if char not in _KEPT and unicodedata.category(char) in _HIDDEN_CATEGORIES:
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
            escaped += 1
        else:
            out.append(char)
    return "".join(out), escaped


def display_args(request: ConsentRequest) -> list[ShownArg]:
    """The resolved arguments as the dialog shows them, in order: whole, escaped, and masked
    only where the registry marks an argument secret (the spec has no say)."""
    rows: list[ShownArg] = []
    for name, value in request.resolved_args.items():
        raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        text, escaped = visible_text(raw)
        label = str(request.labels.get(name) or name)
        rows.append(ShownArg(name, label, text, name in request.secret_args, len(raw), escaped))
    return rows


class GrantStore:
    """Remembered answers ("Always allow", "Always deny"), in a JSON file. A missing or
    unreadable file means none (fail closed: every call asks)."""

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
            grants: dict[tuple[str, str], Grant] = {}
            for key, allowed in (("grants", True), ("denials", False)):
                for e in raw.get(key, []) if key == "denials" else raw[key]:
                    grant = Grant(str(e["prototype"]), str(e["call"]), float(e["granted"]), allowed)
                    # A call both granted and denied (a hand-edited file): the denial wins.
                    if allowed and (grant.prototype_id, grant.call) in grants:
                        continue
                    grants[(grant.prototype_id, grant.call)] = grant
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("%s: unreadable consent grants, treated as none (%s)", self.path, exc)
            return {}
        return grants

    def _write(self, grants: list[Grant]) -> None:
        def entries(allowed: bool) -> list[dict[str, Any]]:
            return [
                {"prototype": g.prototype_id, "call": g.call, "granted": g.granted_at}
                for g in grants
                if g.allowed is allowed
            ]

        payload = {"version": 1, "grants": entries(True), "denials": entries(False)}
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

    async def lookup(self, prototype_id: str, call: str) -> Grant | None:
        """The remembered answer for this call of this prototype, if any."""
        await self.load()
        assert self._grants is not None
        return self._grants.get((prototype_id, call))

    async def has(self, prototype_id: str, call: str) -> bool:
        """Whether the call is always allowed for the prototype."""
        found = await self.lookup(prototype_id, call)
        return found is not None and found.allowed

    async def remember(self, prototype_id: str, call: str, *, allowed: bool) -> None:
        await self.load()
        assert self._grants is not None
        self._grants[(prototype_id, call)] = Grant(prototype_id, call, time.time(), allowed)
        await self._save()

    async def grant(self, prototype_id: str, call: str) -> None:
        await self.remember(prototype_id, call, allowed=True)

    async def deny(self, prototype_id: str, call: str) -> None:
        await self.remember(prototype_id, call, allowed=False)

    async def revoke(self, prototype_id: str, call: str | None = None) -> int:
        """Forget a remembered answer (or every one of the prototype when `call` is None): the
        next call asks again. Returns how many."""
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
        remembered = await self._store.lookup(request.prototype_id, request.call)
        if remembered is not None:
            return ConsentDecision.ALWAYS if remembered.allowed else ConsentDecision.ALWAYS_DENY
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
        if decision.remembered:
            try:
                await self._store.remember(
                    request.prototype_id, request.call, allowed=decision.allowed
                )
            except OSError as exc:  # the answer still holds this once
                log.warning("%s: cannot remember the answer (%s)", self._store.path, exc)
        return decision

    async def revoke(self, prototype_id: str, call: str | None = None) -> int:
        return await self._store.revoke(prototype_id, call)

    async def grants(self) -> list[Grant]:
        return await self._store.all()
