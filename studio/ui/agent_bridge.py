"""The agent sheet's adapter to the Qt-free agent core: settings, model choice, one run, probes, replay.

Nothing here draws a widget; the sheet, the trace panel and the settings dialog use it. The agent
work itself is the core's public API (AgentSession.run/follow_up/resume/cancel, Replayer, the
profiles' prices, KeyStore.aget); this module adds only what is the studio's: saved agent
settings, one run at a time per prototype with exactly one terminal event, apply/undo into the
Document, the connection test and the local-model probe.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import httpx

from studio.agent.clients import (
    ModelClient,
    check_request_allowed,
    default_http_client,
    make_client,
)
from studio.agent.errors import ModelError
from studio.agent.events import Usage
from studio.agent.guards import Limits
from studio.agent.keys import KeyStore
from studio.agent.loop import Answer, RunResult
from studio.agent.profiles import PROFILES, profile_for
from studio.agent.router import Router, RoutingError, Task
from studio.agent.session import AgentSession
from studio.agent.tools import PreviewProvider
from studio.agent.trace import GLOBAL_MASKER
from studio.document import Document
from studio.library.revisions import Revision

log = logging.getLogger("studio.ui.agent")
JSON = dict[str, Any]
Event = dict[str, Any]
TERMINAL = ("completed", "no_changes", "failed", "cancelled")

# -- settings ---------------------------------------------------------------------------------


@dataclass
class AgentConfig:
    """What the user chose in Agent settings (the key is never here: it lives in the keychain)."""

    profile: str = "openai"
    base_url: str = ""  # empty: the profile's default
    model: str = ""
    api: Literal["chat", "responses"] = "chat"
    local_only: bool = False
    max_turns: int = 20
    token_budget: int | None = 200_000

    def resolved_base_url(self) -> str:
        if self.base_url:
            return self.base_url.rstrip("/")
        known = PROFILES.get(self.profile)
        return known.default_base_url if known else ""

    def is_local(self) -> bool:
        known = PROFILES.get(self.profile)
        return bool(known and known.local)

    def limits(self) -> Limits:
        return Limits(self.max_turns, self.token_budget)

    def cost(self, usage: Usage) -> float | None:
        """The run's cost in USD from the profile's list prices: 0 for a local model, None where
        the price is unknown."""
        known = PROFILES.get(self.profile)
        return known.cost(self.model, usage) if known else None

    @classmethod
    def from_json(cls, data: Any) -> AgentConfig:
        if not isinstance(data, dict):
            raise ValueError("the agent settings are not a JSON object")
        out = cls()
        for name in ("profile", "base_url", "model"):
            if isinstance(data.get(name), str):
                setattr(out, name, data[name])
        if data.get("api") in ("chat", "responses"):
            out.api = data["api"]
        out.local_only = bool(data.get("local_only", False))
        if isinstance(data.get("max_turns"), int) and data["max_turns"] > 0:
            out.max_turns = data["max_turns"]
        budget = data.get("token_budget", out.token_budget)
        out.token_budget = budget if isinstance(budget, int) and budget > 0 else None
        return out


def config_path() -> Path:
    from studio.ui.settings import config_dir  # honours PROTO_STUDIO_HOME

    return config_dir() / "agent.json"


def load_config(path: Path | None = None) -> tuple[AgentConfig, str | None]:
    """The saved settings, or the defaults and a one-line warning naming the file."""
    path = path or config_path()
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return AgentConfig(), None
    except OSError as exc:
        return AgentConfig(), f"{path}: cannot read the agent settings ({exc.strerror})"
    try:
        return AgentConfig.from_json(json.loads(raw)), None
    except ValueError as exc:
        return AgentConfig(), f"{path}: the agent settings are unreadable ({exc}); using defaults"


def save_config(config: AgentConfig, path: Path | None = None) -> Path:
    """Atomic write (temp file, fsync, replace); the settings dialog calls it off the GUI thread."""
    from studio.library.atomic import write_json

    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, asdict(config))
    return path


def key_account(config: AgentConfig) -> str:
    """The keychain account of a configuration (the agent CLI uses the profile name too)."""
    return config.profile


# -- choosing a model -------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelChoice:
    client: ModelClient
    guide: Literal["full", "short"]
    local: bool
    info: JSON = field(default_factory=dict)


class ModelSource(Protocol):
    """Where the sheet gets a model: the configured provider, or a fixed (scripted) one."""

    async def problem(self, config: AgentConfig) -> str | None:
        """What to configure before a run can start (None: ready)."""

    async def choose(self, config: AgentConfig, selected: str | None) -> ModelChoice:
        """The model for a run (raises RoutingError, saying what to configure, if none)."""

    async def aclose(self) -> None: ...


class ProviderModels:
    """The configured OpenAI-compatible server, through the core's router and key store (read off
    the event loop). The httpx client is passed in (a real one is made on first use) and closed
    by `aclose`."""

    def __init__(self, keys: KeyStore | None = None, http: httpx.AsyncClient | None = None):
        self.keys = keys or KeyStore()
        self._http = http
        self._owns_http = http is None

    async def problem(self, config: AgentConfig) -> str | None:
        if config.profile not in PROFILES:
            return f"Unknown provider profile {config.profile!r}: choose one in Agent settings."
        profile = PROFILES[config.profile]
        if config.local_only and not profile.local:
            return (
                "Local only is on, but the configured model is a cloud model: choose a local "
                "model (Ollama, LM Studio, llama.cpp) in Agent settings."
            )
        if not config.resolved_base_url():
            return "Set the model server's base URL in Agent settings."
        if not config.model:
            return f"Choose a model for {config.profile} in Agent settings."
        if profile.needs_key:
            lookup = await self.keys.aget(key_account(config))
            if lookup.key is None:
                return f"Add an API key for {config.profile} in Agent settings (stored in the OS keychain)."
        return None

    async def choose(self, config: AgentConfig, selected: str | None) -> ModelChoice:
        problem = await self.problem(config)
        if problem:
            raise RoutingError(problem)
        base_url = config.resolved_base_url()
        profile = profile_for(base_url, config.profile)
        key = (await self.keys.aget(key_account(config))).key if profile.needs_key else None
        if self._http is None:
            self._http = default_http_client()
        client = make_client(
            config.api, base_url, config.model, api_key=key, profile=profile, http=self._http
        )
        router = Router(
            cloud=None if profile.local else client,
            local=client if profile.local else None,
            local_only=config.local_only,
        )
        route = router.choose(Task("edit", selected))
        info = {"profile": profile.name, "api": config.api, "base_url": base_url}
        return ModelChoice(route.client, route.guide, route.local, info)

    async def aclose(self) -> None:
        if self._owns_http and self._http is not None:
            await self._http.aclose()
            self._http = None


class FixedModel:
    """Always the same model client (a ScriptedModel in tests and benchmarks)."""

    def __init__(self, client: ModelClient, *, local: bool = False, problem: str | None = None):
        self.client = client
        self.local = local
        self._problem = problem

    async def problem(self, config: AgentConfig) -> str | None:
        return self._problem

    async def choose(self, config: AgentConfig, selected: str | None) -> ModelChoice:
        if self._problem:
            raise RoutingError(self._problem)
        return ModelChoice(self.client, "short" if self.local else "full", self.local, {})

    async def aclose(self) -> None:
        return None


# -- one prototype's run ----------------------------------------------------------------------

Spawn = Callable[[Coroutine[Any, Any, Any]], "asyncio.Task[Any]"]
Choose = Callable[[], Awaitable[ModelChoice]]
RunState = Literal["idle", "running", "waiting"]


class WidgetPreview:
    """The agent's `preview` tool reads the studio's renderer: the draft being reviewed is put in
    the preview widget (component-expanded) and its item tree summarised, with bounds."""

    def __init__(self, widget: Any, draft_spec: Callable[[], dict[str, Any] | None]) -> None:
        self._widget = widget
        self._draft_spec = draft_spec

    async def summary(self) -> list[dict[str, Any]]:
        from studio.spec import expand

        spec = self._draft_spec()
        if spec is not None:
            self._widget.apply_change(expand(spec), [])
        return list(self._widget.visible_summary())


class RunDriver:
    """One prototype's agent session (its draft) and at most one active run on it.

    Events from the loop go to `on_event` in order; every run ends in exactly one terminal event
    (`completed`, `failed` or `cancelled`), also when the run crashes or is stopped before the
    loop started. After the terminal event the run's snapshot is saved off the GUI thread.
    """

    def __init__(
        self,
        document: Document,
        on_event: Callable[[Event], None],
        spawn: Spawn,
        *,
        save_snapshots: bool = True,
        preview: PreviewProvider | None = None,
    ) -> None:
        self.document = document
        self.preview = preview
        self.session: AgentSession | None = None
        self.task: asyncio.Task[Any] | None = None
        self.state: RunState = "idle"
        self.last_snapshot: Path | None = None
        self.applied: list[Revision] = []  # document revisions this sheet applied, newest last
        self._on_event = on_event
        self._spawn = spawn
        self._save = save_snapshots
        self._save_this = save_snapshots
        self._terminal = True
        self._generation = 0
        # Saves run one after another: two runs' snapshots go to the same file (one per trace),
        # and the later run's (with more instructions) must be the one left on disk.
        self._saving = asyncio.Lock()

    # state of the draft ------------------------------------------------------------------
    @property
    def draft_open(self) -> bool:
        return self.session is not None and self.session.draft.state == "open"

    @property
    def draft_revisions(self) -> list[Revision]:
        return list(self.session.draft.revisions) if self.draft_open and self.session else []

    def draft_spec(self) -> JSON:
        return self.session.draft.spec if self.session and self.draft_open else self.document.spec

    def changed(self) -> list[str]:
        seen: dict[str, None] = {}
        for revision in self.draft_revisions:
            seen.update(dict.fromkeys(revision.changed))
        return list(seen)

    # running --------------------------------------------------------------------------------
    def start(
        self,
        instruction: str,
        choose: Choose,
        limits: Limits,
        *,
        selected: str | None = None,
    ) -> asyncio.Task[Any]:
        """Run `instruction` with the model `choose()` gives (awaited in the run, since it may
        read the keychain; a RoutingError ends the run as failed, saying what to configure).
        `selected` goes to the core, which sends the node's address and subtree as context."""
        if self.state != "idle":
            raise RuntimeError("a run is already active for this prototype")
        return self._begin(self._run(instruction, choose, limits, selected))

    def answer(self, answer: Answer) -> asyncio.Task[Any]:
        if self.state != "waiting" or self.session is None:
            raise RuntimeError("the run is not waiting for an answer")
        return self._begin(self.session.resume(answer))

    def stop(self) -> None:
        """Cancel at once: a streaming run's task is cancelled; a paused run is ended."""
        if self.state == "running" and self.task is not None:
            self.task.cancel()
        elif self.state == "waiting" and self.session is not None:
            self.session.cancel()

    def replay(self, snapshot: JSON) -> asyncio.Task[Any]:
        """Replay a saved run in the sheet through the core's Replayer: its events stream like a
        live run's; drift or differences from the recording end in a notice."""
        from studio.agent.replay import Replayer

        if self.state != "idle":
            raise RuntimeError("a run is already active for this prototype")
        instructions = len(snapshot.get("instructions") or [])
        started = 0

        def on_event(event: Event) -> None:
            nonlocal started
            kind = event.get("type")
            started += kind == "run_started"
            if kind in TERMINAL and started < instructions:
                return  # the replay is one run: only the last instruction's end ends it
            if kind == "input_required":  # answered from the recording, not by the user
                self._on_event(event)
                return
            self._event(event)

        replayer = Replayer(snapshot, on_event=on_event)
        self.session = replayer.session

        async def drive() -> RunResult:
            report = await replayer.run()
            if not report.results:
                raise RuntimeError("the snapshot has no instructions")
            problems = report.problems()
            if problems:
                self._on_event(
                    {"type": "notice", "message": "the replay differs: " + "; ".join(problems)}
                )
            return report.results[-1]

        return self._begin(drive(), save=False)

    # internals ---------------------------------------------------------------------------------
    async def _run(
        self, instruction: str, choose: Choose, limits: Limits, selected: str | None
    ) -> RunResult:
        choice = await choose()
        session = self.session
        # A follow-up instruction continues the conversation on the open draft (with the model
        # the router chose for it), unless the document changed under an untouched draft.
        if (
            session is not None
            and self.draft_open
            and (session.draft.revisions or session.draft.base == self.document.spec)
        ):
            return await session.follow_up(
                instruction, selected=selected, model=choice.client, limits=limits
            )
        self.session = AgentSession(
            choice.client,
            self.document.spec,  # specs are values: shared, never mutated (apply_patch copies on write)
            guide=choice.guide,
            limits=limits,
            on_event=self._event,
            info=choice.info,
            preview=self.preview,
        )
        return await self.session.run(instruction, selected=selected)

    def _begin(
        self, work: Coroutine[Any, Any, RunResult], *, save: bool = True
    ) -> asyncio.Task[Any]:
        self.state = "running"
        self._terminal = False
        self._save_this = save and self._save
        self._generation += 1
        self.task = self._spawn(self._guard(work, self._generation))
        return self.task

    async def _guard(
        self, work: Coroutine[Any, Any, RunResult], generation: int
    ) -> RunResult | None:
        try:
            result = await work
        except RoutingError as exc:  # no usable model (found while choosing it): say what to set
            if not self._terminal:
                self._event(
                    {
                        "type": "failed",
                        "reason": str(exc),
                        "text": str(exc),
                        "error_class": "config",
                    }
                )
            self._settle(None, generation)
            return None
        except asyncio.CancelledError:
            if not self._terminal:  # stopped before the loop could say so
                self._event({"type": "cancelled", "reason": "cancelled by the user", "text": ""})
            self._settle(None, generation)
            raise
        except Exception as exc:  # not a model error (those are results): still one terminal event
            log.exception("agent run crashed")
            if not self._terminal:
                message = GLOBAL_MASKER.text(f"the agent run crashed: {type(exc).__name__}: {exc}")
                self._event(
                    {"type": "failed", "reason": message, "text": message, "error_class": "crash"}
                )
            self._settle(None, generation)
            return None
        self._settle(result, generation)
        return result

    def _settle(self, result: RunResult | None, generation: int) -> None:
        if generation != self._generation:
            return  # a newer run started after this one's terminal event
        self.task = None
        if result is not None and result.status == "needs_input":
            self.state = "waiting"
            return
        self.state = "idle"

    def _event(self, event: Event) -> None:
        kind = event.get("type")
        if kind in TERMINAL:
            if self._terminal:
                return  # exactly one terminal event per run
            self._terminal = True
            # The run is over for the UI from its terminal event on (its task is returning).
            self.state = "idle"
            self.task = None
        elif kind == "input_required":
            self.state = "waiting"
        self._on_event(event)
        if kind in TERMINAL and self._save_this and self.session is not None:
            snapshot = self.session.snapshot()
            self._spawn(self._save_snapshot(snapshot))

    async def _save_snapshot(self, snapshot: JSON) -> None:
        from studio.agent.snapshot import asave_snapshot

        try:
            async with self._saving:
                self.last_snapshot = await asave_snapshot(snapshot)
        except OSError as exc:
            self._on_event(
                {"type": "notice", "message": f"could not save the run snapshot ({exc})"}
            )
            return
        self._on_event({"type": "snapshot_saved", "path": str(self.last_snapshot)})

    # review -----------------------------------------------------------------------------------
    def apply(self) -> Revision:
        """Land the draft in the Document as one revision by the agent. When the document has
        not changed since the draft began, the validated draft spec is pushed as is; otherwise
        the draft's ops are applied again on the current spec (validated, all or nothing)."""
        if self.state != "idle" or self.session is None or not self.draft_open:
            raise RuntimeError("nothing to apply")
        draft = self.session.draft
        revisions = draft.revisions
        if not revisions:
            raise RuntimeError("the draft has no changes")
        ops = [op for r in revisions for op in (r.ops or [])]
        summary = _join_summaries(r.summary for r in revisions)
        instruction = next((r.instruction for r in revisions if r.instruction), None)
        if self.document.spec == draft.base:
            revision = Revision(
                spec=copy.deepcopy(draft.spec),
                author="agent",
                summary=summary,
                ops=ops,
                instruction=instruction,
                changed=tuple(self.changed()),
            )
            self.document.push_revision(revision)
        else:
            revision = self.document.apply_ops(
                ops, author="agent", summary=summary, instruction=instruction
            )
        draft.apply()
        self.applied.append(revision)
        return revision

    def discard(self) -> None:
        if self.state != "idle" or self.session is None or not self.draft_open:
            raise RuntimeError("nothing to discard")
        self.session.draft.discard()

    def can_undo(self) -> bool:
        if self.state != "idle":
            return False
        if self.draft_revisions:
            return True
        return self._top_is_ours()

    def undo(self) -> Literal["draft", "document"] | None:
        """Undo the draft's last revision, or else the agent revision last applied."""
        if self.state != "idle":
            return None
        if self.draft_revisions and self.session is not None:
            self.session.draft.undo()
            return "draft"
        if self._top_is_ours():
            self.document.undo()
            self.applied.pop()
            return "document"
        return None

    def _top_is_ours(self) -> bool:
        applied = self.document.revisions.applied
        return bool(self.applied and applied and applied[-1] is self.applied[-1])


