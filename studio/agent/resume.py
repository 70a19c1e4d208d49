"""Resuming a persisted agent run: a version-2 run record (studio.agent.snapshot) is decoded and
checked whole (metadata, tool declarations and their fingerprints, the neutral transcript, the
open batch of a paused run, every revision applied again) before any model call, then carried on
in a session with the same trace id (`proto-studio agent --resume FILE`, the sheet's Continue).

The shape follows openai-agents-python's `RunState` (agents/run_state.py: a schema version that
`from_json` refuses when unsupported, the interruptions a resumed run must answer first) and
pydantic-ai's message history (the whole provider-neutral transcript is the state), with our
own checks: a malformed or unsupported record fails with one line naming the file and the place;
a changed tool set is refused unless the caller allows it, and then stated to the model and in
the run's events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.agent.clients import ModelClient
from studio.agent.compound import TOOL_SETS
from studio.agent.guards import Limits
from studio.agent.loop import Answer, InputRequest, RunResult, request_from_json
from studio.agent.registry import ToolRegistry, canonical_json
from studio.agent.run_events import LoopWarning, RunEvent
from studio.agent.snapshot import SnapshotError, check_snapshot

if TYPE_CHECKING:
    from studio.agent.session import AgentSession

JSON = dict[str, Any]
RESUMABLE = ("needs_input", "failed", "cancelled", "running")
"""Statuses of an unfinished run: paused for an answer, stopped by an error, a limit or the
user, or cut off while running (the app was closed)."""
_ROLES = ("system", "user", "assistant", "tool")


class ResumeError(SnapshotError):
    """A run record that cannot be resumed (one line naming the file and the problem)."""


@dataclass(frozen=True)
class RunRecord:
    """A decoded, checked run record: everything a resumed run starts from."""

    where: str
    trace_id: str
    model: str
    profile: str | None
    api: str | None
    base_url: str | None
    tool_set: str
    effort: str
    status: str
    reason: str
    instruction: str
    instructions: list[str]
    base_spec: JSON
    revisions: list[JSON]
    transcript: list[JSON]
    batch: JSON | None
    record: list[JSON]
    trace: list[JSON]
    tools: dict[str, str]
    limits: JSON = field(default_factory=dict)

    @property
    def pending(self) -> InputRequest | None:
        """The question or approval the run was paused on (answer it to continue)."""
        if self.batch is None or not self.batch["pending"]:
            return None
        return request_from_json(self.batch["pending"][0])


def load_run(path: Path) -> RunRecord:
    """Read and decode a run record (ResumeError, one line, when it cannot be resumed)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResumeError(f"{path}: cannot read the run record ({exc})") from None
    return decode_run(data, str(path))


