"""`proto-studio agent`: a headless agent run on a spec file, with JSONL events and the result spec."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import IO, Any, Literal

from studio.agent.run_events import RunEvent
from studio.agent.trace import GLOBAL_MASKER

EXIT = {"completed": 0, "failed": 1, "no_changes": 3, "cancelled": 130}
"""Exit codes: 0 done, 1 failed, 2 bad command line or files, 3 finished without the change it
was asked for ("no changes made"), 130 interrupted."""


def configure_agent(parser: argparse.ArgumentParser) -> None:
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--spec", type=Path, help="the spec (or a template file) to start from")
    start.add_argument(
        "--template", help="start from a shipped template (resources/templates/ID.json)"
    )
    start.add_argument(
        "--resume",
        type=Path,
        metavar="FILE",
        help="continue an unfinished run from its saved record (checked whole before any model "
        "call); --base-url, --model and --api default to the record's",
    )
    parser.add_argument("--instruction", help="what to change or create (not with --resume)")
    parser.add_argument(
        "--answer",
        default=None,
        help="with --resume: the answer to the question the run was paused on",
    )
    parser.add_argument(
        "--allow-tool-changes",
        action="store_true",
        help="with --resume: continue even if the tools changed since the run was saved",
    )
    parser.add_argument(
        "--base-url",
        default=None,
        help="ends before /chat/completions or /responses, e.g. http://localhost:11434/v1",
    )
    parser.add_argument("--model", default=None, help="the model name the server knows")
    parser.add_argument("--api", choices=("chat", "responses"), default=None)
    parser.add_argument(
        "--profile", default=None, help="provider profile (default: guessed from the base URL)"
    )
    parser.add_argument(
        "--effort",
        default="provider-default",
        help="reasoning effort: provider-default (send none), none, minimal, low, medium, high or "
        "xhigh; refused when the provider cannot take it",
    )
    parser.add_argument(
        "--tools",
        choices=("standard", "compound"),
        default=None,
        help="the tool set: standard (patch) or compound (edit, insert, remove, move, setState, "
        "check); default: the profile's (compound for local servers)",
    )
    parser.add_argument(
        "--guide",
        choices=("full", "short"),
        default=None,
        help="spec guide size (default: short for local servers)",
    )
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument(
        "--token-budget",
        type=int,
        default=None,
        help="stop before a request would pass this many tokens in all",
    )
    parser.add_argument(
        "--context-window",
        type=int,
        default=None,
        help="the model's context window in tokens (default: asked from the server, else the "
        "profile's)",
    )
    parser.add_argument(
        "--max-output-tokens", type=int, default=8192, help="the most one reply may use"
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        help="seconds without a byte from the server before a request fails (default: 120, "
        "300 for local servers)",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=600.0,
        help="seconds for one whole model answer (default: 600)",
    )
    parser.add_argument(
        "--run-timeout",
        type=float,
        default=1800.0,
        help="seconds for the whole instruction (default: 1800)",
    )
    parser.add_argument(
        "--events", type=Path, default=None, help="write one JSON event per line here"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the resulting spec here")
    parser.add_argument(
        "--snapshot",
        type=Path,
        default=None,
        help="save the run snapshot here (default: the user data folder)",
    )
    parser.add_argument(
        "--selected", default=None, help="a node id or address the edit is scoped to"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log each step to stderr")


MAX_EVENT_LINE = 1024 * 1024
"""The longest line the events file takes; a longer event is written with its strings cut."""


class _EventWriter:
    """Writes each run event as one JSON line (`RunEvent.to_json`, masked)."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream
        self.terminal: dict[str, Any] | None = None

    def __call__(self, event: RunEvent | dict[str, Any]) -> None:
        data = event if isinstance(event, dict) else event.to_json()
        if data.get("type") in EXIT:
            self.terminal = data
        if self.stream is not None:
            line = json.dumps(GLOBAL_MASKER.obj(data))  # ASCII: lone surrogates stay escaped
            if len(line) > MAX_EVENT_LINE:
                line = json.dumps(_cut_strings(GLOBAL_MASKER.obj(data)))
            self.stream.write(line + "\n")
            self.stream.flush()


def _cut_strings(value: Any, limit: int = 64 * 1024) -> Any:
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + f"... ({len(value)} characters)"
    if isinstance(value, dict):
        return {k: _cut_strings(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v, limit) for v in value]
    return value


