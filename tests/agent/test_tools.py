"""The spec tools on a draft: reading, validating, patching (and rejections), preview, runtime."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import jsonschema
import pytest

from studio.agent.draft import Draft
from studio.agent.registry import NeedsInput, ToolError
from studio.agent.tools import ToolContext, build_spec_tools
from studio.spec import validate
from tests.agent.util_spec import load

NAMES = [
    "outline",
    "readNode",
    "readData",
    "capabilities",
    "validate",
    "patch",
    "reviseSpec",
    "preview",
    "inspect",
    "events",
    "askUser",
]


def call(ctx: ToolContext, name: str, args: dict[str, Any]) -> Any:
    tools = build_spec_tools(ctx)
    tool = tools.get(name)
    assert tool is not None and tool.check_arguments(args) is None, (
        tool.check_arguments(args) if tool else name
    )
    return asyncio.run(tool.handler(args))


def test_registry_has_the_eleven_tools_with_metadata() -> None:
    tools = build_spec_tools(ToolContext(Draft(load("blank-screen"))))
    assert tools.names() == NAMES
    for tool in tools:
        jsonschema.Draft202012Validator.check_schema(tool.parameters)
        assert "Use" in tool.description or "use" in tool.description, tool.name
        assert tool.examples and all(tool.check_arguments(e) is None for e in tool.examples), (
            tool.name
        )
        assert tool.timeout > 0
    assert {t.name for t in tools if not t.idempotent} == {"patch", "reviseSpec", "askUser"}
    assert len(set(tools.fingerprints().values())) == 11


def test_outline_read_node_read_data() -> None:
    ctx = ToolContext(Draft(load("tabs-app")))
    text = call(ctx, "outline", {})
    assert "tabs: tabBar" in text and "pages: pager [2]" in text
    assert call(ctx, "outline", {"format": "json"})["outline"][0]["id"] == "app"
    assert call(ctx, "readNode", {"id": "homePage"}) == {
        "type": "text",
        "id": "homePage",
        "text": "Home",
    }
    with pytest.raises(ToolError) as info:
        call(ctx, "readNode", {"id": "nope"})
    assert "nope" in info.value.message
    assert call(ctx, "readData", {"pointer": "/state"}) == {}


def test_validate_reports_path_and_message() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    assert call(ctx, "validate", {"spec": load("tabs-app")}) == {"ok": True}
    bad = load("tabs-app")
    bad["root"]["children"][0]["items"] = []
    result = call(ctx, "validate", {"spec": bad})
    assert result["ok"] is False and result["path"].startswith("root.children[0].items")


def test_patch_records_a_revision_and_rejections_change_nothing() -> None:
    draft = Draft(load("blank-screen"))
    seen: list[Any] = []
    ctx = ToolContext(draft, instruction=lambda: "rename it", on_revision=seen.append)
    before = json.dumps(draft.spec, sort_keys=True)
    bad = {
        "ops": [
            {"op": "add", "path": "/state/q", "value": ""},
            {
                "op": "replaceNode",
                "id": "bar",
                "node": {"type": "topAppBar", "id": "bar", "headline": "x"},
            },
        ],
        "summary": "bad",
    }
    with pytest.raises(ToolError) as info:
        call(ctx, "patch", bad)
    assert info.value.details["opIndex"] == 1
    assert info.value.details["path"].startswith("root.children[0]")
    assert info.value.details["message"]
    assert json.dumps(draft.spec, sort_keys=True) == before and draft.revisions == [] and seen == []

    good = {
        "ops": [
            {
                "op": "replaceNode",
                "id": "bar",
                "node": {"type": "topAppBar", "id": "bar", "title": "Inbox"},
            }
        ],
        "summary": "Rename the screen to Inbox",
    }
    result = call(ctx, "patch", good)
    assert result["ok"] is True and result["changed"]
    [revision] = draft.revisions
    assert revision.author == "agent" and revision.instruction == "rename it"
    assert revision.summary == "Rename the screen to Inbox" and revision.ops == good["ops"]
    assert revision.changed and seen == [revision]
    assert draft.spec["root"]["children"][0]["title"] == "Inbox" and validate(draft.spec).ok


def test_patch_summary_is_one_line_and_optional() -> None:
    """Point 6: a valid patch without `summary` is applied (a summary is derived from the ops);
    a multi-line summary becomes one line in the handler, not by a schema `pattern` (point 7)."""
    draft = Draft(load("blank-screen"))
    tools = build_spec_tools(ToolContext(draft))
    patch = tools.get("patch")
    assert patch is not None
    node = {"type": "topAppBar", "id": "bar", "title": "Inbox"}
    ops = [{"op": "replaceNode", "id": "bar", "node": node}]
    assert patch.check_arguments({"ops": ops}) is None
    asyncio.run(patch.handler({"ops": ops}))
    assert draft.revisions[-1].summary == 'Replace bar ("Inbox")'
    asyncio.run(patch.handler({"ops": ops, "summary": "two\n lines"}))
    assert draft.revisions[-1].summary == "two lines"


def test_draft_undo_redo_apply_discard() -> None:
    base = load("blank-screen")
    draft = Draft(base)
    ops = [{"op": "add", "path": "/state/n", "value": 1}]
    draft.patch(ops, "add n")
    draft.patch([{"op": "replace", "path": "/state/n", "value": 2}], "n is 2")
    assert draft.spec["state"] == {"n": 2}
    draft.undo()
    assert draft.spec["state"] == {"n": 1} and len(draft.revisions) == 1
    draft.redo()
    assert draft.preview()["spec"]["state"] == {"n": 2}
    assert draft.apply()["state"] == {"n": 2}
    with pytest.raises(RuntimeError, match="already applied"):
        draft.patch(ops, "again")
    other = Draft(base)
    other.patch(ops, "add n")
    assert other.discard() == base


def test_preview_from_runtime_or_an_attached_renderer() -> None:
    ctx = ToolContext(Draft(load("tabs-app")))
    on_screen = call(ctx, "preview", {})["onScreen"]
    texts = [e["text"] for e in on_screen]
    assert "Home" in texts and any("Search" in t for t in texts)  # page 1 and the tab labels
    assert "Search" not in texts  # page 2 of the pager is not on screen

    class Renderer:
        async def summary(self) -> list[dict[str, Any]]:
            return [{"address": "x", "type": "text", "text": "from the renderer"}]

    ctx.preview = Renderer()
    assert call(ctx, "preview", {}) == {
        "onScreen": [{"address": "x", "type": "text", "text": "from the renderer"}]
    }


def test_inspect_and_events_read_the_attached_runtime() -> None:
    from studio.runtime import Runtime
    from studio.spec import expand

    spec = load("blank-screen")
    spec["state"] = {"count": 0}
    rt = Runtime(expand(spec))
    rt.run_actions([{"type": "increment", "key": "count"}, {"type": "emit", "name": "tapped"}])
    ctx = ToolContext(Draft(spec), runtime=rt)
    assert call(ctx, "inspect", {})["state"] == {"count": 1}
    events = call(ctx, "events", {"limit": 5})["events"]
    assert any(e["name"] == "tapped" for e in events)
    # a refused write is no event (as on the phone) but the agent still sees it, beside them
    rt.run_actions([{"type": "setState", "key": "count", "value": "many"}])
    result = call(ctx, "events", {"limit": 5})
    assert len(result["events"]) == len(events)
    (refused,) = result["refused"]
    assert refused["key"] == "count" and refused["action"] == 0 and "number" in refused["message"]


def test_capabilities_uses_the_platform_registry_defensively() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    result = call(ctx, "capabilities", {})
    assert set(result) == {"capabilities", "platformModules"}

    class Registry:
        def capabilities(self) -> set[str]:
            return {"prototype_platform_test_v1"}

        def modules(self) -> list[dict[str, Any]]:
            return [{"name": "test", "calls": ["test.echo"]}]

    ctx.platform_registry = Registry
    assert call(ctx, "capabilities", {}) == {
        "capabilities": ["prototype_platform_test_v1"],
        "platformModules": [{"name": "test", "calls": ["test.echo"]}],
    }


def test_ask_user_raises_a_pause() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    with pytest.raises(NeedsInput) as info:
        call(ctx, "askUser", {"question": "Dark or light?", "options": ["Dark", "Light"]})
    assert info.value.options == ["Dark", "Light"]


def test_revise_spec_takes_a_whole_new_theme_window_or_root_through_its_guard() -> None:
    ctx = ToolContext(Draft(load("blank-screen")))
    out = call(ctx, "reviseSpec", {"theme": {"mode": "dark"}, "summary": "Dark"})
    assert out["ok"] and ctx.draft.spec["theme"] == {"mode": "dark"}
    assert ctx.draft.revisions[-1].ops == [
        {"op": "reviseSpec", "members": {"theme": {"mode": "dark"}}}
    ]
    # A partial root (only the part the model changed) is refused, naming what it drops.
    with pytest.raises(ToolError) as caught:
        call(ctx, "reviseSpec", {"root": {"type": "column", "id": "screen", "children": []}})
    assert caught.value.details["dropped"] == ["bar", "body"]
    assert len(ctx.draft.revisions) == 1
    # ... unless removing them is the change.
    root = {"type": "column", "id": "screen", "children": [{"type": "text", "text": "Hi"}]}
    call(ctx, "reviseSpec", {"root": root, "removed": ["bar", "body"]})
    assert ctx.draft.spec["root"] == root and ctx.draft.spec["theme"] == {"mode": "dark"}
    # An invalid member is the validator's refusal, with the place.
    with pytest.raises(ToolError) as caught:
        call(ctx, "reviseSpec", {"window": {"placement": {"type": "sideways"}}})
    assert caught.value.details["path"].startswith("window")
    with pytest.raises(ToolError, match="needs root, window or theme"):
        call(ctx, "reviseSpec", {"summary": "nothing"})
    assert len(ctx.draft.revisions) == 2
