"""The authoring eval (seed 004 §8): a fixed task set of our own, each with machine checks on the
resulting spec (predicates on structure and values, never exact JSON); runs against a model
server or replays recorded runs offline; scored per task by first-try validity, retries, patches,
turns, latency, tokens and cost; a terminal table and an HTML report with inline SVG charts.

`proto-studio eval --base-url URL --model NAME [--api chat|responses] [--tools standard|compound]
[--tasks FILE] [--repeat N] --out DIR`, or `--replay DIR` to score recorded runs without a model;
`--tools standard,compound` runs both sets and shows them side by side (task/set rows).
Each live run is recorded in `--out`/runs/ (the run snapshot: the model's streams, plus the
task and latency), which is exactly what `--replay` reads. Model quality is never part of the
unit suite's pass/fail: the tests check that the harness scores what it is given.

Task file: {"format": "proto-studio-eval-tasks", "version": 1, "tasks": [{"id", "title",
"start" (a spec file relative to the task file, or "template:ID"), "instruction", "checks"}]}.
Checks (`kind`): `node` (nodes matching `where` number `min`..`max`; `len` asks list fields for a
minimum length), `value` (a JSON pointer's value `equals`, matches `re`, or has `type`), `text`
(some string in the tree matches `re`) and `platform` (the module is required and a node calls
it). A `where` value is a literal, {"re": PATTERN}, {"in": [...]} or {"present": true}.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import html
import json
import math
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

JSON = dict[str, Any]
TASKS_FORMAT = "proto-studio-eval-tasks"
WRITE_TOOLS = frozenset(
    {"patch", "reviseSpec", "edit", "insert", "remove", "move", "setState", "setTheme"}
)
"""The tools that change the draft (both tool sets): what first-try validity and retries count."""


class EvalError(ValueError):
    """A task file, check or recorded run that cannot be used (one line naming the place)."""


# -- tasks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EvalTask:
    id: str
    title: str
    start: JSON
    instruction: str
    checks: tuple[JSON, ...]


def default_tasks_path() -> Path:
    from studio.resources import resource_path

    return resource_path("eval", "tasks.json")


def load_tasks(path: Path | None = None) -> list[EvalTask]:
    """The tasks of a task file (default: the shipped set), each start spec valid and each
    check well formed; EvalError names the task and the problem."""
    from studio.spec import validate

    path = path or default_tasks_path()
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EvalError(f"{path}: cannot read the tasks ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != TASKS_FORMAT:
        raise EvalError(f"{path}: not an eval task file (format {TASKS_FORMAT!r})")
    if data.get("version") != 1:
        raise EvalError(f"{path}: task file version {data.get('version')!r} is not supported")
    items = data.get("tasks")
    if not isinstance(items, list) or not items:
        raise EvalError(f"{path}: tasks: expected a non-empty list")
    out: list[EvalTask] = []
    seen: set[str] = set()
    for n, item in enumerate(items):
        where = f"{path}: tasks[{n}]"
        if not isinstance(item, dict):
            raise EvalError(f"{where}: expected an object")
        task_id, instruction = item.get("id"), item.get("instruction")
        if not isinstance(task_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", task_id):
            raise EvalError(f"{where}.id: a lower-case id with dashes")
        if task_id in seen:
            raise EvalError(f"{where}.id: {task_id} is there twice")
        seen.add(task_id)
        if not isinstance(instruction, str) or not instruction.strip():
            raise EvalError(f"{where}.instruction: the task says nothing to do")
        start = _start(Path(path).parent, item.get("start"), f"{where}.start")
        checked = validate(start)
        if not checked.ok:
            raise EvalError(f"{where}.start: not a valid spec: {checked.path}: {checked.message}")
        checks = item.get("checks")
        if not isinstance(checks, list) or not checks:
            raise EvalError(f"{where}.checks: expected a non-empty list")
        for m, check in enumerate(checks):
            _check_shape(check, f"{where}.checks[{m}]")
        out.append(
            EvalTask(task_id, str(item.get("title") or task_id), start, instruction, tuple(checks))
        )
    return out


def _start(folder: Path, start: Any, where: str) -> JSON:
    if not isinstance(start, str) or not start:
        raise EvalError(f"{where}: a spec file or template:ID")
    if start.startswith("template:"):
        from studio.library.templates import templates_dir

        file = templates_dir() / f"{start.split(':', 1)[1]}.json"
    else:
        file = folder / start
    try:
        spec = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EvalError(f"{where}: cannot read {file} ({exc})") from None
    if not isinstance(spec, dict):
        raise EvalError(f"{where}: {file} is not a spec object")
    return spec


_KINDS = {"node", "value", "text", "platform"}


def _check_shape(check: Any, where: str) -> None:
    if not isinstance(check, dict) or check.get("kind") not in _KINDS:
        raise EvalError(f"{where}: kind must be one of {', '.join(sorted(_KINDS))}")
    kind = check["kind"]
    try:
        if kind == "node":
            if not isinstance(check.get("where"), dict) or not check["where"]:
                raise EvalError(f"{where}.where: expected properties to match")
            for value in check["where"].values():
                if isinstance(value, dict) and "re" in value:
                    re.compile(value["re"])
        elif kind == "value":
            if not isinstance(check.get("pointer"), str) or not check["pointer"].startswith("/"):
                raise EvalError(f"{where}.pointer: a JSON pointer such as /theme/mode")
            if not {"equals", "re", "type"} & set(check):
                raise EvalError(f"{where}: say what the value must be (equals, re or type)")
            if "re" in check:
                re.compile(check["re"])
        elif kind == "text":
            re.compile(check["re"])
        elif not isinstance(check.get("module"), str):
            raise EvalError(f"{where}.module: the platform module's name")
    except (re.error, KeyError, TypeError) as exc:
        raise EvalError(f"{where}: {exc}") from None


# -- checks ----------------------------------------------------------------------------------


def _matches(value: Any, want: Any) -> bool:
    if isinstance(want, dict):
        if "re" in want:
            return isinstance(value, str) and re.search(want["re"], value) is not None
        if "in" in want:
            return value in want["in"]
        if "present" in want:
            return (value is not None) == bool(want["present"])
    return bool(value == want)


def _nodes(spec: JSON) -> list[JSON]:
    from studio.spec.tree import walk

    return [node for _, node, _, _ in walk(spec)]


def _pointer(spec: JSON, pointer: str) -> tuple[bool, Any]:
    node: Any = spec
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None
    return True, node


_TYPES: dict[str, Callable[[Any], bool]] = {
    "boolean": lambda v: isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def describe_check(check: JSON) -> str:
    """One line saying what a check asks (the report's wording)."""
    kind = check["kind"]
    if kind == "node":
        props = ", ".join(f"{k}={_show(v)}" for k, v in check["where"].items())
        lengths = "".join(f", {k} >= {n}" for k, n in (check.get("len") or {}).items())
        low, high = check.get("min", 1), check.get("max")
        count = f"no node with {props}" if high == 0 else f"at least {low} node(s) with {props}"
        return count + lengths
    if kind == "value":
        how = (
            f"= {json.dumps(check['equals'])}"
            if "equals" in check
            else f"matches {check['re']}"
            if "re" in check
            else f"is a {check['type']}"
        )
        return f"{check['pointer']} {how}"
    if kind == "text":
        return f"some text matches {check['re']}"
    return f"platform module {check['module']} is required and called"


def _show(value: Any) -> str:
    if isinstance(value, dict) and "re" in value:
        return f"/{value['re']}/"
    return json.dumps(value, ensure_ascii=False)


def run_check(spec: JSON, check: JSON) -> bool:
    """Whether `spec` satisfies one check."""
    kind = check["kind"]
    if kind == "node":
        lengths = check.get("len") or {}
        found = [
            node
            for node in _nodes(spec)
            if all(_matches(node.get(k), v) for k, v in check["where"].items())
            and all(isinstance(node.get(k), list) and len(node[k]) >= n for k, n in lengths.items())
        ]
        low, high = check.get("min", 1), check.get("max")
        return len(found) >= low and (high is None or len(found) <= high)
    if kind == "value":
        present, value = _pointer(spec, check["pointer"])
        if not present:
            return False
        if "equals" in check and value != check["equals"]:
            return False
        if "re" in check and not (isinstance(value, str) and re.search(check["re"], value)):
            return False
        return "type" not in check or _TYPES.get(check["type"], lambda _: False)(value)
    if kind == "text":
        return any(re.search(check["re"], s) for s in _strings(spec.get("root")))
    module = check["module"]
    requires = spec.get("requires") if isinstance(spec.get("requires"), dict) else {}
    required = module in ((requires or {}).get("platform") or [])
    called = any(
        isinstance(a, dict)
        and a.get("type") == "platform"
        and str(a.get("call", "")).startswith(module + ".")
        for node in _nodes(spec)
        for a in (node.get("onTap") or [])
    )
    return required and called


# -- scoring ---------------------------------------------------------------------------------


@dataclass
class RunScore:
    """One run of one task."""

    task: str
    passed: bool
    checks: list[tuple[str, bool]]
    status: str
    first_try_valid: bool | None  # None: the run wrote nothing
    retries: int
    patches: int
    turns: int
    latency_s: float
    input_tokens: int
    output_tokens: int
    cost: float | None
    problem: str = ""
    tool_set: str = "standard"


def score_run(snapshot: JSON, task: EvalTask, latency_s: float) -> RunScore:
    """Score one recorded run (a run snapshot) of `task`."""
    from studio.agent.events import Usage
    from studio.agent.profiles import PROFILES
    from studio.spec import validate

    final = snapshot.get("final_spec")
    final = final if isinstance(final, dict) else task.start
    valid = validate(final)
    checks = [("the result is a valid spec", valid.ok)]
    checks += [(describe_check(c), valid.ok and run_check(final, c)) for c in task.checks]
    writes = [
        r
        for r in snapshot.get("record") or []
        if r.get("kind") == "tool" and r.get("name") in WRITE_TOOLS
    ]
    rejected = [r for r in writes if r.get("error_class")]
    result = snapshot.get("result") or {}
    usage = Usage(int(result.get("input_tokens") or 0), int(result.get("output_tokens") or 0))
    profile = PROFILES.get(str(snapshot.get("profile") or ""))
    cost = profile.cost(str(snapshot.get("model") or ""), usage) if profile else None
    return RunScore(
        task=task.id,
        passed=all(ok for _, ok in checks),
        checks=checks,
        status=str(result.get("status") or "failed"),
        first_try_valid=None if not writes else not writes[0].get("error_class"),
        retries=len(rejected),
        patches=len(snapshot.get("revisions") or []),
        turns=int(result.get("turns") or 0),
        latency_s=latency_s,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cost=cost,
        problem="" if result.get("status") == "completed" else str(result.get("reason") or ""),
        tool_set=str(snapshot.get("tool_set") or "standard"),
    )


@dataclass
class TaskSummary:
    """One task's runs with one tool set; `label` names the set when the eval compared sets."""

    task: EvalTask
    tool_set: str = "standard"
    runs: list[RunScore] = field(default_factory=list)
    label: str = ""

    @property
    def pass_rate(self) -> float:
        return sum(r.passed for r in self.runs) / len(self.runs) if self.runs else 0.0

    @property
    def first_try_rate(self) -> float | None:
        wrote = [r.first_try_valid for r in self.runs if r.first_try_valid is not None]
        return sum(wrote) / len(wrote) if wrote else None

    def median(self, name: str) -> float:
        values = [float(getattr(r, name)) for r in self.runs]
        return statistics.median(values) if values else 0.0

    @property
    def cost(self) -> float | None:
        costs = [r.cost for r in self.runs]
        return None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)


