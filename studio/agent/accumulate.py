"""Turns Chat Completions stream chunks into typed events, merging tool-call deltas safely.

Rules (harness-anchors §2.5): route by `id` when it was seen, else by `index`; a new `id` on a used
index opens a new call; a fragment with neither continues the last call; the name is assigned
once, arguments appended (objects serialised); calls are emitted only after the stream ends.
"""

from __future__ import annotations

import json
from typing import Any

from studio.agent.events import Finish, ModelEvent, ReasoningDelta, TextDelta, ToolCall, Usage


class _Slot:
    __slots__ = ("args", "id", "name")

    def __init__(self) -> None:
        self.id: str | None = None
        self.name: str | None = None
        self.args: list[str] = []


def _whole_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


class ToolCallAccumulator:
    """Merges `delta.tool_calls` fragments into whole calls."""

    def __init__(self) -> None:
        self._slots: list[_Slot] = []
        self._by_index: dict[int, _Slot] = {}
        self._by_id: dict[str, _Slot] = {}
        self._last: _Slot | None = None

    def feed(self, fragment: dict[str, Any]) -> None:
        index = fragment.get("index")
        call_id = fragment.get("id") or None
        function = fragment.get("function") or {}
        slot: _Slot | None = None
        if call_id is not None and call_id in self._by_id:
            slot = self._by_id[call_id]
        elif isinstance(index, int) and index in self._by_index:
            candidate = self._by_index[index]
            if call_id is None or candidate.id is None or candidate.id == call_id:
                slot = candidate
        elif index is None and call_id is None:
            slot = self._last
        if slot is None:
            slot = _Slot()
            self._slots.append(slot)
        if isinstance(index, int):
            self._by_index[index] = slot
        if call_id is not None and slot.id is None:
            slot.id = str(call_id)
            self._by_id[slot.id] = slot
        name = function.get("name")
        if name and not slot.name:
            slot.name = str(name)
        args = function.get("arguments")
        if isinstance(args, str):
            if (
                args[:1] == "{"
                and slot.args
                and _whole_object(args)
                and _whole_object("".join(slot.args))
            ):
                slot.args = [args]  # a provider that repeats the whole arguments in every chunk
            elif args:
                slot.args.append(args)
        elif (
            args is not None
        ):  # an object: whole arguments (llama.cpp object mode, Ollama via proxies)
            slot.args = [json.dumps(args)]
        self._last = slot

    def calls(self) -> list[ToolCall]:
        out = []
        for n, slot in enumerate(self._slots):
            arguments = "".join(slot.args).strip() or "{}"
            out.append(ToolCall(slot.id or f"call_{n}", slot.name or "", arguments))
        return out


class ChatStreamState:
    """Per-stream state for Chat Completions chunks: text, tool calls, usage, finish reason."""

    def __init__(self, usage_paths: tuple[str, ...] = ("usage",)) -> None:
        self.tools = ToolCallAccumulator()
        self.usage: Usage | None = None
        self.finish_reason: str | None = None
        self.text_chars = 0
        self.reasoning_chars = 0
        self._usage_paths = usage_paths

    def feed(self, chunk: dict[str, Any]) -> list[ModelEvent]:
        """Events to emit now for one chunk (text deltas only; calls come from `finish`)."""
        out: list[ModelEvent] = []
        for path in self._usage_paths:
            found: Any = chunk
            for part in path.split("."):
                found = found.get(part) if isinstance(found, dict) else None
            if isinstance(found, dict) and found:
                # Cumulative usage (vLLM continuous stats) is taken as the last value, not summed.
                self.usage = Usage(
                    int(found.get("prompt_tokens") or found.get("input_tokens") or 0),
                    int(found.get("completion_tokens") or found.get("output_tokens") or 0),
                )
        choices = chunk.get("choices")
        if not choices:
            return out
        for choice in choices:
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or choice.get("message") or {}
            # Reasoning is its own field, never the answer: `reasoning_content` (llama-server,
            # common/chat.cpp; DeepSeek; older vLLM) or `reasoning` (Ollama openai/openai.go
            # Message.Reasoning; newer vLLM; OpenRouter).
            thinking = delta.get("reasoning_content")
            if thinking is None:
                thinking = delta.get("reasoning")
            if thinking:
                if not isinstance(thinking, str):
                    raise TypeError(f"delta reasoning is {type(thinking).__name__}, not a string")
                self.reasoning_chars += len(thinking)
                out.append(ReasoningDelta(thinking))
            content = delta.get("content")
            if content:
                if not isinstance(content, str):
                    raise TypeError(f"delta.content is {type(content).__name__}, not a string")
                self.text_chars += len(content)
                out.append(TextDelta(content))
            tool_calls = delta.get("tool_calls")
            if tool_calls:
                for fragment in tool_calls:
                    self.tools.feed(fragment)
            reason = choice.get("finish_reason")
            if reason:
                self.finish_reason = reason
        return out

    def finish(self) -> tuple[list[ToolCall], Finish]:
        calls = self.tools.calls()
        reason = self.finish_reason or "stop"
        if calls and reason == "stop":
            reason = "tool_calls"  # Ollama and others report stop with calls
        return calls, Finish(reason)