def _join_summaries(summaries: Iterable[str]) -> str:
    items = [s for s in summaries if s]
    if not items:
        return "agent edit"
    if len(items) == 1:
        return items[0]
    text = "; ".join(items[:3]) + (f" (+{len(items) - 3} more)" if len(items) > 3 else "")
    return text if len(text) <= 160 else text[:157] + "..."


# -- what the status line says ---------------------------------------------------------------


def tool_action(name: str, arguments: Any) -> str:
    """A short present-tense label for a tool call ("reading node header", "patching 3 nodes")."""
    args: Any = arguments
    if isinstance(arguments, str):
        try:
            args = json.loads(arguments)
        except ValueError:
            args = {}
    if not isinstance(args, dict):
        args = {}
    if name == "outline":
        return "reading the outline"
    if name == "readNode":
        return f"reading node {args.get('id', '?')}"
    if name == "readData":
        return f"reading data {args.get('pointer') or '/'}"
    if name == "capabilities":
        return "checking capabilities"
    if name == "validate":
        return "validating a spec"
    if name == "patch":
        ops = args.get("ops") if isinstance(args.get("ops"), list) else []
        nodes = sum(1 for op in ops if isinstance(op, dict) and op.get("op") == "replaceNode")
        values = len(ops) - nodes
        parts = []
        if nodes:
            parts.append(f"{nodes} node{'s' if nodes != 1 else ''}")
        if values:
            parts.append(f"{values} value{'s' if values != 1 else ''}")
        return "patching " + (" and ".join(parts) or "the draft")
    if name == "preview":
        return "looking at the preview"
    if name == "inspect":
        return "inspecting the running prototype"
    if name == "events":
        return "reading recent events"
    if name == "askUser":
        return "asking you a question"
    return f"running {name}"