def summarize(tasks: list[EvalTask], scores: list[RunScore]) -> list[TaskSummary]:
    """Per task and tool set, in task order (the sets in the order they ran)."""
    known = {t.id: t for t in tasks}
    groups: dict[tuple[str, str], TaskSummary] = {}
    for score in scores:
        if score.task in known:
            key = (score.task, score.tool_set)
            groups.setdefault(key, TaskSummary(known[score.task], score.tool_set)).runs.append(
                score
            )
    order = {t.id: n for n, t in enumerate(tasks)}
    sets = list(dict.fromkeys(s.tool_set for s in scores))
    out = sorted(groups.values(), key=lambda s: (order[s.task.id], sets.index(s.tool_set)))
    compared = len(sets) > 1
    for summary in out:
        summary.label = f"{summary.task.id}/{summary.tool_set}" if compared else summary.task.id
    return out


COLUMNS = (
    "task",
    "runs",
    "pass",
    "1st-try valid",
    "retries",
    "patches",
    "turns",
    "latency s",
    "tokens in/out",
    "cost $",
)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{round(value * 100)}%"


def _rows(summaries: list[TaskSummary]) -> list[list[str]]:
    rows = []
    for s in summaries:
        rows.append(
            [
                s.label,
                str(len(s.runs)),
                _pct(s.pass_rate),
                _pct(s.first_try_rate),
                f"{s.median('retries'):g}",
                f"{s.median('patches'):g}",
                f"{s.median('turns'):g}",
                f"{s.median('latency_s'):.1f}",
                f"{s.median('input_tokens'):.0f}/{s.median('output_tokens'):.0f}",
                "?" if s.cost is None else f"{s.cost:.4f}",
            ]
        )
    sets = list(dict.fromkeys(s.tool_set for s in summaries))
    for tool_set in sets:
        runs = [r for s in summaries if s.tool_set == tool_set for r in s.runs]
        rows.append(_total("all" if len(sets) == 1 else f"all/{tool_set}", runs))
    return rows


