"""The guarded loop with a scripted model: transcript, batches, guards, pauses, cancellation."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from studio.agent.errors import ModelError
from studio.agent.events import TextDelta, Usage
from studio.agent.guards import Limits, RetryPolicy
from studio.agent.loop import AgentLoop, ApprovalAnswer, AskUserRequest, UserAnswer
from studio.agent.registry import NeedsInput, Tool, ToolError, ToolRegistry
from studio.agent.run_events import RunEvent
from studio.agent.testing import ScriptedModel, call, calls, reply

OBJ = {"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": False}


class Probe:
    """Tools that record what ran, and how many ran at once."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.active = 0
        self.peak = 0

    def tool(
        self,
        name: str,
        *,
        idempotent: bool = True,
        timeout: float = 5.0,
        body: Any = None,
        **kw: Any,
    ) -> Tool:
        async def handler(args: dict[str, Any]) -> Any:
            self.active += 1
            self.peak = max(self.peak, self.active)
            try:
                for _ in range(3):
                    await asyncio.sleep(0)
                if body is not None:
                    return await body(args)
                self.ran.append(f"{name}:{args.get('x')}")
                return {"tool": name, "x": args.get("x")}
            finally:
                self.active -= 1

        return Tool(
            name, f"{name} things", OBJ, handler, timeout=timeout, idempotent=idempotent, **kw
        )


def make(
    steps: list[Any], tools: list[Tool], **kw: Any
) -> tuple[AgentLoop, ScriptedModel, list[dict[str, Any]]]:
    model = ScriptedModel(steps)
    events: list[dict[str, Any]] = []
    kw.setdefault("sleep", _no_sleep)
    loop = AgentLoop(
        model,
        ToolRegistry(tools),
        system="sys",
        on_event=lambda e: events.append(e.to_json()),
        **kw,
    )
    return loop, model, events


async def _no_sleep(_: float) -> None:
    return None


def terminal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] in ("completed", "failed", "cancelled")]


def assert_every_call_answered(messages: list[dict[str, Any]]) -> None:
    asked = [
        c["id"] for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []
    ]
    answered = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert sorted(asked) == sorted(answered) and len(set(answered)) == len(answered)


def test_parallel_calls_then_one_follow_up_with_full_transcript() -> None:
    probe = Probe()
    loop, model, events = make(
        [calls(call("a", {"x": 1}, id="c1"), call("b", {"x": 2}, id="c2")), reply("done")],
        [probe.tool("a"), probe.tool("b")],
    )
    result = asyncio.run(loop.run("do it"))
    model.assert_complete()
    assert result.status == "completed" and result.text == "done"
    assert len(model.requests) == 2
    first, second = model.requests
    assert [t.name for t in first.tools] == [t.name for t in second.tools] == ["a", "b"]
    assert [m["role"] for m in second.messages] == ["system", "user", "assistant", "tool", "tool"]
    assert [m["tool_call_id"] for m in second.messages[3:]] == ["c1", "c2"]
    assert json.loads(second.messages[3]["content"]) == {"tool": "a", "x": 1}
    assert probe.peak == 2  # read-only calls ran together
    assert len(terminal(events)) == 1 and terminal(events)[0]["type"] == "completed"


def test_writing_tools_run_one_at_a_time_in_order() -> None:
    probe = Probe()
    loop, model, _ = make(
        [calls(*(call("w", {"x": i}) for i in range(4))), reply("ok")],
        [probe.tool("w", idempotent=False)],
    )
    asyncio.run(loop.run("write"))
    assert probe.ran == ["w:0", "w:1", "w:2", "w:3"] and probe.peak == 1


def test_unknown_tool_malformed_and_invalid_arguments_go_back_to_the_model() -> None:
    probe = Probe()
    loop, model, _ = make(
        [
            calls(
                call("nope", {}), call("a", '{"x": 1'), call("a", {"x": "one"}), call("a", "[1]")
            ),
            reply("fixed"),
        ],
        [probe.tool("a")],
    )
    result = asyncio.run(loop.run("go"))
    assert result.status == "completed"
    outs = [
        json.loads(m["content"])["error"] for m in model.requests[1].messages if m["role"] == "tool"
    ]
    assert "unknown tool 'nope'" in outs[0] and "the tools are: a" in outs[0]
    assert "not valid JSON" in outs[1]
    assert 'arguments at /x: "one" is not of type "integer"' in outs[2]
    assert "arguments at /" in outs[3]
    assert probe.ran == []


