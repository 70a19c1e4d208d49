"""`proto-studio agent`: a headless agent run on a spec file, with JSONL events and the result spec."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import IO, Any, Literal

from studio.agent.trace import GLOBAL_MASKER

EXIT = {"completed": 0, "failed": 1, "cancelled": 130}


def configure_agent(parser: argparse.ArgumentParser) -> None:
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--spec", type=Path, help="the spec (or a template file) to start from")
    start.add_argument(
        "--template", help="start from a shipped template (resources/templates/ID.json)"
    )
    parser.add_argument("--instruction", required=True, help="what to change or create")
    parser.add_argument(
        "--base-url",
        required=True,
        help="ends before /chat/completions or /responses, e.g. http://localhost:11434/v1",
    )
    parser.add_argument("--model", required=True, help="the model name the server knows")
    parser.add_argument("--api", choices=("chat", "responses"), default="chat")
    parser.add_argument(
        "--profile", default=None, help="provider profile (default: guessed from the base URL)"
    )
    parser.add_argument(
        "--guide",
        choices=("full", "short"),
        default=None,
        help="spec guide size (default: short for local servers)",
    )
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--token-budget", type=int, default=None)
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


class _EventWriter:
    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream
        self.terminal: dict[str, Any] | None = None

    def __call__(self, event: dict[str, Any]) -> None:
        if event.get("type") in EXIT:
            self.terminal = event
        if self.stream is not None:
            self.stream.write(json.dumps(GLOBAL_MASKER.obj(event), ensure_ascii=False) + "\n")
            self.stream.flush()


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

    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(MaskingFilter(GLOBAL_MASKER))
    log = logging.getLogger("studio.agent")
    if args.verbose:
        log.addHandler(handler)
        log.setLevel(logging.DEBUG)
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


def _run(args: argparse.Namespace, writer: _EventWriter) -> int:
    from studio.agent.keys import KeyStore
    from studio.agent.profiles import profile_for
    from studio.spec import validate

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
    try:
        profile = profile_for(args.base_url, args.profile)
    except ValueError as exc:
        return _fail(writer, str(exc))
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
    except KeyboardInterrupt:
        if writer.terminal is None:
            writer({"type": "cancelled", "reason": "interrupted"})
        if args.out is not None:
            _write_spec(args.out, spec)
        return EXIT["cancelled"]


async def _session(
    args: argparse.Namespace,
    spec: dict[str, Any],
    profile: Any,
    key: str | None,
    writer: _EventWriter,
) -> int:
    import httpx

    from studio.agent.clients import make_client
    from studio.agent.guards import Limits
    from studio.agent.session import AgentSession
    from studio.agent.snapshot import save_snapshot

    guide: Literal["full", "short"] = args.guide or ("short" if profile.local else "full")
    async with httpx.AsyncClient(timeout=httpx.Timeout(600.0, connect=5.0)) as http:
        client = make_client(
            args.api, args.base_url, args.model, api_key=key, profile=profile, http=http
        )
        session = AgentSession(
            client,
            spec,
            guide=guide,
            limits=Limits(args.max_turns, args.token_budget),
            on_event=writer,
            info={"profile": profile.name, "api": args.api, "base_url": args.base_url},
        )
        try:
            result = await session.run(args.instruction, selected=args.selected)
            if result.status == "needs_input" and result.request is not None:
                what = (
                    getattr(result.request, "question", None)
                    or f"approval for {getattr(result.request, 'tool', '?')}"
                )
                result = session.loop.cancel(
                    f"the agent needs an answer ({what}); a headless run cannot answer. Make the "
                    "instruction more specific.",
                    status="failed",
                )
        except Exception as exc:  # not a model error: report it as the one terminal event
            logging.getLogger("studio.agent").exception("agent run crashed")
            return _fail(writer, f"the agent run crashed: {type(exc).__name__}: {exc}")
        finally:
            try:
                where = save_snapshot(session.snapshot(), args.snapshot)
                print(f"proto-studio agent: run saved to {where}", file=sys.stderr)
            except OSError as exc:
                print(
                    f"proto-studio agent: could not save the run snapshot ({exc})", file=sys.stderr
                )
    if result.status == "completed" and session.draft.revisions:
        final = session.draft.apply()
        note = f"applied {len(session.draft.revisions)} revision(s)"
    else:
        final = session.draft.discard()
        note = "nothing applied"
    if args.out is not None:
        _write_spec(args.out, final)
    print(
        f"proto-studio agent: {result.status}: {GLOBAL_MASKER.text(result.reason)} ({note})",
        file=sys.stderr,
    )
    return EXIT.get(result.status, 1)