def _total(label: str, runs: list[RunScore]) -> list[str]:
    """The row over `runs` (rates over all of them, medians, the summed cost)."""
    costs = [r.cost for r in runs]
    wrote = [r.first_try_valid for r in runs if r.first_try_valid is not None]
    return [
        label,
        str(len(runs)),
        _pct(sum(r.passed for r in runs) / len(runs)),
        _pct(sum(wrote) / len(wrote) if wrote else None),
        f"{statistics.median(r.retries for r in runs):g}",
        f"{statistics.median(r.patches for r in runs):g}",
        f"{statistics.median(r.turns for r in runs):g}",
        f"{statistics.median(r.latency_s for r in runs):.1f}",
        f"{statistics.median(r.input_tokens for r in runs):.0f}/"
        f"{statistics.median(r.output_tokens for r in runs):.0f}",
        "?" if any(c is None for c in costs) else f"{sum(c or 0 for c in costs):.4f}",
    ]


def table(summaries: list[TaskSummary], title: str = "") -> str:
    """The terminal table (medians per task over its runs; rates as percentages)."""
    rows = [list(COLUMNS), *_rows(summaries)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]

    def line(row: list[str]) -> str:
        return "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )

    out = [title] if title else []
    out += [line(rows[0]), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows[1:]]
    return "\n".join(out)