@pytest.mark.expected_log("tool bad crashed", logger="studio.agent", level="ERROR")
def test_timeout_and_crash_each_answer_their_call() -> None:
    async def hang(_: dict[str, Any]) -> Any:
        await asyncio.Event().wait()

    async def crash(_: dict[str, Any]) -> Any:
        raise KeyError("boom")

    async def refuse(_: dict[str, Any]) -> Any:
        raise ToolError("no such node", path="/root")

    probe = Probe()
    loop, model, events = make(
        [calls(("slow", {}), ("bad", {}), ("picky", {})), reply("ok")],
        [
            probe.tool("slow", timeout=0.05, body=hang),
            probe.tool("bad", body=crash),
            probe.tool("picky", body=refuse),
        ],
    )
    result = asyncio.run(loop.run("go"))
    assert result.status == "completed"
    outs = [json.loads(m["content"]) for m in model.requests[1].messages if m["role"] == "tool"]
    assert "timed out after 0.05 s" in outs[0]["error"]
    assert "crashed: KeyError" in outs[1]["error"]
    assert outs[2] == {"error": "no such node", "path": "/root"}
    classes = [e["error_class"] for e in events if e["type"] == "tool_result"]
    assert classes == ["timeout", "crash", "tool_error"] or sorted(classes) == [
        "crash",
        "timeout",
        "tool_error",
    ]


def test_turn_cap_says_why_it_stopped() -> None:
    probe = Probe()
    loop, model, events = make(
        [calls(("a", {"x": i})) for i in range(3)], [probe.tool("a")], limits=Limits(max_turns=3)
    )
    result = asyncio.run(loop.run("loop forever"))
    model.assert_complete()
    assert result.status == "failed" and "turn cap of 3 turns" in result.text
    assert_every_call_answered(loop.messages)
    assert terminal(events)[0]["reason"] == result.reason


def test_token_budget_stops_the_run_before_a_request_would_pass_it() -> None:
    probe = Probe()
    steps = [calls(("a", {"x": i}), usage=Usage(600, 100)) for i in range(2)]
    loop, model, _ = make(steps, [probe.tool("a")], limits=Limits(token_budget=1000))
    result = asyncio.run(loop.run("spend"))
    # 700 used; the next request plus the smallest reply would pass 1000, so it is not sent
    assert model.remaining == 1 and len(model.requests) == 1
    assert (
        result.status == "failed"
        and "token budget of 1000 tokens" in result.text
        and "700 used" in result.text
        and result.usage.total <= 1000
    )
    assert model.requests[0].max_tokens is not None and model.requests[0].max_tokens <= 1000


def test_stuck_detector_warns_then_stops() -> None:
    probe = Probe()
    loop, model, events = make(
        [
            calls(("a", {"x": 1})),
            calls(("b", {"x": 5})),
            calls(("a", {"x": 1})),
            calls(("a", {"x": 1})),
        ],
        [probe.tool("a"), probe.tool("b")],
    )
    result = asyncio.run(loop.run("repeat"))
    model.assert_complete()
    # the warning reaches the model on the turn after the second identical call
    last = model.requests[3].messages[-1]
    assert last["role"] == "user" and "same arguments" in last["content"]
    assert "Harness warning" not in json.dumps(model.requests[2].messages)
    assert (
        result.status == "failed" and result.error_class == "stuck" and "third time" in result.text
    )
    assert probe.ran == ["a:1", "b:5", "a:1"]  # the third call was not run
    assert_every_call_answered(loop.messages)


