"""The guarded tool loop: full transcript each turn, tool batches, pauses for the user, one terminal event."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.agent.clients import ModelClient
from studio.agent.errors import ModelError
from studio.agent.events import (
    Finish,
    Message,
    ModelRequest,
    TextDelta,
    ToolCall,
    Usage,
    event_to_json,
)
from studio.agent.guards import Limits, RetryPolicy, StuckDetector
from studio.agent.registry import NeedsInput, Tool, ToolError, ToolRegistry, canonical_json
from studio.agent.run_events import (
    EndStatus,
    InputRequired,
    LoopWarning,
    RetryScheduled,
    RunEnded,
    RunEvent,
    RunStarted,
    TextStreamed,
    ToolCallFinished,
    ToolCallStarted,
    TurnStarted,
    UsageReported,
    mask_event,
)
from studio.agent.trace import Tracer

Status = Literal["completed", "no_changes", "failed", "cancelled", "needs_input"]
MAX_TOOL_OUTPUT = 16_000


@dataclass(frozen=True)
class AskUserRequest:
    """The model asked the user a question (askUser); answer with `resume(UserAnswer(...))`."""

    call_id: str
    question: str
    options: tuple[str, ...]
    kind: Literal["ask_user"] = "ask_user"


@dataclass(frozen=True)
class ApprovalRequest:
    """A tool with side effects wants to run; answer with `resume(ApprovalAnswer(...))`."""

    call_id: str
    tool: str
    arguments: dict[str, Any]
    kind: Literal["approval"] = "approval"


InputRequest = AskUserRequest | ApprovalRequest


@dataclass(frozen=True)
class UserAnswer:
    text: str


@dataclass(frozen=True)
class ApprovalAnswer:
    approved: bool


Answer = UserAnswer | ApprovalAnswer


@dataclass
class RunResult:
    status: Status
    reason: str
    text: str = ""
    request: InputRequest | None = None
    turns: int = 0
    usage: Usage = field(default_factory=Usage)
    error_class: str | None = None


@dataclass
class _Batch:
    calls: list[ToolCall]
    outputs: dict[str, str] = field(default_factory=dict)
    pending: list[InputRequest] = field(default_factory=list)


def _cap(text: str, limit: int = MAX_TOOL_OUTPUT) -> str:
    """Keep head and tail of an oversized tool output, with a note on how to narrow it."""
    if len(text) <= limit:
        return text
    head, tail = text[: int(limit * 0.6)], text[-int(limit * 0.3) :]
    return f"{head}\n...[{len(text) - len(head) - len(tail)} characters omitted; ask for a smaller part]...\n{tail}"


def _error(error: str, /, **details: Any) -> str:
    return json.dumps({"error": error, **details}, ensure_ascii=False)


_ADVICE = {
    "auth": "The provider rejected the API key ({msg}). Re-authenticate: set the key in Settings or "
    "PROTO_STUDIO_API_KEY, then run again.",
    "context_length": "The conversation no longer fits the model's context window ({msg}). Select a "
    "node to narrow the edit, start a new instruction, or use a model with a larger context "
    "(Ollama: raise num_ctx).",
    "rate_limit": "The provider kept rate-limiting the run ({msg}); try again later.",
    "retryable": "The model server kept failing ({msg}); the run stopped after retrying.",
    "blocked": "{msg}",
    "fatal": "The model call failed ({msg}).",
}


class AgentLoop:
    """Runs instructions against a model with a tool registry. One loop holds one conversation.

    `run()` and `resume()` return a RunResult; `needs_input` pauses (askUser, approval). Cancel
    by cancelling the task running `run()`/`resume()`: the transcript stays valid (dangling calls
    answered "cancelled") and a `cancelled` event is emitted before CancelledError propagates.
    """

    def __init__(
        self,
        model: ModelClient,
        tools: ToolRegistry,
        *,
        system: str = "",
        limits: Limits | None = None,
        retry: RetryPolicy | None = None,
        on_event: Callable[[RunEvent], None] | None = None,
        tracer: Tracer | None = None,
        sleep: Callable[[float], Any] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        rng: Callable[[], float] = random.random,
        state_version: Callable[[], object] | None = None,
    ) -> None:
        self.model = model
        self.tools = tools
        self.limits = limits or Limits()
        self.retry = retry or RetryPolicy()
        self.tracer = tracer or Tracer()
        self.messages: list[Message] = [{"role": "system", "content": system}] if system else []
        self.record: list[dict[str, Any]] = []  # model responses and tool results, for snapshots
        self.result: RunResult | None = None
        self._on_event = on_event
        self._sleep = sleep
        self._clock = clock
        self._rng = rng
        self._state_version = state_version
        self._stuck = StuckDetector()
        self._batch: _Batch | None = None
        self._warnings: list[str] = []
        self._stop_reason: str | None = None
        self.turns = 0
        self.usage = Usage()
        self.instruction: str | None = None

    @property
    def trace_id(self) -> str:
        return self.tracer.trace_id

    # -- public API -------------------------------------------------------------------------

    async def run(self, instruction: str) -> RunResult:
        if self._batch is not None:
            raise RuntimeError("the run is waiting for an answer: call resume() or cancel() first")
        self.instruction = instruction
        self.turns = 0
        self.usage = Usage()
        self._stop_reason = None
        self._stuck.reset()
        self.messages.append({"role": "user", "content": instruction})
        self.emit(RunStarted(self.trace_id, instruction, self.model.model))
        return await self._guarded(self._drive())

    async def resume(self, answer: Answer) -> RunResult:
        batch = self._batch
        if batch is None or not batch.pending:
            raise RuntimeError("resume() without a pending request")
        request = batch.pending[0]
        self.record.append(
            {"kind": "answer", "call_id": request.call_id, "answer": _answer_json(answer)}
        )
        return await self._guarded(self._resume(batch, request, answer))

    def cancel(
        self, reason: str = "cancelled by the user", *, status: EndStatus = "cancelled"
    ) -> RunResult:
        """End a paused run (the running case is task.cancel()); pending calls are answered."""
        self._answer_dangling("cancelled")
        return self._finish(status, reason)

    @property
    def pending(self) -> InputRequest | None:
        return self._batch.pending[0] if self._batch and self._batch.pending else None

    # -- driving ----------------------------------------------------------------------------

    async def _guarded(self, work: Any) -> RunResult:
        try:
            result: RunResult = await work
            return result
        except ModelError as exc:
            self._answer_dangling("not run: the model call failed")
            advice = _ADVICE.get(exc.kind, "{msg}").format(msg=str(exc))
            return self._finish("failed", advice, error_class=exc.kind)
        except asyncio.CancelledError:
            self._answer_dangling("cancelled")
            self._finish("cancelled", "cancelled by the user")
            raise

    async def _resume(self, batch: _Batch, request: InputRequest, answer: Answer) -> RunResult:
        call = next(c for c in batch.calls if c.id == request.call_id)
        if isinstance(request, AskUserRequest):
            if not isinstance(answer, UserAnswer):
                raise TypeError("an askUser request needs a UserAnswer")
            self._set_output(batch, call, json.dumps({"answer": answer.text}, ensure_ascii=False))
        else:
            if not isinstance(answer, ApprovalAnswer):
                raise TypeError("an approval request needs an ApprovalAnswer")
            tool = self.tools.get(call.name)
            if answer.approved and tool is not None:
                await self._execute(batch, call, tool, request.arguments)
            else:
                self._set_output(
                    batch, call, _error("denied by the user; do not retry this call"), "denied"
                )
        batch.pending.pop(0)
        if batch.pending:
            return self._pause(batch.pending[0])
        self._close_batch()
        if self._stop_reason:
            return self._finish("failed", self._stop_reason, error_class="stuck")
        return await self._drive()

    async def _drive(self) -> RunResult:
        while True:
            limit = self._limit_reached()
            if limit:
                return self._finish("failed", limit, error_class="limit")
            self.turns += 1
            self.emit(TurnStarted(self.trace_id, self.turns))
            request = ModelRequest(list(self.messages), self.tools.specs())
            text, calls, usage, finish = await self._call_model(request)
            calls = _unique_ids(calls)
            self.usage = Usage(
                self.usage.input_tokens + usage.input_tokens,
                self.usage.output_tokens + usage.output_tokens,
                self.usage.estimated or usage.estimated,
            )
            self.emit(
                UsageReported(
                    self.trace_id,
                    self.turns,
                    usage.input_tokens,
                    usage.output_tokens,
                    usage.estimated,
                    self.usage.total,
                )
            )
            assistant: Message = {"role": "assistant", "content": text or None}
            if calls:
                assistant["tool_calls"] = [
                    {"id": c.id, "name": c.name, "arguments": c.arguments} for c in calls
                ]
            self.messages.append(assistant)
            if not calls:
                return self._finish("completed", f"the model finished ({finish.reason})", text=text)
            batch = self._batch = _Batch(calls)
            await self._run_batch(batch)
            if batch.pending:
                return self._pause(batch.pending[0])
            self._close_batch()
            if self._stop_reason:
                return self._finish("failed", self._stop_reason, error_class="stuck")

    def _limit_reached(self) -> str | None:
        if self.turns >= self.limits.max_turns:
            return (
                f"Stopped: the turn cap of {self.limits.max_turns} turns for one instruction was "
                "reached. The draft keeps the changes made so far; send a follow-up instruction "
                "to continue."
            )
        budget = self.limits.token_budget
        if budget is not None and self.usage.total >= budget:
            return (
                f"Stopped: the token budget of {budget} tokens for one instruction is used up "
                f"({self.usage.total} used). The draft keeps the changes made so far."
            )
        return None

    async def _call_model(self, request: ModelRequest) -> tuple[str, list[ToolCall], Usage, Finish]:
        attempt = 0
        while True:
            produced = False
            parts: list[str] = []
            calls: list[ToolCall] = []
            usage: Usage | None = None
            finish = Finish("stop")
            events: list[dict[str, Any]] = []
            start = self._clock()
            first: float | None = None
            self.tracer.step(
                "model_request",
                turn=self.turns,
                attempt=attempt + 1,
                messages=len(request.messages),
                tools=[t.name for t in request.tools],
            )
            try:
                async for event in self.model.stream(request):
                    if first is None:
                        first = self._clock()
                    produced = True
                    events.append(event_to_json(event))
                    if isinstance(event, TextDelta):
                        parts.append(event.text)
                        self.emit(TextStreamed(self.trace_id, event.text))
                    elif isinstance(event, ToolCall):
                        calls.append(event)
                    elif isinstance(event, Usage):
                        usage = event
                    elif isinstance(event, Finish):
                        finish = event
            except ModelError as exc:
                self.tracer.step(
                    "model_error",
                    logging.WARNING,
                    turn=self.turns,
                    attempt=attempt + 1,
                    error_class=exc.kind,
                    status=exc.status,
                    message=str(exc),
                    produced_output=produced,
                )
                if produced or not exc.retryable or attempt + 1 >= self.retry.max_attempts:
                    raise
                delay = self.retry.delay(attempt, exc.retry_after, self._rng)
                self.emit(
                    RetryScheduled(self.trace_id, attempt + 1, round(delay, 3), exc.kind, str(exc))
                )
                await self._sleep(delay)
                attempt += 1
                continue
            end = self._clock()
            text = "".join(parts)
            if usage is None:
                usage = Usage(0, 0, estimated=True)
            self.record.append({"kind": "model", "turn": self.turns, "events": events})
            self.tracer.step(
                "model_response",
                logging.INFO,
                turn=self.turns,
                attempts=attempt + 1,
                first_event_ms=round(((first or end) - start) * 1000, 2),
                duration_ms=round((end - start) * 1000, 2),
                events=len(events),
                finish=finish.reason,
                tool_calls=[c.name for c in calls],
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
            )
            return text, calls, usage, finish

    # -- tools ------------------------------------------------------------------------------

    async def _run_batch(self, batch: _Batch) -> None:
        """Consecutive idempotent calls run together; a writing call runs alone, in order."""
        group: list[ToolCall] = []
        for call in batch.calls:
            tool = self.tools.get(call.name)
            if tool is not None and tool.idempotent:
                group.append(call)
                continue
            if group:
                await asyncio.gather(*(self._run_call(batch, c) for c in group))
                group = []
            await self._run_call(batch, call)
        if group:
            await asyncio.gather(*(self._run_call(batch, c) for c in group))

    async def _run_call(self, batch: _Batch, call: ToolCall) -> None:
        self.emit(ToolCallStarted(self.trace_id, call.id, call.name, call.arguments))
        tool = self.tools.get(call.name)
        if tool is None:
            self._set_output(
                batch,
                call,
                _error(
                    f"unknown tool {call.name!r}; the tools are: {', '.join(self.tools.names())}"
                ),
                "unknown_tool",
            )
            return
        try:
            args = json.loads(call.arguments)
        except json.JSONDecodeError as exc:
            self._set_output(
                batch,
                call,
                _error(
                    f"the arguments are not valid JSON ({exc.msg} at char {exc.pos}); send one JSON object"
                ),
                "bad_arguments",
            )
            return
        problem = tool.check_arguments(args)
        if problem:
            self._set_output(batch, call, _error(problem), "bad_arguments")
            return
        version = self._state_version() if (tool.idempotent and self._state_version) else None
        verdict = self._stuck.check(canonical_json([call.name, args, version]))
        if verdict == "stop":
            self._stop_reason = (
                f"Stopped: {call.name} was called a third time with the same arguments "
                "within six calls; the agent looks stuck. Rephrase the instruction."
            )
            self._set_output(batch, call, _error("not run: repeated call; the run stops"), "stuck")
            return
        if verdict == "warn":
            self._warnings.append(
                f"You called {call.name} with the same arguments {canonical_json(args)} twice. "
                "Do not repeat it: use its earlier result, change the arguments, or finish."
            )
        if tool.needs_approval:
            request = ApprovalRequest(call.id, tool.name, args)
            batch.pending.append(request)
            return
        await self._execute(batch, call, tool, args)

    async def _execute(
        self, batch: _Batch, call: ToolCall, tool: Tool, args: dict[str, Any]
    ) -> None:
        start = self._clock()
        error_class: str | None = None
        try:
            result = await asyncio.wait_for(tool.handler(args), tool.timeout)
            output = (
                result
                if isinstance(result, str)
                else json.dumps(result, ensure_ascii=False, default=str)
            )
        except NeedsInput as ask:
            batch.pending.append(AskUserRequest(call.id, ask.question, tuple(ask.options)))
            self.tracer.step(
                "tool_call",
                logging.INFO,
                name=call.name,
                call_id=call.id,
                arguments=args,
                result="(waiting for the user)",
                duration_ms=0,
            )
            return
        except ToolError as exc:
            output, error_class = _error(exc.message, **exc.details), "tool_error"
        except TimeoutError:
            output, error_class = (
                _error(f"{tool.name} timed out after {tool.timeout:g} s"),
                "timeout",
            )
        except Exception as exc:  # a crashing tool must still answer its call
            logging.getLogger("studio.agent").exception("tool %s crashed", tool.name)
            output, error_class = (
                _error(f"{tool.name} crashed: {type(exc).__name__}: {exc}"),
                "crash",
            )
        duration = (self._clock() - start) * 1000
        self._set_output(batch, call, output, error_class, duration, args)

    def _set_output(
        self,
        batch: _Batch,
        call: ToolCall,
        output: str,
        error_class: str | None = None,
        duration_ms: float = 0.0,
        args: Any = None,
    ) -> None:
        output = _cap(output)
        batch.outputs[call.id] = output
        self.record.append(
            {
                "kind": "tool",
                "call_id": call.id,
                "name": call.name,
                "arguments": call.arguments,
                "output": output,
                "error_class": error_class,
            }
        )
        self.tracer.step(
            "tool_call",
            logging.WARNING if error_class else logging.INFO,
            name=call.name,
            call_id=call.id,
            arguments=args if args is not None else call.arguments,
            result=output,
            duration_ms=round(duration_ms, 2),
            error_class=error_class,
        )
        self.emit(
            ToolCallFinished(
                self.trace_id, call.id, call.name, output, error_class, round(duration_ms, 2)
            )
        )

    def _pause(self, request: InputRequest) -> RunResult:
        if isinstance(request, AskUserRequest):
            event = InputRequired(
                self.trace_id,
                request.kind,
                request.call_id,
                question=request.question,
                options=tuple(request.options),
            )
        else:
            event = InputRequired(
                self.trace_id,
                request.kind,
                request.call_id,
                tool=request.tool,
                arguments=request.arguments,
            )
        self.emit(event)
        self.result = RunResult(
            "needs_input",
            "waiting for the user",
            request=request,
            turns=self.turns,
            usage=self.usage,
        )
        return self.result

    def _close_batch(self) -> None:
        """Append one tool message per call, in call order, then any stuck warnings."""
        batch = self._batch
        if batch is None:
            return
        for call in batch.calls:
            content = batch.outputs.get(call.id, _error("cancelled"))
            self.messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
        self._batch = None
        for warning in self._warnings:
            self.messages.append({"role": "user", "content": f"Harness warning: {warning}"})
            self.emit(LoopWarning(self.trace_id, warning))
        self._warnings = []

    def _answer_dangling(self, reason: str) -> None:
        batch = self._batch
        if batch is None:
            return
        for call in batch.calls:
            if call.id not in batch.outputs:
                batch.outputs[call.id] = _error(reason)
                self.record.append(
                    {
                        "kind": "tool",
                        "call_id": call.id,
                        "name": call.name,
                        "arguments": call.arguments,
                        "output": batch.outputs[call.id],
                        "error_class": "cancelled",
                    }
                )
        batch.pending.clear()
        self._close_batch()

    def _finish(
        self, status: EndStatus, reason: str, *, text: str = "", error_class: str | None = None
    ) -> RunResult:
        reason = self.tracer.masker.text(reason)  # a server may echo the key in an error
        message = text if status == "completed" else reason
        self.result = RunResult(
            status, reason, message, turns=self.turns, usage=self.usage, error_class=error_class
        )
        self.tracer.step(
            "run_end",
            logging.INFO,
            status=status,
            reason=reason,
            turns=self.turns,
            total_tokens=self.usage.total,
            error_class=error_class,
        )
        self.emit(
            RunEnded(
                status,
                reason,
                message,
                trace_id=self.trace_id,
                turns=self.turns,
                total_tokens=self.usage.total,
                error_class=error_class,
            )
        )
        return self.result

    def emit(self, event: RunEvent) -> None:
        """Hand a run event (secrets masked) to `on_event`."""
        if self._on_event is None:
            return
        self._on_event(mask_event(event, self.tracer.masker))


def _unique_ids(calls: list[ToolCall]) -> list[ToolCall]:
    """Some servers repeat a call id within one reply; each call needs its own output."""
    seen: set[str] = set()
    out = []
    for n, c in enumerate(calls):
        if c.id in seen or not c.id:
            c = ToolCall(f"{c.id or 'call'}_{n}", c.name, c.arguments)
        seen.add(c.id)
        out.append(c)
    return out


def _answer_json(answer: Answer) -> dict[str, Any]:
    if isinstance(answer, UserAnswer):
        return {"type": "user", "text": answer.text}
    return {"type": "approval", "approved": answer.approved}


def answer_from_json(data: dict[str, Any]) -> Answer:
    if data.get("type") == "user":
        return UserAnswer(str(data.get("text", "")))
    return ApprovalAnswer(bool(data.get("approved")))
