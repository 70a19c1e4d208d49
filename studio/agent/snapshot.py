"""Versioned JSON snapshots of agent runs: model, profile, tool fingerprints, every model response
(as normalized events), tool results and answers, revisions. Secrets are masked before writing."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.agent.trace import GLOBAL_MASKER, Masker

if TYPE_CHECKING:
    from studio.agent.session import AgentSession

FORMAT = "proto-studio-agent-run"
VERSION = 2
SUPPORTED = (1, 2)
"""Versions this build reads: 1 replays; 2 adds the transcript, the open batch and the tool
declarations a resumed run needs (studio.agent.resume)."""


class SnapshotError(ValueError):
    """A snapshot file that cannot be replayed (one line naming the file and the problem)."""


def runs_dir() -> Path:
    from studio.library.paths import data_root

    return data_root() / "agent-runs"


def build_snapshot(session: AgentSession) -> dict[str, Any]:
    loop = session.loop
    result = loop.result
    return {
        "format": FORMAT,
        "version": VERSION,
        "trace_id": session.trace_id,
        "created": time.time(),
        "model": loop.model.model,
        "profile": session.info.get("profile"),
        "api": session.info.get("api"),
        "base_url": session.info.get("base_url"),
        "limits": {
            "max_turns": loop.limits.max_turns,
            "token_budget": loop.limits.token_budget,
            # the window the run was sized to, so a replay cuts tool outputs the same way
            "context_window": loop.window.tokens if loop.window else None,
        },
        "tools": session.tools.fingerprints(),
        "tool_declarations": [
            {
                "name": t.name,
                "description": t.description,
                "parameters": t.parameters,
                "fingerprint": t.fingerprint(),
            }
            for t in session.tools
        ],
        "loop": loop.state_json(),
        "effort": loop.effort,
        "tool_set": session.tool_set,
        "instructions": list(session.instructions),
        "base_spec": session.draft.base,
        "record": loop.record,
        "revisions": [
            {k: v for k, v in r.to_json().items() if k != "spec"} for r in session.draft.revisions
        ],
        "final_spec": session.draft.spec,
        "result": None
        if result is None
        else {
            "status": result.status,
            "reason": result.reason,
            "turns": result.turns,
            "input_tokens": result.usage.input_tokens,
            "output_tokens": result.usage.output_tokens,
            "usage_estimated": result.usage.estimated,
        },
        "trace": session.tracer.steps,
    }


def save_snapshot(
    snapshot: dict[str, Any], path: Path | None = None, masker: Masker | None = None
) -> Path:
    """Write atomically (temp file, fsync, replace) to `path` or runs_dir()/<trace_id>.json."""
    from studio.library.atomic import write_json

    target = path or runs_dir() / f"{snapshot.get('trace_id', 'run')}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    write_json(target, (masker or GLOBAL_MASKER).obj(snapshot))
    return target


async def asave_snapshot(
    snapshot: dict[str, Any], path: Path | None = None, masker: Masker | None = None
) -> Path:
    """`save_snapshot` for the event loop: masked and serialized here, written (atomically) in a
    worker thread."""
    from studio.concurrency import off_loop
    from studio.library.atomic import dumps, write_bytes

    target = path or runs_dir() / f"{snapshot.get('trace_id', 'run')}.json"
    data = dumps((masker or GLOBAL_MASKER).obj(snapshot))

    def write() -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(target, data)

    await off_loop(write)
    return target


def load_snapshot(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SnapshotError(f"{path}: cannot read the run snapshot ({exc})") from None
    check_snapshot(data, str(path))
    return data  # type: ignore[no-any-return]


def check_snapshot(data: Any, where: str = "snapshot") -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SnapshotError(f"{where}: not a Proto Studio agent run snapshot")
    if data.get("version") not in SUPPORTED:
        raise SnapshotError(
            f"{where}: snapshot version {data.get('version')!r} is not supported (this build "
            f"reads {', '.join(map(str, SUPPORTED))})"
        )
    for key in ("base_spec", "record", "instructions", "tools"):
        if key not in data:
            raise SnapshotError(f"{where}: the snapshot has no {key!r}")
