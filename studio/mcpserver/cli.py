"""`proto-studio mcp PROTOTYPE [--http]`: the spec tools as an MCP server on a library prototype
(stdio by default, for desktop assistants and coding agents that start it; streamable HTTP at
http://HOST:PORT/mcp with --http)."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import socket
import sys

DEFAULT_PORT = 8766


def configure_mcp(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("prototype", help="the library prototype to work on (its id or name)")
    parser.add_argument(
        "--http",
        action="store_true",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    )
    parser.add_argument("--host", default="127.0.0.1", help="with --http (default 127.0.0.1)")
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"with --http; default {DEFAULT_PORT}, 0 picks one",
    )


def _say(text: str) -> None:
    # stdout is the MCP channel under stdio: everything for people goes to stderr.
    sys.stderr.write(f"proto-studio mcp: {text}\n")
    sys.stderr.flush()


def _find(library: object, key: str) -> tuple[str, str] | None:
    from studio.library.store import Library

    assert isinstance(library, Library)
    entries = library.list_entries()
    for entry in entries:
        if entry.id == key:
            return entry.id, entry.name
    named = [e for e in entries if e.name.casefold() == key.strip().casefold()]
    return (named[0].id, named[0].name) if len(named) == 1 else None


def run_mcp(args: argparse.Namespace) -> int:
    import anyio

    from studio.library.errors import LibraryError
    from studio.library.store import Library
    from studio.mcpserver.server import SpecToolServer

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(message)s")
    if not 0 <= args.port <= 65535:
        _say(f"--port {args.port} is not a port (0-65535)")
        return 2
    try:
        library = Library()
        found = _find(library, args.prototype)
    except LibraryError as exc:
        _say(str(exc))
        return 1
    if found is None:
        names = ", ".join(repr(e.name) for e in library.list_entries()) or "none"
        _say(f"no prototype {args.prototype!r} in the library (its prototypes: {names})")
        return 2
    server = SpecToolServer(library, *found)
    try:
        if not args.http:
            anyio.run(server.run_stdio)
            return 0
        return _serve_http(server, args.host, args.port)
    except KeyboardInterrupt:
        return 0
    finally:
        server.close()


def _serve_http(server: object, host: str, port: int) -> int:
    import anyio
    import uvicorn

    from studio.mcpserver.server import SpecToolServer

    assert isinstance(server, SpecToolServer)
    loopback = _loopback(host)
    if not loopback:
        _say(
            f"warning: listening on {host}: anyone who can reach this machine can change the "
            "draft (the designer still reviews every change)"
        )
    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        _say(f"cannot listen on {host}:{port} ({exc.strerror or exc})")
        return 1
    bound = sock.getsockname()[1]
    print(f"proto-studio mcp: {server.name!r} at http://{host}:{bound}/mcp", flush=True)
    config = uvicorn.Config(server.http_app(loopback=loopback), log_level="warning", lifespan="on")
    anyio.run(lambda: uvicorn.Server(config).serve(sockets=[sock]))
    return 0


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
