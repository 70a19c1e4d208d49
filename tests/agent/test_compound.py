"""The compound tool set (studio.agent.compound): each call expands into the same validated
patches as the standard set, refusals change nothing, and a compound run snapshots and replays."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.agent.compound import TOOL_SETS, build_tools
from studio.agent.draft import Draft
from studio.agent.guide import COMPOUND_RULES
from studio.agent.registry import ToolError
from studio.agent.replay import replay
from studio.agent.session import AgentSession
from studio.agent.testing import ScriptedModel, calls, reply
from studio.agent.tools import ToolContext, build_spec_tools
from studio.spec import apply_patch, validate
from tests.agent.util_spec import load


def run(ctx: ToolContext, name: str, args: dict[str, Any]) -> Any:
    tool = build_tools(ctx, "compound").get(name)
    assert tool is not None, name
    assert tool.check_arguments(args) is None, tool.check_arguments(args)
    return asyncio.run(tool.handler(args))


def refused(ctx: ToolContext, name: str, args: dict[str, Any]) -> str:
    before = (ctx.draft.spec, len(ctx.draft.revisions))
    with pytest.raises(ToolError) as caught:
        run(ctx, name, args)
    assert (ctx.draft.spec, len(ctx.draft.revisions)) == before  # nothing changed
    return caught.value.message


def test_the_compound_set_is_fewer_larger_tools_and_the_standard_set_is_unchanged() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    compound = build_tools(ctx, "compound")
    assert compound.names() == [
        "outline",
        "readNode",
        "edit",
        "insert",
        "remove",
        "move",
        "setState",
        "setTheme",
        "check",
        "askUser",
    ]
    assert build_tools(ctx, "standard").names() == build_spec_tools(ctx).names()
    assert "patch" not in compound.names()
    assert TOOL_SETS == ("standard", "compound")
    with pytest.raises(ValueError, match="unknown tool set 'big'"):
        build_tools(ctx, "big")


def test_edit_expands_into_one_replace_node_by_id_the_same_as_a_hand_patch() -> None:
    spec = load("blank-screen")
    ctx = ToolContext(Draft(spec))
    out = run(ctx, "edit", {"id": "bar", "props": {"title": "Inbox"}})
    assert out["ok"] and out["expandedTo"] == ["replaceNode bar"]
    revision = ctx.draft.revisions[-1]
    assert revision.ops == [
        {
            "op": "replaceNode",
            "id": "bar",
            "node": {"type": "topAppBar", "id": "bar", "title": "Inbox"},
        }
    ]
    assert revision.summary == "Edit bar: title"
    # The same result as the standard set's patch of the same op.
    assert ctx.draft.spec == apply_patch(spec, revision.ops).spec
    assert validate(ctx.draft.spec).ok


def test_insert_declares_the_state_key_a_new_control_binds_in_the_same_patch() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    node = {"type": "textField", "id": "email", "placeholder": "Email", "stateKey": "email"}
    out = run(ctx, "insert", {"parent": "body", "node": node})
    assert out["declared"] == ["declared state email = ''"]
    assert out["expandedTo"] == ["add /state/email", "replaceNode body"]
    assert ctx.draft.spec["state"] == {"email": ""}
    assert ctx.draft.spec["root"]["children"][1]["children"] == [node]
    assert len(ctx.draft.revisions) == 1  # one validated revision, not two
    assert validate(ctx.draft.spec).ok


def test_insert_refusals_name_the_problem_and_change_nothing() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    assert "has no children" in refused(
        ctx, "insert", {"parent": "bar", "node": {"type": "text", "text": "x"}}
    )
    assert "outside 0..0" in refused(
        ctx, "insert", {"parent": "body", "index": 3, "node": {"type": "text", "text": "x"}}
    )
    assert "unknown parent 'nope'" in refused(
        ctx, "insert", {"parent": "nope", "node": {"type": "text", "text": "x"}}
    )
    # A node the validator refuses: the patch's own rejection, with the path.
    with pytest.raises(ToolError) as caught:
        run(ctx, "insert", {"parent": "body", "node": {"type": "slider", "id": "s"}})
    assert caught.value.message.startswith("insert rejected, nothing changed")
    assert caught.value.details["path"].startswith("root.children[1].children[0]")
    assert ctx.draft.revisions == []


def test_remove_and_move_rewrite_the_smallest_subtree() -> None:
    ctx = ToolContext(Draft(load("tabs-app")))
    out = run(ctx, "move", {"id": "searchPage", "parent": "pages", "index": 0})
    assert out["expandedTo"] == ["replaceNode pages"]
    pages = ctx.draft.spec["root"]["children"][1]["children"]
    assert [p["id"] for p in pages] == ["searchPage", "homePage"]
    assert "into itself" in refused(ctx, "move", {"id": "pages", "parent": "pages"})
    assert "root cannot be removed" in refused(ctx, "remove", {"id": "app"})

    ctx = ToolContext(Draft(load("blank-screen")))
    run(ctx, "insert", {"parent": "body", "node": {"type": "text", "id": "hi", "text": "Hi"}})
    run(ctx, "remove", {"id": "hi"})
    assert ctx.draft.spec["root"]["children"][1]["children"] == []
    assert ctx.draft.revisions[-1].summary == "Remove hi"


def test_a_move_across_parents_goes_through_the_common_ancestor() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    run(ctx, "insert", {"parent": "body", "node": {"type": "text", "id": "hi", "text": "Hi"}})
    out = run(ctx, "move", {"id": "hi", "parent": "screen", "index": 0})
    # The common ancestor is the root: that is a whole-spec revision, through its guard.
    assert out["expandedTo"] == ["reviseSpec root"]
    root = ctx.draft.spec["root"]
    assert [c["id"] for c in root["children"]] == ["hi", "bar", "body"]
    assert root["children"][2]["children"] == []
    assert validate(ctx.draft.spec).ok


def test_set_state_set_theme_and_check() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    assert run(ctx, "setState", {"key": "count", "value": 3})["expandedTo"] == ["add /state/count"]
    assert ctx.draft.spec["state"] == {"count": 3}
    out = run(ctx, "setTheme", {"props": {"mode": "dark", "colors": {"seed": "#6750A4"}}})
    assert out["expandedTo"] == ["reviseSpec theme"]
    assert ctx.draft.spec["theme"] == {"mode": "dark", "colors": {"seed": "#6750A4"}}
    assert ctx.draft.revisions[-1].ops == [
        {"op": "reviseSpec", "members": {"theme": {"mode": "dark", "colors": {"seed": "#6750A4"}}}}
    ]
    with pytest.raises(ToolError) as caught:
        run(ctx, "setTheme", {"props": {"mode": "sepia"}})
    assert caught.value.details["path"].startswith("theme")
    report = run(ctx, "check", {})
    assert report["ok"] is True
    assert report["notes"] == ["declared state nothing shows or binds: count"]
    assert report["revisions"] == 2


def test_edit_refuses_children_and_a_change_the_validator_refuses() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    assert "use insert, remove or move" in refused(
        ctx, "edit", {"id": "body", "props": {"children": []}}
    )
    with pytest.raises(ToolError) as caught:
        run(ctx, "edit", {"id": "bar", "props": {"type": "nonsense"}})
    assert caught.value.details["path"].startswith("root.children[0]")
    assert ctx.draft.revisions == []


def _compound_steps() -> list[Any]:
    node = {"type": "switch", "id": "dark", "label": "Dark mode", "stateKey": "darkMode"}
    return [
        calls(("outline", {})),
        calls(("insert", {"parent": "body", "node": node})),
        calls(("edit", {"id": "bar", "props": {"title": "Settings"}})),
        calls(("check", {})),
        reply("Added a dark mode switch and titled the screen Settings."),
    ]


def test_a_compound_run_ends_in_validated_revisions_and_replays_the_same() -> None:
    model = ScriptedModel(_compound_steps())
    session = AgentSession(model, load("blank-screen"), tool_set="compound")
    result = asyncio.run(session.run("Make it a settings screen with a dark mode switch"))
    assert result.status == "completed", result.reason
    model.assert_complete()
    sent = model.requests[0]
    assert COMPOUND_RULES.splitlines()[1] in sent.messages[0]["content"]
    assert [t.name for t in sent.tools][:4] == ["outline", "readNode", "edit", "insert"]
    spec = session.draft.spec
    assert spec["state"] == {"darkMode": False}
    assert spec["root"]["children"][0]["title"] == "Settings"
    assert [r.summary for r in session.draft.revisions] == [
        "Insert dark into body at 0",
        "Edit bar: title",
    ]
    snapshot = session.snapshot()
    assert snapshot["tool_set"] == "compound"
    report = asyncio.run(replay(snapshot))
    assert report.ok, report.problems()
    assert report.final_spec == spec


def test_the_tool_set_is_chosen_per_model_with_a_default_per_provider_profile(
    tmp_path: Any,
) -> None:
    from studio.agent.config import AgentConfig, load_config, save_config

    assert AgentConfig(profile="openai", model="gpt-4.1").tool_set() == "standard"
    assert AgentConfig(profile="ollama", model="qwen3:4b").tool_set() == "compound"
    assert AgentConfig(profile="llamacpp", model="x").tool_set() == "compound"
    config = AgentConfig(
        profile="ollama",
        model="qwen3:30b",
        tool_sets={"qwen3:30b": "standard", "bad": "huge"},
        efforts={"qwen3:30b": "low"},
    )
    path = save_config(config, tmp_path / "agent.json")
    loaded, warning = load_config(path)
    assert warning is None
    assert loaded.tool_set() == "standard" and loaded.tool_set("qwen3:4b") == "compound"
    assert loaded.tool_sets == {"qwen3:30b": "standard"}  # an unknown set is dropped on read
    assert loaded.effort() == "low" and loaded.effort("other") == "provider-default"


def test_root_level_changes_keep_the_whole_root_guard_and_stay_all_or_nothing() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    # Removing a child of the root rewrites the root: the removal is the stated exception.
    out = run(ctx, "remove", {"id": "bar"})
    assert out["expandedTo"] == ["reviseSpec root"]
    assert [c["id"] for c in ctx.draft.spec["root"]["children"]] == ["body"]
    # A root-level insert that needs a state key and is refused writes neither revision.
    bad = {"type": "switch", "id": "s", "stateKey": "on", "label": "On", "style": {"width": -1}}
    with pytest.raises(ToolError) as caught:
        run(ctx, "insert", {"parent": "screen", "node": bad})
    assert caught.value.message.startswith("insert rejected, nothing changed")
    assert len(ctx.draft.revisions) == 1 and "on" not in ctx.draft.spec["state"]
    good = {**bad, "style": {"width": "fill"}}
    out = run(ctx, "insert", {"parent": "screen", "index": 0, "node": good})
    assert out["expandedTo"] == ["add /state/on", "reviseSpec root"]
    assert ctx.draft.spec["state"] == {"on": False} and validate(ctx.draft.spec).ok
