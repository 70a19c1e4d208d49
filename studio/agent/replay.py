"""Replay a saved run without a model: recorded responses go through the ScriptedModel, the real
tools run again, and the revisions must come out the same. Tool fingerprint drift is reported.

With `on_event`, a replay streams the same events as a live run (run_started, text_delta,
tool_call, revision, ..., completed), so a UI shows it like one."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from studio.agent.events import event_from_json
from studio.agent.guards import Limits
from studio.agent.loop import RunResult, answer_from_json
from studio.agent.run_events import RunEvent
from studio.agent.snapshot import check_snapshot
from studio.agent.testing import ScriptedModel

if TYPE_CHECKING:
    from studio.agent.session import AgentSession

EventSink = Callable[[RunEvent], None]


@dataclass
class ReplayReport:
    same_revisions: bool
    same_final_spec: bool
    drift: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    revisions: list[dict[str, Any]] = field(default_factory=list)
    final_spec: dict[str, Any] = field(default_factory=dict)
    results: list[RunResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.same_revisions and self.same_final_spec and not self.differences

    def problems(self) -> list[str]:
        """Drift and differences, one line each (empty when the replay matched)."""
        lines = [f"tool drift: {d}" for d in self.drift] + list(self.differences)
        if not self.same_revisions:
            lines.append("the revisions differ from the recording")
        if not self.same_final_spec:
            lines.append("the final spec differs from the recording")
        return lines


def _comparable(revisions: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r.get("summary"), r.get("ops"), list(r.get("changed") or []), r.get("instruction"))
        for r in revisions
    ]


async def _no_sleep(_: float) -> None:
    return None


class Replayer:
    """One replay, set up before it runs: `session` (its draft, trace and events) exists from the
    start, so a UI can show the draft and the trace while `run()` streams the events."""

    def __init__(self, snapshot: dict[str, Any], *, on_event: EventSink | None = None) -> None:
        from studio.agent.session import AgentSession

        check_snapshot(snapshot)
        self.snapshot = snapshot
        record = snapshot["record"]
        steps = [
            [event_from_json(e) for e in r["events"]] for r in record if r.get("kind") == "model"
        ]
        self._answers = [r["answer"] for r in record if r.get("kind") == "answer"]
        self.model = ScriptedModel(steps, model=str(snapshot.get("model") or "replay"))
        limits = snapshot.get("limits") or {}
        self.session: AgentSession = AgentSession(
            self.model,
            copy.deepcopy(snapshot["base_spec"]),
            system="(replay)",
            limits=Limits(
                int(limits.get("max_turns") or 20),
                limits.get("token_budget"),
                context_window=limits.get("context_window"),
            ),
            on_event=on_event,
            sleep=_no_sleep,
            info={"replay_of": snapshot.get("trace_id")},
            tool_set=str(snapshot.get("tool_set") or "standard"),
        )

    def drift(self) -> list[str]:
        """Tools that were added, removed or changed their schema since the recording."""
        recorded: dict[str, str] = self.snapshot["tools"]
        current = self.session.tools.fingerprints()
        out = []
        for name in sorted(set(recorded) | set(current)):
            if name not in current:
                out.append(f"{name}: recorded but no longer exists")
            elif name not in recorded:
                out.append(f"{name}: new since the recording")
            elif current[name] != recorded[name]:
                out.append(f"{name}: schema changed ({recorded[name]} -> {current[name]})")
        return out

    async def run(self) -> ReplayReport:
        """Run every recorded instruction again (answering recorded askUser/approval requests)
        and compare the outcome with the recording."""
        session = self.session
        report = ReplayReport(False, False, drift=self.drift())
        pending = list(self._answers)
        for instruction in self.snapshot["instructions"]:
            result = await session.run(instruction)
            while result.status == "needs_input" and pending:
                result = await session.resume(answer_from_json(pending.pop(0)))
            report.results.append(result)
        if self.model.remaining:
            report.differences.append(
                f"{self.model.remaining} recorded model response(s) were not requested"
            )
        record = self.snapshot["record"]
        recorded_outputs = [(r["call_id"], r["output"]) for r in record if r.get("kind") == "tool"]
        replayed_outputs = [
            (r["call_id"], r["output"]) for r in session.loop.record if r.get("kind") == "tool"
        ]
        for (cid, old), (_, new) in zip(recorded_outputs, replayed_outputs, strict=False):
            if old != new:
                report.differences.append(f"tool output of {cid} differs")
        revisions = [
            {k: v for k, v in r.to_json().items() if k != "spec"} for r in session.draft.revisions
        ]
        report.revisions = revisions
        report.final_spec = session.draft.spec
        recorded_revisions = self.snapshot.get("revisions") or []
        report.same_revisions = _comparable(revisions) == _comparable(recorded_revisions)
        report.same_final_spec = session.draft.spec == self.snapshot.get("final_spec")
        return report


async def replay(snapshot: dict[str, Any], *, on_event: EventSink | None = None) -> ReplayReport:
    """Replay a saved run; `on_event` receives its events in order, as from a live run."""
    return await Replayer(snapshot, on_event=on_event).run()


def replay_sync(snapshot: dict[str, Any]) -> ReplayReport:
    return asyncio.run(replay(snapshot))