def _bars(title: str, items: list[tuple[str, float]], top: float, unit: str) -> str:
    """An inline SVG bar chart (no script, no network)."""
    width, bar_h, gap, label_w = 560, 18, 6, 150
    height = 30 + len(items) * (bar_h + gap)
    top = top or 1.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{html.escape(title)}">',
        f'<text x="0" y="16" font-size="14" font-weight="bold">{html.escape(title)}</text>',
    ]
    for n, (label, value) in enumerate(items):
        y = 28 + n * (bar_h + gap)
        w = 0 if not math.isfinite(value) else max(0.0, value) / top * (width - label_w - 70)
        parts.append(
            f'<text x="0" y="{y + 13}" font-size="12">{html.escape(label)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="#6750A4"/>'
            f'<text x="{label_w + w + 4:.1f}" y="{y + 13}" font-size="12">'
            f"{html.escape(f'{value:g}{unit}')}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def report_html(summaries: list[TaskSummary], meta: JSON) -> str:
    """The HTML report: what ran, the table, the checks of every run and two charts."""
    rows = _rows(summaries)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    charts = _bars(
        "Pass rate per task",
        [(s.label, round(s.pass_rate * 100)) for s in summaries],
        100,
        "%",
    ) + _bars(
        "Median turns per task",
        [(s.label, s.median("turns")) for s in summaries],
        max((s.median("turns") for s in summaries), default=1),
        "",
    )
    details = []
    for s in summaries:
        for n, run in enumerate(s.runs, 1):
            items = "".join(
                f"<li>{'✔' if ok else '✘'} {html.escape(text)}</li>" for text, ok in run.checks
            )
            note = f" ({html.escape(run.problem)})" if run.problem else ""
            details.append(
                f"<h3>{html.escape(s.label)} run {n}: {run.status}{note}</h3><ul>{items}</ul>"
            )
    info = ", ".join(f"{html.escape(str(k))}: {html.escape(str(v))}" for k, v in meta.items())
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Proto Studio eval</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}</style></head><body>"
        f"<h1>Authoring eval</h1><p>{info}</p>"
        f"<table><tr>{head}</tr>{body}</table><div>{charts}</div>"
        f"<h2>Checks</h2>{''.join(details)}</body></html>"
    )


def write_outputs(out: Path, summaries: list[TaskSummary], meta: JSON) -> tuple[Path, Path]:
    """report.html and scores.json in `out` (atomic writes)."""
    from studio.library.atomic import write_bytes, write_json

    out.mkdir(parents=True, exist_ok=True)
    report = out / "report.html"
    write_bytes(report, report_html(summaries, meta).encode("utf-8"))
    scores = out / "scores.json"
    write_json(
        scores,
        {
            "meta": meta,
            "tasks": [
                {
                    "task": s.task.id,
                    "tool_set": s.tool_set,
                    "pass_rate": s.pass_rate,
                    "runs": [{**r.__dict__, "checks": [list(c) for c in r.checks]} for r in s.runs],
                }
                for s in summaries
            ],
        },
    )
    return report, scores