def _fail(writer: _EventWriter, reason: str) -> int:
    if writer.terminal is None:
        writer({"type": "failed", "reason": reason})
    print(f"proto-studio agent: {GLOBAL_MASKER.text(reason)}", file=sys.stderr)
    return 1


def _write_spec(path: Path, spec: dict[str, Any]) -> None:
    from studio.library.atomic import write_bytes
    from studio.spec.io import spec_file_bytes

    write_bytes(path, spec_file_bytes(spec))  # within the spec limit, as validated


def run_agent(args: argparse.Namespace) -> int:
    from studio.agent.trace import MaskingFilter

    handler: logging.Handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(MaskingFilter(GLOBAL_MASKER))
    log = logging.getLogger("studio.agent")
    if args.verbose:
        log.addHandler(handler)
        log.setLevel(logging.DEBUG)
    else:  # the trace's WARNING steps are in the events and snapshot, not on stderr
        handler = logging.NullHandler()
        log.addHandler(handler)
    events_file = None
    if args.events is not None:
        try:
            events_file = args.events.open("w", encoding="utf-8")
        except OSError as exc:
            print(
                f"proto-studio agent: {args.events}: cannot write events ({exc.strerror})",
                file=sys.stderr,
            )
            return 2
    writer = _EventWriter(events_file)
    try:
        return _run(args, writer)
    finally:
        if events_file is not None:
            events_file.close()
        log.removeHandler(handler)


