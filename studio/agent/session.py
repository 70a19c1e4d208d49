"""One agent session: a draft, the spec tools bound to it, the loop, and its trace and snapshot."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from studio.agent.clients import ModelClient
from studio.agent.compound import build_tools
from studio.agent.draft import Draft
from studio.agent.guards import Limits, RetryPolicy
from studio.agent.guide import system_prompt
from studio.agent.loop import AgentLoop, Answer, RunResult
from studio.agent.run_events import DraftRevised, RunEvent
from studio.agent.tools import PreviewProvider, ToolContext
from studio.agent.trace import Masker, Tracer
from studio.library.revisions import Revision

_EDIT_WORDS = re.compile(
    r"\b(rename|add|remove|delete|drop|change|make|set|replace|move|create|build|update|put|"
    r"insert|turn|use|give|hide|fix|increase|decrease|swap|bind|wire|translate|rewrite|"
    r"reword|label|style|colou?r|resize|reorder|sort|split|merge|edit|apply|convert|design|"
    r"should|needs?|want|instead|bigger|smaller|larger|new)\b",
    re.I,
)


def asks_for_change(instruction: str) -> bool:
    """Whether an instruction asks for an edit: it names one ("rename", "add", "should", ...).
    A question, "explain", "look" or "review" alone does not."""
    first = instruction.strip().split("\n\n", 1)[0]
    return bool(_EDIT_WORDS.search(first))


class AgentSession:
    """Runs instructions on a draft of `spec`. The UI and the CLI both drive one of these."""

    def __init__(
        self,
        model: ModelClient,
        spec: dict[str, Any],
        *,
        guide: Literal["full", "short"] = "full",
        system: str | None = None,
        limits: Limits | None = None,
        retry: RetryPolicy | None = None,
        on_event: Callable[[RunEvent], None] | None = None,
        preview: PreviewProvider | None = None,
        runtime: Any = None,
        platform_registry: Callable[[], Any] | None = None,
        masker: Masker | None = None,
        sleep: Callable[[float], Any] = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        info: dict[str, Any] | None = None,
        effort: str = "provider-default",
        tool_set: str = "standard",
    ) -> None:
        self.draft = Draft(spec, clock=clock)
        #: "standard" or "compound" (studio.agent.compound): fixed for the session's life.
        self.tool_set = tool_set
        self.info = dict(info or {})
        self.tracer = Tracer(masker=masker, clock=clock)
        self.ctx = ToolContext(
            self.draft,
            instruction=lambda: self.loop.instruction,
            preview=preview,
            runtime=runtime,
            platform_registry=platform_registry,
            on_revision=self._on_revision,
        )
        self.tools = build_tools(self.ctx, tool_set)
        self.answers: list[dict[str, Any]] = []
        self.loop = AgentLoop(
            model,
            self.tools,
            system=system if system is not None else system_prompt(guide, tools=tool_set),
            limits=limits,
            retry=retry,
            on_event=on_event,
            tracer=self.tracer,
            sleep=sleep,
            state_version=lambda: self.draft.version,
            change_check=self._change_missing,
            effort=effort,
        )
        self.instructions: list[str] = []
        self._changed = False
        self._asks_change = False

    @property
    def trace_id(self) -> str:
        return self.tracer.trace_id

    @property
    def limits(self) -> Limits:
        """The turn cap and token budget of each instruction."""
        return self.loop.limits

    @property
    def waiting(self) -> bool:
        """Whether the run is paused for an answer (askUser or an approval)."""
        return self.loop.pending is not None

    async def run(self, instruction: str, *, selected: str | None = None) -> RunResult:
        """Run one instruction on the draft, continuing the conversation so far. With `selected`
        (a node id/address) the node's address and its subtree go with the instruction (the
        only place that adds them), which makes replaceNode the natural edit."""
        self._asks_change = asks_for_change(instruction)
        self._changed = False
        self.ctx.extra.pop("last_rejection", None)
        if selected:
            instruction = f"{instruction}\n\n{self._selection(selected)}"
        self.instructions.append(instruction)
        return await self.loop.run(instruction)

    def restored(self, instructions: list[str], instruction: str) -> None:
        """State a resumed run continues with (studio.agent.resume): the instructions so far,
        and the change check of the one it continues."""
        self.instructions = list(instructions)
        self._asks_change = asks_for_change(instruction)
        self._changed = bool(self.draft.revisions)

    def _change_missing(self, text: str) -> str | None:
        """Why an instruction that asks for a change ended without one (None: it is done)."""
        if self._changed or not self._asks_change:
            return None
        rejected = self.ctx.extra.get("last_rejection")
        if rejected:
            return f"the draft was not changed: the last patch was rejected ({rejected})"
        return "the draft was not changed: no patch was applied"

    async def follow_up(
        self,
        instruction: str,
        *,
        selected: str | None = None,
        model: ModelClient | None = None,
        limits: Limits | None = None,
    ) -> RunResult:
        """A further instruction on the same open draft: its revisions and the conversation so far
        stay, optionally with another model (the router's choice for this task) or new limits."""
        if self.draft.state != "open":
            raise RuntimeError(f"the draft was {self.draft.state}: start a new session")
        if self.waiting:
            raise RuntimeError("the run is waiting for an answer: resume() or cancel() it first")
        if model is not None:
            self.loop.model = model
        if limits is not None:
            self.loop.limits = limits
        return await self.run(instruction, selected=selected)

    def cancel(self, reason: str = "cancelled by the user") -> RunResult:
        """End a run paused for an answer (a streaming run is stopped by cancelling its task)."""
        return self.loop.cancel(reason)

    def _selection(self, selected: str, limit: int = 4000) -> str:
        """The selected node and its subtree, as context for a node-scoped edit."""
        import json

        from studio.spec import read_node

        try:
            subtree = json.dumps(read_node(self.draft.spec, selected), ensure_ascii=False)
        except ValueError:
            return f"(Selected node: {selected}, which no longer exists)"
        if len(subtree) > limit:
            subtree = subtree[:limit] + " ... (cut; use readNode for the rest)"
        return f"(Selected node: {selected})\n{subtree}"

    async def resume(self, answer: Answer) -> RunResult:
        return await self.loop.resume(answer)

    def _on_revision(self, revision: Revision) -> None:
        self._changed = True
        self.ctx.extra.pop("last_rejection", None)
        self.loop.emit(
            DraftRevised(
                self.trace_id,
                revision.id,
                revision.summary,
                tuple(revision.changed),
                len(revision.ops or []),
            )
        )

    def save(self, path: Path | None = None) -> Path:
        """Save the run snapshot (masked, atomic); default: <user data>/agent-runs/<trace id>.json."""
        from studio.agent.snapshot import save_snapshot

        return save_snapshot(self.snapshot(), path, self.tracer.masker)

    def snapshot(self) -> dict[str, Any]:
        """The run as a versioned JSON snapshot (masked when saved)."""
        from studio.agent.snapshot import build_snapshot

        return build_snapshot(self)