def decode_run(data: Any, where: str = "run record") -> RunRecord:
    """Check every part of a run record before anything runs; ResumeError names the place."""
    try:
        check_snapshot(data, where)
    except SnapshotError as exc:
        raise ResumeError(str(exc)) from None
    if data.get("version") == 1:
        raise ResumeError(
            f"{where}: a version 1 run record has no transcript: it can be replayed, not resumed"
        )
    for key in ("loop", "tool_declarations", "trace_id"):
        if key not in data:
            raise ResumeError(f"{where}: the run record has no {key!r}")
    loop = _obj(data["loop"], where, "loop")
    status = loop.get("status")
    if status not in RESUMABLE:
        raise ResumeError(
            f"{where}: the run {status if isinstance(status, str) else 'ended'}; there is "
            "nothing to continue (send a follow-up instruction instead)"
        )
    tool_set = data.get("tool_set") or "standard"
    if tool_set not in TOOL_SETS:
        raise ResumeError(f"{where}: tool_set: unknown tool set {tool_set!r}")
    tools = _declarations(data, where)
    transcript = _transcript(loop.get("transcript"), where)
    batch = _batch(loop.get("batch"), transcript, status, where)
    base, revisions = _revisions(data, where)
    instruction = loop.get("instruction")
    instructions = data["instructions"]
    if not isinstance(instructions, list) or not all(isinstance(i, str) for i in instructions):
        raise ResumeError(f"{where}: instructions: expected a list of strings")
    if not isinstance(instruction, str) or not instruction:
        raise ResumeError(f"{where}: loop.instruction: the run has no instruction")
    record = data["record"]
    if not isinstance(record, list) or not all(isinstance(r, dict) for r in record):
        raise ResumeError(f"{where}: record: expected a list of objects")
    trace = data.get("trace") or []
    model = data.get("model")
    if not isinstance(model, str) or not model:
        raise ResumeError(f"{where}: model: the run record names no model")
    return RunRecord(
        where=where,
        trace_id=str(data["trace_id"]),
        model=model,
        profile=_opt_str(data.get("profile")),
        api=_opt_str(data.get("api")),
        base_url=_opt_str(data.get("base_url")),
        tool_set=tool_set,
        effort=str(data.get("effort") or "provider-default"),
        status=status,
        reason=str(loop.get("reason") or ""),
        instruction=instruction,
        instructions=list(instructions),
        base_spec=base,
        revisions=revisions,
        transcript=transcript,
        batch=batch,
        record=list(record),
        trace=list(trace) if isinstance(trace, list) else [],
        tools=tools,
        limits=data.get("limits") if isinstance(data.get("limits"), dict) else {},
    )


def _opt_str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _obj(value: Any, where: str, place: str) -> JSON:
    if not isinstance(value, dict):
        raise ResumeError(f"{where}: {place}: expected an object")
    return value


def _declarations(data: JSON, where: str) -> dict[str, str]:
    """name -> fingerprint, each fingerprint checked against its declaration."""
    found = data["tool_declarations"]
    if not isinstance(found, list) or not found:
        raise ResumeError(f"{where}: tool_declarations: expected a non-empty list")
    out: dict[str, str] = {}
    for n, item in enumerate(found):
        place = f"tool_declarations[{n}]"
        item = _obj(item, where, place)
        name, params, fp = item.get("name"), item.get("parameters"), item.get("fingerprint")
        if not isinstance(name, str) or not isinstance(params, dict) or not isinstance(fp, str):
            raise ResumeError(f"{where}: {place}: needs a name, parameters and a fingerprint")
        digest = hashlib.sha256((name + canonical_json(params)).encode()).hexdigest()[:16]
        if digest != fp:
            raise ResumeError(
                f"{where}: {place} ({name}): the fingerprint does not match the declaration "
                "(the record was edited or damaged)"
            )
        out[name] = fp
    if data["tools"] != out:
        raise ResumeError(f"{where}: tools: the fingerprints disagree with tool_declarations")
    return out


def _transcript(value: Any, where: str) -> list[JSON]:
    if not isinstance(value, list) or not value:
        raise ResumeError(f"{where}: loop.transcript: expected a non-empty list of messages")
    open_calls: dict[str, str] = {}
    for n, message in enumerate(value):
        place = f"loop.transcript[{n}]"
        message = _obj(message, where, place)
        role = message.get("role")
        if role not in _ROLES:
            raise ResumeError(f"{where}: {place}: unknown role {role!r}")
        content = message.get("content")
        if role == "assistant":
            if content is not None and not isinstance(content, str):
                raise ResumeError(f"{where}: {place}.content: expected text or null")
            calls = message.get("tool_calls", [])
            if not isinstance(calls, list):
                raise ResumeError(f"{where}: {place}.tool_calls: expected a list")
            if open_calls:
                raise ResumeError(
                    f"{where}: {place}: the call {next(iter(open_calls))} before it has no answer"
                )
            for m, call in enumerate(calls):
                ok = isinstance(call, dict) and all(
                    isinstance(call.get(k), str) for k in ("id", "name", "arguments")
                )
                if not ok or not call["id"]:
                    raise ResumeError(
                        f"{where}: {place}.tool_calls[{m}]: needs an id, a name and arguments"
                    )
                open_calls[call["id"]] = call["name"]
        elif role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_calls:
                raise ResumeError(f"{where}: {place}: answers no open call ({call_id!r})")
            del open_calls[call_id]
            if not isinstance(content, str):
                raise ResumeError(f"{where}: {place}.content: expected text")
        elif not isinstance(content, str):
            raise ResumeError(f"{where}: {place}.content: expected text")
    if value[0].get("role") != "system":
        raise ResumeError(
            f"{where}: loop.transcript[0]: the transcript starts without a system message"
        )
    return value