# -- running -----------------------------------------------------------------------------------


def recorded(snapshot: JSON, task: EvalTask, latency_s: float, repeat: int) -> JSON:
    """A run snapshot with the eval's own fields: what `--replay` reads back."""
    return {**snapshot, "eval": {"task": task.id, "latency_s": latency_s, "repeat": repeat}}


async def run_live(
    tasks: list[EvalTask],
    make_client: Callable[[], Any],
    *,
    repeat: int,
    limits: Any,
    tool_set: str,
    guide: Any,
    info: JSON,
    effort: str,
    runs_dir: Path,
    progress: Callable[[str], None],
    name_set: bool = False,
) -> list[RunScore]:
    """Every task `repeat` times against the model; each run recorded in `runs_dir`
    (`<task>-<n>.json`, or `<task>-<tool set>-<n>.json` with `name_set`)."""
    from studio.agent.session import AgentSession
    from studio.agent.snapshot import asave_snapshot

    scores: list[RunScore] = []
    for task in tasks:
        for n in range(1, repeat + 1):
            session = AgentSession(
                make_client(),
                copy.deepcopy(task.start),
                guide=guide,
                limits=limits,
                info=info,
                effort=effort,
                tool_set=tool_set,
            )
            started = time.monotonic()
            result = await session.run(task.instruction)
            if result.status == "needs_input":  # nobody answers in an eval
                result = session.loop.cancel("the model asked a question", status="failed")
            latency = time.monotonic() - started
            snapshot = recorded(session.snapshot(), task, latency, n)
            stem = f"{task.id}-{tool_set}-{n}" if name_set else f"{task.id}-{n}"
            await asave_snapshot(snapshot, runs_dir / f"{stem}.json")
            score = score_run(snapshot, task, latency)
            scores.append(score)
            progress(f"{stem}: {'pass' if score.passed else 'fail'} ({score.status})")
    return scores


def load_recordings(folder: Path) -> list[tuple[str, JSON]]:
    """The recorded runs in `folder` (file name, snapshot), in name order."""
    from studio.agent.snapshot import SnapshotError, load_snapshot

    files = sorted(folder.glob("*.json"))
    if not files:
        raise EvalError(f"{folder}: no recorded runs (*.json) to replay")
    try:
        return [(f.name, load_snapshot(f)) for f in files]
    except SnapshotError as exc:
        raise EvalError(str(exc)) from None


async def replay_recorded(
    tasks: list[EvalTask], recordings: list[tuple[str, JSON]], progress: Callable[[str], None]
) -> list[RunScore]:
    """Score recorded runs offline: each run is replayed (its recorded model streams through
    the same session, tools and guards) and the replay is scored, with the recorded latency.
    A recording that no longer replays the same is reported and scored as replayed."""
    from studio.agent.replay import Replayer

    by_id = {t.id: t for t in tasks}
    scores: list[RunScore] = []
    for name, snapshot in recordings:
        meta = snapshot.get("eval") or {}
        task = by_id.get(str(meta.get("task")))
        if task is None:
            if meta.get("task") is None:
                raise EvalError(f"{name}: not an eval recording (no eval.task)")
            continue  # a task left out (--only) or not in this task file
        replayer = Replayer(snapshot)
        report = await replayer.run()
        if replayer.session.waiting:  # as the live run ended it: nobody answers in an eval
            replayer.session.loop.cancel("the model asked a question", status="failed")
        # The replay's own session has no provider: cost from the recording's model and profile.
        replayed = {
            **replayer.session.snapshot(),
            "profile": snapshot.get("profile"),
            "model": snapshot.get("model"),
        }
        if report.problems():
            progress(f"{name}: replay differs: {'; '.join(report.problems())}")
        score = score_run(replayed, task, float(meta.get("latency_s") or 0.0))
        scores.append(score)
        progress(f"{task.id} ({name}): {'pass' if score.passed else 'fail'}")
    return scores


# -- the command -----------------------------------------------------------------------------


