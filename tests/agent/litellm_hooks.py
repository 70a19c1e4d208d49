"""LiteLLM proxy hook for the agent tests: scripts the mocked reply of each turn (loaded by the
proxy process, in LiteLLM's own venv; agent-servers.md §1a).

`async_pre_call_hook` (litellm/integrations/custom_logger.py: CustomLogger) sets
`data["mock_response"]` from the model name and how many tool results the request carries, so
LiteLLM's own mock path streams it: a `ModelResponse` with tool calls goes through
`convert_model_response_to_streaming` and the proxy's SSE generator; a string is streamed in
pieces with LiteLLM's usage count; "litellm.RateLimitError" raises LiteLLM's 429.
"""

from __future__ import annotations

import json
from typing import Any

import litellm
from litellm.integrations.custom_logger import CustomLogger

PATCH = {
    "ops": [
        {
            "op": "replaceNode",
            "id": "submit",
            "node": {"type": "button", "id": "submit", "label": "Log in"},
        }
    ],
    "summary": "Rename the sign-in button to Log in",
}


def _turn(data: dict[str, Any]) -> int:
    messages = data.get("messages")
    if isinstance(messages, list):
        return sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "tool")
    items = data.get("input")
    if isinstance(items, list):
        return sum(
            1 for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"
        )
    return 0


def _calls(n: int, name: str, arguments: dict[str, Any]) -> litellm.ModelResponse:
    return litellm.ModelResponse(
        choices=[
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{name}_{n}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                    ],
                },
            }
        ],
        usage={
            "prompt_tokens": 1000 + n,
            "completion_tokens": 20 + n,
            "total_tokens": 1020 + 2 * n,
        },
    )


def _text(n: int, text: str) -> litellm.ModelResponse:
    return litellm.ModelResponse(
        choices=[
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
        ],
        usage={"prompt_tokens": 1100 + n, "completion_tokens": 9, "total_tokens": 1109 + n},
    )


def reply(model: str, turn: int) -> Any:
    if model in ("scripted", "bridged"):
        if turn == 0:
            return _calls(turn, "outline", {})
        if turn == 1:
            return _calls(turn, "patch", PATCH)
        done = "Renamed the sign-in button to Log in."
        # A string on the Responses route is a LiteLLM limitation (agent-servers.md §1a): its
        # mock returns a non-stream object there, so the bridged model answers a ModelResponse.
        return _text(turn, done) if model == "bridged" else done
    if model == "textcall":
        if turn == 0:
            return f'<tool_call>{{"name": "patch", "arguments": {json.dumps(PATCH)}}}</tool_call>'
        return "Done: the button reads Log in."
    if model == "claims":
        return "I renamed the sign-in button to Log in."
    if model == "rate-limited":
        return "litellm.RateLimitError"
    return None  # the config's own mock_response


class Handler(CustomLogger):
    async def async_pre_call_hook(
        self, user_api_key_dict: Any, cache: Any, data: dict[str, Any], call_type: Any
    ) -> dict[str, Any]:
        model = str(data.get("model") or "").split("/")[-1]
        scripted = reply(model, _turn(data))
        if scripted is not None:
            data["mock_response"] = scripted
        return data


proxy_handler_instance = Handler()