def test_ask_user_pauses_and_resumes_with_a_typed_answer() -> None:
    async def ask(args: dict[str, Any]) -> Any:
        raise NeedsInput(args["question"], args["options"])

    schema = {
        "type": "object",
        "properties": {
            "question": {"type": "string"},
            "options": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["question", "options"],
    }
    ask_tool = Tool("askUser", "ask", schema, ask)
    loop, model, events = make(
        [
            calls(
                call("askUser", {"question": "Which colour?", "options": ["red", "blue"]}, id="q")
            ),
            reply("blue it is"),
        ],
        [ask_tool],
    )

    async def go() -> Any:
        paused = await loop.run("style it")
        assert paused.status == "needs_input"
        assert paused.request == AskUserRequest("q", "Which colour?", ("red", "blue"))
        assert not terminal(events)
        return await loop.resume(UserAnswer("blue"))

    result = asyncio.run(go())
    assert result.status == "completed"
    tool_msg = model.requests[1].messages[-1]
    assert tool_msg == {"role": "tool", "tool_call_id": "q", "content": '{"answer": "blue"}'}
    assert len(terminal(events)) == 1


def test_approval_denied_is_answered_and_the_run_continues() -> None:
    probe = Probe()
    loop, model, _ = make(
        [calls(call("send", {"x": 1}, id="s")), reply("ok, not sent")],
        [probe.tool("send", idempotent=False, needs_approval=True)],
    )

    async def go() -> Any:
        paused = await loop.run("send it")
        assert paused.request is not None and paused.request.kind == "approval"
        return await loop.resume(ApprovalAnswer(False))

    result = asyncio.run(go())
    assert result.status == "completed" and probe.ran == []
    assert "denied by the user" in model.requests[1].messages[-1]["content"]


def test_approval_granted_runs_the_tool() -> None:
    probe = Probe()
    loop, model, _ = make(
        [calls(call("send", {"x": 1})), reply("sent")],
        [probe.tool("send", idempotent=False, needs_approval=True)],
    )

    async def go() -> Any:
        await loop.run("send it")
        return await loop.resume(ApprovalAnswer(True))

    assert asyncio.run(go()).status == "completed" and probe.ran == ["send:1"]


def test_cancel_while_paused_answers_the_pending_call() -> None:
    probe = Probe()
    loop, model, events = make(
        [calls(call("send", {"x": 1}))], [probe.tool("send", needs_approval=True)]
    )
    asyncio.run(loop.run("send"))
    result = loop.cancel()
    assert result.status == "cancelled" and terminal(events)[-1]["type"] == "cancelled"
    assert_every_call_answered(loop.messages)


def test_cancel_during_a_tool_leaves_a_valid_transcript() -> None:
    started = asyncio.Event

    async def go() -> tuple[AgentLoop, list[dict[str, Any]]]:
        gate = started()

        async def hang(_: dict[str, Any]) -> Any:
            gate.set()
            await asyncio.Event().wait()

        probe = Probe()
        loop, model, events = make(
            [
                calls(
                    call("fast", {"x": 1}, id="f"),
                    call("slow", {}, id="s"),
                    call("w", {"x": 2}, id="w"),
                )
            ],
            [probe.tool("fast"), probe.tool("slow", body=hang), probe.tool("w", idempotent=False)],
        )
        task = asyncio.create_task(loop.run("go"))
        await gate.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return loop, events

    loop, events = asyncio.run(go())
    assert_every_call_answered(loop.messages)
    outputs = {m["tool_call_id"]: m["content"] for m in loop.messages if m["role"] == "tool"}
    assert json.loads(outputs["f"]) == {"tool": "fast", "x": 1}
    assert json.loads(outputs["s"]) == {"error": "cancelled"} and json.loads(outputs["w"]) == {
        "error": "cancelled"
    }
    assert [e["type"] for e in terminal(events)] == ["cancelled"]


def test_cancel_mid_stream_keeps_no_half_message() -> None:
    async def go() -> tuple[AgentLoop, list[dict[str, Any]]]:
        seen = asyncio.Event()

        def slow(_: Any) -> list[Any]:
            return [TextDelta("partial"), *([TextDelta("x")] * 1000)]

        events: list[dict[str, Any]] = []

        def on_event(event: RunEvent) -> None:
            e = event.to_json()
            events.append(e)
            if e["type"] == "text_delta":
                seen.set()

        loop = AgentLoop(ScriptedModel([slow]), ToolRegistry([]), system="sys", on_event=on_event)
        task = asyncio.create_task(loop.run("go"))
        await seen.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return loop, events

    loop, events = asyncio.run(go())
    assert [m["role"] for m in loop.messages] == ["system", "user"]
    assert terminal(events)[-1]["type"] == "cancelled"


def test_retry_waits_for_retry_after_then_succeeds() -> None:
    waits: list[float] = []

    async def sleep(d: float) -> None:
        waits.append(d)

    loop, model, events = make(
        [
            ModelError("rate_limit", "slow down", status=429, retry_after=7),
            ModelError("retryable", "500", status=500),
            reply("hi"),
        ],
        [],
        sleep=sleep,
        rng=lambda: 0.0,
    )
    result = asyncio.run(loop.run("hello"))
    assert result.status == "completed" and waits == [7, 0.5 * 2 * 0.75]
    assert [e["error_class"] for e in events if e["type"] == "retry"] == ["rate_limit", "retryable"]


def test_retries_are_bounded() -> None:
    loop, model, _ = make(
        [ModelError("retryable", "down", status=503)] * 3, [], retry=RetryPolicy(max_attempts=3)
    )
    result = asyncio.run(loop.run("x"))
    model.assert_complete()
    assert (
        result.status == "failed"
        and result.error_class == "retryable"
        and "kept failing" in result.text
    )


def test_auth_error_stops_and_says_to_reauthenticate() -> None:
    loop, model, _ = make([ModelError("auth", "invalid api key", status=401)], [])
    result = asyncio.run(loop.run("x"))
    model.assert_complete()
    assert result.status == "failed" and "Re-authenticate" in result.text


def test_context_length_stops_with_advice() -> None:
    loop, model, _ = make(
        [ModelError("context_length", "maximum context length is 8192", status=400)], []
    )
    result = asyncio.run(loop.run("x"))
    assert (
        result.status == "failed"
        and "context window" in result.text
        and "Select a node" in result.text
    )


def test_a_stream_that_produced_output_is_never_retried() -> None:
    loop, model, _ = make([[TextDelta("half"), ModelError("retryable", "cut")], reply("never")], [])
    result = asyncio.run(loop.run("x"))
    assert result.status == "failed" and model.remaining == 1


def test_scripted_model_fails_loudly() -> None:
    loop, model, _ = make([calls(("a", {"x": 1}))], [Probe().tool("a")])
    with pytest.raises(AssertionError, match="unexpected model call #2"):
        asyncio.run(loop.run("x"))
    leftover = ScriptedModel([reply("unused")])
    with pytest.raises(AssertionError, match="never used"):
        leftover.assert_complete()


def test_repeated_call_ids_each_get_their_own_output() -> None:
    probe = Probe()
    loop, model, _ = make(
        [calls(call("a", {"x": 1}, id="same"), call("a", {"x": 2}, id="same")), reply("ok")],
        [probe.tool("a")],
    )
    asyncio.run(loop.run("go"))
    assert_every_call_answered(loop.messages)
    outs = [
        json.loads(m["content"])["x"] for m in model.requests[1].messages if m["role"] == "tool"
    ]
    assert outs == [1, 2]


def test_retry_after_forms() -> None:
    from studio.agent.errors import classify_http, parse_retry_after

    assert (
        parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0)
        == 10.0
    )
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({}) is None
    assert classify_http(400, {"x-should-retry": "true"}, b"").kind == "retryable"
    assert classify_http(409, {}, b"").kind == "retryable"


def test_oversized_tool_output_is_capped_head_and_tail() -> None:
    async def big(_: dict[str, Any]) -> Any:
        return "HEAD" + "x" * 50_000 + "TAIL"

    loop, model, _ = make([calls(("big", {})), reply("ok")], [Probe().tool("big", body=big)])
    asyncio.run(loop.run("go"))
    content = model.requests[1].messages[-1]["content"]
    assert len(content) < 17_000 and content.startswith("HEAD") and content.endswith("TAIL")
    assert "characters omitted" in content
