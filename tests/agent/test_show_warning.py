"""The one show-time rule AutoMobile's validator leaves to its host (an anchor below the root of a
floating window: kaeawc/auto-mobile prototypeTools.ts `assertAnchorsShowable`, prototypeAnchors.ts
`prototypeAnchorPlacementError`) reaches the model: an edit that breaks it applies, as on the
phone's side (only the show is refused), and its tool result carries the host's line as a
`warning`; the guide says so."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

from studio.agent.compound import build_tools
from studio.agent.draft import Draft
from studio.agent.guide import ANCHOR_RULE, system_prompt
from studio.agent.session import AgentSession
from studio.agent.testing import ScriptedModel, calls, reply
from studio.agent.tools import ToolContext
from studio.spec import validate

REFUSED = (
    "root.children[1].anchor: a floating window can anchor only its root (the window moves onto "
    "it), so the phone shows nothing; anchor the root, or use a fullscreen or sheet placement"
)
BOUNDS = {"type": "bounds", "bounds": {"x": 100, "y": 300, "width": 40, "height": 40}}
FLOATING = {"type": "floating", "gravity": "center", "offset": {"x": 0, "y": 0}}
BADGE = {"type": "text", "id": "badge", "text": "New"}


def floating_spec() -> dict[str, Any]:
    return {
        "id": "tip",
        "window": {"placement": FLOATING},
        "root": {
            "type": "column",
            "id": "card",
            "children": [{"type": "text", "id": "title", "text": "Tip"}, copy.deepcopy(BADGE)],
        },
    }


def _replace_badge(node: dict[str, Any], summary: str) -> dict[str, Any]:
    return {"ops": [{"op": "replaceNode", "id": "badge", "node": node}], "summary": summary}


def _tool_result(model: ScriptedModel, request: int) -> dict[str, Any]:
    """The tool message the model was sent last before its `request`-th turn (0-based)."""
    last = model.requests[request].messages[-1]
    assert last["role"] == "tool", last
    result: dict[str, Any] = json.loads(last["content"])
    return result


def test_a_model_that_anchors_below_a_floating_root_is_warned_and_its_fix_is_not() -> None:
    anchored = {**BADGE, "anchor": BOUNDS}
    model = ScriptedModel(
        [
            calls(("patch", _replace_badge(anchored, "Pin the badge"))),
            calls(("patch", _replace_badge(BADGE, "Unpin the badge"))),
            reply("Pinned, then unpinned the badge."),
        ]
    )
    session = AgentSession(model, floating_spec())
    result = asyncio.run(session.run("Pin the badge at (100, 300)"))
    assert result.status == "completed", result.reason
    model.assert_complete()
    assert ANCHOR_RULE in model.requests[0].messages[0]["content"]
    # The edit applied (the validator accepts it, as AutoMobile's does) and the model read why
    # the phone would show nothing.
    warned = _tool_result(model, 1)
    assert warned["ok"] is True and warned["warning"] == REFUSED
    first = session.draft.revisions[0]
    assert first.summary == "Pin the badge" and "anchor" in json.dumps(first.ops)
    # The fix reads no warning, and the draft is showable again.
    fixed = _tool_result(model, 2)
    assert fixed["ok"] is True and "warning" not in fixed
    assert session.draft.spec == floating_spec() and len(session.draft.revisions) == 2


def test_a_window_switched_to_floating_under_an_anchored_node_is_warned_by_revise_spec() -> None:
    spec = floating_spec()
    spec["window"] = {"placement": {"type": "fullscreen"}}
    spec["root"]["children"][1]["anchor"] = BOUNDS  # fine while fullscreen
    floating = {"placement": FLOATING}
    model = ScriptedModel(
        [
            calls(("reviseSpec", {"window": floating, "summary": "Float it"})),
            calls(("reviseSpec", {"window": spec["window"], "summary": "Fullscreen again"})),
            reply("Done."),
        ]
    )
    session = AgentSession(model, spec)
    assert asyncio.run(session.run("Float it")).status == "completed"
    assert _tool_result(model, 1)["warning"] == REFUSED
    assert "warning" not in _tool_result(model, 2)


def test_the_validate_tool_names_it_beside_ok() -> None:
    ctx = ToolContext(Draft(floating_spec()))
    tool = build_tools(ctx, "standard").get("validate")
    assert tool is not None
    bad = floating_spec()
    bad["root"]["children"][1]["anchor"] = BOUNDS
    assert validate(bad).ok
    assert asyncio.run(tool.handler({"spec": bad})) == {"ok": True, "warning": REFUSED}
    assert asyncio.run(tool.handler({"spec": floating_spec()})) == {"ok": True}


def test_the_compound_edit_and_check_carry_it_and_its_guide_says_so() -> None:
    ctx = ToolContext(Draft(floating_spec()))
    tools = build_tools(ctx, "compound")

    def run(name: str, args: dict[str, Any]) -> Any:
        tool = tools.get(name)
        assert tool is not None and tool.check_arguments(args) is None
        return asyncio.run(tool.handler(args))

    assert run("edit", {"id": "badge", "props": {"anchor": BOUNDS}})["warning"] == REFUSED
    assert run("check", {})["warning"] == REFUSED
    # Anchoring the root instead is what the host asks for: no warning.
    assert "warning" not in run("edit", {"id": "badge", "props": {"anchor": None}})
    assert "warning" not in run("edit", {"id": "card", "props": {"anchor": BOUNDS}})
    assert "warning" not in run("check", {})
    assert ANCHOR_RULE in system_prompt(tools="compound")