def _usage(message: str) -> int:
    print(f"proto-studio agent: {message}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace, writer: _EventWriter) -> int:
    from studio.agent.keys import KeyStore
    from studio.agent.profiles import profile_for
    from studio.spec import validate

    spec: dict[str, Any] = {}
    if args.resume is not None:
        from studio.agent.resume import ResumeError, load_run

        if args.instruction:
            return _usage("--instruction: a resumed run continues its own instruction")
        try:
            args.record = load_run(args.resume)
        except ResumeError as exc:
            return _usage(str(exc))
        record = args.record
        args.base_url = args.base_url or record.base_url
        args.model = args.model or record.model
        args.api = args.api or record.api or "chat"
        args.profile = args.profile or (
            record.profile if args.base_url == record.base_url else None
        )
        pending = record.pending
        if pending is not None and args.answer is None and pending.kind == "ask_user":
            return _usage(
                f"{args.resume}: the run waits for an answer to “{getattr(pending, 'question', '')}”: "
                "give it with --answer"
            )
    else:
        args.record = None
        if not args.instruction:
            return _usage("--instruction is required (unless --resume)")
        source = args.spec
        if source is None:
            from studio.library.templates import templates_dir

            source = templates_dir() / f"{args.template}.json"
        try:
            spec = json.loads(source.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return _fail(writer, f"{source}: cannot read the spec ({exc})")
        checked = validate(spec)
        if not checked.ok:
            return _fail(writer, f"{source}: not a valid spec: {checked.path}: {checked.message}")
        args.api = args.api or "chat"
    if not args.base_url or not args.model:
        return _usage("--base-url and --model are required")
    try:
        profile = profile_for(args.base_url, args.profile)
    except ValueError as exc:
        return _fail(writer, str(exc))
    from studio.agent.reasoning import effort_problem

    problem = effort_problem(profile.name, args.api, args.effort)
    if problem is not None:
        print(f"proto-studio agent: --effort: {problem}", file=sys.stderr)
        return 2
    lookup = KeyStore().get(profile.name)
    if lookup.warning:
        print(f"proto-studio agent: warning: {lookup.warning}", file=sys.stderr)
    if lookup.key is None and profile.needs_key:
        print(
            f"proto-studio agent: warning: no API key for {profile.name} (keychain or PROTO_STUDIO_API_KEY)",
            file=sys.stderr,
        )
    try:
        return asyncio.run(_session(args, spec, profile, lookup.key, writer))
    except KeyboardInterrupt:  # the session wrote --out and the snapshot when it was cancelled
        if writer.terminal is None:
            writer({"type": "cancelled", "reason": "interrupted"})
        return EXIT["cancelled"]


def _save(what: str, save: Any) -> Any:
    """Run a save; a failure is one line on stderr (never a traceback that loses the rest)."""
    try:
        return save()
    except (OSError, ValueError) as exc:  # ValueError: NaN, a lone surrogate (F3)
        print(f"proto-studio agent: could not save {what} ({exc})", file=sys.stderr)
        return None


async def _session(
    args: argparse.Namespace,
    spec: dict[str, Any],
    profile: Any,
    key: str | None,
    writer: _EventWriter,
) -> int:
    import httpx

    from studio.agent.clients import CONNECT_TIMEOUT, make_client
    from studio.agent.guards import Limits
    from studio.agent.session import AgentSession
    from studio.agent.snapshot import save_snapshot

    limits = Limits(
        args.max_turns,
        args.token_budget,
        max_output_tokens=args.max_output_tokens,
        context_window=args.context_window,
        idle_timeout=args.idle_timeout,
        request_timeout=args.request_timeout,
        run_timeout=args.run_timeout,
    )
    idle = args.idle_timeout or profile.idle_timeout
    async with httpx.AsyncClient(
        timeout=httpx.Timeout(idle, connect=CONNECT_TIMEOUT), follow_redirects=False
    ) as http:
        client = make_client(
            args.api, args.base_url, args.model, api_key=key, profile=profile, http=http
        )
        guide: Literal["full", "short"] | None = args.guide
        if guide is None and args.record is None:  # a resumed run keeps its system prompt
            window = args.context_window
            if window is None:
                found = await client.context_window()
                window = found.tokens if found else profile.window(args.model)
            # The full guide is ~1k tokens: small windows and local models get the short one.
            guide = "short" if profile.local or (window is not None and window < 16_384) else "full"
        info = {"profile": profile.name, "api": args.api, "base_url": args.base_url}
        resumed = None
        if args.record is not None:
            from studio.agent.resume import ResumeError, resume_session

            if args.tools and args.tools != args.record.tool_set:
                return _usage(f"--tools: the run was made with the {args.record.tool_set} tool set")
            try:
                resumed = resume_session(
                    args.record,
                    client,
                    allow_tool_changes=args.allow_tool_changes,
                    limits=limits,
                    on_event=writer,
                    info=info,
                    effort=None if args.effort == "provider-default" else args.effort,
                )
            except ResumeError as exc:
                return _usage(str(exc))
            session = resumed.session
        else:
            session = AgentSession(
                client,
                spec,
                guide=guide or "full",
                limits=limits,
                on_event=writer,
                info=info,
                effort=args.effort,
                tool_set=args.tools or profile.tool_set,
            )
        result = None
        paused = None
        try:
            if resumed is not None:
                from studio.agent.loop import ApprovalAnswer, UserAnswer

                pending = session.loop.pending
                answer: Any = None
                if pending is not None:
                    answer = (
                        UserAnswer(args.answer)
                        if pending.kind == "ask_user"
                        else ApprovalAnswer(args.answer in ("yes", "y", "approve", "approved"))
                    )
                result = await resumed.run(answer)
            else:
                result = await session.run(args.instruction, selected=args.selected)
            if result.status == "needs_input" and result.request is not None:
                what = (
                    getattr(result.request, "question", None)
                    or f"approval for {getattr(result.request, 'tool', '?')}"
                )
                # Saved paused first, so the question can be answered later (--resume --answer).
                paused = _save(
                    "the paused run",
                    lambda: save_snapshot(session.snapshot(), args.snapshot or args.resume),
                )
                hint = (
                    f" or answer it: proto-studio agent --resume {paused} --answer TEXT"
                    if paused is not None
                    else ""
                )
                result = session.loop.cancel(
                    f"the agent needs an answer ({what}); a headless run cannot answer. Make the "
                    f"instruction more specific{hint}.",
                    status="failed",
                )
        except Exception as exc:  # not a model error: report it as the one terminal event
            logging.getLogger("studio.agent").exception("agent run crashed")
            return _fail(writer, f"the agent run crashed: {type(exc).__name__}: {exc}")
        finally:
            where = paused or _save(
                "the run snapshot",
                lambda: save_snapshot(session.snapshot(), args.snapshot or args.resume),
            )

            if where is not None:
                print(f"proto-studio agent: run saved to {where}", file=sys.stderr)
            # One rule for every outcome, as in the studio's sheet: the draft keeps every
            # accepted (validated) revision; --out gets the draft as the run left it.
            kept = len(session.draft.revisions)
            if args.out is not None:
                _save(args.out, lambda: _write_spec(args.out, session.draft.spec))
    status = result.status if result is not None else "failed"
    note = f"kept {kept} revision(s)" if kept else "nothing changed"
    print(
        f"proto-studio agent: {status}: {GLOBAL_MASKER.text(result.reason if result else '')} "
        f"({note})",
        file=sys.stderr,
    )
    return EXIT.get(status, 1)
