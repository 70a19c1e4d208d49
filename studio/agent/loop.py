"""The guarded tool loop: full transcript each turn, tool batches, pauses for the user, one terminal event."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.agent.clients import ModelClient, closing_stream
from studio.agent.errors import ModelError, short
from studio.agent.events import (
    Finish,
    Message,
    ModelRequest,
    ReasoningDelta,
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
    ReasoningStreamed,
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
from studio.agent.textcalls import parse_text_calls
from studio.agent.tokens import (
    ESTIMATE,
    ContextWindow,
    TokenCounter,
    load_counter,
    message_tokens,
    tool_tokens,
)
from studio.agent.tokens import REPLY_PRIMING as _PRIMING
from studio.agent.trace import StreamRedactor, Tracer

Status = Literal["completed", "no_changes", "failed", "cancelled", "needs_input"]
MAX_TOOL_OUTPUT = 16_000
MAX_ARGUMENTS = 4 * 1024 * 1024
"""The longest tool-call arguments run at all (a whole patch of a 1 MiB spec fits)."""
MAX_TURN_TEXT = 200_000
"""The most text one reply may stream before the turn fails (F8: unbounded events files)."""
MIN_REPLY = 256
"""Tokens a reply needs at least; a request that leaves less in the window is not sent."""
WINDOW_SHARE = 0.25
"""The share of the context window one tool output may take."""
CHARS_PER_TOKEN = 3.0
"""Tool outputs are JSON, about 3.1 characters per token (agent-servers.md §4): cut by this."""
ChangeCheck = Callable[[str], str | None]
"""Given the final text, why the instruction is not done (no change made), or None."""
NUDGE = (
    "Harness check: {problem}. If the instruction asks for a change, make it now by calling "
    "the {writers} tool (writing a patch or a tool call in the text does nothing). If no change "
    "is needed, answer in one line why."
)
_SURROGATE = re.compile("[\ud800-\udfff]")


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


def _cap(text: str, limit: int = MAX_TOOL_OUTPUT, why: str = "") -> str:
    """Keep head and tail of an oversized tool output, saying in it that it was cut and how to
    narrow it."""
    if len(text) <= limit:
        return text
    head, tail = text[: int(limit * 0.6)], text[-int(limit * 0.3) :]
    omitted = len(text) - len(head) - len(tail)
    return (
        f"{head}\n...[output cut{why}: {omitted} of {len(text)} characters omitted; ask for a "
        f"smaller part, e.g. readNode on one node or readData on one pointer]...\n{tail}"
    )


def _clean(text: str) -> str:
    """Text from the model with lone surrogates (JSON "\\ud800") replaced, so every writer can
    encode it as UTF-8 (F3)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


class _NotJSON(ValueError):
    pass


def _no_constants(name: str) -> Any:
    raise _NotJSON(name)


