"""`proto-studio serve` (the harness server for thin clients) and `proto-studio client` (the
terminal thin client)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys

DEFAULT_PORT = 8765
TOKEN_ENV = "PROTO_STUDIO_SERVE_TOKEN"


def configure_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for a "
        "phone on the same network, with a warning)",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}; 0 picks a free one"
    )
    parser.add_argument(
        "--new-token",
        action="store_true",
        help="make a new token (shown once) and forget the old one",
    )
    parser.add_argument(
        "--no-mcp", action="store_true", help="do not start the MCP servers in Settings"
    )


def run_serve(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_serve(args))
    except KeyboardInterrupt:
        return 0


def _say(text: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


async def _serve(args: argparse.Namespace) -> int:
    from studio.agent.clients import default_http_client
    from studio.agent.config import load_config
    from studio.agent.keys import KeyStore
    from studio.agent.mcp_host import McpHost, load_mcp_config
    from studio.agent.providers import ProviderModels
    from studio.concurrency import off_loop
    from studio.library.errors import LibraryError
    from studio.library.store import Library
    from studio.service.server import HarnessServer, bind_warning
    from studio.service.token import server_token

    if not 0 <= args.port <= 65535:
        _say(f"proto-studio serve: --port {args.port} is not a port (0-65535)", err=True)
        return 2
    try:
        library = await off_loop(Library)
    except LibraryError as exc:
        _say(f"proto-studio serve: {exc}", err=True)
        return 1
    config, warning = await off_loop(load_config)
    if warning:
        _say(f"proto-studio serve: warning: {warning}", err=True)
    token = await off_loop(server_token, renew=args.new_token)
    host = None
    if not args.no_mcp:
        servers, problems = await off_loop(load_mcp_config)
        for problem in problems:
            _say(f"proto-studio serve: warning: {problem}", err=True)
        if servers:
            host = McpHost(servers)
            for problem in await host.start():
                _say(f"proto-studio serve: warning: {problem}", err=True)
    http = await off_loop(default_http_client)
    server = HarnessServer(
        library,
        ProviderModels(KeyStore(), http),
        config,
        token.value,
        host=args.host,
        port=args.port,
        mcp=host,
    )
    try:
        try:
            bound = await server.start()
        except OSError as exc:
            _say(
                f"proto-studio serve: cannot listen on {args.host}:{args.port} ({exc.strerror or exc})",
                err=True,
            )
            return 1
        if (caution := bind_warning(args.host)) is not None:
            _say(caution, err=True)
        _say(f"proto-studio serve: the web client is at {bound.url}")
        _say(f"proto-studio serve: thin clients connect to {bound.ws_url}")
        if token.new:
            where = "kept in the OS keychain" if token.kept else "for this run only"
            _say(f"proto-studio serve: token (shown once, {where}): {token.value}")
            _say(f"proto-studio serve: open {bound.url}#token={token.value} to sign in the page")
        else:
            _say(
                "proto-studio serve: token: the one in the OS keychain (--new-token makes a new one, shown once)"
            )
        if token.warning:
            _say(f"proto-studio serve: warning: {token.warning}", err=True)
        _say("proto-studio serve: ready (Ctrl-C stops)")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        _say("proto-studio serve: stopping")
    finally:
        await server.aclose()
        if host is not None:
            await host.aclose()
        await http.aclose()
    return 0


def configure_client(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url", default=f"ws://127.0.0.1:{DEFAULT_PORT}/ws", help="the server's WebSocket URL"
    )
    parser.add_argument(
        "--token",
        default=None,
        help=f"the server's token (default: ${TOKEN_ENV}, else the one in this machine's keychain)",
    )
    parser.add_argument("--prototype", "-p", help="the prototype's id or name")
    parser.add_argument("--selected", default=None, help="a node id or address the change is about")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument(
        "--apply",
        action="store_const",
        const="apply",
        dest="draft",
        help="apply the draft at the end",
    )
    choice.add_argument(
        "--discard", action="store_const", const="discard", dest="draft", help="discard it"
    )
    choice.add_argument(
        "--keep", action="store_const", const="keep", dest="draft", help="leave it on the server"
    )
    parser.add_argument(
        "--list", action="store_true", help="list the library's prototypes and exit"
    )
    parser.add_argument("instruction", nargs="?", help="what to change")


def run_client(args: argparse.Namespace) -> int:
    from studio.service.client import ClientError, TurnClient
    from studio.service.token import stored_token

    token = args.token or os.environ.get(TOKEN_ENV) or stored_token()
    if not token:
        _say(
            f"proto-studio client: no token: pass --token, set {TOKEN_ENV}, or run it on the "
            "machine where proto-studio serve made one",
            err=True,
        )
        return 2
    if not args.list and (not args.prototype or not args.instruction):
        _say("proto-studio client: give --prototype and an instruction (or --list)", err=True)
        return 2
    client = TurnClient(args.url, token, draft=args.draft or "ask")

    async def main() -> int:
        if args.list:
            for item in await client.prototypes():
                _say(f"{item['id']}\t{item['name']}")
            return 0
        task = asyncio.ensure_future(client.run(args.prototype, args.instruction, args.selected))
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, task.cancel)
        try:
            return await task
        except asyncio.CancelledError:
            await client.cancel()
            return 130
        finally:
            await client.close()

    try:
        return asyncio.run(main())
    except ClientError as exc:
        _say(f"proto-studio client: {exc}", err=True)
        return exc.code
    except EOFError:
        _say("proto-studio client: no input to answer with (stdin closed)", err=True)
        return 1
