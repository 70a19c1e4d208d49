"""The run driver with the workspace, headless under plain asyncio (no Qt): a draft opens a
review, the user's edit meanwhile rebases it (and the agent keeps working on the rebased draft),
a stale draft can be re-run, apply/discard/undo go through the workspace; typed events."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from studio.agent.config import AgentConfig
from studio.agent.driver import RunDriver
from studio.agent.guards import Limits
from studio.agent.providers import FixedModel, ModelChoice
from studio.agent.run_events import DraftRevised, RunEnded, RunEvent, RunStarted
from studio.agent.testing import ScriptedModel, calls, reply
from studio.concurrency import TaskOwner
from studio.document import Document
from studio.workspace import ReviewConflict, Workspace
from tests.helpers.demo import RENAME_GO, SPEC


class Studio:
    """A workspace, its document and a driver, as a headless server would hold them."""

    def __init__(self, model: ScriptedModel) -> None:
        self.workspace = Workspace()
        self.document = Document(copy.deepcopy(SPEC), name="demo")
        self.workspace.open(self.document)
        self.tasks = TaskOwner("test driver")
        self.events: list[RunEvent] = []
        self.driver = RunDriver(
            self.workspace, self.document, self.events.append, self.tasks, save_snapshots=False
        )
        self.model = model
        self.models = FixedModel(model)

    def send(self, text: str) -> asyncio.Task[Any]:
        return self.driver.start(text, self.choose, Limits(6, None))

    async def choose(self) -> ModelChoice:
        return await self.models.choose(AgentConfig(), None)

    async def finish(self) -> RunEnded:
        await self.tasks.idle()
        ended = [e for e in self.events if isinstance(e, RunEnded)]
        assert ended, "the run did not end"
        return ended[-1]


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    yield loop
    loop.close()
    asyncio.set_event_loop(None)


def labels(spec: dict[str, Any]) -> list[Any]:
    return [c.get("text") or c.get("label") for c in spec["root"]["children"]]


def test_a_user_edit_during_a_run_rebases_the_draft_the_agent_works_on(
    loop: asyncio.AbstractEventLoop,
) -> None:
    def after_the_edit(request: Any) -> list[Any]:
        # The agent's next read sees the user's edit: the draft it works on was rebased.
        return calls(("readNode", {"id": "title"}))

    def sees_it(request: Any) -> list[Any]:
        assert json.loads(request.messages[-1]["content"])["text"] == "Welcome"
        return reply("Done.")

    model = ScriptedModel([calls(("patch", RENAME_GO)), after_the_edit, sees_it])
    studio = Studio(model)
    ws = studio.workspace

    async def scenario() -> None:
        studio.send("Rename the button")
        while not studio.driver.draft_revisions:  # noqa: ASYNC110 (the first patch, then the user acts)
            await asyncio.sleep(0)
        assert ws.review is not None and labels(ws.shown.spec) == ["Hello", "Send"]
        ws.edit_node("title", {"type": "text", "id": "title", "text": "Welcome"}, summary="user")
        assert labels(ws.shown.spec) == ["Welcome", "Send"] and ws.review.rebased
        assert studio.driver.draft_spec() is ws.shown.spec
        ended = await studio.finish()
        assert ended.status == "completed"

    loop.run_until_complete(scenario())
    model.assert_complete()
    with pytest.raises(ReviewConflict):
        ws.edit_node("go", {"type": "button", "id": "go", "label": "Mine"}, summary="no")
    revision = studio.driver.apply()
    assert revision.author == "agent" and revision.changed == ("go",)
    assert labels(studio.document.spec) == ["Welcome", "Send"]
    assert [r.author for r in studio.document.revisions.applied] == ["user", "agent"]
    assert ws.review is None
    # Undo in the sheet undoes the applied agent revision only.
    assert studio.driver.undo() == "document"
    assert labels(studio.document.spec) == ["Welcome", "Go"]
    # The events are typed: one start, one revision, one end.
    kinds = [type(e) for e in studio.events if isinstance(e, RunStarted | DraftRevised | RunEnded)]
    assert kinds == [RunStarted, DraftRevised, RunEnded]


def test_a_stale_draft_is_re_run_on_the_current_document(loop: asyncio.AbstractEventLoop) -> None:
    model = ScriptedModel([calls(("patch", RENAME_GO)), reply("Renamed.")])
    studio = Studio(model)
    ws = studio.workspace
    studio.send("Rename the button")
    loop.run_until_complete(studio.finish())
    # The user replaces the button itself (here straight on the document, as an import would).
    studio.document.apply_ops(
        [{"op": "replaceNode", "id": "go", "node": {"type": "text", "id": "hint", "text": "Hi"}}]
    )
    review = ws.review
    assert review is not None and review.stale and "go" in (review.problem or "")
    assert ws.shown.source == "document"
    with pytest.raises(RuntimeError, match="no longer applies"):
        studio.driver.apply()
    assert studio.driver.can_rerun
    model.add(
        calls(("patch", {"ops": [{"op": "add", "path": "/state/x", "value": 1}], "summary": "x"}))
    )
    model.add(reply("Done again."))
    studio.driver.rerun(studio.choose, Limits(6, None))
    loop.run_until_complete(studio.tasks.idle())
    # A new run on the current document, with the same instruction.
    assert model.requests[-2].messages[1]["content"] == "Rename the button"
    review = ws.review
    assert review is not None and not review.stale and review.base is studio.document.spec
    assert [r.summary for r in review.revisions] == ["x"]


def test_discard_and_undo_in_the_draft(loop: asyncio.AbstractEventLoop) -> None:
    model = ScriptedModel([calls(("patch", RENAME_GO)), reply("Renamed.")])
    studio = Studio(model)
    studio.send("Rename")
    loop.run_until_complete(studio.finish())
    assert studio.driver.undo() == "draft"
    assert studio.workspace.review is None  # no revisions left: nothing under review
    assert studio.workspace.shown.source == "document"
    assert studio.driver.draft_open
    studio.driver.discard()
    assert not studio.driver.draft_open and studio.document.spec == SPEC