def _surrogate_at(value: Any) -> str | None:
    """The pointer of the first string holding a lone surrogate, iteratively (deep values)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                return where or "/"
        elif isinstance(item, dict):
            for k, v in item.items():
                if isinstance(k, str) and not k.isascii() and _SURROGATE.search(k):
                    return f"{where}/{k!r}"
                stack.append((f"{where}/{k}", v))
        elif isinstance(item, list):
            stack.extend((f"{where}/{n}", v) for n, v in enumerate(item))
    return None


def parse_arguments(raw: str) -> tuple[Any, str | None]:
    """(arguments, None) or (None, why they cannot be used): bad JSON, NaN/Infinity, nesting or
    integers Python refuses, lone surrogates (F2, F3)."""
    if len(raw) > MAX_ARGUMENTS:
        return None, f"the arguments are {len(raw)} characters; at most {MAX_ARGUMENTS} are run"
    try:
        args = json.loads(raw, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        return None, (
            f"the arguments are not valid JSON ({exc.msg} at char {exc.pos}); send one JSON object"
        )
    except RecursionError:
        return None, "the arguments are nested too deeply; send a flat JSON object"
    except _NotJSON as exc:
        return None, f"the arguments hold {exc}, which JSON does not allow; use a number or null"
    except ValueError:  # an integer past Python's digit limit
        return None, "the arguments hold an integer with too many digits"
    where = _surrogate_at(args)
    if where is not None:
        return None, (
            f"the arguments hold a lone UTF-16 surrogate at {where}, which is not text; send "
            "valid characters"
        )
    return args, None


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
    "timeout": "The model server did not answer in time ({msg}). Check that it is running and "
    "not overloaded, or raise the time limits (Settings, or --idle-timeout/--request-timeout).",
    "blocked": "{msg}",
    "fatal": "The model call failed ({msg}).",
}


class AgentLoop:
    """Runs instructions against a model with a tool registry. One loop holds one conversation.

    `run()` and `resume()` return a RunResult; `needs_input` pauses (askUser, approval). Cancel
    by cancelling the task running `run()`/`resume()`: the transcript stays valid (dangling calls
    answered "cancelled") and a `cancelled` event is emitted before CancelledError propagates.
    Every tool call gets an answer, whatever its arguments; every wait is bounded (Limits).
    With `change_check`, an instruction that should change something and ends without a change
    is nudged once, then ends `no_changes` with the reason.
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
        change_check: ChangeCheck | None = None,
        counter: TokenCounter | None = None,
        effort: str = "provider-default",
    ) -> None:
        self.model = model
        #: Reasoning effort sent with every request (studio.agent.reasoning).
        self.effort = effort
        self.tools = tools
        self.limits = limits or Limits()
        self.retry = retry or RetryPolicy()
        self.tracer = tracer or Tracer()
        self.messages: list[Message] = [{"role": "system", "content": system}] if system else []
        self.record: list[dict[str, Any]] = []  # model responses and tool results, for snapshots
        self.result: RunResult | None = None
        self.window: ContextWindow | None = None
        self.counter: TokenCounter = counter or ESTIMATE
        self._counter_fixed = counter is not None
        self._sized_for: object = None
        self._on_event = on_event
        self._sleep = sleep
        self._clock = clock
        self._rng = rng
        self._state_version = state_version
        self._change_check = change_check
        self._stuck = StuckDetector()
        self._batch: _Batch | None = None
        self._warnings: list[str] = []
        self._stop_reason: str | None = None
        self._nudged = False
        self._force_tool = False
        self._spent = 0.0  # seconds of work on this instruction so far (pauses excluded)
        self._counted: tuple[int, int, Message | None] = (0, 0, None)
        self._tool_cost: tuple[tuple[str, ...], int] | None = None
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
        self._nudged = False
        self._force_tool = False
        self._spent = 0.0
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

    # -- persisted runs (studio.agent.resume) -----------------------------------------------

    def state_json(self) -> dict[str, Any]:
        """What a resumed run needs beyond the record: the whole neutral transcript, the open
        batch of a run paused for an answer (its calls, outputs so far and pending requests),
        the instruction and where the run stood."""
        batch = self._batch
        result = self.result
        return {
            "transcript": json.loads(json.dumps(self.messages)),
            "instruction": self.instruction,
            "status": result.status if result is not None else "running",
            "reason": result.reason if result is not None else "",
            "turns": self.turns,
            "batch": None
            if batch is None
            else {
                "calls": [
                    {"id": c.id, "name": c.name, "arguments": c.arguments} for c in batch.calls
                ],
                "outputs": dict(batch.outputs),
                "pending": [_request_json(r) for r in batch.pending],
            },
        }

    def restore(
        self,
        transcript: list[Message],
        record: list[dict[str, Any]],
        instruction: str | None,
        batch: dict[str, Any] | None,
    ) -> None:
        """Put a decoded persisted run back (studio.agent.resume checked every part first)."""
        self.messages = transcript
        self.record = record
        self.instruction = instruction
        self._batch = None
        if batch is not None:
            self._batch = _Batch(
                [ToolCall(c["id"], c["name"], c["arguments"]) for c in batch["calls"]],
                dict(batch["outputs"]),
                [request_from_json(r) for r in batch["pending"]],
            )

    async def continue_run(
        self, *, note: str | None = None, answer: Answer | None = None
    ) -> RunResult:
        """Carry on a restored run with fresh per-instruction limits: answer its pending request,
        or (with `note` as a user message, when given) ask the model again."""
        self.turns = 0
        self.usage = Usage()
        self._stop_reason = None
        self._nudged = False
        self._force_tool = False
        self._spent = 0.0
        self._stuck.reset()
        self.emit(RunStarted(self.trace_id, self.instruction or "", self.model.model))
        if self.pending is not None:
            if answer is None:
                return self._pause(self.pending)
            return await self.resume(answer)
        if note:
            self.messages.append({"role": "user", "content": note})
        return await self._guarded(self._drive())

    # -- driving ----------------------------------------------------------------------------

    def _time_left(self) -> float | None:
        limit = self.limits.run_timeout
        return None if limit is None else max(0.0, limit - self._spent)

    async def _guarded(self, work: Any) -> RunResult:
        started = self._clock()
        try:
            async with asyncio.timeout(self._time_left()):
                result: RunResult = await work
            return result
        except TimeoutError:
            self._answer_dangling("not run: the run's time limit was reached")
            return self._finish(
                "failed",
                f"Stopped: the time limit of {self.limits.run_timeout:g} s for one instruction "
                "was reached. The draft keeps the changes made so far; send a follow-up "
                "instruction to continue.",
                error_class="limit",
            )
        except ModelError as exc:
            self._answer_dangling("not run: the model call failed")
            advice = _ADVICE.get(exc.kind, "{msg}").format(msg=str(exc))
            if getattr(exc, "after_output", False):
                advice = (
                    f"The model's answer broke off ({exc}); the run stopped, because an answer "
                    "already under way is not asked for again."
                )
            return self._finish("failed", advice, error_class=exc.kind)
        except asyncio.CancelledError:
            self._answer_dangling("cancelled")
            self._finish("cancelled", "cancelled by the user")
            raise
        except AssertionError:  # a test double's "unexpected call" (testing.py) stays loud
            self._answer_dangling("not run: the run crashed")
            self._finish("failed", "the agent run crashed: AssertionError", error_class="crash")
            raise
        except Exception as exc:  # a bug must still leave one terminal event and no open call
            logging.getLogger("studio.agent").exception("agent run crashed")
            self._answer_dangling("not run: the run crashed")
            return self._finish(
                "failed",
                f"the agent run crashed: {type(exc).__name__}: {short(str(exc), 300)}",
                error_class="crash",
            )
        finally:
            self._spent += self._clock() - started

    async def _resume(self, batch: _Batch, request: InputRequest, answer: Answer) -> RunResult:
        call = next(c for c in batch.calls if c.id == request.call_id)
        if isinstance(request, AskUserRequest):
            if not isinstance(answer, UserAnswer):
                raise TypeError("an askUser request needs a UserAnswer")
            self._set_output(batch, call, json.dumps({"answer": answer.text}, ensure_ascii=False))
        else:
            if not isinstance(answer, ApprovalAnswer):
                raise TypeError("an approval request needs an ApprovalAnswer")
            tool = self.tools.resolve(call.name)
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

    async def _size_for_model(self) -> None:
        """The context window and token counter of the current model, found once per model:
        settings, else the server (llama-server's /props, /v1/models), else the profile."""
        if self._sized_for is self.model:
            return
        self._sized_for = self.model
        profile = getattr(self.model, "profile", None)
        window: ContextWindow | None = None
        if self.limits.context_window:
            window = ContextWindow(self.limits.context_window, "settings")
        else:
            probe = getattr(self.model, "context_window", None)
            if callable(probe):
                try:
                    window = await asyncio.wait_for(probe(), 10.0)
                except Exception:  # a probe is best effort; the profile or nothing remains
                    window = None
            if window is None and profile is not None:
                known = profile.window(self.model.model)
                if known:
                    window = ContextWindow(known, f"the {profile.name} profile")
        self.window = window
        if not self._counter_fixed:
            self.counter = await load_counter(
                self.model.model, openai=getattr(profile, "name", None) == "openai"
            )
        self._counted = (0, 0, None)
        self._tool_cost = None
        self.tracer.step(
            "context",
            logging.INFO,
            window=window.tokens if window else None,
            window_source=window.source if window else None,
            counter=self.counter.name,
        )

    def _request_cost(self, specs: list[Any]) -> int:
        """The next request's input tokens. The transcript only grows (compaction recounts),
        so the messages counted before are summed once, not on every turn."""
        names = tuple(t.name for t in specs)
        if self._tool_cost is None or self._tool_cost[0] != names:
            self._tool_cost = (names, tool_tokens(specs, self.counter))
        done, total, last = self._counted
        messages = self.messages
        if done > len(messages) or (done and messages[done - 1] is not last):
            done, total = 0, 0  # the transcript was replaced: count it again
        for m in messages[done:]:
            total += message_tokens(m, self.counter)
        self._counted = (len(messages), total, messages[-1] if messages else None)
        return total + self._tool_cost[1] + _PRIMING

    def _compact(self, need: int, limit: int) -> int:
        """Drop the oldest tool outputs (never the latest batch's) until the request fits."""
        last_assistant = max(
            (n for n, m in enumerate(self.messages) if m.get("role") == "assistant"), default=-1
        )
        dropped = 0
        for m in self.messages[:last_assistant]:
            if need <= limit:
                break
            if m.get("role") != "tool" or m.get("compacted"):
                continue
            before = message_tokens(m, self.counter)
            m["content"] = _error(
                "output dropped to fit the model's context window; call the tool again if you "
                "still need it"
            )
            m["compacted"] = True
            need += message_tokens(m, self.counter) - before
            dropped += 1
        self._counted = (0, 0, None)  # contents changed: the next count starts over
        if dropped:
            self.tracer.step("compacted", logging.INFO, tool_outputs=dropped, tokens=need)
        return need

    def _next_request(self) -> tuple[ModelRequest | None, str | None]:
        """The next request, sized to the window and the budget, or (None, why not)."""
        specs = self.tools.specs()
        need = self._request_cost(specs)
        reply = self.limits.max_output_tokens
        window = self.window
        if window is not None:
            if need + MIN_REPLY > window.tokens:
                need = self._compact(need, window.tokens - MIN_REPLY)
            if need + MIN_REPLY > window.tokens:
                raise ModelError(
                    "context_length",
                    f"the next request needs about {need} tokens and the model's context window "
                    f"is {window.tokens} ({window.source})",
                )
            reply = min(reply, window.tokens - need)
        budget = self.limits.token_budget
        if budget is not None:
            left = budget - self.usage.total
            if need + MIN_REPLY > left:
                return None, (
                    f"Stopped: the token budget of {budget} tokens for one instruction would be "
                    f"passed: {self.usage.total} used, and the next request needs about {need} "
                    "more. The draft keeps the changes made so far."
                )
            reply = min(reply, left - need)
        profile = getattr(self.model, "profile", None)
        choice = "auto"
        if self._force_tool and getattr(profile, "tool_choice_required", False):
            choice = "required"
        self._force_tool = False
        idle = self.limits.idle_timeout or getattr(profile, "idle_timeout", None)
        return (
            ModelRequest(
                list(self.messages),
                specs,
                tool_choice=choice,
                max_tokens=max(1, reply),
                idle_timeout=idle,
                input_tokens=need,
                effort=self.effort,
            ),
            None,
        )

    async def _drive(self) -> RunResult:
        await self._size_for_model()
        while True:
            limit = self._limit_reached()
            if limit:
                return self._finish("failed", limit, error_class="limit")
            request, stop = self._next_request()
            if request is None:
                return self._finish("failed", stop or "stopped", error_class="limit")
            self.turns += 1
            self.emit(TurnStarted(self.trace_id, self.turns))
            text, calls, usage, finish = await self._call_model(request)
            if not calls and text:
                text, calls = self._text_calls(text)
            # The key a server echoed goes no further: not into the transcript the model is
            # sent again, the draft, events or files (F5).
            mask = self.tracer.masker.text
            text = mask(text)
            calls = _unique_ids([ToolCall(c.id, c.name, mask(c.arguments)) for c in calls])
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
                problem = self._change_check(text) if self._change_check else None
                if problem is None:
                    return self._finish(
                        "completed", f"the model finished ({finish.reason})", text=text
                    )
                if self._nudged:
                    return self._finish("no_changes", f"No changes made: {problem}.", text=text)
                self._nudged = self._force_tool = True
                writers = (
                    ["patch"]
                    if self.tools.get("patch")
                    else [t.name for t in self.tools if not t.idempotent and t.name != "askUser"]
                )
                nudge = NUDGE.format(problem=problem, writers=" or ".join(writers[:3]) or "patch")
                self.messages.append({"role": "user", "content": nudge})
                self.emit(LoopWarning(self.trace_id, nudge))
                continue
            batch = self._batch = _Batch(calls)
            await self._run_batch(batch)
            if batch.pending:
                return self._pause(batch.pending[0])
            self._close_batch()
            if self._stop_reason:
                return self._finish("failed", self._stop_reason, error_class="stuck")

    def _text_calls(self, text: str) -> tuple[str, list[ToolCall]]:
        """Tool calls a weak model wrote as text become real calls (textcalls.py)."""

        def resolve(name: str) -> str | None:
            tool = self.tools.resolve(name)
            return tool.name if tool is not None else None

        loose = bool(getattr(getattr(self.model, "profile", None), "text_tool_calls", False))
        rest, calls = parse_text_calls(text, resolve, loose=loose)
        if calls:
            self.tracer.step(
                "text_tool_calls", logging.INFO, turn=self.turns, calls=[c.name for c in calls]
            )
        return rest, calls

    def _limit_reached(self) -> str | None:
        if self.turns >= self.limits.max_turns:
            return (
                f"Stopped: the turn cap of {self.limits.max_turns} turns for one instruction was "
                "reached. The draft keeps the changes made so far; send a follow-up instruction "
                "to continue."
            )
        return None

    async def _call_model(self, request: ModelRequest) -> tuple[str, list[ToolCall], Usage, Finish]:
        attempt = 0
        timeouts = 0
        while True:
            produced = False
            parts: list[str] = []
            thinking: list[str] = []
            size = 0
            calls: list[ToolCall] = []
            usage: Usage | None = None
            finish = Finish("stop")
            events: list[dict[str, Any]] = []
            redactor = StreamRedactor(self.tracer.masker)
            reasoner = StreamRedactor(self.tracer.masker)
            start = self._clock()
            first: float | None = None
            self.tracer.step(
                "model_request",
                turn=self.turns,
                attempt=attempt + 1,
                messages=len(request.messages),
                tools=[t.name for t in request.tools],
                input_tokens=request.input_tokens,
                max_tokens=request.max_tokens,
            )
            try:
                async with (
                    asyncio.timeout(self.limits.request_timeout),
                    closing_stream(self.model.stream(request)) as stream,
                ):
                    async for event in stream:
                        if first is None:
                            first = self._clock()
                        if isinstance(event, TextDelta | ReasoningDelta):
                            produced = True
                            piece = _clean(event.text)
                            size += len(piece)  # the answer and the reasoning share one cap
                            if size > MAX_TURN_TEXT:
                                raise ModelError(
                                    "fatal",
                                    f"the model's reply passed {MAX_TURN_TEXT} characters",
                                )
                            if isinstance(event, TextDelta):
                                parts.append(piece)
                                safe = redactor.feed(piece)
                                if safe:
                                    self.emit(TextStreamed(self.trace_id, safe))
                            else:  # not the answer: neither in `parts` nor in the transcript
                                thinking.append(piece)
                                safe = reasoner.feed(piece)
                                if safe:
                                    self.emit(ReasoningStreamed(self.trace_id, safe))
                        elif isinstance(event, ToolCall):
                            produced = True
                            calls.append(
                                ToolCall(
                                    _clean(event.id), _clean(event.name), _clean(event.arguments)
                                )
                            )
                        elif isinstance(event, Usage):
                            usage = event
                        elif isinstance(event, Finish):
                            finish = event
            except TimeoutError:
                exc = ModelError(
                    "timeout",
                    f"no whole answer within the request time limit of "
                    f"{self.limits.request_timeout:g} s",
                )
                exc.after_output = True  # type: ignore[attr-defined]  # not retried: it was slow
                produced = True
                self._model_error(exc, attempt, produced)
                raise exc from None
            except ModelError as exc:
                self._model_error(exc, attempt, produced)
                if exc.kind == "timeout":
                    timeouts += 1
                if (
                    produced
                    or not exc.retryable
                    or attempt + 1 >= self.retry.max_attempts
                    or timeouts > 1  # a server that timed out twice is not waited for again
                    or (
                        exc.retry_after is not None and exc.retry_after > self.retry.max_retry_after
                    )
                ):
                    if produced:
                        exc.after_output = True  # type: ignore[attr-defined]  # for the advice
                    raise
                delay = self.retry.delay(attempt, exc.retry_after, self._rng)
                self.emit(
                    RetryScheduled(self.trace_id, attempt + 1, round(delay, 3), exc.kind, str(exc))
                )
                await self._sleep(delay)
                attempt += 1
                continue
            rest = reasoner.flush()
            if rest:
                self.emit(ReasoningStreamed(self.trace_id, rest))
            rest = redactor.flush()
            if rest:
                self.emit(TextStreamed(self.trace_id, rest))
            end = self._clock()
            text = "".join(parts)
            reasoning = "".join(thinking)
            if reasoning:  # recorded, so a replay shows it too; masked whole when saved
                events.append(event_to_json(ReasoningDelta(reasoning)))
            if text:  # one text event per reply: a secret split across deltas is masked whole
                events.append(event_to_json(TextDelta(text)))
            events.extend(event_to_json(c) for c in calls)
            if usage is None:
                usage = Usage(request.input_tokens or 0, 0, estimated=True)
            events.append(event_to_json(usage))
            events.append(event_to_json(finish))
            self.record.append({"kind": "model", "turn": self.turns, "events": events})
            self.tracer.step(
                "model_response",
                logging.INFO,
                turn=self.turns,
                attempts=attempt + 1,
                first_event_ms=round(((first or end) - start) * 1000, 2),
                duration_ms=round((end - start) * 1000, 2),
                events=len(events),
                reasoning_chars=len(reasoning),
                finish=finish.reason,
                tool_calls=[c.name for c in calls],
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
            )
            return text, calls, usage, finish

    def _model_error(self, exc: ModelError, attempt: int, produced: bool) -> None:
        # A model server's error is a run outcome (events, the trace, the sheet), not a fault of
        # the studio: INFO, so it never reaches a terminal through logging's last resort.
        self.tracer.step(
            "model_error",
            logging.INFO,
            turn=self.turns,
            attempt=attempt + 1,
            error_class=exc.kind,
            status=exc.status,
            message=str(exc),
            produced_output=produced,
        )

    # -- tools ------------------------------------------------------------------------------

    async def _run_batch(self, batch: _Batch) -> None:
        """Consecutive idempotent calls run together; a writing call runs alone, in order."""
        group: list[ToolCall] = []
        for call in batch.calls:
            tool = self.tools.resolve(call.name)
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
        """Run one call; whatever its arguments do, the call is answered (F2)."""
        try:
            await self._run_call_checked(batch, call)
        except Exception as exc:
            logging.getLogger("studio.agent").warning(
                "tool call %s could not be run: %s: %s", call.name, type(exc).__name__, exc
            )
            if call.id not in batch.outputs and not any(
                r.call_id == call.id for r in batch.pending
            ):
                self._set_output(
                    batch,
                    call,
                    _error(f"the call could not be run ({type(exc).__name__}); send it again"),
                    "bad_arguments",
                )

    async def _run_call_checked(self, batch: _Batch, call: ToolCall) -> None:
        self.emit(ToolCallStarted(self.trace_id, call.id, call.name, call.arguments))
        tool = self.tools.resolve(call.name)
        if tool is None:
            self._set_output(
                batch,
                call,
                _error(
                    f"unknown tool {short(call.name, 80)!r}; the tools are: "
                    f"{', '.join(self.tools.names())}"
                ),
                "unknown_tool",
            )
            return
        args, problem = parse_arguments(call.arguments)
        if problem:
            self._set_output(batch, call, _error(problem), "bad_arguments")
            return
        args, repaired = tool.repair(args)
        if tool.name != call.name:
            repaired.insert(0, f"the tool name {call.name!r} means {tool.name!r}")
        if repaired:
            self.tracer.step("repaired", logging.INFO, call_id=call.id, repairs=repaired)
        # A server that echoes the key must not get it into the draft, --out or a bundle (F5).
        args = self.tracer.masker.obj(args)
        problem = tool.check_arguments(args)
        if problem:
            self._set_output(batch, call, _error(problem), "bad_arguments")
            return
        version = self._state_version() if (tool.idempotent and self._state_version) else None
        verdict = self._stuck.check(canonical_json([tool.name, args, version]))
        if verdict == "stop":
            self._stop_reason = (
                f"Stopped: {tool.name} was called a third time with the same arguments "
                "within six calls; the agent looks stuck. Rephrase the instruction."
            )
            self._set_output(batch, call, _error("not run: repeated call; the run stops"), "stuck")
            return
        if verdict == "warn":
            self._warnings.append(
                f"You called {tool.name} with the same arguments {short(canonical_json(args), 300)} "
                "twice. Do not repeat it: use its earlier result, change the arguments, or finish."
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
        output = self._fit_output(output)
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
            logging.INFO,  # a refused call is the model's to fix (it gets the error), not ours
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

    def _fit_output(self, output: str) -> str:
        """A tool output cut to MAX_TOOL_OUTPUT characters, and to a share of a known window."""
        window = self.window
        if window is None:
            return _cap(output)
        limit = min(MAX_TOOL_OUTPUT, int(window.tokens * WINDOW_SHARE * CHARS_PER_TOKEN))
        if len(output) <= limit:
            return output
        why = (
            f" to fit the model's {window.tokens}-token context window"
            if limit < MAX_TOOL_OUTPUT
            else ""
        )
        return _cap(output, limit, why)

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
        text = self.tracer.masker.text(text)
        if status == "completed":
            message = text
        elif status == "no_changes":
            message = f"{reason} The model said: {short(text, 300)}" if text.strip() else reason
        else:
            message = reason
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


def _request_json(request: InputRequest) -> dict[str, Any]:
    if isinstance(request, AskUserRequest):
        return {
            "kind": request.kind,
            "call_id": request.call_id,
            "question": request.question,
            "options": list(request.options),
        }
    return {
        "kind": request.kind,
        "call_id": request.call_id,
        "tool": request.tool,
        "arguments": request.arguments,
    }


def request_from_json(data: dict[str, Any]) -> InputRequest:
    """A pending request as `state_json` wrote it (KeyError/TypeError on a malformed one)."""
    if data["kind"] == "ask_user":
        return AskUserRequest(
            str(data["call_id"]), str(data["question"]), tuple(str(o) for o in data["options"])
        )
    if data["kind"] == "approval":
        if not isinstance(data["arguments"], dict):
            raise TypeError("approval arguments must be an object")
        return ApprovalRequest(str(data["call_id"]), str(data["tool"]), data["arguments"])
    raise KeyError(f"unknown request kind {data['kind']!r}")


def answer_from_json(data: dict[str, Any]) -> Answer:
    if data.get("type") == "user":
        return UserAnswer(str(data.get("text", "")))
    return ApprovalAnswer(bool(data.get("approved")))