def _batch(value: Any, transcript: list[JSON], status: str, where: str) -> JSON | None:
    last = transcript[-1]
    unanswered = last.get("tool_calls") if last.get("role") == "assistant" else None
    if value is None:
        if status == "needs_input":
            raise ResumeError(f"{where}: loop.batch: the run waits for an answer but has no batch")
        if unanswered:
            raise ResumeError(
                f"{where}: loop.transcript[{len(transcript) - 1}]: its calls have no answers"
            )
        return None
    batch = _obj(value, where, "loop.batch")
    calls, outputs, pending = batch.get("calls"), batch.get("outputs"), batch.get("pending")
    if calls != unanswered:
        raise ResumeError(
            f"{where}: loop.batch.calls: not the calls of the transcript's last message"
        )
    if not isinstance(outputs, dict) or not all(isinstance(v, str) for v in outputs.values()):
        raise ResumeError(f"{where}: loop.batch.outputs: expected an object of texts")
    ids = {c["id"] for c in calls or []}
    if not set(outputs) <= ids:
        raise ResumeError(f"{where}: loop.batch.outputs: an output for a call not in the batch")
    if not isinstance(pending, list) or not pending:
        raise ResumeError(f"{where}: loop.batch.pending: a batch without a pending request")
    for n, item in enumerate(pending):
        try:
            request = request_from_json(item)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ResumeError(
                f"{where}: loop.batch.pending[{n}]: malformed request ({exc})"
            ) from None
        if request.call_id not in ids or request.call_id in outputs:
            raise ResumeError(
                f"{where}: loop.batch.pending[{n}]: {request.call_id} is not an open call of the batch"
            )
    if status != "needs_input":
        raise ResumeError(f"{where}: loop.batch: an open batch, but the run is {status}")
    return batch


def _revisions(data: JSON, where: str) -> tuple[JSON, list[JSON]]:
    """The base spec and revisions, each applied again and validated; the result must be the
    recorded final spec."""
    from studio.spec import validate
    from studio.spec.patch import PatchError, reapply

    base = data["base_spec"]
    checked = validate(base)
    if not checked.ok:
        raise ResumeError(
            f"{where}: base_spec: not a valid spec: {checked.path}: {checked.message}"
        )
    revisions = data.get("revisions") or []
    if not isinstance(revisions, list):
        raise ResumeError(f"{where}: revisions: expected a list")
    spec = base
    for n, revision in enumerate(revisions):
        revision = _obj(revision, where, f"revisions[{n}]")
        ops = revision.get("ops")
        if not isinstance(ops, list) or not ops:
            raise ResumeError(f"{where}: revisions[{n}].ops: expected a non-empty list of ops")
        try:
            spec = reapply(spec, ops).spec
        except PatchError as exc:
            raise ResumeError(
                f"{where}: revisions[{n}] does not apply: op {exc.index}, {exc.path}: {exc.message}"
            ) from None
    if "final_spec" in data and data["final_spec"] != spec:
        raise ResumeError(f"{where}: final_spec: not what the revisions make of base_spec")
    return base, revisions


