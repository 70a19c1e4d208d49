"""Tool calls a weak model wrote as text instead of sending them as tool calls.

Three shapes are recognised, each only for a tool that exists:
- Hermes/Qwen tags, `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` (the format of
  llama.cpp's Qwen 2.5 template, models/templates/Qwen-Qwen2.5-7B-Instruct.jinja; a model behind
  a server without that tool parser writes it as content);
- llama-cpp-python's `functions.NAME:` routing prefix (llama_chat_format.py,
  chatml_function_calling: in auto mode the grammar lets the model start a call with
  `functions.<name>:` and then its JSON arguments), which its server streams as content;
- with `loose` (a profile for weak local models), a reply that is nothing but a
  `{"name": ..., "arguments": ...}` object (or a list of them), fenced or not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from studio.agent.events import ToolCall

_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.S)
_PREFIX = re.compile(r"(?m)^[ \t]*functions\.([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*:[ \t]*")
_FENCE = re.compile(r"\A```(?:json)?\s*(.*?)\s*```\Z", re.S)
_DECODER = json.JSONDecoder()

Resolve = Callable[[str], str | None]
"""A tool name as written -> the registered name, or None for no such tool."""


def _call(obj: object, resolve: Resolve, n: int) -> ToolCall | None:
    if not isinstance(obj, dict):
        return None
    name = obj.get("name")
    if not isinstance(name, str):
        function = obj.get("function")
        if isinstance(function, dict):
            return _call(function, resolve, n)
        return None
    known = resolve(name)
    if known is None:
        return None
    args = obj.get("arguments", obj.get("parameters", {}))
    raw = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    return ToolCall(f"text_call_{n}", known, raw or "{}")


def _load(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def parse_text_calls(
    text: str, resolve: Resolve, *, loose: bool = False
) -> tuple[str, list[ToolCall]]:
    """(the text without the calls, the calls) for a reply that carries calls as text; the text
    unchanged and no calls otherwise."""
    if not text:
        return text, []
    calls: list[ToolCall] = []
    if "<tool_call>" in text:
        for match in _TAGGED.finditer(text):
            call = _call(_load(match.group(1)), resolve, len(calls))
            if call is not None:
                calls.append(call)
        if calls:
            return _TAGGED.sub("", text).strip(), calls
    if "functions." in text:
        rest: list[str] = []
        end = 0
        for match in _PREFIX.finditer(text):
            if match.start() < end:
                continue
            known = resolve(match.group(1))
            if known is None:
                continue
            rest.append(text[end : match.start()])
            end = match.end()
            args = "{}"
            try:
                value, stop = _DECODER.raw_decode(text, end)
            except (ValueError, RecursionError):
                value, stop = None, end
            if isinstance(value, dict):
                args, end = text[end:stop], stop
            calls.append(ToolCall(f"text_call_{len(calls)}", known, args))
        if calls:
            rest.append(text[end:])
            return "".join(rest).strip(), calls
    if loose:
        body = text.strip()
        fenced = _FENCE.match(body)
        if fenced:
            body = fenced.group(1)
        if body[:1] in "{[":
            value = _load(body)
            items = value if isinstance(value, list) else [value]
            for item in items:
                call = _call(item, resolve, len(calls))
                if call is None:
                    return text, []
                calls.append(call)
            if calls:
                return "", calls
    return text, []
