"""The events of an agent run: one typed union the loop, the session and the driver emit and the
studio folds (match/case), with their JSON form (the CLI's `--events` lines).

Model events (what a model client streams) are in `studio.agent.events`; these are what a *run*
reports. Every run ends in exactly one `RunEnded` (`TERMINAL` names its JSON types). The JSON form
of each event is the one the loop wrote as dicts before the events were typed (same keys, same
order), so `--events` files keep their shape; `run_event_from_json` reads a line back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

JSON = dict[str, Any]
EndStatus = Literal["completed", "no_changes", "failed", "cancelled"]
#: The JSON `type` of the one event that ends every run (a `RunEnded`'s `status`);
#: "no_changes" is issue 16's end of a run that was asked for an edit and made none.
TERMINAL: tuple[EndStatus, ...] = ("completed", "no_changes", "failed", "cancelled")


class _Masker(Protocol):
    def text(self, value: str) -> str: ...
    def obj(self, value: Any) -> Any: ...


@dataclass(frozen=True)
class RunStarted:
    """An instruction started (a follow-up starts a run of its own on the same draft)."""

    trace_id: str
    instruction: str
    model: str
    TYPE: ClassVar[str] = "run_started"

    def to_json(self) -> JSON:
        return {
            "type": self.TYPE,
            "trace_id": self.trace_id,
            "instruction": self.instruction,
            "model": self.model,
        }


@dataclass(frozen=True)
class TurnStarted:
    trace_id: str
    turn: int
    TYPE: ClassVar[str] = "turn_started"

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "trace_id": self.trace_id, "turn": self.turn}


@dataclass(frozen=True)
class TextStreamed:
    """A piece of the model's answer as it streams."""

    trace_id: str
    text: str
    TYPE: ClassVar[str] = "text_delta"

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "trace_id": self.trace_id, "text": self.text}


@dataclass(frozen=True)
class ReasoningStreamed:
    """A piece of the model's reasoning as it streams: shown apart (collapsed in the sheet),
    never part of the answer."""

    trace_id: str
    text: str
    TYPE: ClassVar[str] = "reasoning_delta"

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "trace_id": self.trace_id, "text": self.text}


@dataclass(frozen=True)
class UsageReported:
    """One turn's token use (`estimated` when the server reported none); `total_tokens` is the
    instruction's running total."""

    trace_id: str
    turn: int
    input_tokens: int
    output_tokens: int
    estimated: bool
    total_tokens: int
    TYPE: ClassVar[str] = "usage"

    def to_json(self) -> JSON:
        return {
            "type": self.TYPE,
            "trace_id": self.trace_id,
            "turn": self.turn,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "estimated": self.estimated,
            "total_tokens": self.total_tokens,
        }


@dataclass(frozen=True)
class RetryScheduled:
    """The model server failed before producing anything; the call is tried again after `delay` s."""

    trace_id: str
    attempt: int
    delay: float
    error_class: str
    message: str
    TYPE: ClassVar[str] = "retry"

    def to_json(self) -> JSON:
        return {
            "type": self.TYPE,
            "trace_id": self.trace_id,
            "attempt": self.attempt,
            "delay": self.delay,
            "error_class": self.error_class,
            "message": self.message,
        }


@dataclass(frozen=True)
class ToolCallStarted:
    """The model called a tool; `arguments` is the raw JSON string it sent."""

    trace_id: str
    call_id: str
    name: str
    arguments: str
    TYPE: ClassVar[str] = "tool_call"

    def to_json(self) -> JSON:
        return {
            "type": self.TYPE,
            "trace_id": self.trace_id,
            "call_id": self.call_id,
            "name": self.name,
            "arguments": self.arguments,
        }


@dataclass(frozen=True)
class ToolCallFinished:
    """A tool call was answered (`error_class` says how it failed, None when it did not)."""

    trace_id: str
    call_id: str
    name: str
    output: str
    error_class: str | None
    duration_ms: float
    TYPE: ClassVar[str] = "tool_result"

    def to_json(self) -> JSON:
        return {
            "type": self.TYPE,
            "trace_id": self.trace_id,
            "call_id": self.call_id,
            "name": self.name,
            "output": self.output,
            "error_class": self.error_class,
            "duration_ms": self.duration_ms,
        }


@dataclass(frozen=True)
class InputRequired:
    """The run paused for the user: a question (`kind` "ask_user": `question`, `options`) or an
    approval of a tool with side effects (`kind` "approval": `tool`, `arguments`)."""

    trace_id: str
    kind: Literal["ask_user", "approval"]
    call_id: str
    question: str = ""
    options: tuple[str, ...] = ()
    tool: str = ""
    arguments: JSON = dataclasses.field(default_factory=dict)
    TYPE: ClassVar[str] = "input_required"

    def to_json(self) -> JSON:
        out: JSON = {
            "type": self.TYPE,
            "trace_id": self.trace_id,
            "kind": self.kind,
            "call_id": self.call_id,
        }
        if self.kind == "ask_user":
            out.update(question=self.question, options=list(self.options))
        else:
            out.update(tool=self.tool, arguments=self.arguments)
        return out


