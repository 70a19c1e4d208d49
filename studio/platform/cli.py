"""`proto-studio surface MODULE.CALL`: print the generated surface spec of a platform call."""

from __future__ import annotations

import argparse
import json
import sys

from studio.platform.registry import default_registry
from studio.platform.surfaces import SurfaceError, surface_for


def configure_surface(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("call", metavar="MODULE.CALL", help="a platform call, e.g. units.convert")
    parser.add_argument("--compact", action="store_true", help="one line instead of indented JSON")


def run_surface(args: argparse.Namespace) -> int:
    try:
        spec = surface_for(default_registry(), args.call)
    except SurfaceError as exc:
        print(f"proto-studio surface: {exc}", file=sys.stderr)
        return 2
    indent = None if args.compact else 2
    print(json.dumps(spec, indent=indent, ensure_ascii=False))
    return 0