def tool_changes(record: RunRecord, tools: ToolRegistry) -> list[str]:
    """How the current tools differ from the recorded ones (empty: the same)."""
    current = tools.fingerprints()
    out = []
    for name in sorted(set(record.tools) | set(current)):
        if name not in current:
            out.append(f"{name} was removed")
        elif name not in record.tools:
            out.append(f"{name} is new")
        elif current[name] != record.tools[name]:
            out.append(f"{name} changed its schema")
    return out


RESUMED_NOTE = (
    "Harness: this run was saved and is now resumed (it had stopped: {reason}). Continue the "
    "instruction where you left off; the draft keeps every change made so far."
)


@dataclass
class Resumed:
    """A restored session, ready to continue (`run()`), and what changed since it was saved."""

    session: AgentSession
    record: RunRecord
    changed_tools: list[str]

    async def run(self, answer: Answer | None = None) -> RunResult:
        """Continue: answer the pending request (askUser or approval), or ask the model again."""
        loop = self.session.loop
        note = None
        if loop.pending is None:
            note = RESUMED_NOTE.format(reason=self.record.reason or "the app was closed")
            if self.changed_tools:
                note += " The tools changed since: " + "; ".join(self.changed_tools) + "."
        return await loop.continue_run(note=note, answer=answer)


def resume_session(
    record: RunRecord,
    model: ModelClient,
    *,
    allow_tool_changes: bool = False,
    limits: Limits | None = None,
    on_event: Callable[[RunEvent], None] | None = None,
    guide: Any = "full",
    info: JSON | None = None,
    preview: Any = None,
    effort: str | None = None,
    sleep: Callable[[float], Any] | None = None,
) -> Resumed:
    """A session holding the record's draft, transcript and trace under its trace id. A changed
    tool set is refused (ResumeError) unless `allow_tool_changes`, and then stated."""
    import asyncio

    from studio.agent.draft import Draft
    from studio.agent.session import AgentSession

    recorded = record.limits
    session = AgentSession(
        model,
        record.base_spec,
        guide=guide,
        system="",
        limits=limits
        or Limits(
            int(recorded.get("max_turns") or 20),
            recorded.get("token_budget"),
            context_window=recorded.get("context_window"),
        ),
        on_event=on_event,
        info=info
        if info is not None
        else {"profile": record.profile, "api": record.api, "base_url": record.base_url},
        preview=preview,
        effort=effort or record.effort,
        tool_set=record.tool_set,
        sleep=sleep or asyncio.sleep,
    )
    changed = tool_changes(record, session.tools)
    if changed and not allow_tool_changes:
        raise ResumeError(
            f"{record.where}: the tools changed since the run was saved ({'; '.join(changed)}); "
            "resume anyway to continue with the current tools"
        )
    draft: Draft = session.draft
    for revision in record.revisions:
        draft.reapply(
            revision["ops"], str(revision.get("summary") or ""), revision.get("instruction")
        )
    session.tracer.trace_id = record.trace_id
    session.tracer.steps = list(record.trace)
    session.restored(record.instructions, record.instruction)
    session.loop.restore(
        json.loads(json.dumps(record.transcript)),
        list(record.record),
        record.instruction,
        record.batch,
    )
    if changed:
        session.loop.emit(
            LoopWarning(
                record.trace_id, "the tools changed since the run was saved: " + "; ".join(changed)
            )
        )
    return Resumed(session, record, changed)


def unfinished_runs(directory: Path | None = None, limit: int = 20) -> list[tuple[Path, RunRecord]]:
    """The newest resumable run records in `directory` (default: the user data folder's runs),
    newest first; unreadable or finished ones are skipped (blocking: call it off the GUI thread)."""
    from studio.agent.snapshot import runs_dir

    folder = directory or runs_dir()
    try:
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    out: list[tuple[Path, RunRecord]] = []
    for path in files[: limit * 5]:
        try:
            out.append((path, load_run(path)))
        except (ResumeError, OSError):
            continue
        if len(out) >= limit:
            break
    return out
