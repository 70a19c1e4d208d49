"""Replay a saved run without a model: recorded responses go through the ScriptedModel, the real
tools run again, and the revisions must come out the same. Tool fingerprint drift is reported."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from studio.agent.events import event_from_json
from studio.agent.guards import Limits
from studio.agent.loop import RunResult, answer_from_json
from studio.agent.snapshot import check_snapshot
from studio.agent.testing import ScriptedModel


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


def _comparable(revisions: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r.get("summary"), r.get("ops"), list(r.get("changed") or []), r.get("instruction"))
        for r in revisions
    ]


async def _no_sleep(_: float) -> None:
    return None


async def replay(snapshot: dict[str, Any]) -> ReplayReport:
    from studio.agent.session import AgentSession

    check_snapshot(snapshot)
    record = snapshot["record"]
    steps = [[event_from_json(e) for e in r["events"]] for r in record if r.get("kind") == "model"]
    answers = [r["answer"] for r in record if r.get("kind") == "answer"]
    model = ScriptedModel(steps, model=str(snapshot.get("model") or "replay"))
    limits = snapshot.get("limits") or {}
    session = AgentSession(
        model,
        snapshot["base_spec"],
        system="(replay)",
        limits=Limits(int(limits.get("max_turns") or 20), limits.get("token_budget")),
        sleep=_no_sleep,
    )
    report = ReplayReport(False, False)
    recorded_tools: dict[str, str] = snapshot["tools"]
    current = session.tools.fingerprints()
    for name in sorted(set(recorded_tools) | set(current)):
        if name not in current:
            report.drift.append(f"{name}: recorded but no longer exists")
        elif name not in recorded_tools:
            report.drift.append(f"{name}: new since the recording")
        elif current[name] != recorded_tools[name]:
            report.drift.append(
                f"{name}: schema changed ({recorded_tools[name]} -> {current[name]})"
            )
    pending = list(answers)
    for instruction in snapshot["instructions"]:
        session.instructions.append(instruction)
        result = await session.loop.run(instruction)
        while result.status == "needs_input" and pending:
            result = await session.resume(answer_from_json(pending.pop(0)))
        report.results.append(result)
    if model.remaining:
        report.differences.append(
            f"{model.remaining} recorded model response(s) were not requested"
        )
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
    report.same_revisions = _comparable(revisions) == _comparable(snapshot.get("revisions") or [])
    report.same_final_spec = session.draft.spec == snapshot.get("final_spec")
    return report


def replay_sync(snapshot: dict[str, Any]) -> ReplayReport:
    return asyncio.run(replay(snapshot))