# -- connection test and local model probe ----------------------------------------------------


@dataclass(frozen=True)
class ConnectionResult:
    ok: bool
    message: str
    models: tuple[str, ...] = ()


async def test_connection(
    http: httpx.AsyncClient, base_url: str, api_key: str | None, *, seconds: float = 5.0
) -> ConnectionResult:
    """GET {base_url}/models: a real request that says whether the server and the key work."""
    url = base_url.rstrip("/") + "/models"
    try:
        check_request_allowed(url)
    except ModelError as exc:
        return ConnectionResult(False, str(exc))
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    started = time.monotonic()
    try:
        response = await http.get(url, headers=headers, timeout=seconds)
    except httpx.TimeoutException:
        return ConnectionResult(False, f"{url}: no answer within {seconds:g} s")
    except httpx.HTTPError as exc:
        return ConnectionResult(False, f"{url}: cannot connect ({exc or type(exc).__name__})")
    ms = (time.monotonic() - started) * 1000
    if response.status_code in (401, 403):
        return ConnectionResult(
            False, f"{url}: HTTP {response.status_code}, the server rejected the API key"
        )
    if response.status_code >= 400:
        return ConnectionResult(False, f"{url}: HTTP {response.status_code}")
    try:
        payload = response.json()
        models = tuple(
            str(m["id"]) for m in payload.get("data", []) if isinstance(m, dict) and "id" in m
        )
    except (ValueError, AttributeError):
        return ConnectionResult(False, f"{url}: the answer is not a model list (not JSON)")
    shown = ", ".join(models[:5]) + (" ..." if len(models) > 5 else "")
    return ConnectionResult(
        True,
        f"Connected in {ms:.0f} ms: {len(models)} model(s){': ' + shown if shown else ''}",
        models,
    )