def configure_eval(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", default=None, help="the model server (not with --replay)")
    parser.add_argument("--model", default=None, help="the model name the server knows")
    parser.add_argument("--api", choices=("chat", "responses"), default="chat")
    parser.add_argument(
        "--tools",
        default=None,
        help="standard, compound, or standard,compound to compare the two sets (default: the "
        "profile's)",
    )
    parser.add_argument("--profile", default=None, help="provider profile (default: guessed)")
    parser.add_argument("--effort", default="provider-default", help="reasoning effort")
    parser.add_argument("--tasks", type=Path, default=None, help="a task file (default: shipped)")
    parser.add_argument("--only", default=None, help="comma-separated task ids to run")
    parser.add_argument("--repeat", type=int, default=1, help="runs per task (default 1)")
    parser.add_argument("--max-turns", type=int, default=12)
    parser.add_argument("--token-budget", type=int, default=None)
    parser.add_argument("--max-output-tokens", type=int, default=4096, help="per reply")
    parser.add_argument("--replay", type=Path, default=None, help="score recorded runs offline")
    parser.add_argument("--out", type=Path, required=True, help="report.html, scores.json, runs/")


def _say(text: str) -> None:
    print(f"proto-studio eval: {text}", file=sys.stderr)


def run_eval(args: argparse.Namespace) -> int:
    try:
        tasks = load_tasks(args.tasks)
        if args.only:
            wanted = [t.strip() for t in args.only.split(",") if t.strip()]
            unknown = [w for w in wanted if w not in {t.id for t in tasks}]
            if unknown:
                raise EvalError(f"--only: unknown task(s) {', '.join(unknown)}")
            tasks = [t for t in tasks if t.id in wanted]
        if args.repeat < 1:
            raise EvalError("--repeat: at least 1")
        if args.replay is not None:
            scores = asyncio.run(replay_recorded(tasks, load_recordings(args.replay), _say))
            meta: JSON = {"replayed": str(args.replay)}
        else:
            if not args.base_url or not args.model:
                raise EvalError("--base-url and --model are required (or --replay DIR)")
            scores, meta = asyncio.run(_live(args, tasks))
    except EvalError as exc:
        _say(str(exc))
        return 2
    summaries = summarize(tasks, scores)
    title = ", ".join(f"{k} {v}" for k, v in meta.items())
    print(table(summaries, title))
    try:
        report, _ = write_outputs(args.out, summaries, meta)
    except OSError as exc:
        _say(f"{args.out}: cannot write the report ({exc.strerror})")
        return 1
    _say(f"report: {report}")
    return 0


async def _live(args: argparse.Namespace, tasks: list[EvalTask]) -> tuple[list[RunScore], JSON]:
    import httpx

    from studio.agent.clients import CONNECT_TIMEOUT, make_client
    from studio.agent.guards import Limits
    from studio.agent.keys import KeyStore
    from studio.agent.profiles import profile_for
    from studio.agent.reasoning import effort_problem

    try:
        profile = profile_for(args.base_url, args.profile)
    except ValueError as exc:
        raise EvalError(str(exc)) from None
    problem = effort_problem(profile.name, args.api, args.effort)
    if problem is not None:
        raise EvalError(f"--effort: {problem}")
    key = KeyStore().get(profile.name).key if profile.needs_key else None
    sets = [t.strip() for t in (args.tools or profile.tool_set).split(",") if t.strip()]
    unknown = [t for t in sets if t not in ("standard", "compound")]
    if unknown or not sets:
        raise EvalError(
            f"--tools: use standard, compound or standard,compound (not {args.tools!r})"
        )
    sets = list(dict.fromkeys(sets))
    meta: JSON = {
        "model": args.model,
        "profile": profile.name,
        "api": args.api,
        "tools": ",".join(sets),
        "repeat": args.repeat,
    }
    limits = Limits(args.max_turns, args.token_budget, max_output_tokens=args.max_output_tokens)
    async with httpx.AsyncClient(
        timeout=httpx.Timeout(profile.idle_timeout, connect=CONNECT_TIMEOUT)
    ) as http:

        def client() -> Any:
            return make_client(
                args.api, args.base_url, args.model, api_key=key, profile=profile, http=http
            )

        scores: list[RunScore] = []
        for tool_set in sets:
            scores += await run_live(
                tasks,
                client,
                repeat=args.repeat,
                limits=limits,
                tool_set=tool_set,
                guide="short" if profile.local else "full",
                info={"profile": profile.name, "api": args.api, "base_url": args.base_url},
                effort=args.effort,
                runs_dir=args.out / "runs",
                progress=_say,
                name_set=len(sets) > 1,
            )
    return scores, meta