@dataclass(frozen=True)
class LoopWarning:
    """A harness warning the model was given (e.g. a repeated call)."""

    trace_id: str
    message: str
    TYPE: ClassVar[str] = "warning"

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "trace_id": self.trace_id, "message": self.message}


@dataclass(frozen=True)
class DraftRevised:
    """A patch landed in the draft: its revision id, summary, the addresses it changed and how
    many ops it had."""

    trace_id: str
    revision: str
    summary: str
    changed: tuple[str, ...]
    ops: int
    TYPE: ClassVar[str] = "revision"

    def to_json(self) -> JSON:
        return {
            "type": self.TYPE,
            "trace_id": self.trace_id,
            "revision": self.revision,
            "summary": self.summary,
            "changed": list(self.changed),
            "ops": self.ops,
        }


@dataclass(frozen=True)
class RunEnded:
    """The one terminal event of a run. `text` is the answer (completed) or the reason;
    `error_class` says why a run failed ("auth", "limit", "stuck", "config", "crash", ...)."""

    status: EndStatus
    reason: str
    text: str = ""
    trace_id: str = ""
    turns: int = 0
    total_tokens: int = 0
    error_class: str | None = None

    @property
    def TYPE(self) -> str:  # noqa: N802 (the same name as the other events' class constant)
        return self.status

    def to_json(self) -> JSON:
        return {
            "type": self.status,
            "trace_id": self.trace_id,
            "reason": self.reason,
            "text": self.text,
            "turns": self.turns,
            "total_tokens": self.total_tokens,
            "error_class": self.error_class,
        }


@dataclass(frozen=True)
class Notice:
    """Something the studio tells the user about a run (a replay that differs, a failed save)."""

    message: str
    TYPE: ClassVar[str] = "notice"

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "message": self.message}


@dataclass(frozen=True)
class SnapshotSaved:
    """The run's snapshot was written (after its terminal event)."""

    path: str
    TYPE: ClassVar[str] = "snapshot_saved"

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "path": self.path}


RunEvent = (
    RunStarted
    | TurnStarted
    | TextStreamed
    | ReasoningStreamed
    | UsageReported
    | RetryScheduled
    | ToolCallStarted
    | ToolCallFinished
    | InputRequired
    | LoopWarning
    | DraftRevised
    | RunEnded
    | Notice
    | SnapshotSaved
)

_STRINGS: dict[type[Any], tuple[tuple[str, bool], ...]] = {}


def _fields(cls: type[Any]) -> tuple[tuple[str, bool], ...]:
    """The fields of an event class that can hold text: (name, is a plain string)."""
    found = _STRINGS.get(cls)
    if found is None:
        found = tuple(
            (f.name, f.type == "str")
            for f in dataclasses.fields(cls)
            if f.type not in ("int", "float", "bool", "EndStatus")
            and not str(f.type).startswith("Literal")
        )
        _STRINGS[cls] = found
    return found


def mask_event(event: RunEvent, masker: _Masker) -> RunEvent:
    """The event with every secret masked in its text (the same event when nothing changed)."""
    changes: dict[str, Any] = {}
    for name, plain in _fields(type(event)):
        value = getattr(event, name)
        if value is None or (not plain and not value):
            continue
        masked = masker.text(value) if plain else masker.obj(value)
        if masked != value:
            changes[name] = tuple(masked) if isinstance(value, tuple) else masked
    return dataclasses.replace(event, **changes) if changes else event


_BY_TYPE: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        RunStarted,
        TurnStarted,
        TextStreamed,
        ReasoningStreamed,
        UsageReported,
        RetryScheduled,
        ToolCallStarted,
        ToolCallFinished,
        InputRequired,
        LoopWarning,
        DraftRevised,
        Notice,
        SnapshotSaved,
    )
}


def run_event_from_json(data: JSON) -> RunEvent:
    """Read back one JSON event (a `--events` line); ValueError names what is wrong."""
    kind = data.get("type")
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        if kind in TERMINAL:
            return RunEnded(status=kind, **fields)
        cls = _BY_TYPE.get(str(kind))
        if cls is None:
            raise ValueError(f"unknown run event type {kind!r}")
        for name in ("options", "changed"):
            if isinstance(fields.get(name), list):
                fields[name] = tuple(fields[name])
        event: RunEvent = cls(**fields)
    except TypeError as exc:
        raise ValueError(f"run event {kind!r}: {exc}") from None
    return event