LOCAL_SERVERS: tuple[tuple[str, str], ...] = (
    ("ollama", "http://127.0.0.1:11434/v1"),
    ("lmstudio", "http://127.0.0.1:1234/v1"),
    ("llamacpp", "http://127.0.0.1:8080/v1"),
)
LOCAL_NAMES = {"ollama": "Ollama", "lmstudio": "LM Studio", "llamacpp": "llama.cpp"}


@dataclass(frozen=True)
class LocalServer:
    profile: str
    base_url: str
    models: tuple[str, ...]

    @property
    def label(self) -> str:
        port = httpx.URL(self.base_url).port
        name = LOCAL_NAMES.get(self.profile, self.profile)
        model = f" ({self.models[0]})" if self.models else ""
        return f"{name} on port {port}{model}"


async def probe_local_servers(
    http: httpx.AsyncClient,
    candidates: Iterable[tuple[str, str]] = LOCAL_SERVERS,
    *,
    seconds: float = 0.5,
) -> list[LocalServer]:
    """The local model servers answering on their default ports (loopback only, all at once)."""

    async def probe(profile: str, base_url: str) -> LocalServer | None:
        host = httpx.URL(base_url).host
        if host not in ("127.0.0.1", "localhost", "::1"):
            return None  # never probe beyond this machine
        result = await test_connection(http, base_url, None, seconds=seconds)
        return LocalServer(profile, base_url, result.models) if result.ok else None

    found = await asyncio.gather(*(probe(p, u) for p, u in candidates))
    return [f for f in found if f is not None]


class TaskKeeper:
    """Keeps every asyncio task a widget starts, so it can cancel them all on close.
    (qasync.asyncSlot drops its task, which then cannot be cancelled; hence this small class.)"""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("agent UI task failed", exc_info=task.exception())

    def cancel_all(self) -> None:
        for task in list(self.tasks):
            task.cancel()

    async def drain(self) -> None:
        """Cancel and wait for every task (tests and shutdown)."""
        self.cancel_all()
        if self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*self.tasks, return_exceptions=True)
